"""Rules checked on trees captured from the fixture shop (fixtures/trees/*.json)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.script.selector import format_selector, parse_selector
from replay.tree import snapshot
from replay.tree.identity import evidence_target, record_evidence, self_check, verify
from replay.tree.match import resolve
from replay.tree.materialize import materialize
from replay.tree.model import Capture, build_capture

TREES = Path(__file__).resolve().parents[2] / "fixtures" / "trees"


def load(name: str) -> Capture:
    return build_capture(json.loads((TREES / f"{name}.json").read_text(encoding="utf-8")))


@pytest.fixture(scope="module")
def index() -> Capture:
    return load("shop-index")


@pytest.fixture(scope="module")
def checkout() -> Capture:
    return load("shop-checkout")


def test_nodes_are_in_document_order_with_refs_from_e1(index: Capture) -> None:
    assert [n.position for n in index.nodes] == list(range(len(index.nodes)))
    assert index.nodes[1].ref == "@e1" and index.root.role == "document"


def test_repeated_add_to_cart_buttons_materialize_to_their_ids_anchored_on_their_card_as_fallback(
    index: Capture,
) -> None:
    # role+label is not unique, so it is no fallback; the card it sits in tells it apart
    adds = [n for n in index.nodes if n.label == "Add to cart"]
    assert [format_selector(materialize(index, n).selector) for n in adds] == [  # type: ignore[arg-type]
        'id="add-teapot" || role=article label="Teapot" >> role=button label="Add to cart"',
        'id="add-kettle" || role=article label="Kettle" >> role=button label="Add to cart"',
        'id="add-mug" || role=article label="Mug" >> role=button label="Add to cart"',
    ]


def test_role_and_label_fallback_of_a_repeated_button_is_ambiguous_on_its_own(index: Capture) -> None:
    assert resolve(index, parse_selector('role=button label="Add to cart"')).kind == "ambiguous"


def test_recorded_evidence_of_the_kettle_button_verifies_against_its_own_tree(index: Capture) -> None:
    node = next(n for n in index.nodes if n.test_id == "add-kettle")
    mat = materialize(index, node)
    assert mat.selector is not None
    ev = self_check(index, mat.selector, node, record_evidence(index, node))
    assert ev.verification == "verified" and ev.id == "add-kettle"
    assert [a.role for a in ev.ancestry] == ["article", "listitem", "list", "main"]
    # a selector matching all three is settled by the evidence, never by position
    verdict = verify(index, parse_selector('role=button label="Add to cart"'), ev)
    assert verdict.kind == "verified" and verdict.target is node
    assert verdict.resolution is not None
    assert verdict.resolution.to_dict() == {"kind": "evidence", "matchCount": 3, "signal": "identity"}


def test_label_less_clickable_row_is_recorded_against_its_heading(index: Capture) -> None:
    row = next(
        n for n in index.nodes if n.role == "generic" and n.actionable and (n.content or "").startswith("Order A-100")
    )
    target = evidence_target(index, row)
    assert target.role == "heading" and target.label == "Order A-100"


def test_checkout_form_fields_materialize_to_test_ids(checkout: Capture) -> None:
    email = next(n for n in checkout.nodes if n.label == "Email")
    assert format_selector(materialize(checkout, email).selector) == 'id="email" || role=textbox label="Email"'  # type: ignore[arg-type]


def test_snapshot_text_of_the_checkout_form_scope(checkout: Capture) -> None:
    text = snapshot.render_text(checkout, interactive=True, scope="role=form")
    lines = text.splitlines()
    assert lines[0].startswith("@e") and 'form "Checkout"' in lines[0]
    assert any('button "Place order" id="place-order"' in line for line in lines)
    assert all(line.startswith("  ") for line in lines[1:])


def test_snapshot_scope_that_matches_nothing_is_invalid_args(checkout: Capture) -> None:
    from replay.errors import InvalidArgs

    with pytest.raises(InvalidArgs, match="nothing on screen"):
        snapshot.render_text(checkout, scope="role=dialog")


def test_interactive_snapshot_keeps_an_open_dialog_even_unnamed() -> None:
    from .treebuild import N, capture

    cap = capture(
        N("button", label="Save"),
        N("dialog")(N("textbox", label="Name"), N("button", label="Save")),
        N("dialog", visible=False)(N("button", label="Hidden")),
    )
    lines = snapshot.render_text(cap, interactive=True).splitlines()
    assert lines[1:5] == ['  @e1 button "Save"', "  @e2 dialog", '    @e3 textbox "Name"', '    @e4 button "Save"']
    assert sum(1 for line in lines if " dialog" in line) == 1  # the hidden one is not open


def test_snapshot_text_marks_what_takes_text_as_editable() -> None:
    from .treebuild import N, capture

    cap = capture(N("textbox", label="Body", editable=True), N("button", label="Bold"))  # a rich-text editor
    assert snapshot.line(cap.nodes[1]).endswith("[editable]") and "editable" not in snapshot.line(cap.nodes[2])
