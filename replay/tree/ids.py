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


Family = tuple[str, str]  # a counter's prefix and suffix, or a token's worded prefix and "\0" + its length


def _families(value: str) -> list[Family]:
    """The families ``value`` would belong to: a prefix and a counter, a worded prefix and a token."""
    keys: list[Family] = []
    if (m := _COUNTER_ID.match(value)) is not None:
        keys.append((m.group(1), m.group(3)))
    if (t := _TOKEN_ID.match(value)) is not None and _NOT_A_WORD.search(t.group(2)):
        keys.append((t.group(1), f"\0{len(t.group(2))}"))
    return keys


def made_up(ids: Iterable[str], followed: frozenset[Family] = frozenset()) -> set[str]:
    """Of the page's ``ids``: those in a family of two or more — one prefix and a counter (``ag-58``,
    ``ag-59``), or one worded prefix and a token of one length that is no word (nanoid's
    ``todo-item-AkTNBCXIfpXnhAYXTxbsT`` on every row) — or in a family the page ``followed`` with two
    ids at any moment since it loaded (``PageIds``); and, alone too, React's ``:r1:`` inside any and
    one with a random base-36 segment (``ss-i6lbmzai-list``)."""
    if not allows("made-up-ids"):
        return set()
    families: dict[Family, set[str]] = {}
    found: set[str] = set()
    for value in ids:
        if _REACT_ID.search(value) or any(_RANDOM_SEGMENT.match(part) for part in _SEPARATOR.split(value)):
            found.add(value)
        for key in _families(value):
            families.setdefault(key, set()).add(value)
    found.update(v for key, family in families.items() if len(family) > 1 or key in followed for v in family)
    return found


SEEN_IDS = 100_000  # the ids a document's looks are read for, at most


class PageIds:
    """The id families one document has shown since it loaded, across every look at it (design §5): a
    counter is made up though one member shows now — Select2 3.5 numbers each list of results it draws
    (``select2-result-label-25``), so the one option left after typing carries a count of the person's
    keystrokes, where the list it replaced showed the family. A new document starts again."""

    def __init__(self) -> None:
        self._document: object = None
        self._seen: set[str] = set()
        self._first: dict[Family, str] = {}  # a family → the first member seen
        self._followed: set[Family] = set()  # families seen with two members or more

    def _start(self, document: object) -> None:
        self._document = document
        self._seen, self._first, self._followed = set(), {}, set()

    def note(self, document: object, root: Any, taken_off: Iterable[str] = ()) -> frozenset[Family]:
        """Add the ids of a look at ``document`` (its tree ``root``, and the ids ``taken_off`` it as made up
        alone): the families followed so far, this look's included. Each id is read once a document; the
        rest is XPath in C and a set difference."""
        if document != self._document or document is None:
            self._start(document)
        if len(self._seen) >= SEEN_IDS:  # (an endless page: the families followed so far stand)
            return frozenset(self._followed)
        for value in {*root.xpath(".//node/@id"), *taken_off} - self._seen:
            self._seen.add(value)
            for key in _families(value):
                if self._first.setdefault(key, value) != value:
                    self._followed.add(key)
        return frozenset(self._followed)


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
