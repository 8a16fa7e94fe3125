"""Where a node sits (design §5): its scroll region, its ancestry and sibling index, and which of its
ancestors say where it is (labeled ones, landmarks, overlays) rather than how it is wrapped."""

from __future__ import annotations

from replay.script.evidence import MAX_ANCESTRY, Ancestor, Region, TargetEvidence
from replay.script.text import normalize
from replay.tree.model import Capture, Node
from replay.tree.naming import names_a_place


def region_of(node: Node, cache: dict[Node, Node | None] | None = None) -> Node | None:
    """The nearest scrollable ancestor element, or None for the page itself.

    The document is not a region: a page-level scroller is no container (every screen has one).
    ``cache`` (node → region; a capture keeps one proxy per node) lets a caller scoring many nodes
    derive each from its parent's.
    """
    if cache is not None and node in cache:
        return cache[node]
    parent = node.parent_node
    if parent is None or parent.parent_node is None:
        found = None
    elif parent.scrollable:
        found = parent
    else:
        found = region_of(parent, cache)
    if cache is not None:
        cache[node] = found
    return found


def region_identity(region: Node | None) -> Region | None:
    """The ``scrollRegion`` evidence of a region node."""
    if region is None:
        return None
    return Region(region.role, normalize(region.label), region.test_id)


def ancestry_of(node: Node, cache: dict[int, tuple[Ancestor, ...]] | None = None) -> tuple[Ancestor, ...]:
    """Up to 8 ancestors, nearest first, never the document root (``cache`` as in ``region_of``)."""
    if cache is not None and node.position in cache:
        return cache[node.position]
    parent = node.parent_node
    if parent is None or parent.parent_node is None:
        chain: tuple[Ancestor, ...] = ()
    else:
        chain = (Ancestor(parent.role, normalize(parent.label)), *ancestry_of(parent, cache))[:MAX_ANCESTRY]
    if cache is not None:
        cache[node.position] = chain
    return chain


def sibling_of(node: Node) -> int:
    """Index among the parent's children in the pruned tree."""
    parent = node.getparent()
    if parent is None:
        return 0
    for i, child in enumerate(parent):
        if child is node:
            return i
    return 0  # pragma: no cover - a node is always among its parent's children


# ancestors that say where a node is, not how it is wrapped: a labeled one, or one of these roles
# (a landmark or an overlay). The rest of the recorded ancestry corroborates (design §5).
FIXED_ROLES = frozenset(
    {
        "main",
        "navigation",
        "banner",
        "contentinfo",
        "complementary",
        "search",
        "form",
        "region",
        "dialog",
        "alertdialog",
    }
)


def is_fixed(role: str, label: str | None) -> bool:
    """Whether an ancestor says where a node is: a landmark or overlay role, or a label that names a
    place — not a row's or cell's name, nor a label that reads as content (design §6: "3 unread")."""
    return role in FIXED_ROLES or names_a_place(role, label)


def _same_place(have: Node, want: Ancestor) -> bool:
    """Whether ``have`` is the recorded fixed ancestor: its label, and its role — or, for a labeled
    container that is no landmark, a role that moved between such roles (``grid`` → ``treegrid``)."""
    if normalize(have.label) != want.label:
        return False
    return have.role == want.role or not (have.role in FIXED_ROLES or want.role in FIXED_ROLES)


def fixed_ancestors_hold(node: Node, ancestry: tuple[Ancestor, ...]) -> bool:
    """The recorded ancestry's fixed entries (labeled ancestors, landmarks) are still the node's
    ancestors, in order, nearest first; unlabeled wrappers between them may come, go or change role."""
    have = node.ancestors()
    i = 0
    for want in ancestry:
        if not is_fixed(want.role, want.label):
            continue
        while i < len(have) and not _same_place(have[i], want):
            if is_fixed(have[i].role, normalize(have[i].label)) and have[i].role == want.role:
                return False  # the same kind of place under another name: another place
            i += 1
        if i == len(have):
            return False
        i += 1
    return True


def ancestry_drift(node: Node, ev: TargetEvidence) -> list[str]:
    """How the node's ancestry differs from the recorded one where it still corroborates (wrappers
    that came, went or changed role): drift, reported on the verdict, never a mismatch."""
    have = tuple(Ancestor(a.role, normalize(a.label)) for a in node.ancestors()[:MAX_ANCESTRY])
    if have[: len(ev.ancestry)] == ev.ancestry:
        return []
    return [f"ancestry: recorded {chain_text(ev.ancestry)}, found {chain_text(have[: max(len(ev.ancestry), 1)])}"]


def chain_text(ancestry: tuple[Ancestor, ...]) -> str:
    return " < ".join(f"{a.role} {a.label!r}" if a.label else a.role for a in ancestry) or "none"


def in_place_of(node: Node, other: Capture) -> Node | None:
    """The node of ``other`` at ``node``'s place — the same roles and child indices down from the root
    (a re-rendered element, or another one of its role put where it was)."""
    path: list[tuple[int, str]] = []
    for child in (node, *node.ancestors()):
        parent = child.getparent()
        kids = [c for c in parent if isinstance(c, Node)] if parent is not None else [child]
        path.append((kids.index(child), child.role))
    at: Node = other.nodes[0]
    for index, role in reversed(path):
        kids = [c for c in at if isinstance(c, Node)]
        if index >= len(kids) or kids[index].role != role:
            return None
        at = kids[index]
    return at


def stands_in_place(evidence: TargetEvidence, node: Node) -> bool:
    """Whether ``node`` stands where the recorded element stood — the same place among its parent's children
    (when it has siblings: a list item's only link is at 0 whichever item it is in, "2" and "›" of a pager),
    or over half of its recorded box: a rename keeps its element where it was; another control that does
    the same (a dialog's × for its deleted "Keep it") stands elsewhere (docs/design.md §8)."""
    parent = node.getparent()
    alone = parent is None or sum(1 for c in parent if isinstance(c, Node)) < 2
    return same_place(evidence, None if alone else sibling_of(node), node.rect)


def same_place(evidence: TargetEvidence, sibling: int | None, rect: tuple[float, float, float, float] | None) -> bool:
    """``stands_in_place`` for what is known of an element: its sibling index (None: it says nothing) and its box."""
    if sibling is not None and sibling == evidence.sibling:
        return True
    if evidence.rect is None or rect is None:
        return False
    x, y, w, h = rect
    r = evidence.rect
    across = max(0.0, min(x + w, r.x + r.width) - max(x, r.x)) * max(0.0, min(y + h, r.y + r.height) - max(y, r.y))
    return across > 0.5 * min(w * h, r.width * r.height)
