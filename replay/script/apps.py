"""What names an app on Android (design §9): a package name by Android's grammar, or one of
agent-device's aliases (``settings``); else a deep link (``scheme://…``). One home for the rule:
lint and the plan, ``replay import``, and the Android driver before any word reaches the device's
shell all ask ``app_problem``."""

from __future__ import annotations

import re

ALIASES = ("settings",)  # apps `open` names by an alias (agent-device's)
MAX_PACKAGE = 255  # Android refuses longer package names
# Android's applicationId: two or more dot-separated segments, each a letter then letters, digits or _
PACKAGE = re.compile(r"[A-Za-z][A-Za-z0-9_]*(?:\.[A-Za-z][A-Za-z0-9_]*)+", re.ASCII)
SCHEME = re.compile(r"[A-Za-z][A-Za-z0-9+.-]*://", re.ASCII)
HINT = "an Android app id is a package name like com.example.shop (letters, digits, _ and dots), or `settings`"


def is_link(target: str) -> bool:
    """Whether ``open TARGET`` on Android opens a deep link rather than starting an app."""
    return "://" in target


def app_problem(target: str) -> str | None:
    """Why ``target`` cannot be opened on Android (an app id or a deep link), or None when it can."""
    if not target:
        return "an empty app id"
    if is_link(target):
        if SCHEME.match(target) is None:
            return f"{_shown(target)} is not a deep link (scheme://…)"
        if any(not c.isprintable() or c.isspace() for c in target):
            return f"{_shown(target)}: a deep link holds no spaces or control characters"
        return None
    if target in ALIASES:
        return None
    if len(target) > MAX_PACKAGE or PACKAGE.fullmatch(target) is None:
        return f"{_shown(target)} is not an Android app id"
    return None


def _shown(text: str) -> str:
    shown = ascii(text)  # control characters, quotes and shell words shown escaped, never raw
    return shown if len(shown) <= 60 else shown[:57] + "…'"
