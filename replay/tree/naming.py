"""Which labels name a place (design §5, §6): light (no lxml), read by verification and by repairHint."""

from __future__ import annotations

from replay.script.text import reads_as_content

# rows and the like: named by their own key text when they carry no label (design §4, §5 rule 3)
ROW_ROLES = frozenset({"listitem", "row", "treeitem", "option", "article", "gridcell", "cell", "tab", "menuitem"})
# cells and headers of a table or grid: what they are is what they say (design §5 item 3, "Cells")
CELL_ROLES = frozenset({"cell", "gridcell", "columnheader", "rowheader"})
# rows and cells are named by what they hold (their data): their names corroborate, their anchor
# (key text, design §5) is what pins one when it matters (a tab's or menu item's name is what it is)
CONTENT_NAMED = (ROW_ROLES - {"tab", "menuitem"}) | CELL_ROLES


def names_a_place(role: str, label: str | None) -> bool:
    """Whether an ancestor's label says where a node is: not a row's or cell's name, nor a label that
    reads as content ("3 unread", a sentence)."""
    return label is not None and role not in CONTENT_NAMED and not reads_as_content(label)
