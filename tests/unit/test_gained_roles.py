"""A wrapper that gained a role is drift (SPEC §5), and one control matched at two levels is one match:
the rules Vanilla Calendar Pro 2 → 3 asked for (its ``#cal`` became a ``group`` named "Start", each day
a ``gridcell`` around a ``button`` both saying "20"), on hand-built screens of that shape."""

from __future__ import annotations

from replay.engine.heal_choice import decide
from replay.engine.hint import container_present, container_present_for, recorded_container
from replay.script.effect import Fact
from replay.script.evidence import Ancestor, Anchor, Rect, TargetEvidence
from replay.tree.anchors import find_anchor
from replay.tree.controls import one_control
from replay.tree.model import Capture, Node

from .treebuild import N, capture

ARROW = TargetEvidence(
    role="button",
    css_class="cal-next",
    basis="attribute",
    anchor=Anchor("generic", id="cal", dom_id=True),
    ancestry=(Ancestor("generic", "Start"), Ancestor("main")),
    rect=Rect(256, 124, 24, 24),
)
DAY = TargetEvidence(
    role="button",
    label="20",
    ancestry=(Ancestor("generic", "Start"), Ancestor("main")),
    sibling=30,
    rect=Rect(211, 256, 34, 30),
    effect=(Fact("appeared", "status", "Start: 2026-06-20"),),
)


def calendar(role: str, *days: N) -> Capture:
    return capture(N("main")(N(role, label="Start", id="cal", dom_id=True)(N("grid")(N("row")(*days)))))


def cell(day: int, *, wrapped: N | None = None) -> N:
    label = f"June {day}, 2026"
    x = 40 + 40 * (day % 7)
    button = wrapped or N("button", label=label, text=str(day), rect=(x, 256, 34, 30))
    return N("gridcell", label=label, text=str(day), rect=(x, 256, 34, 30), actionable=True)(button)


def node(cap: Capture, role: str, label: str) -> Node:
    return next(n for n in cap.nodes if n.role == role and n.label == label)


def test_a_generic_anchor_recorded_by_its_id_is_that_node_whatever_role_it_gained() -> None:
    cap = calendar("group", cell(19), cell(20))
    assert container_present(recorded_container(ARROW), cap)  # type: ignore[arg-type]
    assert find_anchor(node(cap, "button", "June 20, 2026"), ARROW.anchor) is not None  # type: ignore[arg-type]


def test_an_anchor_of_another_role_that_changed_is_still_gone() -> None:
    landmark = TargetEvidence(role="button", label="Go", anchor=Anchor("navigation", id="cal", dom_id=True))
    cap = calendar("group", cell(20))
    assert not container_present(recorded_container(landmark), cap)  # type: ignore[arg-type]


def test_a_labelled_generic_ancestor_that_gained_a_role_is_the_recorded_container() -> None:
    cap = calendar("group", cell(19), cell(20))
    container = recorded_container(DAY)
    assert container is not None and container.label == "Start"
    assert container_present_for(container, node(cap, "button", "June 20, 2026"), cap)


def test_one_control_matched_at_two_levels_is_its_outer_node() -> None:
    cap = calendar("group", cell(19), cell(20))
    outer, inner = node(cap, "gridcell", "June 20, 2026"), node(cap, "button", "June 20, 2026")
    assert one_control([outer, inner]) is outer
    assert one_control([outer, node(cap, "button", "June 19, 2026")]) is None


def test_caution_acts_on_the_one_control_inside_what_the_selector_matched() -> None:
    cap = calendar("group", cell(19), cell(20), cell(21))
    d = decide("caution", DAY, cap, matched=node(cap, "gridcell", "June 20, 2026"))
    assert d.acts and d.node is not None and (d.node.role, d.node.label) == ("button", "June 20, 2026")


def test_caution_refuses_a_candidate_inside_a_match_that_holds_other_controls() -> None:
    cap = calendar("group", cell(19), cell(20), cell(21))
    row = next(n for n in cap.nodes if n.role == "row")
    assert not decide("caution", DAY, cap, matched=row).acts
