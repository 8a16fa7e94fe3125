from __future__ import annotations

from replay.script.evidence import Ancestor, Rect, TargetEvidence
from replay.tree.suggest import WEIGHTS, rank

from .treebuild import N, capture

RECORDED = TargetEvidence(
    role="button",
    label="Place order",
    ancestry=(Ancestor("form", "Checkout"), Ancestor("main")),
    sibling=2,
    rect=Rect(20, 400, 100, 20),
)


def test_weights_sum_to_one() -> None:
    assert round(sum(WEIGHTS.values()), 6) == 1.0


def test_renamed_button_ranks_above_its_neighbours() -> None:
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
    ranked = rank(cap, RECORDED)
    assert ranked[0].node.label == "Submit order"
    assert ranked[0].score > ranked[1].score
    assert "role" in ranked[0].basis and "ancestry" in ranked[0].basis


def test_ties_are_broken_by_document_order() -> None:
    cap = capture(N("group")(N("button", label="Twin")), N("group")(N("button", label="Twin")))
    ev = TargetEvidence(role="button", label="Twin")
    a, b = rank(cap, ev)[:2]
    assert a.score == b.score and a.node.position < b.node.position


def test_at_most_five_suggestions_each_node_once() -> None:
    cap = capture(*[N("button", label=f"Place order {i}") for i in range(9)])
    ranked = rank(cap, RECORDED)
    assert len(ranked) == 5 and len({s.node.position for s in ranked}) == 5
