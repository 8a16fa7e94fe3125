"""The one text normalization pair (design §4, §5): ``normalize`` for identity, ``fold`` for selectors.

Identity evidence compares ``normalize``d strings case-sensitively; selector ``key=value`` terms
compare ``fold``ed strings (case-insensitive, as agent-device matches).
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache


def normalize(text: str | None) -> str | None:
    """NFC, trimmed, inner whitespace collapsed; empty means absent (None)."""
    if text is None:
        return None
    # ASCII is already NFC: skip the Unicode pass on the hot path of ranking
    out = " ".join((text if text.isascii() else unicodedata.normalize("NFC", text)).split())
    return out or None


@lru_cache(maxsize=1 << 16)  # the same labels and texts are folded again for every term of every query
def fold(text: str | None) -> str:
    """``normalize``, then case-folded; absent is the empty string."""
    return (normalize(text) or "").casefold()


def quoted(text: str, limit: int = 40) -> str:
    """A value quoted in an error, cut to ``limit`` characters (a 400-digit number is not echoed)."""
    return repr(text) if len(text) <= limit else repr(text[:limit]) + f"… ({len(text)} characters)"


_SENTENCE_ENDS = (".", "!", "?", "…")
MAX_NAME_WORDS = 6


def reads_as_content(label: str | None) -> bool:
    """Whether a container's label reads as what it shows, not what it is (design §6): a sentence (more
    than 6 words, or ending in ``.``, ``!``, ``?`` or ``…``) or a status line (a count in it, "3 unread";
    or a "No …" line, "No files open"). Such a label changes with the data; it names nothing."""
    if not label:
        return False
    if len(label.split()) > MAX_NAME_WORDS or label.endswith(_SENTENCE_ENDS):
        return True
    return any(ch.isdigit() for ch in label) or label.startswith("No ")
