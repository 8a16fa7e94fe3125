"""SPEC §5 composed controls: a custom element and the one control inside its shadow root are one control
(shapes from Ionic 6 → 8's ion-select: the host's role moved into its shadow root)."""

from __future__ import annotations

from replay.script.evidence import Ancestor, TargetEvidence
from replay.script.selector import parse_selector
from replay.tree.controls import partner
from replay.tree.identity import VERIFIED, verify
from replay.tree.model import Capture, Node
from replay.tree.verdict import DivergenceKind

from .treebuild import N, capture


def _select_six() -> Capture:
    """Ionic 6: the host is the button (its inner button not hittable)."""
    host = N("button", label="Pick one, Size", id="size", tag="ion-select", dom_id=True)
    return capture(
        N("list")(
            N("listitem")(host(N("button", label="Pick one, Size", id="ion-sel-0", tag="button", hittable=False)))
        )
    )


def _select_eight(*, host_id: str = "size", extra: N | None = None) -> Capture:
    """Ionic 8: the host has no role; the button inside its shadow root has it, with an id the kit generates."""
    inner = N("button", label="Size, Pick one", id="ion-sel-0", tag="button", dom_id=True)
    host = N("generic", label="Pick one", id=host_id, tag="ion-select", dom_id=True, actionable=True)
    kids = [inner] if extra is None else [inner, extra]
    return capture(N("list")(N("listitem")(host(*kids))))


def _recorded(**over: object) -> TargetEvidence:
    fields: dict[str, object] = {
        "role": "button",
        "label": "Pick one, Size",
        "id": "size",
        "ancestry": (Ancestor("listitem"), Ancestor("list")),
        "verification": "verified",
    }
    return TargetEvidence(**{**fields, **over})  # type: ignore[arg-type]


def _node(cap: Capture, tag: str) -> Node:
    return next(n for n in cap.nodes if n.tag_name == tag)


def test_a_custom_element_and_its_one_inner_control_are_partners() -> None:
    cap = _select_eight()
    host, inner = _node(cap, "ion-select"), _node(cap, "button")
    assert partner(host) is inner and partner(inner) is host


def test_a_custom_element_around_two_controls_is_no_ones_partner() -> None:
    cap = _select_eight(extra=N("button", label="Clear", tag="button"))
    assert partner(_node(cap, "ion-select")) is None


def test_a_role_moved_from_the_host_into_its_shadow_root_verifies_on_the_inner_control() -> None:
    verdict = verify(_select_eight(), parse_selector('id="size"'), _recorded())
    assert verdict.kind == VERIFIED
    assert verdict.target is not None and verdict.target.tag_name == "button"
    assert any("composed control" in d for d in verdict.drift)


def test_a_composed_control_whose_own_id_changed_is_still_a_mismatch() -> None:
    verdict = verify(_select_eight(host_id="colour"), parse_selector('role=generic label="Pick one"'), _recorded())
    assert verdict.kind == DivergenceKind.IDENTITY_MISMATCH


def test_the_host_of_six_is_verified_as_itself_where_it_has_the_role() -> None:
    verdict = verify(_select_six(), parse_selector('id="size"'), _recorded())
    assert verdict.kind == VERIFIED and verdict.target is not None and verdict.target.tag_name == "ion-select"
    assert not any("composed control" in d for d in verdict.drift)


def test_what_a_person_pressed_is_the_control_around_a_roleless_node_it_alone_holds() -> None:
    from replay.tree.controls import control_of

    # jQuery UI 1.10's tab: <li role="tab"><a role="presentation" href="#t2">Hotels</a></li>
    page = capture(
        N("tablist")(N("tab", "Flights")(N("generic", text="Flights", actionable=True)),
                     N("tab", "Hotels")(N("generic", text="Hotels", actionable=True)))
    )  # fmt: skip
    text = next(n for n in page.nodes[1:] if n.role == "generic" and n.content == "Hotels")
    assert control_of(text).role == "tab" and control_of(text).label == "Hotels"
    toolbar = capture(
        N("toolbar", "Format")(N("generic", text="B", actionable=True), N("generic", text="I", actionable=True))
    )
    bold = next(n for n in toolbar.nodes[1:] if n.content == "B")
    assert control_of(bold) is bold  # a toolbar is no control of its own: what was pressed stays
    # Shoelace 2's option: <sl-option role="option"> around the label a person clicks
    listbox = capture(
        N("listbox", "Size")(N("option", "Large", actionable=True)(N("generic", text="Large", actionable=True)))
    )
    label = next(n for n in listbox.nodes[1:] if n.role == "generic")
    assert control_of(label).role == "option"


def test_a_press_on_a_part_of_a_composed_control_is_the_control_as_one() -> None:
    from replay.tree.controls import control_of

    # Ionic 6: the host has the role, a hidden input (or a label) inside it is what the pointer hits
    checkbox = capture(
        N("checkbox", label="Terms", id="terms", tag="ion-checkbox")(N("checkbox", label="Terms", tag="input"))
    )
    assert control_of(_node(checkbox, "input")).tag_name == "ion-checkbox"
    label = N("generic", text="Pick one, Size", tag="label", actionable=True)
    six = capture(
        N("button", label="Pick one, Size", id="size", tag="ion-select")(label, N("button", label="Size", tag="button"))
    )
    assert control_of(_node(six, "label")).tag_name == "ion-select"
    # Shoelace 2 and Ionic 8: a roleless host — the control inside it; a field: its own input, where text goes
    shoelace = capture(N("generic", tag="sl-checkbox")(N("checkbox", label="Terms", tag="input")))
    assert control_of(_node(shoelace, "input")).tag_name == "input"
    field = capture(N("textbox", label="Name", tag="ion-input")(N("textbox", label="Name", tag="input")))
    assert control_of(_node(field, "input")).tag_name == "input"
