"""The header lines of a script (design §3): ``context key=value …`` and ``env KEY=VALUE``."""

from __future__ import annotations

import re

from replay.errors import InvalidArgs, Location
from replay.limits import MAX_MS
from replay.platforms import PLATFORMS
from replay.script.literals import is_int, is_ms
from replay.script.text import quoted
from replay.script.tokens import decode_json_string
from replay.script.variables import check_env_key

CONTEXT_KEYS = ("platform", "timeout", "retries", "device", "app", "effects")
CONTEXT_PLATFORMS = (*PLATFORMS, "ios", "apple")  # (agent-device's too: parsed, refused)
_KEY = re.compile(r"([A-Za-z][A-Za-z0-9_-]*)=")


def parse_context(rest: str, where: Location, offset: int) -> tuple[tuple[str, str], ...]:
    """The ``key=value`` pairs of a ``context`` line (``rest``: after the word, ``offset`` columns in)."""
    pairs: list[tuple[str, str]] = []
    i = 0
    while True:
        while i < len(rest) and rest[i] in " \t":
            i += 1
        if i >= len(rest):
            break
        m = _KEY.match(rest, i)
        col = offset + i + 1
        if m is None:
            raise InvalidArgs(
                "context expects key=value pairs",
                hint="e.g. context platform=web timeout=10000",
                location=Location(where.path, where.line, col),
            )
        key = m.group(1)
        i = m.end()
        if i < len(rest) and rest[i] == '"':
            value, end = decode_json_string(rest, i, Location(where.path, where.line))
            i = end
        else:
            start = i
            while i < len(rest) and rest[i] not in " \t":
                i += 1
            value = rest[start:i]
        if key not in CONTEXT_KEYS:
            raise InvalidArgs(
                f"unknown context key {key!r}",
                hint=f"context keys: {', '.join(CONTEXT_KEYS)}",
                location=Location(where.path, where.line, col),
            )
        if key == "platform" and value not in CONTEXT_PLATFORMS:
            raise InvalidArgs(
                f"unknown platform {value!r}",
                hint="platform=web or platform=android",
                location=Location(where.path, where.line, col),
            )
        if key == "timeout" and (not is_ms(value) or int(value) == 0):
            raise InvalidArgs(
                f"context timeout must be 1..{MAX_MS} ms (an hour), got {quoted(value)}",
                hint="e.g. timeout=10000",
                location=Location(where.path, where.line, col),
            )
        if key == "retries" and (not is_int(value) or len(value) > 1 or int(value) > 3):
            raise InvalidArgs(
                f"context retries must be 0..3, got {quoted(value)}",
                hint="e.g. retries=2",
                location=Location(where.path, where.line, col),
            )
        if key == "effects" and value not in ("on", "off"):
            raise InvalidArgs(
                f"context effects must be on or off, got {quoted(value)}",
                hint="e.g. context effects=off",
                location=Location(where.path, where.line, col),
            )
        if key == "device" and not value:
            raise InvalidArgs(
                "context device must not be empty",
                hint='e.g. device="Pixel 8"',
                location=Location(where.path, where.line, col),
            )
        pairs.append((key, value))
    if not pairs:
        raise InvalidArgs("empty context line", hint="e.g. context platform=web", location=where)
    return tuple(pairs)


def parse_env(rest: str, where: Location, offset: int) -> tuple[str, str]:
    """The ``KEY=VALUE`` of an ``env`` line (a quoted value is a JSON string literal)."""
    text = rest.strip()
    col = offset + (len(rest) - len(rest.lstrip())) + 1
    key, sep, raw_value = text.partition("=")
    if not sep:
        raise InvalidArgs(
            "env expects KEY=VALUE",
            hint='e.g. env EMAIL="ada@example.com"',
            location=Location(where.path, where.line, col),
        )
    check_env_key(key, Location(where.path, where.line, col))
    vcol = col + len(key) + 1
    if raw_value.startswith('"'):
        value, end = decode_json_string(raw_value, 0, Location(where.path, where.line))
        if raw_value[end:].strip():
            raise InvalidArgs(
                "unexpected text after the quoted env value",
                hint="one value per env line",
                location=Location(where.path, where.line, vcol + end),
            )
    else:
        if any(c in raw_value for c in " \t"):
            raise InvalidArgs(
                "an env value with spaces must be quoted",
                hint=f'write env {key}="…"',
                location=Location(where.path, where.line, vcol),
            )
        value = raw_value
    return key, value
