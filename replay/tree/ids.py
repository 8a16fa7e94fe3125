"""Ids a library made up (design §5): no identity, since they change with the order things were built in."""

from __future__ import annotations

from collections.abc import Iterable

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
