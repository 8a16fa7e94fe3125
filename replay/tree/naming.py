"""Which labels name a place (SPEC §5, §6): light (no lxml), read by verification and by repairHint."""

from __future__ import annotations

from replay.script.text import reads_as_content

# rows and cells are named by what they hold (their data): their names corroborate, their anchor
# (key text, SPEC §5) is what pins one when it matters
CONTENT_NAMED = frozenset(
    {"row", "listitem", "treeitem", "option", "article", "gridcell", "cell", "columnheader", "rowheader"}
)


def names_a_place(role: str, label: str | None) -> bool:
    """Whether an ancestor's label says where a node is: not a row's or cell's name, nor a label that
    reads as content ("3 unread", a sentence)."""
    return label is not None and role not in CONTENT_NAMED and not reads_as_content(label)
