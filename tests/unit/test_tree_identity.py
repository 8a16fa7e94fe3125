from __future__ import annotations

from typing import Any

from replay.script.evidence import VERIFIED, Ancestor, Anchor, TargetEvidence
from replay.script.selector import format_selector, parse_selector
from replay.tree.anchors import find_anchor
from replay.tree.identity import (
    evidence_target,
    record_evidence,
    self_check,
    verify,
)
from replay.tree.ids import made_up
from replay.tree.materialize import materialize
from replay.tree.model import Capture
from replay.tree.suggest import rank
from replay.tree.verdict import DivergenceKind

from .treebuild import N, by_label, capture

SELECTOR_MISS, IDENTITY_MISMATCH = DivergenceKind.SELECTOR_MISS, DivergenceKind.IDENTITY_MISMATCH
IDENTITY_UNVERIFIABLE = DivergenceKind.IDENTITY_UNVERIFIABLE


def nested(depth: int) -> N:
    leaf = N("button", label="Deep")
    node = leaf
    for i in range(depth):
        node = N("group", label=f"g{i}")(node)
    return node


# recording


def test_duplicate_test_id_is_demoted_to_role_and_label() -> None:
    cap = capture(N("button", label="Save", id="dup"), N("button", label="Cancel", id="dup"))
    ev = record_evidence(cap, by_label(cap, "Save"))
    assert ev.id is None and ev.role == "button" and ev.label == "Save"


def test_unique_test_id_is_recorded() -> None:
    cap = capture(N("button", label="Save", id="save"))
    assert record_evidence(cap, by_label(cap, "Save")).id == "save"


def test_ancestry_is_leaf_anchored_nearest_first_and_excludes_the_root() -> None:
    cap = capture(N("main")(N("form", label="Checkout")(N("button", label="Pay"))), title="Shop (3)")
    ev = record_evidence(cap, by_label(cap, "Pay"))
    assert [(a.role, a.label) for a in ev.ancestry] == [("form", "Checkout"), ("main", None)]


def test_ancestry_keeps_at_most_eight_entries() -> None:
    cap = capture(nested(12))
    ev = record_evidence(cap, by_label(cap, "Deep"))
    assert len(ev.ancestry) == 8 and ev.ancestry[0].label == "g0"


def test_sibling_is_the_index_among_the_parents_children() -> None:
    cap = capture(
        N("list", label="L1")(N("button", label="x1"), N("button", label="Buy")),
        N("list", label="L2")(N("button", label="Buy"), N("button", label="x2")),
    )
    assert record_evidence(cap, by_label(cap, "Buy", 0)).sibling == 1
    assert record_evidence(cap, by_label(cap, "Buy", 1)).sibling == 0


def test_viewport_order_is_counted_within_the_same_scroll_region() -> None:
    cap = capture(
        N("region", label="Left", scrollable=True)(
            N("button", label="Add", rect=(0, 200, 10, 10)), N("button", label="Add", rect=(0, 100, 10, 10))
        ),
        N("region", label="Right", scrollable=True)(N("button", label="Add", rect=(500, 0, 10, 10))),
    )
    lower, upper = by_label(cap, "Add", 0), by_label(cap, "Add", 1)
    right = by_label(cap, "Add", 2)
    assert record_evidence(cap, upper).viewport_order == 0
    assert record_evidence(cap, lower).viewport_order == 1
    assert record_evidence(cap, right).viewport_order == 0  # its own partition
    assert record_evidence(cap, right).scroll_region is not None
    assert record_evidence(cap, right).scroll_region.label == "Right"  # type: ignore[union-attr]


def test_identity_empty_container_is_recorded_against_its_first_labeled_descendant() -> None:
    cap = capture(
        N("generic", actionable=True, rect=(0, 0, 300, 40))(N("heading", label="Order A-100", rect=(10, 5, 100, 20)))
    )
    row = cap.nodes[1]
    assert evidence_target(cap, row) is by_label(cap, "Order A-100")


def test_container_with_a_competing_interactive_node_is_recorded_as_itself() -> None:
    cap = capture(
        N("generic", actionable=True, rect=(0, 0, 300, 40))(
            N("heading", label="Order", rect=(10, 5, 100, 20)), N("button", label="Delete", rect=(200, 5, 50, 20))
        )
    )
    assert evidence_target(cap, cap.nodes[1]) is cap.nodes[1]


def test_container_whose_labeled_descendant_lies_outside_is_recorded_as_itself() -> None:
    cap = capture(
        N("generic", actionable=True, rect=(0, 0, 100, 40))(N("heading", label="Far", rect=(500, 500, 50, 20)))
    )
    assert evidence_target(cap, cap.nodes[1]) is cap.nodes[1]


def test_self_check_marks_a_node_singled_out_by_evidence_verified() -> None:
    cap = capture(
        N("article", label="Teapot")(N("button", label="Add to cart")),
        N("article", label="Kettle")(N("button", label="Add to cart")),
    )
    node = by_label(cap, "Add to cart", 1)
    mat = materialize(cap, node)
    assert mat.selector is not None and mat.bases == ("anchor",)
    ev = self_check(cap, mat.selector, node, record_evidence(cap, node))
    assert ev.verification == "verified"
    assert verify(cap, mat.selector, ev).target is node


def test_self_check_marks_indistinguishable_duplicates_unverifiable() -> None:
    cap = capture(N("group")(N("button", label="Add")), N("group")(N("button", label="Add")))
    node = by_label(cap, "Add", 0)
    mat = materialize(cap, node)
    assert mat.selector is not None
    ev = record_evidence(cap, node)
    # same identity, same ancestry, same sibling index, same (empty) region: only position tells them apart
    assert mat.positional
    assert self_check(cap, mat.selector, node, ev).verification == "unverifiable"


# verification paths (SPEC §5)


def _ev(**kw: object) -> TargetEvidence:
    base: dict[str, object] = {"role": "button", "label": "Pay"}
    base.update(kw)
    return TargetEvidence(**base)  # type: ignore[arg-type]


def test_path_1_recorded_unverifiable_is_identity_unverifiable_without_resolution() -> None:
    cap = capture(N("button", label="Pay"))
    v = verify(cap, parse_selector('label="Pay"'), _ev(verification="unverifiable"))
    assert v.kind == IDENTITY_UNVERIFIABLE and v.match_count is None and v.resolution is None


def test_path_2_no_match_is_selector_miss() -> None:
    v = verify(capture(N("button", label="Submit")), parse_selector('label="Pay"'), _ev())
    assert v.kind == SELECTOR_MISS and v.match_count == 0


def test_path_3_matches_without_the_identity_are_identity_mismatch() -> None:
    cap = capture(N("link", label="Pay"))
    v = verify(cap, parse_selector('label="Pay"'), _ev())
    assert v.kind == IDENTITY_MISMATCH and any("role" in m for m in v.mismatches)


def test_changed_ancestry_is_identity_mismatch() -> None:
    cap = capture(N("dialog", label="Promo")(N("button", label="Pay")))
    ev = _ev(ancestry=(Ancestor("form", "Checkout"),))
    v = verify(cap, parse_selector('label="Pay"'), ev)
    assert v.kind == IDENTITY_MISMATCH and v.mismatches == ["ancestry: recorded form 'Checkout', found dialog 'Promo'"]


# corroboration is not identity (SPEC §5): wrappers between the node and what singled it out


def _recorded_in(tree: N, label: str) -> TargetEvidence:
    cap = capture(tree)
    return record_evidence(cap, by_label(cap, label))


def test_a_wrapper_whose_unlabeled_role_changed_is_drift_reported_on_the_verdict() -> None:
    ev = _recorded_in(N("main")(N("grid")(N("row")(N("columnheader", label="Age")))), "Age")
    v = verify(
        capture(N("main")(N("treegrid")(N("row")(N("columnheader", label="Age"))))), parse_selector('label="Age"'), ev
    )
    assert v.verified and v.drift == ["ancestry: recorded row < grid < main, found row < treegrid < main"]


def test_a_wrapper_that_appeared_or_went_between_the_node_and_its_place_is_drift() -> None:
    ev = _recorded_in(N("form", label="Sign in")(N("group")(N("button", label="Go"))), "Go")
    gained = capture(N("form", label="Sign in")(N("row")(N("group")(N("button", label="Go")))))
    lost = capture(N("form", label="Sign in")(N("button", label="Go")))
    for cap in (gained, lost):
        v = verify(cap, parse_selector('label="Go"'), ev)
        assert v.verified and v.drift


def test_a_labeled_ancestor_whose_role_moved_between_containers_keeps_its_place() -> None:
    ev = _recorded_in(N("main")(N("grid", label="Users")(N("button", label="Add"))), "Add")
    v = verify(
        capture(N("main")(N("treegrid", label="Users")(N("button", label="Add")))), parse_selector('label="Add"'), ev
    )
    assert v.verified


def test_a_labeled_ancestor_whose_label_changed_is_still_a_mismatch() -> None:
    ev = _recorded_in(N("main")(N("grid", label="Users")(N("button", label="Add"))), "Add")
    v = verify(
        capture(N("main")(N("grid", label="Groups")(N("button", label="Add")))), parse_selector('label="Add"'), ev
    )
    assert v.kind == IDENTITY_MISMATCH and "ancestry: recorded grid 'Users' < main" in v.mismatches[0]


def test_a_different_landmark_is_still_a_mismatch() -> None:
    ev = _recorded_in(N("main")(N("group")(N("button", label="Menu"))), "Menu")
    v = verify(capture(N("navigation")(N("group")(N("button", label="Menu")))), parse_selector('label="Menu"'), ev)
    assert v.kind == IDENTITY_MISMATCH


def test_a_control_that_left_its_dialog_is_still_a_mismatch() -> None:
    ev = _recorded_in(N("dialog")(N("button", label="OK")), "OK")
    v = verify(capture(N("main")(N("button", label="OK"))), parse_selector('label="OK"'), ev)
    assert v.kind == IDENTITY_MISMATCH


def test_recorded_id_never_matches_a_node_without_it() -> None:
    cap = capture(N("button", label="Pay"))
    v = verify(cap, parse_selector('role=button label="Pay"'), _ev(id="pay"))
    assert v.kind == IDENTITY_MISMATCH


def test_a_dom_id_an_upgrade_dropped_is_drift_while_the_recorded_label_names_the_element() -> None:
    # TodoMVC 2014 → 2.0: <input id="new-todo"> became <input class="new-todo">, its name unchanged
    name = "What needs to be done?"
    ev = _recorded_in(N("textbox", label=name, id="new-todo", dom_id=True), name)
    assert ev.id == "new-todo" and ev.dom_id
    later = capture(N("textbox", label=name))
    v = verify(later, parse_selector(f'id="new-todo" || role=textbox label="{name}"'), ev)
    assert v.kind == VERIFIED and v.target is by_label(later, name)
    assert "id: the DOM id 'new-todo' is gone" in v.drift


def test_a_dom_id_that_became_another_id_or_a_lost_test_id_is_still_a_mismatch() -> None:
    selector = parse_selector('role=textbox label="Search"')
    dom = _recorded_in(N("textbox", label="Search", id="search", dom_id=True), "Search")
    renamed = capture(N("textbox", label="Search", id="query", dom_id=True))
    assert verify(renamed, selector, dom).kind == IDENTITY_MISMATCH
    test_id = _recorded_in(N("textbox", label="Search", id="search"), "Search")  # a data-testid
    assert not test_id.dom_id
    assert verify(capture(N("textbox", label="Search")), selector, test_id).kind == IDENTITY_MISMATCH


def _todo_app(list_id: str | None) -> Capture:
    """TodoMVC with its edit box open: a nameless textbox, the only one in the todo list."""
    todos = N("list", id=list_id, dom_id=list_id is not None)(N("listitem")(N("textbox", value="Buy milk")))
    filters = N("list")(N("listitem")(N("link", label="All")))
    return capture(N("main")(N("textbox", label="New todo"), todos, filters))


def _edit_box(cap: Capture) -> Any:
    return next(n for n in cap.nodes if n.role == "textbox" and n.label is None)


def test_a_container_whose_dom_id_an_upgrade_dropped_is_found_by_its_role() -> None:
    # TodoMVC 2014 → 2.0: <ul id="todo-list"> became <ul class="todo-list">
    before = _todo_app("todo-list")
    ev = record_evidence(before, _edit_box(before))
    assert ev.anchor is not None and ev.anchor.id == "todo-list" and ev.anchor.dom_id
    selector = materialize(before, _edit_box(before)).selector
    written = 'id="todo-list" >> role=textbox || role=list >> role=textbox'
    assert selector is not None and format_selector(selector) == written
    after = _todo_app(None)
    v = verify(after, selector, ev)
    assert v.kind == VERIFIED and v.target is _edit_box(after)
    assert "anchor: the list's DOM id 'todo-list' is gone" in v.drift


def test_a_row_whose_dom_id_is_gone_is_never_found_by_its_role() -> None:
    # a row without what it said is any row: only a container is found by its role
    before = capture(N("list")(N("listitem", id="todo-7", dom_id=True)(N("checkbox")), N("listitem")(N("checkbox"))))
    ev = record_evidence(before, [n for n in before.nodes if n.role == "checkbox"][0])
    assert ev.anchor == Anchor("listitem", id="todo-7", dom_id=True)
    after = capture(N("list")(N("listitem")(N("checkbox")), N("listitem")(N("checkbox"))))
    assert find_anchor([n for n in after.nodes if n.role == "checkbox"][0], ev.anchor) is None


def test_test_id_that_moved_to_another_kind_of_control_is_a_mismatch() -> None:
    cap = capture(N("link", label="Pay", id="pay"))
    assert verify(cap, parse_selector('id="pay"'), _ev(id="pay")).kind == IDENTITY_MISMATCH


def test_path_4_one_member_that_is_the_winner_is_verified() -> None:
    cap = capture(N("button", label="Pay"))
    v = verify(cap, parse_selector('label="Pay"'), _ev())
    assert v.kind == VERIFIED and v.target is by_label(cap, "Pay")


def test_path_5_one_member_but_another_winner_is_identity_mismatch() -> None:
    # the chain collapses to the actionable link, while the identity is on the heading inside it
    cap = capture(N("link", label="Pay now", text="Pay")(N("heading", label="Pay", text="Pay")))
    v = verify(cap, parse_selector('text="Pay"'), TargetEvidence(role="heading", label="Pay"))
    assert v.kind == IDENTITY_MISMATCH and v.winner is not None and v.winner.role == "link"


def test_path_6_sibling_isolates_one_member_among_distinct_subtrees() -> None:
    cap = capture(
        N("group", label="G")(N("button", label="Pay")),
        N("group", label="G")(N("paragraph", text="x"), N("button", label="Pay")),
    )
    v = verify(cap, parse_selector('label="Pay"'), _ev(sibling=1))
    assert v.kind == VERIFIED and v.target is by_label(cap, "Pay", 1)
    assert v.resolution is not None
    assert v.resolution.to_dict() == {"kind": "evidence", "matchCount": 2, "signal": "sibling"}


def test_path_6_viewport_order_isolates_when_sibling_does_not() -> None:
    cap = capture(
        N("group")(N("button", label="Pay", rect=(0, 300, 10, 10))),
        N("group")(N("button", label="Pay", rect=(0, 100, 10, 10))),
    )
    v = verify(cap, parse_selector('label="Pay"'), _ev(sibling=0, viewport_order=0))
    assert v.kind == VERIFIED and v.target is by_label(cap, "Pay", 1)
    assert v.resolution is not None and v.resolution.signal == "viewportOrder"


def test_path_6_nothing_isolates_is_identity_unverifiable_with_candidates() -> None:
    cap = capture(N("group")(N("button", label="Pay")), N("group")(N("button", label="Pay")))
    v = verify(cap, parse_selector('label="Pay"'), _ev(sibling=0))
    assert v.kind == IDENTITY_UNVERIFIABLE and len(v.candidates()) == 2


# anchored identity (SPEC §5)


def _members(*names: str, delete: str = "Delete") -> Any:
    return capture(
        N("list", label="Members")(
            *[
                N("listitem", text=f"{name} {delete}")(
                    N("checkbox"), N("generic", text=name), N("button", label=delete)
                )
                for name in names
            ]
        )
    )


def _bob(cap: Any, role: str = "button") -> Any:
    row = next(n for n in cap.nodes if n.role == "listitem" and n.key_text == "Bob")
    return next(n for n in row if n.role == role)


def test_a_repeated_control_records_the_row_that_tells_it_apart_as_its_anchor() -> None:
    cap = _members("Alice", "Bob", "Carol")
    ev = record_evidence(cap, _bob(cap))
    assert ev.anchor is not None and (ev.anchor.role, ev.anchor.text) == ("listitem", "Bob")
    assert ev.verification == "verified"


def _projects(*rows: tuple[str, str], button: str = "More actions") -> Any:
    """A table whose rows may share their first cell ("Apollo" twice): they differ by their owner."""
    return capture(
        N("table", label="Projects")(
            *[
                N("row", text=f"{name} {owner} ⋮")(
                    N("cell", text=name), N("cell", text=owner), N("cell")(N("button", label=button, text="⋮"))
                )
                for name, owner in rows
            ]
        )
    )


def test_rows_sharing_their_first_text_are_anchored_by_their_text_less_their_controls() -> None:
    cap = _projects(("Apollo", "ann"), ("Borealis", "bob"), ("Apollo", "cy"))
    cy = [n for n in cap.nodes if n.role == "button"][2]
    ev = record_evidence(cap, cy)
    assert ev.anchor is not None and (ev.anchor.role, ev.anchor.text) == ("row", "Apollo cy")
    # re-sorted, with every row's button renamed: the row still names the recorded element's place
    renamed = _projects(("Apollo", "cy"), ("Apollo", "ann"), ("Borealis", "bob"), button="Actions")
    best = rank(renamed, ev)[0]
    assert "anchor" in best.basis and best.node is [n for n in renamed.nodes if n.role == "button"][0]


def test_a_unique_control_records_no_anchor() -> None:
    cap = capture(N("button", label="Save"), N("button", label="Cancel"))
    assert record_evidence(cap, by_label(cap, "Save")).anchor is None


def test_an_unlabeled_control_with_an_anchor_is_verifiable() -> None:
    cap = _members("Alice", "Bob")
    ev = record_evidence(cap, _bob(cap, "checkbox"))
    assert ev.label is None and ev.anchor is not None and ev.verification == "verified"


def test_on_resorted_rows_verification_finds_the_recorded_row() -> None:
    cap = _members("Alice", "Bob", "Carol")
    ev = record_evidence(cap, _bob(cap))
    resorted = _members("Carol", "Alice", "Bob")
    v = verify(resorted, parse_selector('role=button label="Delete"'), ev)  # a legacy, row-blind selector
    assert v.kind == VERIFIED and v.target is _bob(resorted)


def test_with_the_recorded_row_gone_no_look_alike_is_the_recorded_element() -> None:
    cap = _members("Alice", "Bob", "Carol")
    ev = record_evidence(cap, _bob(cap))
    removed = _members("Alice", "Carol")
    v = verify(removed, parse_selector('role=button label="Delete"'), ev)
    assert v.kind == IDENTITY_MISMATCH and any(m.startswith("anchor:") for m in v.mismatches)


def test_position_signals_only_separate_nodes_that_share_the_anchor() -> None:
    cap = _members("Alice", "Bob", "Carol")
    ev = record_evidence(cap, _bob(cap))
    # the recorded row moved to the top: viewportOrder 0 now names Carol's button, the anchor still Bob's
    resorted = _members("Bob", "Carol", "Alice")
    assert verify(resorted, parse_selector('role=button label="Delete"'), ev).target is _bob(resorted)


def test_a_legacy_annotation_without_an_anchor_verifies_as_before() -> None:
    cap = capture(N("form", label="Checkout")(N("button", label="Pay", id="pay")))
    legacy = TargetEvidence(role="button", id="pay", label="Pay", ancestry=(Ancestor("form", "Checkout"),))
    assert verify(cap, parse_selector("id=pay"), legacy).kind == VERIFIED


def _identity_checks(look_alikes: int, monkeypatch: Any) -> int:
    """carries_identity calls of one verification among ``look_alikes`` unnamed "Delete" buttons."""
    from replay.tree import identity

    rows = [N("group")(N("button", label="Delete", rect=(0, 30 * i, 10, 10))) for i in range(look_alikes)]
    cap = capture(*rows)
    calls = 0
    real = identity.carries_identity

    def counted(node: Any, ev: TargetEvidence) -> bool:
        nonlocal calls
        calls += 1
        return real(node, ev)

    monkeypatch.setattr(identity, "carries_identity", counted)
    v = verify(cap, parse_selector('label="Delete"'), _ev(label="Delete", sibling=0, viewport_order=look_alikes - 1))
    assert v.kind == VERIFIED
    return calls


def test_verification_is_linear_in_the_number_of_look_alikes(monkeypatch: Any) -> None:
    small, large = _identity_checks(20, monkeypatch), _identity_checks(80, monkeypatch)
    assert large <= 4 * small + 8  # 4× the look-alikes, at most 4× the identity checks (quadratic: 16×)


def test_a_grid_rows_key_text_is_read_from_its_cells_though_cells_are_focusable() -> None:
    cap = capture(
        N("grid")(
            *[
                N("row", text=f"{t} {o} ⋮")(
                    N("gridcell", text=t, actionable=True),
                    N("gridcell", text=o, actionable=True),
                    N("gridcell", actionable=True)(N("button", label="Edit", text="⋮")),
                )
                for t, o in (("Printer jammed", "ann"), ("Printer jammed", "cy"))
            ]
        )
    )
    rows = [n for n in cap.nodes if n.role == "row"]
    assert [(r.key_text, r.rest_text) for r in rows] == [
        ("Printer jammed", "Printer jammed ann"),
        ("Printer jammed", "Printer jammed cy"),
    ]


def test_only_a_selector_the_identity_itself_requires_skips_looking_for_more_identity_members() -> None:
    from replay.tree.identity import implied_by_identity

    delete = TargetEvidence(role="button", label="Delete")

    def chain(text: str) -> Any:
        return parse_selector(text).expanded()[0]

    assert implied_by_identity(chain('role=button label="delete"'), delete)  # (labels match folded)
    assert implied_by_identity(chain("role=button"), delete)
    assert not implied_by_identity(chain('role=button label="Delete" visible'), delete)
    assert not implied_by_identity(chain('role=listitem >> role=button label="Delete"'), delete)
    assert not implied_by_identity(chain('role=button label~="Del"'), delete)
    by_placeholder = TargetEvidence(role="textbox", label="Email", placeholder="Email")
    assert not implied_by_identity(chain('role=textbox label="Email"'), by_placeholder)  # its label may differ


# library-generated ids (SPEC §5): diagnostics, never identity


def test_ids_a_library_numbers_in_a_family_on_the_page_are_no_identity() -> None:
    cap = capture(N("checkbox", label="Done", id="ag-58"), N("textbox", label="Name", id="ag-59"))
    ev = record_evidence(cap, by_label(cap, "Done"))
    assert ev.id is None and ev.label == "Done"
    assert materialize(cap, by_label(cap, "Done")).selector is not None
    assert "ag-58" not in str(materialize(cap, by_label(cap, "Done")).selector)


def test_tokens_of_one_length_that_several_ids_share_after_one_prefix_are_no_identity() -> None:
    # nanoid's rows (TodoMVC's web components): a token that reads as a word alone is still made up
    rows = [("todo-item-AkTNBCXIfpXnhAYXTxbsT", "Pay rent"), ("todo-item-hxbpzqkwmrtvlndfgcAsy", "Buy milk")]
    cap = capture(N("list")(*(N("listitem", id=i, dom_id=True, text=t)(N("checkbox")) for i, t in rows)))
    assert {i for i, _ in rows} <= cap.generated_ids()
    box = [n for n in cap.nodes if n.role == "checkbox"][1]
    ev = record_evidence(cap, box)
    assert ev.anchor is not None and ev.anchor.id is None and ev.anchor.text == "Buy milk"


def test_a_react_use_id_inside_an_id_is_no_identity_even_alone() -> None:
    cap = capture(N("button", label="Menu", id="headlessui-menu-button-:r3:"))
    assert record_evidence(cap, by_label(cap, "Menu")).id is None


def test_a_random_base_36_segment_makes_an_id_no_identity_even_alone() -> None:
    """Slim Select 3 names its list ``ss-<Math.random in base 36>-list``: another in every session."""
    cap = capture(N("listbox", label="Cities", id="ss-i6lbmzai-list", dom_id=True)(N("option", label="London")))
    assert "ss-i6lbmzai-list" in cap.generated_ids()
    assert made_up(["h264-player", "base64encoder", "step-2", "col-md-6"]) == set()  # words and counters stay


def test_an_id_with_a_number_that_no_other_id_follows_is_still_identity() -> None:
    cap = capture(N("button", label="Next", id="step-2"), N("button", label="Back", id="back"))
    assert record_evidence(cap, by_label(cap, "Next")).id == "step-2"


# own attributes (SPEC §5 item 6): a nameless control by a word-like class token


def _toolbar(*tokens: str) -> Capture:
    return capture(N("toolbar")(*(N("button", cls=t) for t in tokens)), N("button", label="Save"))


def test_a_nameless_control_is_singled_out_by_its_unique_class_and_verified_by_it() -> None:
    cap = _toolbar("ql-bold", "ql-italic")
    bold = cap.nodes[2]
    mat = materialize(cap, bold)
    assert str(format_selector(mat.selector)) == "role=button class=ql-bold" and not mat.positional
    ev = self_check(cap, mat.selector, bold, record_evidence(cap, bold))
    assert ev.verified and ev.basis == "attribute" and ev.css_class == "ql-bold"
    assert verify(_toolbar("ql-italic", "ql-bold"), mat.selector, ev).target.classes == ("ql-bold",)


def test_a_class_that_no_longer_singles_the_node_out_does_not_verify() -> None:
    cap = _toolbar("ql-bold", "ql-italic")
    ev = record_evidence(cap, cap.nodes[2])
    v = verify(_toolbar("ql-bold", "ql-bold"), parse_selector("role=button class=ql-bold"), ev)
    assert not v.verified


def test_a_class_shared_on_the_page_singles_out_inside_the_anchor() -> None:
    rows = [N("listitem", text=t)(N("button", cls="row-delete")) for t in ("Ann", "Bob")]
    cap = capture(N("list")(*rows))
    bob_delete = [n for n in cap.nodes if n.role == "button"][1]
    mat = materialize(cap, bob_delete)
    assert not mat.positional and 'has-text="Bob"' in format_selector(mat.selector)


def _todo_rows(*names: str) -> object:
    """TodoMVC's web-components rows: a host named by its title, holding a list item whose visually hidden
    "Toggle Todo" labels its checkbox, the todo's text in a focusable span, a nameless remove button."""

    def row(name: str) -> N:
        return N("generic", label=name)(
            N("listitem", label="Toggle Todo")(
                N("generic", text="Toggle Todo", tag="label"),
                N("checkbox", label="Toggle Todo"),
                N("generic", text=name, actionable=True),
                N("button", label="Remove Todo"),
            )
        )

    return capture(N("list", id="list")(*(row(n) for n in names)))


def test_text_every_row_repeats_is_never_a_rows_key_text() -> None:
    cap = _todo_rows("buy milk", "walk the dog")
    rows = [n for n in cap.nodes if n.role == "listitem"]  # type: ignore[attr-defined]
    assert [r.key_text for r in rows] == ["buy milk", "walk the dog"]


def test_a_recorded_row_anchor_matches_a_row_that_shows_its_text_whatever_it_says_first() -> None:
    from replay.script.evidence import Anchor
    from replay.tree.anchors import anchor_matches

    cap = capture(N("list")(N("listitem")(N("generic", text="Due today"), N("generic", text="walk the dog"))))
    row = next(n for n in cap.nodes if n.role == "listitem")
    assert row.key_text == "Due today" and anchor_matches(row, Anchor("listitem", text="walk the dog"))
    assert not anchor_matches(row, Anchor("listitem", text="walk the cat"))


def test_a_dom_id_made_up_alone_is_taken_off_by_the_tree_whatever_backend_sent_it() -> None:
    # the driver sends DOM ids as they are (capture.js decides nothing); the tree decides (tree/ids.py)
    cap = capture(
        N("button", label="Open", id="el-id-3002-0", dom_id=True),
        N("button", label="Save", id="save-2", dom_id=True),
        N("button", label="Pay", id="el-id-4001-0"),  # a test id attribute: kept whatever it looks like
    )
    assert [by_label(cap, name).test_id for name in ("Open", "Save", "Pay")] == [None, "save-2", "el-id-4001-0"]
    assert cap.made_up_alone == ("el-id-3002-0",)


def test_a_family_of_ids_counts_its_members_made_up_alone() -> None:
    # nanoid's rows: one token reads as random alone (taken off), the other does not — it is one of a family
    rows = [("todo-item-AkTNBCXIfpXnhAYXTxbsT", "Pay rent"), ("todo-item-hxbpzqkwmrtvlndfgcAsy", "Buy milk")]
    cap = capture(N("list")(*(N("listitem", id=i, dom_id=True, text=t) for i, t in rows)))
    assert cap.made_up_alone == (rows[0][0],) and rows[1][0] in cap.generated_ids()


def test_a_counter_the_page_showed_two_of_since_it_loaded_is_made_up_though_one_shows_now() -> None:
    from replay.tree.ids import PageIds, made_up

    page = PageIds()
    listed = capture(
        N("listbox")(*(N("option", id=f"result-{i}", dom_id=True, text=t) for i, t in ((1, "Berlin"), (2, "London"))))
    )
    left = capture(N("listbox")(N("option", id="result-25", dom_id=True, text="London")))
    assert page.note(1.5, listed.root) and made_up(["result-25"], page.note(1.5, left.root)) == {"result-25"}
    assert made_up(["result-25"]) == set()  # (the look alone: one member, an id like any other)


def test_a_new_document_starts_its_id_families_again() -> None:
    from replay.tree.ids import PageIds

    page = PageIds()
    page.note(
        1.5, capture(N("list")(N("listitem", id="item-1", dom_id=True), N("listitem", id="item-2", dom_id=True))).root
    )
    assert page.note(2.5, capture(N("listitem", id="item-7", dom_id=True)).root) == frozenset()


def test_with_made_up_ids_switched_off_every_dom_id_is_kept() -> None:
    from replay.tree.tolerances import without

    with without("made-up-ids"):
        cap = capture(N("button", label="Open", id="el-id-3002-0", dom_id=True))
    assert by_label(cap, "Open").test_id == "el-id-3002-0" and cap.made_up_alone == ()
