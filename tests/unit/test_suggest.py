from __future__ import annotations

from dataclasses import replace

from replay.script.evidence import Ancestor, Anchor, TargetEvidence
from replay.tree.suggest import WEIGHTS, rank, score

from .rule_trees import RECORDED, renamed_submit, resorted_rows
from .treebuild import N, capture


def test_weights_sum_to_one_without_the_anchor_which_counts_only_when_recorded() -> None:
    assert round(sum(w for k, w in WEIGHTS.items() if k != "anchor"), 6) == 1.0


def test_the_control_in_the_recorded_row_ranks_first_when_rows_moved_and_it_was_renamed() -> None:
    cap, bob_delete, _ = resorted_rows()
    ranked = rank(cap, bob_delete)
    assert ranked[0].node.parent_node.key_text == "Bob" and "anchor" in ranked[0].basis  # type: ignore[union-attr]
    others = [score(cap, n, bob_delete)[0] for n in cap.nodes[1:] if n is not ranked[0].node]
    assert ranked[0].score - max(others) >= 0.1


def test_the_same_placeholder_counts_as_the_same_name() -> None:
    cap = capture(N("textbox", label="Todo", placeholder="What needs to be done?"), N("textbox", label="Other"))
    ev = TargetEvidence(role="textbox", label="New todo", placeholder="What needs to be done?")
    assert rank(cap, ev)[0].node is cap.nodes[1] and "label" in rank(cap, ev)[0].basis


def test_renamed_button_ranks_above_its_neighbours() -> None:
    cap, recorded, _ = renamed_submit()
    ranked = rank(cap, recorded)
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

from replay.tree.suggest import MIN_SCORE  # noqa: E402

ROLES = ["button", "link", "textbox", "generic", "form", "group", "main"]
LABELS = ["Place order", "Submit order", "Place", "Order", "Cancel", "STRASSE", "Checkout", ""]


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


@settings(max_examples=400, deadline=None)
@given(
    st.lists(random_tree(), min_size=1, max_size=5),
    st.sampled_from([*LABELS[:-1], "place ORDER", "Straße"]),
    st.sampled_from([None, Anchor("form", label="Checkout"), Anchor("group", label="Order")]),
)
def test_bounded_ranking_equals_scoring_every_node(roots: list[N], label: str, anchor: Anchor | None) -> None:
    cap = capture(*roots)
    recorded = replace(RECORDED, label=label, anchor=anchor)
    exhaustive = sorted(
        (
            (s, n.position)
            for n in cap.nodes[1:]
            if (n.actionable or n.label)
            for s in [score(cap, n, recorded)[0]]
            if s >= MIN_SCORE
        ),
        key=lambda item: (-item[0], item[1]),
    )[:5]
    assert [(s.score, s.node.position) for s in rank(cap, recorded)] == exhaustive


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=30), st.text(max_size=30))
def test_the_cheap_string_bound_never_undercuts_the_similarity(a: str, b: str) -> None:
    from replay.tree.suggest import quick_similar, similar

    assert quick_similar(a, b) >= similar(a, b)


def test_the_same_form_name_attribute_counts_as_the_same_name() -> None:
    cap = capture(
        N("form", label="Sign in")(
            N("textbox", label="E-mail address", name="email", type="email"),
            N("textbox", label="Password", name="password", type="password"),
        )
    )
    ev = TargetEvidence(
        role="textbox", label="Email", name="email", input_type="email", ancestry=(Ancestor("form", "Sign in"),)
    )
    best = rank(cap, ev)[0]
    assert best.node.form_name == "email" and "label" in best.basis and best.score >= 0.9


def test_a_candidate_of_the_recorded_roles_family_keeps_the_role_component() -> None:
    from replay.tree.suggest import components

    cases = [
        ("cell", N("gridcell", label="Age"), 1.0),
        ("columnheader", N("rowheader", label="Age"), 1.0),
        ("listitem", N("row", label="Age"), 1.0),
        ("textbox", N("searchbox", label="Age", editable=True), 1.0),
        ("combobox", N("textbox", label="Age", editable=True), 1.0),
        ("textbox", N("combobox", label="Age"), 0.0),  # a <select>: it takes no text
        ("generic", N("button", label="Age"), 1.0),  # a clickable generic became a button
        ("button", N("generic", label="Age", actionable=True), 0.0),  # a button's clickable wrapper is no button
        ("button", N("link", label="Age"), 0.0),
    ]
    for recorded, node, role in cases:
        cap = capture(node)
        assert components(cap, cap.nodes[1], TargetEvidence(role=recorded, label="Age"))["role"] == role, recorded


def test_labels_compare_without_case_quotes_punctuation_or_the_spaces_around_them() -> None:
    from replay.tree.suggest import components

    for recorded, found, same in [
        ("'mushrooms'", "mushrooms", True),
        ("Age:", "age", True),
        ("Save  — draft", "save draft", True),
        ("+", "−", False),  # no words: punctuation is all they are
        ("Age: activate to sort column", "Age: Activate to sort", False),  # shares words: similar, not the same
    ]:
        cap = capture(N("button", label=found))
        label = components(cap, cap.nodes[1], TargetEvidence(role="button", label=recorded))["label"]
        assert (label == 1.0) is same and (same or label >= 0.55 or recorded == "+"), (recorded, label)
