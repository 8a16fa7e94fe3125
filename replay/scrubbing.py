"""Text from outside made safe to show: secrets replaced, length bounded, control characters escaped.

Light and at the base (errors use it): the one home of these rules. What counts as a secret is
``replay.script.redact.secrets_of``'s to say; this module only applies it.
"""

from __future__ import annotations

import re

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from collections.abc import Iterable
    from typing import Any

# C0 and C1 controls and DEL, but tab and newline: a terminal acts on them (ESC [ …, CSI 0x9b); and the
# bidirectional overrides and isolates, which make a reader see text in another order than it is (U+202E)
_CONTROLS = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def scrub(text: str, secrets: Iterable[tuple[str, str]]) -> str:
    """``text`` with every secret (a value, what to show instead) replaced — as given, and in any case,
    forwards or reversed (an agent's note, a page's echo, upper-cased or mirrored: the secret too) — the
    one function text goes through before it reaches a file, a console or a client."""
    for secret, shown in secrets:
        if secret:
            text = text.replace(secret, shown)
            folded = text.casefold()
            if len(secret) >= ECHO and any(form.casefold() in folded for form in (secret, secret[::-1])):
                forms = "|".join(re.escape(form) for form in (secret, secret[::-1]))
                text = re.sub(forms, shown.replace("\\", "\\\\"), text, flags=re.IGNORECASE)
    return text


ECHO = 4  # characters of a secret that are an echo of it (design §16)


def echoes(text: str, secret: str) -> bool:
    """Whether ``text`` holds ``ECHO`` characters or more of ``secret`` in a row, as they are,
    case-folded or reversed — an app's echo of a password (its first characters in a greeting, upper-
    cased in a summary, reversed in a "mirror") is the secret too."""
    if len(secret) < ECHO or len(text) < ECHO:
        return False
    folded = text.casefold()
    for form in (secret.casefold(), secret[::-1].casefold()):
        if any(form[i : i + ECHO] in folded for i in range(len(form) - ECHO + 1)):
            return True
    return False


def bounded(text: str, limit: int) -> str:
    """``text`` cut to at most ``limit`` UTF-8 bytes (on a character's boundary, ``…`` said)."""
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    return data[: max(0, limit - 3)].decode("utf-8", "ignore") + "…"


def printable(text: str) -> str:
    """``text`` with the control characters a terminal would act on shown as ``\\u00NN`` escapes —
    the same in a JSON string (where raw C1 characters may stand, and C0 ones never do) and readable
    in text."""
    return _CONTROLS.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class TerminalSafe:
    """A text stream whose writes go through ``printable``: nothing the app or the device said (a
    page title, a device's answer, an agent's note) can move a terminal's cursor or retitle it."""

    def __init__(self, stream: Any) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._stream, name)
