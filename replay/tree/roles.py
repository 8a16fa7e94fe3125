"""Role families (SPEC §8): roles a widget library moves between across versions without the node
becoming another kind of thing. A candidate of the recorded role's family keeps the role component
of its score, and the built-in healer takes it as having the recorded role. One home for the table.
"""

from __future__ import annotations

from replay.tree.model import Node

FAMILIES: tuple[frozenset[str], ...] = (
    frozenset({"cell", "gridcell"}),
    frozenset({"columnheader", "rowheader"}),
    frozenset({"listitem", "option", "row"}),  # items
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
