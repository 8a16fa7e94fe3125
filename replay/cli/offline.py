"""`replay snapshot --platform android --dump window_dump.xml [-i] [-s SCOPE] [--json]`: a stored
uiautomator dump rendered exactly as the tool would see it on the device — no device, no session,
no daemon. What a person checks before recording, and what a bug report attaches."""

from __future__ import annotations

from replay.errors import InvalidArgs
from replay.platforms import ANDROID

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: the fast path imports this module)
if TYPE_CHECKING:
    from typing import Any

USAGE = "replay snapshot --platform android --dump FILE [-i] [-s SCOPE] [--json]"


def wants_dump(args: list[str]) -> bool:
    """Whether a ``snapshot``'s words ask for a stored dump (``--dump FILE`` / ``--dump=FILE``)."""
    return any(a == "--dump" or a.startswith("--dump=") for a in args)


def snapshot_dump(args: list[str]) -> tuple[str, dict[str, Any]]:
    """The text and the JSON of ``snapshot --dump``'s words (the command name excluded)."""
    from replay.drivers.android.uix import parse_dump
    from replay.script.loader import read_text
    from replay.tree import snapshot as snap

    given = _words(args)
    platform = given.get("--platform", ANDROID)
    if platform != ANDROID:
        raise InvalidArgs(f"--dump reads a uiautomator dump: platform {platform!r} has none", hint=f"usage: {USAGE}")
    path = given.get("--dump")
    if not path:
        raise InvalidArgs("--dump needs the dump's path", hint=f"usage: {USAGE}")
    capture = parse_dump(read_text(path, what="uiautomator dump"), generation=1)
    interactive, scope = "-i" in given, given.get("-s")
    text = snap.render_text(capture, interactive=interactive, scope=scope)
    return text, {
        "command": "snapshot",
        "dump": path,
        "text": text,
        "snapshot": snap.render_json(capture, interactive=interactive, scope=scope),
    }


def _words(args: list[str]) -> dict[str, str]:
    """``--platform P``, ``--dump FILE``, ``-s SCOPE`` (also as ``--x=V``) and ``-i``; anything else is refused."""
    out: dict[str, str] = {}
    rest = iter(args)
    for word in rest:
        name, eq, value = word.partition("=")
        if name in ("--platform", "--dump", "-s"):
            out[name] = value if eq else next(rest, "")
        elif word == "-i":
            out["-i"] = ""
        else:
            raise InvalidArgs(f"snapshot --dump does not take {word!r}", hint=f"usage: {USAGE}")
    return out
