"""Tokenizer for one `.ad` line (design §3).

A token that *starts* with ``"`` is a JSON string literal; any other token runs to the next
whitespace and may hold literal quotes (``id="field-name"`` is one token).
"""

from __future__ import annotations

import json
from dataclasses import dataclass

from replay.errors import InvalidArgs, Location

_WS = " \t"


@dataclass(frozen=True)
class Token:
    """One token: its decoded text, its raw source slice, and its 1-based start column."""

    text: str
    raw: str
    quoted: bool
    column: int

    @property
    def end(self) -> int:
        """0-based index one past the token's last character in the line."""
        return self.column - 1 + len(self.raw)


def decode_json_string(line: str, start: int, where: Location) -> tuple[str, int]:
    """Decode the JSON string literal starting at ``line[start] == '"'``; return (text, end)."""
    i = start + 1
    while i < len(line):
        ch = line[i]
        if ch == "\\":
            i += 2
            continue
        if ch == '"':
            raw = line[start : i + 1]
            try:
                value = json.loads(raw)
            except json.JSONDecodeError as exc:
                raise InvalidArgs(
                    f"invalid escape in quoted string: {exc.msg}",
                    hint='quoted tokens are JSON strings: use \\" \\\\ \\n or \\u00e9',
                    location=Location(where.path, where.line, start + 1 + max(exc.pos, 0)),
                ) from None
            if not isinstance(value, str):  # pragma: no cover - json.loads of "…" is a str
                raise InvalidArgs("quoted token is not a string", location=where)
            lone = next((c for c in value if "\ud800" <= c <= "\udfff"), None)
            if lone is not None:  # half of a pair: no character, and it cannot be typed or written
                raise InvalidArgs(
                    f"\\u{ord(lone):04x} is half of a surrogate pair, not a character",
                    hint="write the character itself, or both halves (\\ud83d\\ude00)",
                    location=Location(where.path, where.line, start + 1),
                )
            return value, i + 1
        i += 1
    raise InvalidArgs(
        "unterminated quoted string",
        hint='close the string with " (a quote inside it is written \\")',
        location=Location(where.path, where.line, start + 1),
    )


def tokenize(line: str, where: Location) -> list[Token]:
    """Split a line into tokens; errors carry file:line:column."""
    tokens: list[Token] = []
    i = 0
    n = len(line)
    while i < n:
        if line[i] in _WS:
            i += 1
            continue
        start = i
        if line[i] == '"':
            text, end = decode_json_string(line, i, where)
            if end < n and line[end] not in _WS:
                raise InvalidArgs(
                    "a quoted string must be followed by whitespace or the end of the line",
                    hint="put a space after the closing quote",
                    location=Location(where.path, where.line, end + 1),
                )
            tokens.append(Token(text, line[start:end], True, start + 1))
            i = end
            continue
        while i < n and line[i] not in _WS:
            # a quoted value inside a bare token (label='say "hi"', label="Full name") is part of it
            close = _closing(line, i) if line[i] in "'\"" else -1
            i = close + 1 if close > 0 else i + 1
        raw = line[start:i]
        tokens.append(Token(raw, raw, False, start + 1))
    return tokens


def _closing(line: str, i: int) -> int:
    """The index of the quote that closes the one at ``line[i]`` (backslash escapes skipped), or -1."""
    j = i + 1
    while j < len(line):
        if line[j] == "\\":
            j += 2
            continue
        if line[j] == line[i]:
            return j
        j += 1
    return -1


_BARE_SAFE_FORBIDDEN = set(' \t"\\\n\r')


def quote(text: str) -> str:
    """Canonical token for ``text``: bare when it reads back identically, else a JSON string."""
    if (
        text
        and text[0] not in '"-@#'
        and not (set(text) & _BARE_SAFE_FORBIDDEN)
        and text.isprintable()
        and _quotes_closed(text)
    ):
        return text
    return json_quote(text)


def _quotes_closed(text: str) -> bool:
    """Whether every quote a bare ``text`` opens closes inside it: an unclosed one (a lone ``'``) would
    make the tokenizer read on into the next token of the line."""
    i = 0
    while i < len(text):
        if text[i] in "'\"":
            close = _closing(text, i)
            if close < 0:
                return False
            i = close + 1
        else:
            i += 1
    return True


def json_quote(text: str) -> str:
    """A JSON string literal for ``text`` (non-ASCII kept readable)."""
    return json.dumps(text, ensure_ascii=False)
