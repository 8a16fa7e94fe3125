"""Identity evidence: record it for a node, and verify it before acting (design §5).

Recording and the record-time self-check use the same ``verify`` that replay runs.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from replay.script.evidence import (
    UNVERIFIABLE,
    VERIFIED,
    Ancestor,
    Anchor,
    Rect,
    TargetEvidence,
    decode,
    encode,
)
from replay.script.selector import Chain, Selector
from replay.script.text import fold, normalize
from replay.tree import bases
from replay.tree.anchors import (
    anchor_lost_its_dom_id,
    anchor_of,
    cell_of,
    column_of,
    find_anchor,
    id_is_unique,
    name_of,
    row_of,
)
from replay.tree.bases import position
from replay.tree.bases.position import by_place, changed, is_positional, look_alikes, recounted
from replay.tree.controls import halves
from replay.tree.match import Resolution, describe, match_set, resolve_matches
from replay.tree.model import F_DOM_ID, KEY_TEXT_CHARS, Capture, Node
from replay.tree.place import (
    ancestry_drift,
    ancestry_of,
    chain_text,
    fixed_ancestors_hold,
    is_fixed,
    region_identity,
    region_of,
    sibling_of,
)
from replay.tree.tolerances import allows
from replay.tree.verdict import DivergenceKind, Verdict


def carries_identity(node: Node, ev: TargetEvidence) -> bool:
    """Identity tier: id+role, else role+label, else role+own key text, else role inside its anchor
    (structural: the only one of its role there); then the leaf-anchored ancestry prefix, case-sensitive."""
    if ev.role is None or node.role != ev.role:
        return False
    if ev.id is not None and node.test_id == ev.id:
        pass
    elif ev.id is not None and not _dom_id_gone(node, ev):
        return False
    elif ev.label is not None:
        if normalize(node.label) != ev.label and not _named_by_placeholder(node, ev):
            return False
    elif (way := bases.of(ev)) is not None:
        if not way.carries(node, ev):
            return False
    elif name_of(node) or (ev.anchor is None and ev.scope is None):
        return False  # a nameless node's look-alikes are nameless (anchor_of): a named one is another control
    if ev.column is not None and fold(column_of(node)) != fold(ev.column):
        return False  # a cell is what its row and its column say it is (design §5)
    container = find_anchor(node, ev.anchor) if ev.anchor is not None else None
    if ev.anchor is not None and container is None:
        return False
    if (way := bases.of(ev)) is not None and not way.holds(node, ev, container):
        return False  # its basis no longer singles it out where it did
    return fixed_ancestors_hold(node, ev.ancestry)


def composed_member(node: Node, ev: TargetEvidence) -> Node | None:
    """The half of ``node``'s composed control that has the recorded role, when the control as one
    carries the recorded identity: one half has the role, and either half (as what it is) carries the
    rest — the host's id, the inner control's label (design §5 composed controls)."""
    pair = halves(node) if allows("composed-control") else None
    if pair is None or ev.role is None:
        return None
    bearer = next((h for h in pair if h.role == ev.role), None)
    if bearer is None:
        return None
    if any(carries_identity(half, replace(ev, role=half.role)) for half in pair):
        return bearer
    return None


def _dom_id_gone(node: Node, ev: TargetEvidence) -> bool:
    """A DOM id (not a test id attribute) the element no longer has, while a label was recorded beside
    it: an upgrade that moved its ids to classes (``id="new-todo"`` → ``class="new-todo"``). The
    label then carries the identity and the lost id is drift; a different id, or a lost test id, is not."""
    return ev.dom_id and node.test_id is None and ev.label is not None and allows("lost-dom-id")


def _drift(node: Node, ev: TargetEvidence) -> list[str]:
    """What changed around a verified target (design §5): its ancestry, and a DOM id it lost."""
    lost = [f"id: the DOM id {ev.id!r} is gone"] if ev.id is not None and node.test_id != ev.id else []
    anchor = ev.anchor or ev.scope
    if anchor is not None and anchor_lost_its_dom_id(anchor):
        container = find_anchor(node, anchor)
        if container is not None and container.test_id != anchor.id:
            lost.append(f"anchor: the {anchor.role}'s DOM id {anchor.id!r} is gone")
    return [*lost, *ancestry_drift(node, ev)]


def _named_by_placeholder(node: Node, ev: TargetEvidence) -> bool:
    """A field whose recorded name came from its placeholder still has that placeholder: its name
    now comes from elsewhere (a visually hidden <label> added), it is the same field (design §4)."""
    placeholder = ev.placeholder is not None and ev.placeholder == ev.label
    return placeholder and normalize(node.placeholder) == ev.placeholder and allows("placeholder-name")


def identity_members(capture: Capture, ev: TargetEvidence, among: list[Node] | None = None) -> list[Node]:
    """Nodes carrying the recorded identity (of ``among``, default the whole tree)."""
    if among is not None:
        pool = among
    else:
        pool = capture.by_value("role", ev.role) if ev.role else []
    return [n for n in pool if carries_identity(n, ev)]


def _reading_order(n: Node) -> tuple[float, float, int]:
    return (round(n.center[1], 1), round(n.center[0], 1), n.position)


def viewport_order(capture: Capture, node: Node, ev: TargetEvidence) -> int:
    """Order by rect centre (top-to-bottom, then left-to-right) among identity peers in the same region."""
    region = region_of(node)
    peers = [n for n in identity_members(capture, ev) if region_of(n) is region]
    if node not in peers:
        peers.append(node)
    peers.sort(key=_reading_order)
    return peers.index(node)


def viewport_orders(capture: Capture, ev: TargetEvidence, peers: list[Node] | None = None) -> dict[int, int]:
    """``viewport_order`` of every identity peer (``peers``: the tree's identity members when the
    caller has them) at once, by node position: one pass over the tree and one sort per region, so
    verification stays linear in the number of look-alikes."""
    regions: dict[int, list[Node]] = {}
    cache: dict[Node, Node | None] = {}
    for n in identity_members(capture, ev) if peers is None else peers:
        region = region_of(n, cache)
        regions.setdefault(-1 if region is None else region.position, []).append(n)
    orders: dict[int, int] = {}
    for peers in regions.values():
        for i, n in enumerate(sorted(peers, key=_reading_order)):
            orders[n.position] = i
    return orders


def evidence_target(capture: Capture, node: Node) -> Node:
    """The node to record: a click on an identity-empty container goes to its first labeled descendant.

    Guards: the container's subtree has no competing interactive node, and the descendant's centre
    lies inside the container.
    """
    if node.label or node.test_id:
        return node
    descendants = [d for d in node.iterdescendants() if isinstance(d, Node)]
    if any(d.actionable for d in descendants):
        return node
    x, y, w, h = node.rect
    for d in descendants:
        if d.label:
            cx, cy = d.center
            if x <= cx <= x + w and y <= cy <= y + h:
                return d
            return node
    return node


def record_evidence(capture: Capture, node: Node) -> TargetEvidence:
    """The identity evidence of ``node`` in ``capture`` (before the self-check): what singles it out,
    first that applies (design §5) — its id, its label, its own key text, its role inside its anchor,
    the only node of its role in its anchor or scope; else nothing verifies it."""
    unique_id = node.test_id if id_is_unique(capture, node) else None
    x, y, w, h = node.rect
    label = name_of(node)
    r = bases.Recording(capture, node, anchor_of(capture, node))
    if unique_id is None and not label:
        bases.record(r, bases.Stage.OWN)  # its own key text, else alone of its role in its anchor or scope
    found = r.found
    # a cell of a table or grid, or a control in one, is its row (by what the row says) and, nameless,
    # its column (design §5 "Cells"): a unique "Engineer" today is one of two once a row is added
    cell = cell_of(node) if unique_id is None else None
    row = row_of(cell) if cell is not None else None
    row_text = normalize(row.key_text) if row is not None else None
    column = None
    if row is not None and row_text:
        if found is None:
            found = row, Anchor(row.role, text=row_text)
        if found[0] is row and not label and not (r.basis and bases.REGISTERED[r.basis].whole):
            column = column_of(node)
    if unique_id is None and not label and r.basis is None and column is None:
        r.found = found
        found = bases.record(r, bases.Stage.NAMELESS).found  # a class of its own, else its neighbour's container
    anchor = found[1] if found is not None else None
    if found is not None and found[1].id is not None and not id_is_unique(capture, found[0]):
        anchor = Anchor(found[1].role, found[1].label, found[1].text)
    text = normalize((node.content or "")[:KEY_TEXT_CHARS])
    ev = TargetEvidence(
        role=node.role,
        id=unique_id,
        dom_id=unique_id is not None and node.has(F_DOM_ID),
        label=label,
        anchor=anchor,
        placeholder=normalize(node.placeholder),
        text=text if text != label else None,
        name=node.form_name,
        input_type=node.input_type,
        ancestry=ancestry_of(node),
        sibling=sibling_of(node),
        scroll_region=region_identity(region_of(node)),
        rect=Rect(x, y, w, h),
        screen=capture.screen,
        verification=VERIFIED if (unique_id or label or anchor or r.basis) else UNVERIFIABLE,
        basis=r.basis,
        column=column,
        **r.payload,  # type: ignore[arg-type]
    )
    ev = TargetEvidence(**{**ev.__dict__, "viewport_order": viewport_order(capture, node, ev)})
    # what is written is what a reader will see: pass through the codec (bounds, normalization)
    return decode(encode(ev))


def _mismatches(node: Node, ev: TargetEvidence) -> list[str]:
    out: list[str] = []
    if ev.role is not None and node.role != ev.role:
        out.append(f"role: recorded {ev.role!r}, found {node.role!r}")
    if ev.id is not None and node.test_id != ev.id:
        out.append(f"id: recorded {ev.id!r}, found {node.test_id!r}")
    if ev.id is None and ev.label is not None and normalize(node.label) != ev.label:
        out.append(f"label: recorded {ev.label!r}, found {normalize(node.label)!r}")
    if ev.id is None and ev.label is None and (way := bases.of(ev)) is not None and (said := way.mismatch(node, ev)):
        out.append(said)  # what its basis recorded and the node does not say
    if ev.anchor is not None and find_anchor(node, ev.anchor) is None:
        a = ev.anchor
        near = next((x for x in node.ancestors() if x.role == a.role), None)
        found = f"{near.role} {normalize(near.key_text) or normalize(near.label)!r}" if near is not None else "none"
        out.append(f"anchor: recorded {a.role} {a.text or a.label or a.id!r}, found {found}")
    if not fixed_ancestors_hold(node, ev.ancestry):
        fixed = tuple(a for a in ev.ancestry if is_fixed(a.role, a.label))
        places = tuple(
            Ancestor(a.role, normalize(a.label)) for a in node.ancestors() if is_fixed(a.role, normalize(a.label))
        )
        out.append(f"ancestry: recorded {chain_text(fixed)}, found {chain_text(places[: max(len(fixed), 1)])}")
    return out


def verify(capture: Capture, selector: Selector, ev: TargetEvidence) -> Verdict:
    """design §5 verification; only a ``verified`` verdict may act, on ``verdict.target``."""
    if ev.verification == UNVERIFIABLE:  # (basis position: acted on while its look-alikes are the recorded ones)
        placed = by_place(capture, selector, ev)
        if placed is None:
            return Verdict(DivergenceKind.IDENTITY_UNVERIFIABLE, mismatches=changed(capture, selector, ev))
        return Verdict(VERIFIED, 1, placed, placed, [placed], [placed], Resolution.by_evidence(1, "position"))
    alternative, matches = match_set(capture, selector)
    if not matches:
        return Verdict(DivergenceKind.SELECTOR_MISS, 0)
    if ev.look_alikes is not None and (fewer := recounted(capture, selector, ev)):  # a look-alike gone or added
        return Verdict(DivergenceKind.IDENTITY_UNVERIFIABLE, len(matches), mismatches=fewer)
    resolution = resolve_matches(matches, alternative)
    winner = resolution.winner
    members = identity_members(capture, ev, matches)

    def make(kind: str, **extra: Any) -> Verdict:
        return Verdict(kind, match_count=len(matches), winner=winner, matches=matches, members=members, **extra)

    if not members:
        composed = {id(c): c for c in (composed_member(m, ev) for m in matches) if c is not None}
        if len(composed) == 1:  # the role moved within its composed control: that control, as drift
            (target,) = composed.values()
            if winner is None or winner in (halves(target) or ()):
                moved = f"composed control: the recorded {ev.role} is now {describe(target)}"
                by = resolution if winner is not None else Resolution.by_evidence(len(matches), "identity")
                drift = [moved, *ancestry_drift(target, ev)]
                return make(VERIFIED, target=target, resolution=by, drift=drift)
        probe = winner if winner is not None else matches[0]
        return make(DivergenceKind.IDENTITY_MISMATCH, resolution=resolution, mismatches=_mismatches(probe, ev))
    if len(members) == 1:
        target = members[0]
        if winner is target:
            return make(VERIFIED, target=target, resolution=resolution, drift=_drift(target, ev))
        if winner is None:
            by = Resolution.by_evidence(len(matches), "identity")
            return make(VERIFIED, target=target, resolution=by, drift=_drift(target, ev))
        return make(
            DivergenceKind.IDENTITY_MISMATCH,
            resolution=resolution,
            mismatches=[f"the selector resolves to {winner.ref}, the recorded element is {target.ref}"],
        )
    implied = implied_by_identity(selector.expanded()[alternative], ev)
    isolated, signal = _isolate(capture, matches, members if implied else None, members, ev)
    if isolated is None:
        return make(DivergenceKind.IDENTITY_UNVERIFIABLE, resolution=resolution)
    if winner is None:
        assert signal is not None
        by = Resolution.by_evidence(len(matches), signal)
        return make(VERIFIED, target=isolated, resolution=by, drift=_drift(isolated, ev))
    if winner is isolated:
        return make(VERIFIED, target=isolated, resolution=resolution, drift=_drift(isolated, ev))
    return make(
        DivergenceKind.IDENTITY_MISMATCH,
        resolution=resolution,
        mismatches=[f"the selector resolves to {winner.ref}, the recorded element is {isolated.ref}"],
    )


def _isolate(
    capture: Capture, matches: list[Node], peers: list[Node] | None, members: list[Node], ev: TargetEvidence
) -> tuple[Node | None, str | None]:
    """The one member its order among its anchor's nameless controls, else the recorded sibling, else
    viewport order, singles out; ``peers``: the tree's identity members when the caller knows them."""
    if (way := bases.of(ev)) is not None and (told := way.isolate(members, ev)) is not None:
        return told
    if ev.sibling is not None:
        by_sibling = [m for m in members if sibling_of(m) == ev.sibling]
        if len(by_sibling) == 1:
            return by_sibling[0], "sibling"
    if ev.viewport_order is not None:
        regions: dict[Node, Node | None] = {}
        same_region = [m for m in members if region_identity(region_of(m, regions)) == ev.scroll_region]
        tree = peers if peers is not None else _tree_members(capture, ev, matches, members)
        orders = viewport_orders(capture, ev, tree) if same_region else {}
        by_order = [m for m in same_region if orders.get(m.position) == ev.viewport_order]
        if len(by_order) == 1:
            return by_order[0], "viewportOrder"
    return None, None


def implied_by_identity(chain: Chain, ev: TargetEvidence) -> bool:
    """Whether every node carrying the recorded identity matches ``chain``: one link of exact role and
    label terms that the identity itself requires (never with a placeholder-named field, whose label
    may differ). Then the selector's identity members are the tree's, and none is looked for again."""
    if len(chain) != 1 or ev.role is None or ev.id is not None or (ev.placeholder and ev.placeholder == ev.label):
        return False
    for t in chain[0]:
        if t.op != "=" or not isinstance(t.value, str):
            return False
        if not (
            (t.key == "role" and fold(t.value) == ev.role) or (t.key == "label" and fold(t.value) == fold(ev.label))
        ):
            return False
    return True


def _tree_members(capture: Capture, ev: TargetEvidence, matches: list[Node], members: list[Node]) -> list[Node]:
    """The tree's identity members, judging only the nodes ``matches`` did not already decide."""
    decided, chosen = set(matches), set(members)  # (a capture keeps its nodes: one proxy each)
    pool = capture.by_value("role", ev.role) if ev.role else []
    return [n for n in pool if (n in chosen if n in decided else carries_identity(n, ev))]


def self_check(capture: Capture, selector: Selector, node: Node, ev: TargetEvidence) -> TargetEvidence:
    """Mark evidence ``verified`` only if replay's verification isolates exactly ``node``.

    Position never verifies identity: a positional selector (``nth``) over look-alikes that the
    evidence itself cannot tell apart is ``unverifiable``, with basis ``position`` and the look-alikes it
    was told from (``tree.bases.position``): replay acts on that place while they are the ones recorded.
    """
    if ev.verification == UNVERIFIABLE:
        return position.place(capture, selector, node, ev)
    verdict = verify(capture, selector, ev)
    isolated = verdict.verified and verdict.target is node
    if isolated and is_positional(selector):
        members = identity_members(capture, ev)
        isolated = members == [node] or (len(members) > 1 and ev.anchor is not None)
        if isolated and len(members) > 1:  # told from look-alikes in its anchor by its place: count them
            return TargetEvidence(**{**ev.__dict__, "look_alikes": look_alikes(capture, selector)})
    if isolated:
        return ev
    return position.place(capture, selector, node, TargetEvidence(**{**ev.__dict__, "verification": UNVERIFIABLE}))
