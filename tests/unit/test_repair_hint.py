"""Every cell of the repairHint table (SPEC §6), including both fail-safes."""

from __future__ import annotations

import pytest

from replay.drivers.web.capture import page_path
from replay.engine.hint import RepairHint, recorded_container, repair_hint
from replay.script.evidence import Ancestor, Anchor, Region, Screen, TargetEvidence
from replay.tree.model import Capture
from replay.tree.verdict import DivergenceKind

from .treebuild import N, capture

SELECTOR_MISS, IDENTITY_MISMATCH = DivergenceKind.SELECTOR_MISS, DivergenceKind.IDENTITY_MISMATCH
IDENTITY_UNVERIFIABLE, ACTION_FAILURE = DivergenceKind.IDENTITY_UNVERIFIABLE, DivergenceKind.ACTION_FAILURE
RECORD_AND_HEAL, STATE_REPAIR = RepairHint.RECORD_AND_HEAL, RepairHint.STATE_REPAIR
CAUTION, MANUAL = RepairHint.CAUTION, RepairHint.MANUAL

EV = TargetEvidence(role="button", label="Place order", ancestry=(Ancestor("form", "Checkout"), Ancestor("main")))
WITH_FORM = capture(
    N("main")(N("form", label="Checkout")(N("textbox", label="Name"), N("button", label="Submit order")))
)
WITHOUT_FORM = capture(
    N("main")(N("heading", label="Before you continue"), N("button", label="Continue"), N("paragraph", text="x"))
)
SPARSE = capture(N("generic"), N("generic"))


@pytest.mark.parametrize("kind", [SELECTOR_MISS, IDENTITY_MISMATCH, IDENTITY_UNVERIFIABLE, ACTION_FAILURE])
def test_a_step_without_recorded_evidence_is_manual(kind: str) -> None:
    assert repair_hint(kind, None, WITH_FORM) == MANUAL


@pytest.mark.parametrize("kind", [SELECTOR_MISS, IDENTITY_MISMATCH, ACTION_FAILURE])
def test_an_unavailable_capture_is_manual(kind: str) -> None:
    assert repair_hint(kind, EV, None) == MANUAL


@pytest.mark.parametrize("kind", [SELECTOR_MISS, IDENTITY_MISMATCH, ACTION_FAILURE])
def test_a_sparse_capture_is_manual(kind: str) -> None:
    assert repair_hint(kind, EV, SPARSE) == MANUAL


def test_selector_miss_with_container_present_is_record_and_heal() -> None:
    assert repair_hint(SELECTOR_MISS, EV, WITH_FORM) == RECORD_AND_HEAL


def test_selector_miss_with_container_absent_is_state_repair() -> None:
    assert repair_hint(SELECTOR_MISS, EV, WITHOUT_FORM) == STATE_REPAIR


def test_identity_mismatch_is_caution() -> None:
    assert repair_hint(IDENTITY_MISMATCH, EV, WITH_FORM) == CAUTION
    assert repair_hint(IDENTITY_MISMATCH, EV, WITHOUT_FORM) == CAUTION


def test_identity_unverifiable_is_manual() -> None:
    assert repair_hint(IDENTITY_UNVERIFIABLE, EV, WITH_FORM) == MANUAL


def test_action_failure_with_container_present_is_record_and_heal() -> None:
    assert repair_hint(ACTION_FAILURE, EV, WITH_FORM) == RECORD_AND_HEAL


def test_action_failure_with_container_absent_is_manual() -> None:
    assert repair_hint(ACTION_FAILURE, EV, WITHOUT_FORM) == MANUAL


def test_no_derivable_container_is_manual() -> None:
    bare = TargetEvidence(role="button", label="Go")
    assert recorded_container(bare) is None
    assert repair_hint(SELECTOR_MISS, bare, WITH_FORM) == MANUAL


def test_container_is_the_scroll_region_first() -> None:
    ev = TargetEvidence(
        role="button",
        label="Go",
        ancestry=(Ancestor("form", "Checkout"),),
        scroll_region=Region("region", "Order form"),
    )
    c = recorded_container(ev)
    assert c is not None and (c.source, c.role, c.label) == ("scrollRegion", "region", "Order form")


def test_container_is_then_the_nearest_labeled_ancestor() -> None:
    ev = TargetEvidence(
        role="button", label="Go", ancestry=(Ancestor("group"), Ancestor("form", "Checkout"), Ancestor("main"))
    )
    c = recorded_container(ev)
    assert c is not None and (c.role, c.label) == ("form", "Checkout")


def test_container_is_then_the_nearest_landmark_ancestor() -> None:
    ev = TargetEvidence(
        role="button", label="Go", ancestry=(Ancestor("group"), Ancestor("navigation"), Ancestor("main"))
    )
    c = recorded_container(ev)
    assert c is not None and (c.source, c.role) == ("ancestry-landmark", "navigation")


def test_container_is_last_the_recorded_page_present_iff_the_path_is_the_same() -> None:
    ev = TargetEvidence(role="button", label="Go", screen=Screen("/page.html", "T"))
    assert recorded_container(ev) is not None
    assert repair_hint(SELECTOR_MISS, ev, WITH_FORM) == RECORD_AND_HEAL  # url path /page.html
    other = capture(N("button", label="a"), N("button", label="b"), N("button", label="c"), url="http://x/other.html")
    assert repair_hint(SELECTOR_MISS, ev, other) == STATE_REPAIR


def test_a_page_path_is_recorded_relative_to_the_opened_base_when_it_lies_under_it() -> None:
    assert page_path("http://h/staging/shop/checkout.html", "http://h/staging/shop/index.html") == "checkout.html"
    assert page_path("http://h/staging/shop/a/b.html", "http://h/staging/shop/") == "a/b.html"
    assert page_path("http://h/elsewhere/x.html", "http://h/staging/shop/index.html") == "/elsewhere/x.html"
    assert page_path("http://h/staging/shop/x.html") == "/staging/shop/x.html"


def test_the_same_page_under_another_base_url_is_still_the_recorded_container() -> None:
    recorded_at = "http://h/staging/shop/index.html"
    ev = TargetEvidence(
        role="button", label="Go", screen=Screen(page_path("http://h/staging/shop/page.html", recorded_at))
    )

    def prod(base: str) -> Capture:
        buttons = (N("button", label="a"), N("button", label="b"), N("button", label="c"))
        return capture(*buttons, url="http://h/prod/page.html", base=base)

    assert repair_hint(SELECTOR_MISS, ev, prod("http://h/prod/index.html")) == RECORD_AND_HEAL
    assert repair_hint(SELECTOR_MISS, ev, prod("http://h/prod/other/index.html")) == STATE_REPAIR


ROWS_EV = TargetEvidence(
    role="button",
    label="Delete",
    anchor=Anchor("row", label="Order A-102"),
    ancestry=(Ancestor("cell"), Ancestor("row", "Order A-102"), Ancestor("table", "Orders")),
    scroll_region=Region("region", "Orders"),
)


def _orders(*rows: str, button: str = "Delete") -> object:
    return capture(
        N("region", label="Orders", scrollable=True)(
            N("table", label="Orders")(*(N("row", label=r)(N("cell")(N("button", label=button))) for r in rows))
        )
    )


def test_container_is_the_recorded_anchor_first() -> None:
    c = recorded_container(ROWS_EV)
    assert c is not None and (c.source, c.role, c.anchor) == ("anchor", "row", Anchor("row", label="Order A-102"))


def test_selector_miss_whose_recorded_row_is_gone_is_state_repair() -> None:
    # the other rows' "Delete" buttons are look-alikes in the same table and region: doing the
    # step on one of them would act on another row
    assert repair_hint(SELECTOR_MISS, ROWS_EV, _orders("Order A-100", "Order A-101")) == STATE_REPAIR


def test_selector_miss_in_the_recorded_row_is_record_and_heal() -> None:
    renamed = _orders("Order A-100", "Order A-102", button="Remove")
    assert repair_hint(SELECTOR_MISS, ROWS_EV, renamed) == RECORD_AND_HEAL
