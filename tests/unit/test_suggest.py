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


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from replay.tree.suggest import MIN_SCORE, score  # noqa: E402

ROLES = ["button", "link", "textbox", "generic", "form", "group"]
LABELS = ["Place order", "Submit order", "Place", "Order", "Cancel", ""]


@st.composite
def random_tree(draw: st.DrawFn, depth: int = 0) -> N:
    node = N(
        draw(st.sampled_from(ROLES)),
        label=draw(st.sampled_from(LABELS)),
        rect=(draw(st.integers(0, 1500)), draw(st.integers(0, 3000)), 80, 20),
        scrollable=draw(st.booleans()) if depth < 2 else False,
    )
    if depth < 3:
        node.children = draw(st.lists(random_tree(depth + 1), max_size=4))
    return node


@settings(max_examples=150, deadline=None)
@given(st.lists(random_tree(), min_size=1, max_size=5))
def test_bounded_ranking_equals_scoring_every_node(roots: list[N]) -> None:
    cap = capture(*roots)
    exhaustive = sorted(
        (
            (s, n.position)
            for n in cap.nodes[1:]
            if (n.actionable or n.label)
            for s in [score(cap, n, RECORDED)[0]]
            if s >= MIN_SCORE
        ),
        key=lambda item: (-item[0], item[1]),
    )[:5]
    assert [(s.score, s.node.position) for s in rank(cap, RECORDED)] == exhaustive
