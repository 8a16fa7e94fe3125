from __future__ import annotations

from replay.script.selector import format_selector
from replay.tree.materialize import materialize

from .treebuild import N, by_label, capture


def sel(cap: object, node: object) -> str:
    m = materialize(cap, node)  # type: ignore[arg-type]
    assert m.selector is not None
    return format_selector(m.selector)


def test_unique_test_id_comes_first_with_role_and_label_as_fallback() -> None:
    cap = capture(N("button", label="Place order", id="place-order"))
    assert sel(cap, by_label(cap, "Place order")) == 'id="place-order" || role=button label="Place order"'


def test_id_is_skipped_when_not_unique() -> None:
    cap = capture(N("button", label="Save", id="x"), N("button", label="Cancel", id="x"))
    assert sel(cap, by_label(cap, "Save")).startswith("role=button")


def test_label_is_used_when_role_and_label_is_not_unique_but_label_is() -> None:
    cap = capture(N("generic", label="Total", actionable=True))
    assert sel(cap, by_label(cap, "Total")).startswith('label="Total"')


def test_placeholder_then_text_are_the_last_candidates() -> None:
    cap = capture(N("textbox", placeholder="Search products"), N("paragraph", text="Hello"))
    assert sel(cap, cap.nodes[1]) == 'placeholder="Search products"'
    assert sel(cap, cap.nodes[2]) == 'text="Hello"'


def test_no_unique_candidate_writes_the_most_specific_matching_one() -> None:
    cap = capture(N("group")(N("button", label="Add")), N("group")(N("button", label="Add")), N("link", label="Add"))
    m = materialize(cap, by_label(cap, "Add", 0))
    assert not m.unique and m.selector is not None
    assert format_selector(m.selector) == 'role=button label="Add"'  # 2 matches beats label's 3


def test_node_without_any_candidate_is_unmaterialized() -> None:
    cap = capture(N("generic", actionable=True))
    assert materialize(cap, cap.nodes[1]).selector is None


def test_recorded_values_keep_dollar_brace_literal_when_written() -> None:
    from replay.script.selector import escape_templates, parse_selector
    from replay.script.variables import resolve

    cap = capture(N("button", label="Pay ${AMOUNT}"))
    m = materialize(cap, cap.nodes[1])
    assert m.selector is not None and m.unique
    written = format_selector(escape_templates(m.selector))
    assert written.startswith('role=button label="Pay \\\\${AMOUNT}"')
    term = parse_selector(written).alternatives[0].terms[1]
    assert resolve(str(term.value), {}) == "Pay ${AMOUNT}"
