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


def test_a_repeated_control_is_anchored_on_the_row_that_tells_it_apart() -> None:
    cap = capture(
        N("listitem", text="Alice Delete")(N("generic", text="Alice"), N("button", label="Delete")),
        N("listitem", text="Bob Delete")(N("generic", text="Bob"), N("button", label="Delete")),
    )
    m = materialize(cap, by_label(cap, "Delete", 1))
    assert m.unique and not m.positional and m.bases == ("anchor",)
    assert format_selector(m.selector) == 'role=listitem has-text="Bob" >> role=button label="Delete"'  # type: ignore[arg-type]


def test_rows_sharing_their_first_text_anchor_on_their_text_less_their_controls() -> None:
    cap = capture(
        N("listitem", text="Apollo ann Delete")(
            N("generic", text="Apollo"), N("generic", text="ann"), N("button", label="Delete")
        ),
        N("listitem", text="Apollo cy Delete")(
            N("generic", text="Apollo"), N("generic", text="cy"), N("button", label="Delete")
        ),
    )
    m = materialize(cap, by_label(cap, "Delete", 1))
    assert m.unique and not m.positional
    assert format_selector(m.selector) == 'role=listitem has-text="Apollo cy" >> role=button label="Delete"'  # type: ignore[arg-type]


def test_an_unlabeled_control_is_named_by_its_role_inside_its_anchor() -> None:
    cap = capture(
        N("listitem", text="buy milk")(N("generic", text="buy milk"), N("checkbox")),
        N("listitem", text="walk dog")(N("generic", text="walk dog"), N("checkbox")),
    )
    assert sel(cap, cap.nodes[6]) == 'role=listitem has-text="walk dog" >> role=checkbox'


def test_an_anchored_fallback_never_repeats_the_source_already_written() -> None:
    cap = capture(
        N("article", label="Teapot")(N("button", label="Add to cart", id="add-teapot")),
        N("article", label="Kettle")(N("button", label="Add to cart", id="add-kettle")),
    )
    assert sel(cap, cap.nodes[2]) == 'id="add-teapot" || role=article label="Teapot" >> role=button label="Add to cart"'


def test_a_fallback_from_the_same_source_or_with_the_same_value_is_not_written() -> None:
    cap = capture(N("heading", label="Teapot", text="Teapot"))  # a name from content is its text
    assert sel(cap, cap.nodes[1]) == 'role=heading label="Teapot"'


def test_a_placeholder_is_written_as_a_fallback_even_when_it_named_the_field() -> None:
    cap = capture(N("textbox", label="What needs to be done?", placeholder="What needs to be done?"))
    assert (
        sel(cap, cap.nodes[1]) == 'role=textbox label="What needs to be done?" || placeholder="What needs to be done?"'
    )
    cap = capture(N("textbox", label="Todo", placeholder="What needs to be done?"))
    assert sel(cap, cap.nodes[1]) == 'role=textbox label="Todo" || placeholder="What needs to be done?"'


def test_when_nothing_anchors_the_position_is_written_and_flagged() -> None:
    cap = capture(N("group")(N("button", label="Add")), N("group")(N("button", label="Add")), N("link", label="Add"))
    m = materialize(cap, by_label(cap, "Add", 1))
    assert m.positional and m.selector is not None
    assert format_selector(m.selector) == "role=button nth=1"


def test_every_visible_node_is_materializable() -> None:
    cap = capture(N("generic", actionable=True), N("generic", actionable=True))
    m = materialize(cap, cap.nodes[2])
    assert m.positional and m.selector is not None and format_selector(m.selector) == "role=generic nth=1"


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
