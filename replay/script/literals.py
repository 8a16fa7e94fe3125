"""The literals a step's parameters take: whole numbers, durations, decimals, key chords."""

from __future__ import annotations

import re

from replay.limits import MAX_MS

_INT = re.compile(r"[0-9]+\Z")
# what a person means as a number, written any way Python's float() reads (1e308, -5, nan, inf%):
# a point's two words that look like this are a point, checked strictly, never a text to tap
_NUMBERISH = re.compile(r"[-+]?(?:[0-9._]+(?:e[-+]?[0-9_]*)?|nan|inf(?:inity)?)%?\Z", re.IGNORECASE)
MAX_PX = 100_000  # a screen coordinate in device px, at most
_NUMBER = re.compile(r"[0-9]+(\.[0-9]+)?\Z|\.[0-9]+\Z")
_KEY_NAME = r"(?:[A-Z][A-Za-z0-9]*|[a-z0-9]|F[0-9]{1,2}|[!-~])"
KEY_CHORD = re.compile(rf"{_KEY_NAME}(?:\+{_KEY_NAME})*\Z")


def is_int(text: str) -> bool:
    """True for a non-negative integer literal."""
    return bool(_INT.match(text))


def is_ms(text: str) -> bool:
    """True for a duration literal in 0..MAX_MS (checked by length first: no huge int is built)."""
    return is_int(text) and len(text.lstrip("0")) <= len(str(MAX_MS)) and int(text) <= MAX_MS


def is_number(text: str) -> bool:
    """True for a non-negative decimal literal."""
    return bool(_NUMBER.match(text))


def is_coord(text: str) -> bool:
    """True for a screen coordinate: device px (a number up to MAX_PX), or a percentage of the
    screen up to 100 (checked by length first: no 400-digit number is converted)."""
    number = text[:-1] if text.endswith("%") else text
    if len(number) > 12 or not is_number(number):
        return False
    return float(number) <= (100 if text.endswith("%") else MAX_PX)


def looks_like_coord(text: str) -> bool:
    """True for a word written as a number in any form (``1e308``, ``-5``, ``nan``, ``inf%``): where
    two such words follow ``press``, they are a point (then checked by ``is_coord``)."""
    return bool(_NUMBERISH.match(text))
