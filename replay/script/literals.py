"""The literals a step's parameters take: whole numbers, durations, decimals, key chords."""

from __future__ import annotations

import re

from replay.limits import MAX_MS

_INT = re.compile(r"[0-9]+\Z")
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
    """True for a screen coordinate: device px (a number), or a percentage of the screen up to 100."""
    if text.endswith("%"):
        return is_number(text[:-1]) and float(text[:-1]) <= 100
    return is_number(text)
