"""Steps told from look-alikes by their place alone (replay.tree.bases.position; docs/design.md §1): acted on
while the look-alikes are the ones recorded, stopped as soon as they are not."""

from __future__ import annotations

from replay.script.evidence import POSITION, decode, encode
from replay.tree.identity import record_evidence, self_check, verify
from replay.tree.materialize import materialize
from replay.tree.verdict import DivergenceKind

from .treebuild import N, capture


def _recorded(*buttons: N) -> tuple[object, object]:
    cap = capture(N("heading", label="Pager"), *buttons)
    node = [n for n in cap.nodes if n.role == "button"][1]
    made = materialize(cap, node)
    assert made.positional and made.selector is not None
    return made.selector, decode(encode(self_check(cap, made.selector, node, record_evidence(cap, node))))


def test_a_step_told_apart_by_its_place_records_its_look_alikes() -> None:
    _, ev = _recorded(N("button", text=""), N("button", text=""))
    assert ev.basis == POSITION and ev.look_alikes is not None and ev.look_alikes.startswith("2:")  # type: ignore[attr-defined]
    assert not ev.verified  # type: ignore[attr-defined]


def test_a_positional_step_replays_on_the_page_it_was_recorded_on() -> None:
    selector, ev = _recorded(N("button"), N("button"))
    same = capture(N("heading", label="Pager"), N("button"), N("button"))
    v = verify(same, selector, ev)  # type: ignore[arg-type]
    assert v.verified and v.target is [n for n in same.nodes if n.role == "button"][1]


def test_a_positional_step_stops_once_its_look_alikes_change() -> None:
    selector, ev = _recorded(N("button"), N("button"))
    more = capture(N("heading", label="Pager"), N("button"), N("button"), N("button"))
    v = verify(more, selector, ev)  # type: ignore[arg-type]
    assert v.kind == DivergenceKind.IDENTITY_UNVERIFIABLE and v.mismatches == ["look-alikes: recorded 2, found 3"]
    renamed = capture(N("heading", label="Pager"), N("button", label="Back"), N("button"))
    assert verify(renamed, selector, ev).kind == DivergenceKind.IDENTITY_UNVERIFIABLE  # type: ignore[arg-type]


def test_a_verified_step_told_from_its_twin_by_its_place_stops_when_the_twin_count_changes() -> None:
    # Choices' two pickers in one form, both saying "Pick a city": "From"'s recorded as nth=0 in the form,
    # verified by its sibling index; with it deleted, "To"'s would sit at its place and index
    def form(*pickers: N) -> object:
        return capture(N("main")(N("form", label="Route")(*pickers)))

    cap = form(N("combobox", text="Pick a city"), N("combobox", text="Pick a city"))
    node = [n for n in cap.nodes if n.role == "combobox"][0]  # type: ignore[attr-defined]
    made = materialize(cap, node)  # type: ignore[arg-type]
    assert made.selector is not None
    ev = decode(encode(self_check(cap, made.selector, node, record_evidence(cap, node))))  # type: ignore[arg-type]
    assert ev.verified and ev.look_alikes is not None and ev.look_alikes.startswith("2:")
    assert verify(cap, made.selector, ev).verified  # type: ignore[arg-type]
    twin_left = form(N("combobox", text="Pick a city"))
    v = verify(twin_left, made.selector, ev)  # type: ignore[arg-type]
    assert v.kind == DivergenceKind.IDENTITY_UNVERIFIABLE and v.mismatches == ["look-alikes: recorded 2, found 1"]


def _route() -> tuple[object, object, object]:
    def form(*pickers: N) -> object:
        return capture(N("main")(N("form", label="Route")(*pickers)))

    cap = form(N("combobox", text="Pick a city"), N("combobox", text="Pick a city"))
    node = [n for n in cap.nodes if n.role == "combobox"][0]  # type: ignore[attr-defined]
    made = materialize(cap, node)  # type: ignore[arg-type]
    ev = decode(encode(self_check(cap, made.selector, node, record_evidence(cap, node))))  # type: ignore[arg-type]
    return form, made.selector, ev


def test_a_twin_count_is_not_checked_once_a_person_rewrote_the_selector_without_its_place() -> None:
    from replay.script.selector import parse_selector

    form, _, ev = _route()
    rewritten = parse_selector('role=form label="Route" >> role=combobox text="Pick a city"')
    alone = form(N("combobox", text="Pick a city"))  # type: ignore[operator]
    assert verify(alone, rewritten, ev).verified  # type: ignore[arg-type]


def test_a_twin_counted_step_whose_selector_finds_nothing_is_a_selector_miss() -> None:
    _, selector, ev = _route()
    gone = capture(N("main")(N("form", label="Trip")))
    assert verify(gone, selector, ev).kind == DivergenceKind.SELECTOR_MISS  # type: ignore[arg-type]
