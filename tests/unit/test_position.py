"""Steps told from look-alikes by their place alone (replay.tree.position; docs/design.md §1): acted on
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
