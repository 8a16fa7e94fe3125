"""Selector materialization: a portable selector for a node (design §4), as ordered tables.

The first candidate that singles the node out wins: plain (id, role+label, label, placeholder,
text), then anchored (``ANCESTOR >> NODE``), then a nameless control's own word-like class
(``role=button class=ql-bold``), or a nameless control's place beside a named neighbour
(``role=navigation text="June, 2026" >> role=generic``), then — only when nothing else does — positional
(``role=R nth=K``), flagged. One fallback from a different evidence source is added when there is
one (and a container known by its DOM id is also written by its role, when that still finds only the
node). Every written selector resolves to exactly the node in the record-time tree.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from replay.script.evidence import MAX_ANCESTRY
from replay.script.selector import CLASS, HAS_TEXT, NTH, Alternative, Selector, Term
from replay.script.text import normalize
from replay.tree.anchors import (
    LANDMARK_ROLES,
    beside_neighbour,
    class_holders,
    id_is_unique,
    name_of,
    row_says,
    singling_class,
)
from replay.tree.match import link_matches, match_set, resolve, resolve_matches
from replay.tree.model import F_DOM_ID, F_OVERLAY, Capture, Node

MAX_FALLBACKS = 1
Build = Callable[[Capture, Node], tuple[Term, ...] | None]


def _id(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    if n.test_id is not None and id_is_unique(capture, n):
        return (Term("id", "=", n.test_id),)
    return None


def _role_label(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    if n.label and n.role != "generic" and name_of(n):
        return (Term("role", "=", n.role), Term("label", "=", n.label))
    return None


def _field(key: str) -> Build:
    def candidate(capture: Capture, n: Node) -> tuple[Term, ...] | None:
        value = n.field(key)
        return (Term(key, "=", value),) if value else None

    return candidate


def _label(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    """``label="…"`` — not a cell's label that is not what it shows (anchors.name_of)."""
    return (Term("label", "=", n.label),) if n.label and name_of(n) else None


def _role(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    return (Term("role", "=", n.role),) if n.role != "generic" else None


def _role_has_text(text_of: Callable[[Node], str | None]) -> Build:
    """``role=R has-text="…"`` of one of the node's texts (its key text, or its text less its controls');
    never for a landmark, whose first text is whatever its region shows first, not what it is."""

    def candidate(capture: Capture, n: Node) -> tuple[Term, ...] | None:
        text = text_of(n)
        if not text or (n.role == "generic" and not n.has(F_OVERLAY)) or n.role in LANDMARK_ROLES:
            return None  # (a layer over the page is what it says, like a dialog: design §5 "Overlays")
        return (Term("role", "=", n.role), Term(HAS_TEXT, "=", text))

    return candidate


def _role_class(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    """``role=R class=TOKEN``: the first word-like class token no other node of its role carries on
    the page (a nameless control's own attribute, design §5 item 6)."""
    token = singling_class(n, None)
    return (Term("role", "=", n.role), Term(CLASS, "=", token)) if token is not None else None


def _class_inside(ancestor: Node) -> Build:
    """``role=R class=TOKEN`` with the first of its tokens no other node of its role carries inside
    ``ancestor``."""

    def candidate(capture: Capture, n: Node) -> tuple[Term, ...] | None:
        token = next((t for t in n.classes if class_holders(n, t, ancestor) == [n]), None)
        return (Term("role", "=", n.role), Term(CLASS, "=", token)) if token is not None else None

    return candidate


# The materialization order: (name, evidence source, candidate). The first unique one wins; a
# fallback must come from another source and say something the written ones do not.
CANDIDATES: tuple[tuple[str, str, Build], ...] = (
    ("id", "id", _id),
    ("role+label", "label", _role_label),
    ("label", "label", _label),
    ("placeholder", "placeholder", _field("placeholder")),
    ("text", "text", _field("text")),
    ("key text", "key text", _role_has_text(lambda n: n.key_text)),  # a row by what it says, not where it is
)
# Sources of their own even when they say what the accessible name says: a name taken from the
# placeholder today may come from a <label> tomorrow, and the placeholder is then what still matches.
OWN_SOURCES = frozenset({"placeholder"})


def _role_label_of_place(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    """``role=R label="…"`` of an anchoring ancestor — not of a row that says something: a row is
    what it says (its key text, below), not its name (all its cells, or its checkbox's label)."""
    says = row_says(n)
    return None if says and says != normalize(n.label) else _role_label(capture, n)


# How an anchoring ancestor is singled out (it must be unique in the whole tree).
ANCHOR_CANDIDATES: tuple[Build, ...] = (
    _id,
    _role_label_of_place,
    lambda capture, n: _role(capture, n) if n.role in LANDMARK_ROLES else None,  # the page's one main
    _role_has_text(lambda n: n.key_text),
    _role_has_text(lambda n: n.rest_text),  # rows whose first texts repeat
)
# How the node is named inside its anchor (it must be the only match there).
INNER_CANDIDATES: tuple[tuple[str, Build], ...] = (
    ("id", _id),
    ("label", _role_label),
    ("label", _label),
    ("placeholder", _field("placeholder")),
    ("text", _field("text")),
    ("role", _role),
)


@dataclass
class Materialized:
    """A selector for a node, whether it singles the node out, and which candidates it used.

    Values are literal (as on screen); write them with ``escape_templates`` so a ``${`` in a
    label stays text. ``positional``: only ``nth`` singles the node out — it will act on whatever
    sits at that position.
    """

    selector: Selector | None
    unique: bool
    bases: tuple[str, ...] = ()
    positional: bool = False


def materialize(capture: Capture, node: Node) -> Materialized:
    """The first unique candidate plus a fallback from another source; anchored, then positional."""
    chosen: list[tuple[str, str, Alternative]] = []
    values: set[str] = set()
    for name, source, build in CANDIDATES:
        terms = build(capture, node)
        if terms is None or not _singles_out(capture, terms, node):
            continue
        said = {str(t.value) for t in terms if t.key not in ("role", "id")}
        if chosen and (source in {s for _, s, _ in chosen} or (said <= values and source not in OWN_SOURCES)):
            continue  # the same source, or the same words that named it (a name from content is its text)
        chosen.append((name, source, Alternative(terms=terms)))
        values |= said
        if len(chosen) > MAX_FALLBACKS:
            break
    if len(chosen) <= MAX_FALLBACKS:
        # a fallback by position would act on whatever row sits there once the named one is gone
        skip = {s for _, s, _ in chosen} | ({"position"} if chosen else set())
        anchored = _anchored(capture, node, skip=skip)
        if not chosen and (anchored is None or picks_by_position(Selector((anchored,)))):
            beside = _beside_neighbour(capture, node)
            if beside is not None:  # not its place on the page: its place beside what it stands by
                return Materialized(Selector((beside,)), True, ("neighbour",))
            if (alone := _alone(capture, node)) is not None:  # (before its focus: that says less, and moves)
                return alone
            for basis, build in (("focus", _focused), ("shown", _shown)):
                if (terms := build(capture, node)) is not None:
                    return Materialized(Selector((Alternative(terms=terms),)), True, (basis,))
        if anchored is not None:
            chosen.append(("anchor", "anchor", anchored))
            if (by_role := _container_by_role(capture, node, anchored)) is not None:
                chosen.append(("anchor", "anchor", by_role))
    if not chosen and (alone := _alone(capture, node)) is not None:
        return alone
    if not chosen and (own := _role_class(capture, node)) is not None and _singles_out(capture, own, node):
        chosen.append(("attribute", "attribute", Alternative(terms=own)))  # after anchors, before position
    if chosen:
        made = Selector(tuple(a for _, _, a in chosen))
        # an anchor among look-alike anchors is picked by position too: nothing else tells it apart
        return Materialized(made, True, tuple(n for n, _, _ in chosen), positional=picks_by_position(made))
    return _positional(capture, node)


def _alone(capture: Capture, node: Node) -> Materialized | None:
    """``role=R``: the only node of its role on the page (a code editor's one textbox), the page its scope."""
    if node.role == "generic" or link_matches(capture, (Term("role", "=", node.role),)) != [node]:
        return None
    return Materialized(Selector((Alternative(terms=(Term("role", "=", node.role),)),)), True, ("structural",))


def picks_by_position(selector: Selector) -> bool:
    """Whether every alternative of ``selector`` picks its node by position (an ``nth`` term in some
    link): nothing but where it sits tells the node from its look-alikes (``identity.is_positional``
    asks whether any term does: one alternative that names the node is enough here)."""
    return all(any(t.key == NTH for link in a.links() for t in link.terms) for a in selector.alternatives)


def _singles_out(capture: Capture, terms: tuple[Term, ...], node: Node) -> bool:
    matches = link_matches(capture, terms)
    return node in matches and resolve_matches(matches).winner is node


def _anchored(capture: Capture, node: Node, skip: set[str]) -> Alternative | None:
    """``ANCESTOR >> NODE``: the nearest uniquely selectable ancestor, and the node's most specific
    candidate that is the only match inside it (none from the sources in ``skip``, already written)."""
    own_class = singling_class(node, None) if node.classes else None  # found once, not once per ancestor
    for ancestor in node.ancestors()[:MAX_ANCESTRY]:
        named = (b(capture, ancestor) for b in ANCHOR_CANDIDATES)
        outer = next((t for t in named if t is not None and _only(capture, t, ancestor)), None)
        if outer is None or (len(outer) == 1 and outer[0].key == "role" and own_class):
            continue  # the page's one landmark says no more than the page: its own class comes first
        inside = (("attribute", _class_inside(ancestor)), ("position", _position_inside(ancestor)))
        for source, build in (*INNER_CANDIDATES, *inside):
            inner = build(capture, node)
            if source in skip or inner is None or link_matches(capture, inner, [ancestor]) != [node]:
                continue
            alt = Alternative(terms=inner, scope=(Alternative(terms=outer),))
            if resolve(capture, Selector((alt,))).winner is node:  # the self-check
                return alt
    return None


def _beside_neighbour(capture: Capture, node: Node) -> Alternative | None:
    """``role=C text="…" >> role=R``: a nameless control among the nodes of its role in the small
    container it shares with a named neighbour (design §5); its evidence's ``namelessOrder`` tells which."""
    if singling_class(node, None) is not None or (beside := beside_neighbour(capture, node)) is None:
        return None
    container, anchor, _ = beside
    outer = Alternative(terms=(Term("role", "=", container.role), Term("text", "=", anchor.text or "")))
    return Alternative(terms=(Term("role", "=", node.role),), scope=(outer,))


def _focused(capture: Capture, node: Node) -> tuple[Term, ...] | None:
    """``role=R label="…" focused``: the field that has the focus, when only that tells it from its
    look-alikes — the search box of the dropdown the previous step opened (design §5), one of a box
    per dropdown on the page: the previous step's verified element gave it the focus."""
    return _named_and(capture, node, "focused") if node.focused and node.editable else None


def _shown(capture: Capture, node: Node) -> tuple[Term, ...] | None:
    """``role=R label="…" visible``: the one a person sees, when its look-alikes are all hidden (the open
    dropdown's option, beside the closed dropdowns' own): a hidden node is no rival to a person."""
    return _named_and(capture, node, "visible") if node.visible and node.label else None


def _named_and(capture: Capture, node: Node, flag: str) -> tuple[Term, ...] | None:
    terms = (*(_role_label(capture, node) or (Term("role", "=", node.role),)), Term(flag, "=", True))
    return terms if _singles_out(capture, terms, node) else None


def _container_by_role(capture: Capture, node: Node, anchored: Alternative) -> Alternative | None:
    """``role=R >> INNER`` beside ``id="…" >> INNER`` when that id is a container's DOM id and its role
    alone, with the same inner part, still finds only the node: an upgrade that turns ids into classes
    (TodoMVC's ``id="todo-list"``) leaves the container its role (``anchors.find_anchor``)."""
    outer = anchored.scope[0].terms if len(anchored.scope) == 1 else ()
    if len(outer) != 1 or outer[0].key != "id":
        return None
    container = next((a for a in node.ancestors() if a.test_id == outer[0].value), None)
    if container is None or not container.has(F_DOM_ID) or container.role not in LANDMARK_ROLES:
        return None
    by_role = Alternative(terms=anchored.terms, scope=(Alternative(terms=(Term("role", "=", container.role),)),))
    return by_role if match_set(capture, Selector((by_role,)))[1] == [node] else None


def _position_inside(ancestor: Node) -> Build:
    """``role=R nth=K`` among the ancestor's descendants: a row's second button stays its second
    button wherever the row moves (the anchor, not the page position, binds it)."""

    def candidate(capture: Capture, n: Node) -> tuple[Term, ...] | None:
        role = (Term("role", "=", n.role),)
        inside = link_matches(capture, role, [ancestor])
        return (*role, Term(NTH, "=", str(inside.index(n)))) if n in inside else None

    return candidate


def _only(capture: Capture, terms: tuple[Term, ...], node: Node) -> bool:
    return link_matches(capture, terms) == [node]


def _positional(capture: Capture, node: Node) -> Materialized:
    """The last resort: ``role=R nth=K`` — flagged, since it acts on whatever sits at that position."""
    role = (Term("role", "=", node.role),)
    matches = link_matches(capture, role)
    if node not in matches:
        return Materialized(None, False)
    terms = (*role, Term(NTH, "=", str(matches.index(node))))
    return Materialized(Selector((Alternative(terms=terms),)), True, ("position",), positional=True)
