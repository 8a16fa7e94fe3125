"""Role families (design §8): roles a widget library moves between across versions without the node
becoming another kind of thing. A candidate of the recorded role's family keeps the role component
of its score, and the built-in healer takes it as having the recorded role. One home for the table.
"""

from __future__ import annotations

from replay.tree.model import Node
from replay.tree.tolerances import allows

FAMILIES: tuple[frozenset[str], ...] = (
    frozenset({"cell", "gridcell"}),
    frozenset({"columnheader", "rowheader"}),
    frozenset({"listitem", "option", "row"}),  # items
    frozenset({"checkbox", "switch"}),  # a toggle (Bootstrap 5 writes its switch role=switch)
)
EDITABLE = frozenset({"textbox", "searchbox", "combobox"})  # kin only while they take text
BECAME_CLICKABLE = frozenset({"button", "link"})  # what a clickable generic became (one way only: a button's
# clickable wrapper is no button, and crediting it would make every wrapper a rival)


def kin_roles(recorded: str | None, found: str) -> bool:
    """Whether a node of role ``found`` may be of ``recorded``'s family (an upper bound of ``kin``:
    what only the node can tell — that it takes text, that it is clickable — is taken as true)."""
    if recorded is None:
        return False
    if recorded == found:
        return True
    if not allows("role-family"):
        return False
    pair = {recorded, found}
    return (
        any(pair <= family for family in FAMILIES)
        or pair <= EDITABLE
        or (recorded == "generic" and found in BECAME_CLICKABLE)
    )


def kin(recorded: str | None, node: Node) -> bool:
    """Whether ``node`` has the recorded role or one of its family."""
    if not kin_roles(recorded, node.role) or recorded == node.role:
        return recorded == node.role
    if {recorded, node.role} <= EDITABLE:
        return node.editable
    if recorded == "generic":
        return node.actionable
    return True


# the families a role may move within across a library's major version when the step's recorded effect
# confirms the candidate (design §8, effect-confirmed heals): what is clicked, and what takes text
ACTIONABLE_FAMILY = frozenset({"link", "button", "tab", "menuitem", "treeitem", "option"})
EDITABLE_FAMILY = EDITABLE


def moved_within(recorded: str | None, node: Node) -> bool:
    """Whether ``node`` has the recorded role, one of its family, or one it may have moved to within the
    actionable family (a clickable generic included) or the editable family (a contenteditable generic)."""
    if recorded is None:
        return False
    if kin(recorded, node):
        return True
    if not allows("moved-within-family"):
        return False
    if (recorded in ACTIONABLE_FAMILY or recorded == "generic") and (
        node.role in ACTIONABLE_FAMILY or (node.role == "generic" and node.actionable)
    ):
        return True
    return (recorded in EDITABLE_FAMILY or recorded == "generic") and (
        node.editable and (node.role in EDITABLE_FAMILY or node.role == "generic")
    )


def drawn_elsewhere(node: Node) -> bool:
    """A toggle captured with no box of its own (a hidden input its track or label draws) or under its
    own label (Shoelace's switch: the input sits in the label that draws it, which takes the pointer), or
    a control whose own wrapper takes the pointer for it (a segment button's host over its inner tab): a
    click is pressed through its control's shown part (design §5). Anything else hidden is waited for."""
    if not allows("drawn-elsewhere"):
        return False
    toggle = node.role in ("checkbox", "switch", "radio")
    return (toggle and (not node.visible or node.covered)) or node.through  # (covered: in view, not on top)
