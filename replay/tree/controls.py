"""What one control is (docs/design.md §5 "One control"): the one place that says when several nodes are one thing a
person acts on — a custom element and the control in its shadow root (a *composed* control), nodes on one
root-to-leaf path of which one is the control (a calendar's day ``gridcell`` around its ``button``, both
saying "20"), a wrapper around one control and no other. Matching, binding, verification and the healer
ask here.

Composed controls (design §5): a custom element and the one control inside it (in its shadow root) are
one control. A kit's major version may move the role from the host into its shadow root or back — Ionic
6's ``<ion-select role="button" id="size">`` is Ionic 8's role-less ``<ion-select id="size">`` around
the ``<button id="ion-sel-0">`` of its shadow root — and that is drift, not another element: the identity
recorded on either matches the other.
"""

from __future__ import annotations

from replay.tree.model import Node
from replay.tree.roles import EDITABLE

# what a component is (the items a select or a menu holds are its content, not its control)
CONTROL_ROLES = EDITABLE | {"button", "link", "tab", "checkbox", "switch", "radio", "slider", "spinbutton"}


def is_custom(node: Node) -> bool:
    """A custom element (web): its tag has a hyphen (``ion-select``, ``md-switch``)."""
    return "-" in node.tag_name


def _host_of(node: Node) -> Node | None:
    """The nearest custom element around ``node``."""
    return next((a for a in node.ancestors() if is_custom(a)), None)


def partner(node: Node) -> Node | None:
    """The other half of ``node``'s composed control: for a custom element, the one node of a control's
    role whose nearest custom element it is; for such a node, that custom element. None when there is no
    such pair (no host, or a host around several controls: a form, a list of them)."""
    if is_custom(node):
        inner = [d for d in node.iterdescendants() if isinstance(d, Node) and d.role in CONTROL_ROLES]
        own = [d for d in inner if _host_of(d) is node]
        return own[0] if len(own) == 1 and len(inner) == 1 else None
    host = _host_of(node)
    return host if host is not None and partner(host) is node else None


def halves(node: Node) -> tuple[Node, Node] | None:
    """``(host, inner)`` of the composed control ``node`` is half of, else None."""
    other = partner(node)
    if other is None:
        return None
    return (node, other) if is_custom(node) else (other, node)


def is_chain(nodes: list[Node]) -> bool:
    """Whether nodes (document order) lie on one root-to-leaf path."""
    for outer, inner in zip(nodes, nodes[1:], strict=False):
        if outer not in inner.iterancestors():
            return False
    return True


def one_control(matches: list[Node]) -> Node | None:
    """The outermost of ``matches`` when every other lies inside it — one control matched at two levels
    (a calendar's day ``gridcell`` and its ``button``, both saying "20") — else None."""
    if not matches:
        return None
    outer = matches[0]
    return outer if all(outer in m.ancestors() for m in matches[1:]) else None


def within(inner: Node, outer: Node) -> bool:
    """Whether ``inner`` lies inside ``outer``."""
    parent = inner.getparent()
    while parent is not None:
        if parent is outer:
            return True
        parent = parent.getparent()
    return False


def wraps(outer: Node | None, node: Node) -> bool:
    """Whether ``outer`` is a wrapper of ``node`` and of no other control — one control (a calendar's
    ``gridcell`` around its day ``button``): acting on ``node`` is acting on what the selector matched."""
    if outer is None or not within(node, outer):
        return False
    return not any(isinstance(n, Node) and n is not node and n.actionable for n in outer.iterdescendants())


def control_of(node: Node) -> Node:
    """What a person pressed when they pressed ``node``: ``node`` itself, or — when it has no role of its own
    (jQuery UI's tab holds a link made presentational) — the nearest ancestor, two levels up at most, of a
    control's role that wraps it and no other control (the tab, not the text inside it). A press on either
    half of a composed control, or on a roleless part inside its host, is a press of that control as one
    (``as_one``): Ionic 6's hidden ``<input>`` over its ``ion-checkbox`` and the ``<label>`` in its
    ``ion-select`` are the host the snapshot lists."""
    if (pair := halves(node)) is not None:
        return as_one(pair)
    if node.role != "generic":
        return node
    for outer in node.ancestors()[:2]:
        if (pair := halves(outer)) is not None:
            return as_one(pair)
        if outer.role in PRESSED_ROLES and outer.actionable and wraps(outer, node):
            return outer
    return node


def as_one(pair: tuple[Node, Node]) -> Node:
    """The half a composed control ``(host, inner)`` is pressed as: the host where it has the control's role
    (Ionic 6's ``<ion-select role="button">``), else the control inside it (Ionic 8's, Shoelace's) — and a
    field's own input always, where typed text goes."""
    host, inner = pair
    return host if host.role in CONTROL_ROLES - EDITABLE and inner.role not in EDITABLE else inner


# what a person presses: a control, or an item of a list, a menu or a tree (Shoelace's option around its label)
PRESSED_ROLES = CONTROL_ROLES | {"option", "menuitem", "menuitemcheckbox", "menuitemradio", "treeitem"}
