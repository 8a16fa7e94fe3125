"""Ids a library made up (design §5): no identity, since they change with the order things were built in."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import regex

from replay.tree.tolerances import allows

_COUNTER_ID = regex.compile(r"^(.*?\D)(\d+)(\D{0,2})$")  # prefix, counter, a short closing suffix
_REACT_ID = regex.compile(r":r[0-9a-z]+:")  # React 18's useId, inside a library's id or alone
# a worded prefix and a token of eight characters or more that is not a word (nanoid's todo-item-AkTN…)
_TOKEN_ID = regex.compile(r"^((?:[a-z]+[-_:.])+)([\w-]{8,})$")
_NOT_A_WORD = regex.compile(r"[A-Z0-9]")
# a segment of 8 to 12 lowercase letters and digits with a digit between letters — base 36 from
# Math.random (Slim Select's ``ss-i6lbmzai-list``): made up even alone, a fresh one in every session
_RANDOM_SEGMENT = regex.compile(r"^(?=[a-z0-9]{8,12}$)[a-z0-9]*[a-z]\d+[a-z][a-z0-9]*$")
_SEPARATOR = regex.compile(r"[-_:.]")
# made up alone, whatever else the page holds: three digits or more, two numbers in a row (Element Plus'
# el-id-85-0 draws a short random one), React's ``:r1:`` whole, a GUID's head
_MADE_UP_ALONE = regex.compile(r"[0-9]{3,}|[0-9][-_:.][0-9]|^:.*:$|[0-9a-f]{8}-[0-9a-f]{4}-", regex.IGNORECASE)
_WORDED_PREFIX = regex.compile(r"^(?:[a-z]+[-_:.])+")
_TOKEN = regex.compile(r"^[A-Za-z0-9_-]+$")


def _kind(c: str) -> int:
    return 1 if "a" <= c <= "z" else 2 if "A" <= c <= "Z" else 3 if "0" <= c <= "9" else 4


def random_token(value: str) -> bool:
    """A random token after a worded prefix (nanoid's ``todo-item-AkTNBCXIfpXnhAYXTxbsT``): ten characters
    or more whose kind (lower, upper, digit, - or _) changes at more than a third of their joins, with
    capitals run together or digits against letters — what camelCase words (``saveChangesButton``) never do."""
    tail = _WORDED_PREFIX.sub("", value, count=1)
    if len(tail) < 10 or not _TOKEN.match(tail):
        return False
    changes = odd = 0
    for a, b in zip(map(_kind, tail), map(_kind, tail[1:]), strict=False):
        changes += a != b
        odd += (a == 2 and b == 2) or ((a == 3) != (b == 3) and a < 4 and b < 4)
    return changes * 3 > len(tail) - 1 and odd >= 3


def made_up_alone(value: str) -> bool:
    """Whether a DOM id is made up by itself (a test id attribute never is): it differs on every load."""
    return allows("made-up-ids") and (_MADE_UP_ALONE.search(value) is not None or random_token(value))


def made_up(ids: Iterable[str]) -> set[str]:
    """Of the page's ``ids``: those in a family of two or more — one prefix and a counter (``ag-58``,
    ``ag-59``), or one worded prefix and a token of one length that is no word (nanoid's
    ``todo-item-AkTNBCXIfpXnhAYXTxbsT`` on every row) — and, alone too, React's ``:r1:`` inside any and
    one with a random base-36 segment (``ss-i6lbmzai-list``)."""
    if not allows("made-up-ids"):
        return set()
    families: dict[tuple[str, str], set[str]] = {}
    found: set[str] = set()
    for value in ids:
        if _REACT_ID.search(value) or any(_RANDOM_SEGMENT.match(part) for part in _SEPARATOR.split(value)):
            found.add(value)
        elif (m := _COUNTER_ID.match(value)) is not None:
            families.setdefault((m.group(1), m.group(3)), set()).add(value)
        if (t := _TOKEN_ID.match(value)) is not None and _NOT_A_WORD.search(t.group(2)):
            families.setdefault((t.group(1), f"\0{len(t.group(2))}"), set()).add(value)
    found.update(v for family in families.values() if len(family) > 1 for v in family)
    return found


def take_off_made_up(root: Any, dom_id_flag: int) -> tuple[str, ...]:
    """Take the DOM ids made up alone off the nodes of the tree under ``root`` (each backend sends its ids
    as they are; the tree decides here): what was taken off, for the families it still belongs to."""
    taken_off: list[str] = []
    if not allows("made-up-ids"):  # (asked once a capture, not once an id: this runs on every look)
        return ()
    for node in root.iterfind(".//node[@id]"):
        flags, value = int(node.get("f") or 0), node.get("id") or ""
        if flags & dom_id_flag and made_up_alone(value):
            taken_off.append(value)
            del node.attrib["id"]
            node.set("f", str(flags & ~dom_id_flag))
    return tuple(taken_off)
