"""Anchors (design §4, §5): the row, card, landmark or named ancestor that tells a node apart from its
look-alikes — found for a node at record time, and recognized again at replay."""

from __future__ import annotations

from dataclasses import replace
from typing import cast

from replay.script.evidence import MAX_ANCESTRY, Anchor
from replay.script.text import fold, normalize
from replay.tree.model import F_DOM_ID, KEY_TEXT_CHARS, Capture, Node
from replay.tree.naming import CELL_ROLES, ROW_ROLES
from replay.tree.tolerances import allows


def id_is_unique(capture: Capture, node: Node) -> bool:
    """Whether the node's id names it: it appears once in the tree, and no library made it up (a
    counter family on the page, design §5: a diagnostic then, never identity) — nor, for a node with a
    name, made it from the app's id (``staff_next``, ``from-tomselected``): its name says more."""
    if not node.test_id:
        return False
    if len(capture.by_value("id", fold(node.test_id))) != 1 or node.test_id in capture.generated_ids():
        return False
    return not (node.label and node.test_id in capture.derived_ids())


def anchor_identity(node: Node, wide: bool = False) -> Anchor:
    """The ``anchor`` evidence of an ancestor: its role, unique-looking id, and key text (else label);
    ``wide``: its text less its controls' texts instead of the key text (rows whose first texts repeat)."""
    text = normalize(node.rest_text if wide else node.key_text)
    return Anchor(node.role, None if text else normalize(node.label), text, node.test_id, _dom_id(node))


def anchor_matches(node: Node, anchor: Anchor) -> bool:
    """Whether ``node`` is the recorded anchor: its role and every recorded field, compared exactly —
    save a ``generic`` recorded by its id, which is the node of that id whatever role it gained (design §5:
    a wrapper that gained a role is drift; Vanilla Calendar Pro 3's ``#cal`` became a ``group``)."""
    if node.role != anchor.role and not (anchor.role == "generic" and anchor.id is not None and allows("gained-role")):
        return False
    if anchor.id is not None and node.test_id != anchor.id:
        return False
    if anchor.label is not None and normalize(node.label) != anchor.label:
        return False
    if anchor.text is None or normalize(node.key_text) == anchor.text:
        return True
    if not allows("row-shows-text"):
        return False
    if normalize(node.content) == anchor.text:  # all it says (a neighbour's small container: beside_neighbour)
        return True
    if normalize(node.rest_text) == anchor.text:  # a wide anchor (see anchor_of)
        return True
    # a row that shows the recorded text as a text of its own, whatever else it says first (design §5)
    return node.role in ROW_ROLES and node.shows(anchor.text)


def find_anchor(node: Node, anchor: Anchor) -> Node | None:
    """The nearest of the node's ancestors (≤ 8 up) that is the recorded anchor — or, for a container
    (a list, a form, a landmark) recorded by a DOM id an upgrade dropped, the nearest ancestor of its
    role that has no id at all (drift: ``id="todo-list"`` became ``class="todo-list"``). Never a row:
    a row without what it said is any row."""
    ancestors = node.ancestors()[:MAX_ANCESTRY]
    found = next((a for a in ancestors if anchor_matches(a, anchor)), None)
    if found is not None or not anchor_lost_its_dom_id(anchor) or not allows("container-lost-dom-id"):
        return found
    lenient = replace(anchor, id=None, dom_id=False)
    return next((a for a in ancestors if a.test_id is None and anchor_matches(a, lenient)), None)


def anchor_lost_its_dom_id(anchor: Anchor) -> bool:
    """Whether ``anchor`` may be found without its id (``find_anchor``): a container's DOM id."""
    return anchor.id is not None and anchor.dom_id and anchor.role in LANDMARK_ROLES


def _dom_id(node: Node) -> bool:
    return bool(node.test_id) and node.has(F_DOM_ID)


def alone_in(node: Node, container: Anchor | None) -> bool:
    """Whether the nearest ancestor that is ``container`` holds no other node of ``node``'s role."""
    if container is not None and container.role == PAGE and container.label is None:
        return only_of_role(_page(node), node)
    found = find_anchor(node, container) if container is not None else None
    return found is not None and only_of_role(found, node)


def only_of_role(container: Node, node: Node) -> bool:
    return not any(d is not node and isinstance(d, Node) and d.role == node.role for d in container.iterdescendants())


def name_of(node: Node) -> str | None:
    """The node's name as its identity: its label — but not a cell's or header's label that is not
    what it shows ("Age: activate to sort column ascending" over "Age": a library's instruction, which
    changes with the sort and between majors); such a cell is named by its own key text instead."""
    label = normalize(node.label)
    if label and node.role in CELL_ROLES:
        shown = normalize(node.content)
        if shown and label != shown and normalize(node.key_text):
            return None
    return label


# containers an unlabeled control may be alone in, named by role (and label) only: their key text is
# whatever comes first on a whole page region, not what they are (design §5 item 5)
PAGE = "document"  # a structural scope that is the whole page (the capture's root)
LANDMARK_ROLES = frozenset(
    {"form", "dialog", "alertdialog", "main", "navigation", "region", "list", "table", "grid", "tabpanel", "search"}
)


def own_anchor(capture: Capture, node: Node) -> tuple[Node, Anchor] | None:
    """For a node with neither id nor label: the nearest ancestor (≤ 8 up) that can be named — by a
    unique test id, (a row) its own key text, or a label — else the nearest landmark holding it alone.
    A row is what it says, not its name: a grid row's name is all its cells ("Grace 45 Admiral"), a
    web component's may be its checkbox's ("Toggle Todo") (design §5)."""
    for ancestor in node.ancestors()[:MAX_ANCESTRY]:
        if id_is_unique(capture, ancestor):
            return ancestor, Anchor(ancestor.role, id=ancestor.test_id, dom_id=_dom_id(ancestor))
        says, label = row_says(ancestor), normalize(ancestor.label)
        if says and says != label:
            return ancestor, Anchor(ancestor.role, text=says)
        if label:
            return ancestor, Anchor(ancestor.role, label=label)
        if says:
            return ancestor, Anchor(ancestor.role, text=says)
    return None


def row_says(node: Node) -> str | None:
    """What a row (list item, option, cell …) says: its own key text — what anchors it where its name
    is something else (a grid row's name is all its cells, a web component's its checkbox's label)."""
    return normalize(node.key_text) if node.role in ROW_ROLES else None


def scope_of(node: Node) -> tuple[Node, Anchor] | None:
    """The nearest landmark ancestor holding no other node of ``node``'s role, named by role (and label);
    else the page itself when it holds no other (``PAGE``: a code editor's input on a page with no
    landmark — the one textbox there is what a person means, design §5 item 5)."""
    for ancestor in node.ancestors()[:MAX_ANCESTRY]:
        if ancestor.role in LANDMARK_ROLES and only_of_role(ancestor, node):
            return ancestor, Anchor(ancestor.role, label=normalize(ancestor.label))
    page = _page(node)
    alone = node.role != "generic" and page is not node and only_of_role(page, node)
    return (page, Anchor(PAGE)) if alone else None


def _page(node: Node) -> Node:
    return cast(Node, node.getroottree().getroot())


def anchor_of(capture: Capture, node: Node) -> tuple[Node, Anchor] | None:
    """The nearest ancestor (≤ 8 up) holding no look-alike of ``node`` but ``node`` itself, when it has
    look-alikes, and its identity as an anchor.

    A look-alike shares the role and label (or the role, for an unlabeled node). The ancestor must
    be nameable (a test id, a label or a key text) and differ, as an anchor, from the ancestors
    the look-alikes sit in — by its key text, else by its text less its controls' texts (two rows
    both starting "Apollo": "Apollo ann" and "Apollo cy"); else no anchor is recorded and position
    alone tells them apart.
    """
    label = normalize(node.label)
    peers = [n for n in capture.by_value("role", node.role) if normalize(n.label) == label]
    if len(peers) <= 1:
        return None
    for ancestor in node.ancestors()[:MAX_ANCESTRY]:
        inside = [p for p in peers if ancestor in p.iterancestors()]
        if inside != [node]:
            break  # farther ancestors hold the look-alikes too
        for anchor in (anchor_identity(ancestor), anchor_identity(ancestor, wide=True)):
            if anchor.id is None and anchor.label is None and anchor.text is None:
                continue
            if not any(find_anchor(p, anchor) is not None for p in peers if p is not node):
                return ancestor, anchor
    return None


NEIGHBOUR_DEPTH = 2  # a nameless control's small container: its parent, or its parent's parent


def nameless_controls(container: Node, role: str) -> list[Node]:
    """The container's actionable nodes of ``role`` with neither a name nor a text (document order)."""
    inside = (d for d in container.iterdescendants() if isinstance(d, Node) and d.role == role)
    return [d for d in inside if d.actionable and not d.label and not d.content]


def beside_neighbour(capture: Capture, node: Node) -> tuple[Node, Anchor, int] | None:
    """design §5 "Nameless beside a named neighbour": for a nameless control, the small container it
    shares with a named neighbour — the nearest ancestor (≤ 2 up) that says something, all of it one
    short text ("June, 2026" between a calendar's arrows), which no other node of its role says —
    as an anchor, and the node's order among the container's nameless controls of its role."""
    if node.label or node.content or not node.actionable:
        return None
    for container in node.ancestors()[:NEIGHBOUR_DEPTH]:
        text = normalize(container.content)
        if not text:
            continue
        if len(text) > KEY_TEXT_CHARS or container.role in ROW_ROLES:
            return None  # a region that says more than a neighbour's name; a row is what it says (anchor_of)
        chain = {container, *container.ancestors(), *container.iterdescendants()}
        same = (n for n in capture.by_value("role", container.role) if normalize(n.content) == text)
        if any(n not in chain for n in same):
            return None
        return container, Anchor(container.role, text=text), nameless_controls(container, node.role).index(node)
    return None


def class_holders(node: Node, token: str, container: Node | None = None) -> list[Node]:
    """The nodes of ``node``'s role carrying class ``token`` inside ``container`` (else the whole tree)."""
    scope = container if container is not None else node.getroottree().getroot()
    found = scope.xpath(
        ".//node[@role=$role and contains(concat(' ', @class, ' '), $token)]", role=node.role, token=f" {token} "
    )
    return [n for n in cast(list[Node], found) if isinstance(n, Node)]


def singling_class(node: Node, container: Node | None) -> str | None:
    """The first of the node's word-like class tokens no other node of its role carries — on the page,
    else inside its anchor (design §5 item 6: ``ql-bold``, ``flatpickr-next-month``); None when none does."""
    for scope in (None, container) if container is not None else (None,):
        for token in node.classes:
            if class_holders(node, token, scope) == [node]:
                return token
    return None


TABLE_ROLES = frozenset({"table", "grid", "treegrid"})
IN_COLUMN = frozenset({"cell", "gridcell", "rowheader"})  # cells a column's header names


def cell_of(node: Node) -> Node | None:
    """The table cell the node is, or sits in (≤ 8 up, below its row)."""
    for n in (node, *node.ancestors()[:MAX_ANCESTRY]):
        if n.role in IN_COLUMN:
            return n
        if n.role == "row" or n.role in TABLE_ROLES:
            return None
    return None


def column_of(node: Node) -> str | None:
    """What the header of the node's column shows (design §5 "Cells"): the one column header of its
    table whose horizontal extent holds the centre of the node's cell — wherever the library put its
    header row (a grid's header sits in a container of its own); None when no single header does."""
    cell = cell_of(node)
    if cell is None:
        return None
    table = next((a for a in cell.ancestors() if a.role in TABLE_ROLES), None)
    if table is None:
        return None
    cx = cell.center[0]
    hits = [
        h
        for h in table.iterdescendants()
        if isinstance(h, Node) and h.role == "columnheader" and h.visible and h.rect[0] <= cx <= h.rect[0] + h.rect[2]
    ]
    if len(hits) != 1:
        return None
    return normalize(hits[0].key_text) or name_of(hits[0])


def row_of(cell: Node) -> Node | None:
    """The row a cell sits in."""
    return next((a for a in cell.ancestors()[:MAX_ANCESTRY] if a.role == "row"), None)
