"""Identity rules that real widget libraries asked for (issue 33; SPEC §5, §6): what a library
writes into a name, an id or a row's label is not what the element is."""

from __future__ import annotations

from typing import Any

from replay.engine.hint import ContainerSource, recorded_container
from replay.script.evidence import Ancestor, Anchor, TargetEvidence
from replay.script.selector import format_selector, parse_selector
from replay.script.text import reads_as_content
from replay.tree.identity import record_evidence, verify
from replay.tree.materialize import materialize
from replay.tree.suggest import score

from .treebuild import N, by_label, capture


def _header(label: str, text: str) -> N:
    return N("columnheader", label=label, text=text, actionable=True)


def test_a_header_whose_label_is_a_library_instruction_is_named_by_what_it_shows() -> None:
    recorded = capture(
        N("table")(
            N("row")(
                _header("Name: activate to sort", "Name"), _header("Age: activate to sort column ascending", "Age")
            )
        )
    )
    node = by_label(recorded, "Age: activate to sort column ascending")
    ev = record_evidence(recorded, node)
    written = materialize(recorded, node).selector
    assert (
        ev.label is None and ev.key_text == "Age" and written is not None and "activate" not in format_selector(written)
    )
    upgraded = capture(
        N("table")(
            N("row")(_header("Name Name: Activate to sort", "Name"), _header("Age Age: Activate to sort", "Age"))
        )
    )
    assert verify(upgraded, written, ev).verified


def test_a_cell_named_by_its_own_content_keeps_its_label() -> None:
    cap = capture(N("table")(N("row")(N("cell", label="Ada"), N("cell", label="36"))))
    assert record_evidence(cap, by_label(cap, "Ada")).label == "Ada"


def test_a_row_name_from_its_data_is_no_fixed_ancestor() -> None:
    def grid(row_label: str) -> N:
        return N("main")(N("grid")(N("row", label=row_label)(N("gridcell", label="Grace"), N("button", label="Edit"))))

    recorded = capture(grid("Grace 45 Admiral Edit"))
    ev = record_evidence(recorded, by_label(recorded, "Edit"))
    assert ev.ancestry[0] == Ancestor("row", "Grace 45 Admiral Edit")
    v = verify(capture(grid("Grace 45 Lead Edit")), parse_selector('role=button label="Edit"'), ev)
    assert v.verified and v.drift


def test_a_label_that_reads_as_content_is_no_name() -> None:
    assert reads_as_content("Are you sure you want to delete this file now?")
    assert reads_as_content("3 unread") and reads_as_content("No files open") and reads_as_content("Delete Phone?")
    assert not reads_as_content("Checkout") and not reads_as_content("Account settings")


def test_a_recorded_container_is_never_a_row_name_or_a_status_line() -> None:
    ev = TargetEvidence(
        role="button",
        label="Edit",
        ancestry=(Ancestor("row", "Grace 45 Admiral"), Ancestor("region", "3 unread"), Ancestor("form", "People")),
    )
    container = recorded_container(ev)
    assert container is not None and container.source == ContainerSource.ANCESTRY_LABEL and container.label == "People"


def _pickers(suffix: str) -> N:
    return N("form", label="Trip")(
        N("combobox", label="From", id=f"from-{suffix}", dom_id=True),
        N("combobox", label="To", id=f"to-{suffix}", dom_id=True),
    )


def test_a_dom_id_a_library_made_from_the_apps_is_no_identity_of_a_named_node() -> None:
    recorded = capture(_pickers("tomselected"))
    node = by_label(recorded, "From")
    ev = record_evidence(recorded, node)
    written = materialize(recorded, node).selector
    assert (
        ev.id is None and ev.label == "From" and written is not None and "tomselected" not in format_selector(written)
    )
    assert verify(capture(_pickers("ts-control")), written, ev).verified


def test_a_dom_id_extending_another_id_on_the_page_is_the_librarys() -> None:
    cap = capture(
        N("table", id="staff", dom_id=True)(N("row")(N("cell", label="Ada"))),
        N("link", label="Next", id="staff_next", dom_id=True),
    )
    assert record_evidence(cap, by_label(cap, "Next")).id is None


def test_a_test_id_attribute_stays_identity_whatever_its_shape() -> None:
    cap = capture(
        N("button", label="Place order", id="place-order"),
        N("button", label="Cancel order", id="cancel-order"),
    )
    assert record_evidence(cap, by_label(cap, "Place order")).id == "place-order"


def test_an_unnamed_node_keeps_its_dom_id() -> None:
    cap = capture(N("button", id="from-tomselected", dom_id=True), N("button", id="to-tomselected", dom_id=True))
    assert record_evidence(cap, cap.nodes[1]).id == "from-tomselected"


def test_a_nameless_control_in_its_recorded_row_scores_by_its_row_not_by_a_name_it_never_had() -> None:
    def field(name: str, y: int, role: str, label: str = "") -> N:
        box = N(role, label=label, editable=True, rect=(30, y + 20, 180, 24))
        return N("paragraph", text=name, rect=(24, y, 760, 60))(N("generic", text=name, rect=(24, y, 60, 16)), box)

    recorded = capture(N("form", label="Order")(field("Toppings", 80, "textbox"), field("Sauces", 160, "textbox")))
    ev = record_evidence(recorded, [n for n in recorded.nodes if n.role == "textbox"][0])
    assert ev.label is None and ev.anchor == Anchor("paragraph", text="Toppings")
    cap = capture(
        N("form", label="Order")(
            field("Toppings", 80, "searchbox", "Toppings"), field("Sauces", 160, "searchbox", "Sauces")
        )
    )
    mine, rival = score(cap, by_label(cap, "Toppings"), ev)[0], score(cap, by_label(cap, "Sauces"), ev)[0]
    assert mine >= 0.8 and rival <= 0.5


# cells (SPEC §5 "Cells"): a cell, or a control in one, by its row and its column


def _grid(rows: list[tuple[str, ...]], headers: tuple[str, ...] = ("Name", "Role", "Delete")) -> N:
    """A grid whose header row sits in a container of its own (as data grids build it): each column 100 px wide;
    a row's last cell holds a nameless delete button."""
    head = N("rowgroup")(
        N("row")(*(N("columnheader", label=h, rect=(100 * i, 0, 100, 20)) for i, h in enumerate(headers)))
    )
    body = N("rowgroup")(
        *(
            N("row", label=" ".join(r), rect=(0, 20 * (j + 1), 100 * len(headers), 20))(
                *(N("gridcell", label=v, rect=(100 * i, 20 * (j + 1), 100, 20)) for i, v in enumerate(r[:-1])),
                N("gridcell", rect=(100 * (len(r) - 1), 20 * (j + 1), 100, 20))(
                    N("button", rect=(100 * (len(r) - 1) + 40, 20 * (j + 1) + 2, 16, 16))
                ),
            )
            for j, r in enumerate(rows)
        )
    )
    return N("main")(N("grid", label="People")(head, body))


def _delete_button_of(cap: Any, name: str) -> Any:
    row = next(n for n in cap.nodes if n.role == "row" and n.label and n.label.startswith(name))
    return next(d for d in row.iterdescendants() if getattr(d, "role", None) == "button")


def test_a_nameless_control_in_a_cell_records_its_row_by_what_it_says_and_its_column() -> None:
    cap = capture(_grid([("Ada", "Engineer", ""), ("Grace", "Admiral", "")]))
    ev = record_evidence(cap, _delete_button_of(cap, "Grace"))
    assert ev.anchor == Anchor("row", text="Grace") and ev.column == "Delete" and ev.verified


def test_a_cell_whose_column_changed_is_not_the_recorded_one() -> None:
    cap = capture(_grid([("Ada", "Engineer", ""), ("Grace", "Admiral", "")]))
    node = _delete_button_of(cap, "Grace")
    ev, selector = record_evidence(cap, node), materialize(cap, node).selector
    assert selector is not None and verify(cap, selector, ev).verified
    moved = capture(_grid([("Ada", "Engineer", ""), ("Grace", "Admiral", "")], headers=("Name", "Role", "Archive")))
    assert not verify(moved, selector, ev).verified


def _icon_grid(rows: tuple[str, ...], icons: tuple[str, ...]) -> N:
    """Rows of a name cell and one nameless icon button per icon column (the header says which)."""
    headers = ("Name", *icons)
    head = N("rowgroup")(
        N("row")(*(N("columnheader", label=h, rect=(100 * i, 0, 100, 20)) for i, h in enumerate(headers)))
    )

    def row(j: int, name: str) -> N:
        y = 20 * (j + 1)
        icons_ = (
            N("gridcell", rect=(100 * i, y, 100, 20))(N("button", rect=(100 * i + 40, y + 2, 16, 16)))
            for i in range(1, len(headers))
        )
        return N("row", label=name, rect=(0, y, 100 * len(headers), 20))(
            N("gridcell", label=name, rect=(0, y, 100, 20)), *icons_
        )

    return N("main")(N("grid", label="People")(head, N("rowgroup")(*(row(j, n) for j, n in enumerate(rows)))))


def _icon(cap: Any, name: str, column: int) -> Any:
    row = next(n for n in cap.nodes if n.role == "row" and n.label == name)
    return [d for d in row.iterdescendants() if getattr(d, "role", None) == "button"][column]


def test_the_healer_ranks_a_cell_by_its_row_and_column_first() -> None:
    recorded = capture(_icon_grid(("Ada", "Grace"), ("Edit", "Delete")))
    ev = record_evidence(recorded, _icon(recorded, "Grace", 1))  # Grace's delete icon
    assert ev.column == "Delete"
    # an upgrade swapped the icon columns: Grace's edit icon now sits where her delete icon was
    upgraded = capture(_icon_grid(("Ada", "Grace"), ("Delete", "Edit")))
    delete, edit = _icon(upgraded, "Grace", 0), _icon(upgraded, "Grace", 1)
    assert (
        score(upgraded, delete, ev)[0] >= 0.8 and score(upgraded, delete, ev)[0] - score(upgraded, edit, ev)[0] >= 0.15
    )


def test_a_named_cell_records_its_row_so_a_look_alike_in_an_added_row_is_not_it() -> None:
    cap = capture(_grid([("Ada", "Engineer", ""), ("Grace", "Admiral", "")]))
    node = by_label(cap, "Engineer")
    ev, selector = record_evidence(cap, node), materialize(cap, node).selector
    assert ev.anchor == Anchor("row", text="Ada") and selector is not None
    added = capture(_grid([("Barbara", "Engineer", ""), ("Ada", "Engineer", ""), ("Grace", "Admiral", "")]))
    v = verify(added, selector, ev)
    assert v.verified and v.target is not None and v.target.parent_node.label.startswith("Ada")


def test_a_positional_steps_warning_says_it_acts_only_while_its_look_alikes_are_the_recorded_ones() -> None:
    from replay.engine.step import recording_warning

    placed = recording_warning("role=button nth=1", positional=True, verified=False)
    checked = recording_warning("role=button nth=1", positional=True, verified=True)
    assert placed is not None and "only while its look-alikes are the ones recorded" in placed
    assert checked is not None and "look-alikes" not in checked and "check the recorded identity" in checked


def test_a_row_anchor_is_what_the_row_says_not_its_controls_label() -> None:
    def todo(text: str) -> N:  # a web component's row: a visually hidden <label> names its checkbox first
        return N("listitem", label="Toggle Todo", text=f"Toggle Todo {text}")(
            N("generic", text="Toggle Todo", tag="label"), N("checkbox", label="Toggle Todo"), N("generic", text=text)
        )

    cap = capture(N("list")(todo("buy milk"), todo("pay rent")))
    row = next(n for n in cap.nodes if n.role == "listitem")
    assert row.key_text == "buy milk"
    box = [n for n in cap.nodes if n.role == "checkbox"][0]
    ev, selector = record_evidence(cap, box), materialize(cap, box).selector
    assert ev.anchor == Anchor("listitem", text="buy milk") and ev.verified
    assert (
        selector is not None
        and format_selector(selector) == 'role=listitem has-text="buy milk" >> role=checkbox label="Toggle Todo"'
    )


def test_a_control_in_a_layer_over_the_page_is_singled_out_by_what_the_layer_says_never_by_position() -> None:
    rows = N("list")(
        *(
            N("listitem", text=f"{d} Delete")(N("generic", text=d), N("button", label="Delete"))
            for d in ("Laptop", "Phone")
        )
    )
    layer = N("generic", text="Sign out Phone? Delete Cancel", overlay=True)(
        N("heading", label="Sign out Phone?"), N("button", label="Delete"), N("button", label="Cancel")
    )
    cap = capture(layer, N("main")(rows))
    node = by_label(cap, "Delete")  # the layer's, first in document order
    ev, written = record_evidence(cap, node), materialize(cap, node)
    assert ev.anchor == Anchor("generic", text="Sign out Phone?") and not written.positional
    assert written.selector is not None
    assert format_selector(written.selector) == 'role=generic has-text="Sign out Phone?" >> role=button label="Delete"'


def _calendar(month: str, *before_next: N) -> N:
    """Air Datepicker's head: nameless month arrows (clickable divs) beside the month's title."""
    arrow = {"role": "generic", "actionable": True, "cls": "datepicker--nav-action"}
    return N("generic", id="cal", dom_id=True, text=f"{month} Su Mo")(
        N("navigation", text=month)(
            N(**arrow), N("generic", text=month, actionable=True), *before_next, N(**arrow, rect=(200, 0, 10, 10))
        ),
        N("generic", text="Su"),
        N("generic", text="Mo"),
    )


def test_a_nameless_control_beside_a_named_neighbour_is_recorded_relative_to_it_not_by_position() -> None:
    cap = capture(N("main")(_calendar("June, 2026"), N("navigation", text="Home")(N("generic", actionable=True))))
    following = [n for n in cap.nodes if n.role == "generic" and n.actionable and not n.content][1]
    ev, written = record_evidence(cap, following), materialize(cap, following)
    assert written.selector is not None and not written.positional
    assert format_selector(written.selector) == 'role=navigation text="June, 2026" >> role=generic'
    assert ev.basis == "neighbour" and ev.anchor == Anchor("navigation", text="June, 2026")
    assert ev.nameless_order == 1 and ev.verified
    verdict = verify(cap, written.selector, ev)
    assert verdict.verified and verdict.target is following


def test_the_order_among_a_containers_nameless_controls_decides_before_the_sibling_index() -> None:
    cap = capture(_calendar("June, 2026"))
    following = [n for n in cap.nodes if n.role == "generic" and n.actionable and not n.content][1]
    ev, written = record_evidence(cap, following), materialize(cap, following)
    assert ev.sibling == 2 and written.selector is not None
    # the next major puts a "Today" control between the title and the arrow: the arrow's sibling index
    # is now the new control's, its order among the nameless controls is still its own
    upgraded = capture(_calendar("June, 2026", N("generic", text="Today", actionable=True)))
    verdict = verify(upgraded, written.selector, ev)
    arrows = [n for n in upgraded.nodes if n.role == "generic" and n.actionable and not n.content]
    assert verdict.verified and verdict.target is arrows[1]


def test_a_container_another_node_of_its_role_also_says_is_no_neighbours_anchor() -> None:
    cap = capture(N("main")(_calendar("June, 2026"), N("navigation", text="June, 2026")))
    following = [n for n in cap.nodes if n.role == "generic" and n.actionable and not n.content][1]
    ev = record_evidence(cap, following)
    assert ev.basis != "neighbour" and ev.nameless_order is None


def test_a_node_re_rendered_in_place_is_found_at_its_place_with_its_role() -> None:
    from replay.tree.place import in_place_of

    before, after = capture(_calendar("June, 2026")), capture(_calendar("July, 2026"), generation=2)
    arrow = [n for n in before.nodes if n.role == "generic" and n.actionable and not n.content][1]
    assert in_place_of(arrow, after) is after.nodes[arrow.position]
    assert after.nodes[arrow.position].content is None and "July, 2026" in (after.nodes[1].content or "")
    moved = capture(N("generic", id="cal", text="July, 2026")(N("navigation", text="July, 2026")(N("button"))))
    assert in_place_of(arrow, moved) is None  # another role where it was: not the same element


def _dropdowns(*, open_second: bool) -> N:
    """Two select replacements side by side: each its own search box and options, one dropdown open."""

    def one(is_open: bool) -> N:
        box = N("textbox", label="Pick a city", editable=True, visible=is_open, focused=is_open)
        option = N("option", label="Paris", visible=is_open)
        return N("combobox", text="Pick a city Paris", actionable=True)(box, option)

    return N("form", label="Route")(one(not open_second), one(open_second))


def test_the_field_an_opened_dropdown_focuses_is_recorded_as_the_focused_one_not_by_position() -> None:
    cap = capture(_dropdowns(open_second=True))
    box = [n for n in cap.nodes if n.role == "textbox"][1]
    written = materialize(cap, box)
    assert written.selector is not None and not written.positional
    assert format_selector(written.selector) == 'role=textbox label="Pick a city" focused'
    assert verify(cap, written.selector, record_evidence(cap, box)).target is box


def test_the_option_a_person_sees_among_hidden_look_alikes_is_recorded_as_the_shown_one() -> None:
    cap = capture(_dropdowns(open_second=True))
    option = [n for n in cap.nodes if n.role == "option"][1]
    written = materialize(cap, option)
    assert written.selector is not None and format_selector(written.selector) == 'role=option label="Paris" visible'
    # both shown: being shown tells nothing apart, and position is all that is left (warned)
    both = capture(N("form", label="Route")(N("option", label="Paris"), N("option", label="Paris")))
    assert materialize(both, [n for n in both.nodes if n.role == "option"][1]).positional


def test_a_named_node_where_a_nameless_one_was_recorded_is_not_it() -> None:
    # Choices 9: two nameless select replacements; Choices 11 keeps the native select, named "From",
    # inside the first one, where the second replacement's position now lands
    wrapper = {"role": "combobox", "text": "Pick a city", "actionable": True}
    cap = capture(N("form", label="Route")(N(**wrapper), N(**wrapper)))
    second = [n for n in cap.nodes if n.role == "combobox"][1]
    ev, written = record_evidence(cap, second), materialize(cap, second)
    assert written.positional and written.selector is not None
    upgraded = capture(N("form", label="Route")(N(**wrapper)(N("combobox", label="From")), N(**wrapper)))
    verdict = verify(upgraded, written.selector, ev)
    assert not verdict.verified and verdict.kind == "identity-mismatch"
