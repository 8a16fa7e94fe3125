"""Text a run generates (design §15), compared as a placeholder of its shape: a UUID; a word with a digit
in it (a number, "K7QWZP", the parts of "ORD-2024-0042", a date, a time); and a word of five or more
capitals in a text that has lower-case letters too (the reference that drew no digit: "XQWZPL")."""

from __future__ import annotations

import functools
import re

import regex

from replay.tree.model import KEY_TEXT_CHARS

_GENERATED = re.compile(r"\b[0-9a-fA-F]{8}(?:-[0-9a-fA-F]+)+|[^\W_]*\d[^\W_]*")  # (a UUID: whole or cut)
_CAPITALS = regex.compile(r"\b\p{Lu}{5,}\b")
_LOWER = regex.compile(r"\p{Ll}")
NUMBERS = re.compile(r"\d+")
PLACEHOLDER = "#"
CUT_AT = KEY_TEXT_CHARS - 1  # a text this long may have been cut (a key text, 64; a label, 80)


@functools.lru_cache(maxsize=4096)  # a view's rows are masked before and after every check: the same texts
def masked(text: str) -> str:
    """A text with what a run generates blanked to its shape (``#``): "3 items left" and "4 items left"
    are one counter, "Order placed, reference K7QWZP" and "…, reference XQWZPL" one confirmation."""
    if len(text) >= CUT_AT:  # cut where a node's text is cut: its last word may be half a word
        text = text.rsplit(None, 1)[0]
    shaped = _GENERATED.sub(PLACEHOLDER, text)
    return _CAPITALS.sub(PLACEHOLDER, shaped) if _LOWER.search(shaped) else shaped
