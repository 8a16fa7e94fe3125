"""The tolerances of identity (docs/design.md §5 "Tolerances"): every drift that verification, the anchors or
the healer accept as *the same element*, in one table — each named, with what it accepts, the case that
demanded it, where it is applied, and a switch.

A tolerance is a claim that a change an upgrade made is drift, not another element. Each was written
for one library's upgrade; the table keeps them where they can be counted and measured:
``REPLAY_WITHOUT=NAME[,NAME…]`` in the daemon's environment switches tolerances off, and
``scripts/bench drift --without NAME`` prints what each one buys on the drift corpora (a tolerance
that buys nothing on any corpus goes). It is a measuring switch, never a user's setting.

Every site asks ``allows(NAME)``; a name not in the table is a programming error (``KeyError``). An
unknown name in ``REPLAY_WITHOUT`` switches nothing off: the bench refuses it before it starts
(``unknown``), so a misspelt switch never reads as a tolerance that buys nothing.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from dataclasses import dataclass

ENV = "REPLAY_WITHOUT"


@dataclass(frozen=True)
class Tolerance:
    """One accepted drift: ``name`` (the switch), what it ``accepts``, the ``case`` that demanded it, and
    ``where`` it is applied."""

    name: str
    accepts: str
    case: str
    where: str


TABLE: tuple[Tolerance, ...] = (
    Tolerance(
        "lost-dom-id",
        "an element recorded by its DOM id (not a test id) and its label that lost the id keeps its identity"
        " by the label",
        'TodoMVC\'s upgrades: `id="new-todo"` became `class="new-todo"`',
        "tree/identity.py `_dom_id_gone`",
    ),
    Tolerance(
        "container-lost-dom-id",
        "a list, form or landmark anchor recorded by a DOM id an upgrade dropped is the nearest ancestor of"
        " its role with no id at all",
        'TodoMVC\'s upgrades: `id="todo-list"` became `class="todo-list"`',
        "tree/anchors.py `find_anchor`",
    ),
    Tolerance(
        "gained-role",
        "a generic wrapper recorded by its id or label is that node whatever role a major gave it",
        'Vanilla Calendar Pro 3: `#cal` ("Start") became a `group`',
        "tree/anchors.py `anchor_matches`, engine/hint.py `_gained_a_role`",
    ),
    Tolerance(
        "placeholder-name",
        "a field whose recorded name was its placeholder, still showing that placeholder, is the same field"
        " when its name now comes from elsewhere",
        "a visually hidden `<label>` added to a field named by its placeholder (the pantry's search)",
        "tree/identity.py `_named_by_placeholder`",
    ),
    Tolerance(
        "composed-control",
        "a custom element and the one control in its shadow root are one control: the role may move between them",
        'Ionic 6 → 8: `<ion-select role="button">` became a role-less host around a `<button>`',
        "tree/identity.py `composed_member` (pairs: tree/controls.py)",
    ),
    Tolerance(
        "made-up-ids",
        "DOM ids a library made up (alone: three digits, two numbers in a row, a GUID, a random token;"
        " in a family on the page, or on it since it loaded: a counter or a token of one length; React's"
        " `:r1:`; a random base-36 segment) are no identity",
        "Element Plus' `el-id-3002-0`, AG Grid's `ag-58`, nanoid's todo ids, Slim Select's `ss-i6lbmzai-list`,"
        " Select2 3.5's `select2-result-label-25` (the one option left, numbered by the lists drawn before)",
        "tree/ids.py `made_up`, `made_up_alone`, `PageIds`",
    ),
    Tolerance(
        "drawn-elsewhere",
        "a toggle with no box of its own, or under its own label, a control whose wrapper takes the"
        " pointer, and an editor's input under what its editor draws, are clicked through the part that"
        " draws them",
        "Shoelace's switch; hidden checkbox inputs drawn by their track; CodeMirror 5's textarea",
        "tree/roles.py `drawn_elsewhere` (capture.js `ownWrapper`, `ownEditor`)",
    ),
    Tolerance(
        "role-family",
        "a role of the recorded role's family is the recorded role (cell/gridcell, textbox/searchbox/"
        "combobox, checkbox/switch, a generic that became clickable …)",
        "a checkbox that became a switch; DataTables' cells that became gridcells",
        "tree/roles.py `kin_roles`",
    ),
    Tolerance(
        "moved-within-family",
        "for an effect-confirmed heal, a role moved within the actionable or editable family",
        "a link that became a button between majors, its effect the same",
        "tree/roles.py `moved_within`",
    ),
    Tolerance(
        "row-shows-text",
        "a row anchor is the row that shows the recorded text as a text of its own, or says it all, or"
        " says it less its controls, whatever else it says first",
        "a row that gained a leading badge or icon text in an upgrade",
        "tree/anchors.py `anchor_matches`",
    ),
)

_NAMES = {t.name for t in TABLE}
assert len(_NAMES) == len(TABLE), "two tolerances share a name"


def unknown(names: str) -> list[str]:
    """The names of a ``REPLAY_WITHOUT`` value that are not in the table."""
    return [n for n in _split(names) if n not in _NAMES]


def _split(names: str) -> list[str]:
    return [n.strip() for n in names.split(",") if n.strip()]


def _read() -> frozenset[str]:
    return frozenset(n for n in _split(os.environ.get(ENV, "")) if n in _NAMES)


_off = _read()


def allows(name: str) -> bool:
    """Whether the tolerance ``name`` is on (every one is, unless switched off to measure it)."""
    if name not in _NAMES:
        raise KeyError(f"no tolerance named {name!r}")
    return name not in _off


@contextlib.contextmanager
def without(*names: str) -> Iterator[None]:
    """Switch ``names`` off for the block (tests: what each tolerance buys, in one process)."""
    global _off
    for n in names:
        allows(n)
    before, _off = _off, _off | set(names)
    try:
        yield
    finally:
        _off = before


def markdown() -> str:
    """The table as docs/design.md shows it (generated: ``python -m replay.tree.tolerances``)."""
    rows = ["| tolerance | accepts as the same element | demanded by | applied in |", "|---|---|---|---|"]
    rows += [f"| `{t.name}` | {t.accepts} | {t.case} | {t.where} |" for t in TABLE]
    return "\n".join(rows) + "\n"


if __name__ == "__main__":
    print(markdown(), end="")
