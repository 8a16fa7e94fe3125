"""Reading a target-v1 object's fields (``replay.script.evidence.decode``): each of its type and
within its bounds, or ``INVALID_ARGS`` naming the field, at the annotation's file:line."""

from __future__ import annotations

import json
import unicodedata
from typing import Any

from replay.errors import InvalidArgs, Location
from replay.script.text import normalize

MAX_STRING_BYTES = 256
PREFIXES = ("# replay:target-v1 ", "# agent-device:target-v1 ")


def match_annotation(line: str) -> str | None:
    """The payload if ``line`` is a target-v1 annotation, else None."""
    stripped = line.strip()
    for prefix in PREFIXES:
        if stripped.startswith(prefix.rstrip()):
            rest = stripped[len(prefix.rstrip()) :]
            if rest == "" or rest[0] in " \t":
                return rest.strip()
    return None


def normalize_string(text: str | None) -> str | None:
    """NFC and trimmed; empty means absent."""
    if text is None:
        return None
    out = unicodedata.normalize("NFC", text).strip()
    return out or None


def bad(message: str, where: Location | None, hint: str | None = None) -> InvalidArgs:
    return InvalidArgs(
        f"target-v1 annotation: {message}",
        hint=hint or 'write it as # replay:target-v1 {"role":"button","label":"Save",…}',
        location=where,
    )


def string(obj: dict[str, Any], key: str, where: Location | None, *, label: bool = False) -> str | None:
    if key not in obj or obj[key] is None:
        return None
    value = obj[key]
    if not isinstance(value, str):
        raise bad(f"{key!r} must be a string", where)
    try:
        size = len(value.encode("utf-8"))
    except UnicodeEncodeError:  # "\ud800": half of a surrogate pair, no character at all
        raise bad(f"{key!r} holds half of a surrogate pair, not a character", where) from None
    if size > MAX_STRING_BYTES:
        raise bad(f"{key!r} is longer than {MAX_STRING_BYTES} UTF-8 bytes", where)
    return normalize(value) if label else normalize_string(value)


def role_of(obj: dict[str, Any], what: str, where: Location | None) -> str:
    role = string(obj, "role", where)
    if role is None:
        raise bad(f"{what} needs a 'role'", where)
    return role


def integer(obj: dict[str, Any], key: str, where: Location | None) -> int | None:
    if key not in obj or obj[key] is None:
        return None
    value = obj[key]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise bad(f"{key!r} must be a non-negative integer", where)
    return value


def member(obj: dict[str, Any], key: str, where: Location | None) -> dict[str, Any] | None:
    if key not in obj or obj[key] is None:
        return None
    value = obj[key]
    if not isinstance(value, dict):
        raise bad(f"{key!r} must be an object", where)
    return value


MAX_DEPTH = 16  # target-v1 nests 4 levels; the bound keeps the JSON decoder's recursion far away


def too_deep(payload: str) -> bool:
    """Whether brackets outside strings nest deeper than ``MAX_DEPTH`` (one linear scan)."""
    depth, in_string, escaped = 0, False, False
    for ch in payload:
        if in_string:
            escaped, in_string = (False, True) if escaped else (ch == "\\", ch != '"')
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > MAX_DEPTH:
                return True
        elif ch in "]}":
            depth -= 1
    return False


def number(v: float) -> float | int:
    """A coordinate as written: two decimals at most, an integer bare."""
    r = round(v, 2)
    return int(r) if r == int(r) else r


def dump(obj: dict[str, Any]) -> str:
    """The payload's compact JSON text (non-ASCII kept)."""
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))
