"""Two screens SPEC §6's rules are checked on, by the unit tests and by scripts/calibrate's fit (which
must not trade them for a wider margin on the drift corpus)."""

from __future__ import annotations

from replay.script.evidence import Ancestor, Anchor, Rect, TargetEvidence
from replay.tree.model import Capture, Node

from .treebuild import N, capture

RECORDED = TargetEvidence(
    role="button",
    label="Place order",
    ancestry=(Ancestor("form", "Checkout"), Ancestor("main")),
    sibling=2,
    rect=Rect(20, 400, 100, 20),
)


def resorted_rows() -> tuple[Capture, TargetEvidence, list[Node]]:
    """Bob's "Delete", renamed "Remove", on re-sorted rows: (screen, evidence, Bob's "Remove")."""

    def row(name: str, y: float) -> N:
        return N("listitem", text=f"{name} Remove")(
            N("generic", text=name, rect=(0, y, 40, 20)), N("button", label="Remove", rect=(50, y, 60, 20))
        )

    cap = capture(N("list", label="Members")(row("Carol", 0), row("Alice", 30), row("Bob", 60)))
    bob_delete = TargetEvidence(
        role="button",
        label="Delete",
        anchor=Anchor("listitem", text="Bob"),
        ancestry=(Ancestor("listitem"), Ancestor("list", "Members")),
        sibling=1,
        rect=Rect(50, 30, 60, 20),  # where Bob's row was
    )
    bob = [n for n in cap.nodes if n.label == "Remove" and n.parent_node.key_text == "Bob"]  # type: ignore[union-attr]
    return cap, bob_delete, bob


def renamed_submit() -> tuple[Capture, TargetEvidence, list[Node]]:
    """ "Place order", renamed "Submit order", beside a "Cancel": (screen, evidence, the renamed one)."""
    cap = capture(
        N("main")(
            N("form", label="Checkout")(
                N("textbox", label="Name", rect=(20, 300, 100, 20)),
                N("button", label="Cancel", rect=(140, 400, 100, 20)),
                N("button", label="Submit order", rect=(20, 400, 100, 20)),
            ),
            N("link", label="Place an order by phone", rect=(20, 700, 100, 20)),
        )
    )
    return cap, RECORDED, [n for n in cap.nodes if n.label == "Submit order"]


def deleted_answer() -> tuple[Capture, TargetEvidence]:
    """A dialog whose recorded "Yes, cancel it" was deleted; its "Keep it" closes the dialog too: a
    deletion, where no heal is right (the calibration's negative, SPEC §8)."""
    cap = capture(
        N("main")(
            N("paragraph", text="Order 7 is open", rect=(20, 40, 200, 20)),
            N("dialog", label="Cancel order 7?")(
                N("paragraph", text="This cannot be undone.", rect=(420, 300, 300, 20)),
                N("button", label="Keep it", rect=(420, 360, 100, 30)),
            ),
        )
    )
    yes = TargetEvidence(
        role="button",
        label="Yes, cancel it",
        ancestry=(Ancestor("dialog", "Cancel order 7?"), Ancestor("main")),
        sibling=2,
        rect=(Rect(540, 360, 120, 30)),
    )
    return cap, yes
