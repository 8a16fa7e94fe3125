"""The step pipeline on a FakeDriver: every verification path and every journal/evidence rule, no browser."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from replay.drivers.base import Click, Fill
from replay.engine import step as pipeline
from replay.engine.journal import PLAN, read_journal
from replay.engine.runner import Runner, RunOptions
from replay.errors import (
    ActionFailed,
    AmbiguousMatch,
    AssertionFailed,
    DivergenceError,
    ElementNotFound,
    InvalidArgs,
    Location,
    StaleRef,
)
from replay.script import build_plan, parse
from replay.script.evidence import WRITE_PREFIX, Anchor, TargetEvidence, encode
from replay.script.parser import parse_action, parse_argv
from replay.session.session import Recording, Session
from replay.tree.verdict import DivergenceKind

from ..fakes.driver import FakeClock, FakeDriver, stored
from .treebuild import N, screen

T = TypeVar("T")

ROWS = screen(
    N("list", label="Members")(
        N("listitem", text="Alice")(N("button", label="Delete", rect=(0, 0, 10, 10))),
        N("listitem", text="Bob")(N("button", label="Delete", rect=(0, 20, 10, 10))),
    ),
    N("textbox", label="Name", id="name"),
    N("button", label="Save", id="save"),
)
EMPTY = screen(N("heading", label="Loading"), N("paragraph", text="please wait"), N("link", label="Home"))


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def session(tmp_path: Path, *screens: dict[str, Any], timeline: list[int] | None = None) -> Session:
    return Session("s", str(tmp_path), FakeDriver(*screens, timeline=timeline), clock=FakeClock())


def fake(s: Session) -> FakeDriver:
    assert isinstance(s.driver, FakeDriver)
    return s.driver


def typed(s: Session, *argv: str, **kw: Any) -> dict[str, Any]:
    """An interactive command, as the daemon runs it."""
    return run(pipeline.execute(s, parse_argv(list(argv)), **kw))


def planned(s: Session, text: str, **kw: Any) -> dict[str, Any]:
    """The first step of a script, as the runner runs it (annotation included)."""
    action = parse(text, "flow.ad").actions[0]
    return run(pipeline.execute(s, action, provenance=PLAN, path="flow.ad", **kw))


def annotated(ev: TargetEvidence, line: str) -> str:
    return WRITE_PREFIX + encode(ev) + "\n" + line + "\n"


SAVE = TargetEvidence(role="button", id="save", label="Save")


# refs ---------------------------------------------------------------------------------------


def test_a_ref_acts_on_its_element_in_the_fresh_capture(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "snapshot", "-i")
    result = typed(s, "click", "@e7")
    assert fake(s).acts() == [("act", 2, 7, Click())]
    assert result["resolution"] == {"kind": "ref", "matchCount": 1, "ref": "@e7", "refsGeneration": 1}


def test_a_snapshot_for_its_text_only_sends_the_same_text_and_no_node_list(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    full = typed(s, "snapshot", "-i")
    brief = typed(s, "snapshot", "-i", text_only=True)
    assert [n["ref"] for n in full["snapshot"]["nodes"]][:2] == ["@e0", "@e1"]
    assert "snapshot" not in brief and brief["text"] == full["text"]


def test_a_ref_without_a_snapshot_is_stale(tmp_path: Path) -> None:
    with pytest.raises(StaleRef, match="no snapshot"):
        typed(session(tmp_path, ROWS), "click", "@e3")


def test_a_ref_whose_label_hint_differs_is_stale_never_rebound(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "snapshot")
    with pytest.raises(StaleRef, match='not "Cancel"'):
        typed(s, "click", "@e7", "Cancel")
    assert fake(s).acts() == []


def test_a_ref_action_is_journaled_with_a_materialized_selector_and_fresh_evidence(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    result = typed(s, "click", "@e7")
    entry = s.journal.entries[-1]
    assert entry.line == 'click id="save" || role=button label="Save"' and entry.ref == "@e7"
    assert json.loads(entry.evidence or "{}")["id"] == "save" and entry.verification == "verified"
    assert result["recorded"] is True and result["selector"] == entry.selector


def test_an_unlabeled_control_alone_in_its_landmark_is_verified_structurally(tmp_path: Path) -> None:
    s = session(tmp_path, screen(N("main", text="Tickets")(N("heading", label="Tickets"), N("combobox", tag="select"))))
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    result = typed(s, "select", "@e3", "High")
    evidence = json.loads(s.journal.entries[-1].evidence or "{}")
    assert s.journal.entries[-1].verification == "verified" and "warning" not in result
    assert evidence["basis"] == "structural" and evidence["scope"] == {"role": "main"}


def test_a_nameless_control_alone_of_its_role_on_a_page_without_landmarks_has_the_page_as_its_scope(
    tmp_path: Path,
) -> None:
    # the only combobox on the screen, with no label, no id and no landmark or row around it (a code
    # editor's input on a bare page): the page is its structural scope, never `nth`
    s = session(tmp_path, screen(N("heading", label="Tickets"), N("combobox", tag="select")))
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    result = typed(s, "select", "@e2", "High")
    evidence = json.loads(s.journal.entries[-1].evidence or "{}")
    assert s.journal.entries[-1].verification == "verified" and "warning" not in result
    assert evidence["basis"] == "structural" and evidence["scope"] == {"role": "document"}
    assert s.journal.entries[-1].line == 'select role=combobox "High"'


def test_a_recorded_element_nothing_identifies_is_warned_about_as_such_not_as_a_look_alike(tmp_path: Path) -> None:
    # a nameless clickable span, with no id and no landmark or row around it: a generic is never alone
    s = session(tmp_path, screen(N("heading", label="Tickets"), N("generic", tag="span", actionable=True)))
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    result = typed(s, "click", "@e2")
    assert s.journal.entries[-1].verification == "unverifiable"
    warning = result["warning"]
    assert "nothing tells apart" not in warning and "give the element a label or a test id" in warning
    rows = session(tmp_path / "rows", ROWS)  # two "Delete" buttons, each in a row with a text
    rows.recording = Recording()
    typed(rows, "snapshot", "-i")
    assert "warning" not in typed(rows, "click", "@e3")


# selectors ----------------------------------------------------------------------------------


def test_a_unique_selector_acts_on_its_match(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    result = typed(s, "click", "id=save")
    assert fake(s).acts() == [("act", 1, 7, Click())] and result["resolution"]["kind"] == "unique"


def test_matches_in_distinct_places_fail_at_once_without_waiting(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(pipeline.StepStopped) as stop:
        run(pipeline.execute(s, parse_argv(["click", "Delete"])))
    assert isinstance(stop.value.error, AmbiguousMatch) and len(stop.value.binding.candidates) == 2
    assert stop.value.binding.kind == DivergenceKind.ACTION_FAILURE
    assert isinstance(s.clock, FakeClock) and s.clock.slept == 0 and fake(s).acts() == []


def test_a_selector_that_never_matches_waits_the_timeout_then_is_not_found(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(pipeline.StepStopped) as stop:
        run(pipeline.execute(s, parse_argv(["click", "id=nope"]), timeout_ms=1000))
    assert isinstance(stop.value.error, ElementNotFound) and "waited 1000 ms" in stop.value.error.message
    assert isinstance(s.clock, FakeClock) and s.clock.slept == pytest.approx(1.0) and fake(s).acts() == []


def test_a_late_element_is_found_by_polling(tmp_path: Path) -> None:
    s = session(tmp_path, EMPTY, ROWS, timeline=[0, 0, 1])
    typed(s, "click", "id=save")
    assert fake(s).captures == 3 and fake(s).acts()[0][1] == 3


def test_typed_text_reaches_the_driver_resolved_but_the_journal_keeps_the_variable(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    run(pipeline.execute(s, parse_action('fill id=name "${WHO}"', Location("<line>", 1)), values={"WHO": "Ada"}))
    assert fake(s).acts()[0][3] == Fill("Ada")
    line = s.journal.entries[-1].line or ""
    assert line.endswith(' "${WHO}"') and "Ada" not in line


# verification before acting (SPEC §5) ------------------------------------------------------------


def test_a_verified_plan_step_acts_and_keeps_its_own_line_and_evidence(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    result = planned(s, annotated(SAVE, "click id=save"))
    entry = s.journal.entries[-1]
    assert fake(s).acts() == [("act", 1, 7, Click())] and result["resolution"]["kind"] == "unique"
    assert entry.line == 'click id="save"' and entry.evidence == encode(SAVE) and entry.provenance == PLAN


def test_a_plan_step_whose_selector_misses_stops_before_acting(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(SAVE, "click id=gone"), timeout_ms=300)
    assert stop.value.binding.kind == DivergenceKind.SELECTOR_MISS and stop.value.capture is not None
    assert fake(s).acts() == [] and s.journal.entries == []


ORDERS = screen(
    N("table", label="Orders")(
        N("row", label="Order A-100")(N("cell")(N("button", label="Delete"))),
        N("row", label="Order A-101")(N("cell")(N("button", label="Remove"))),
    )
)
IN_ROW = 'click role=row label="{}" >> role=button label="Delete"'


def test_a_selector_miss_names_the_recorded_row_when_it_is_gone(tmp_path: Path) -> None:
    s = session(tmp_path, ORDERS)
    ev = TargetEvidence(role="button", label="Delete", anchor=Anchor("row", label="Order A-102"))
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(ev, IN_ROW.format("Order A-102")), timeout_ms=300)
    gone = 'no node matches the selector: its recorded row "Order A-102" is not on the screen'
    assert stop.value.binding.cause == gone
    renamed = TargetEvidence(role="button", label="Delete", anchor=Anchor("row", label="Order A-101"))
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(renamed, IN_ROW.format("Order A-101")), timeout_ms=300)
    assert stop.value.binding.cause == "no node matches the selector"  # its row is there: the button changed
    assert fake(s).acts() == []


def test_a_plan_step_that_finds_another_element_is_an_identity_mismatch(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    wrong = TargetEvidence(role="link", label="Save")
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(wrong, "click id=save"), timeout_ms=300)
    assert stop.value.binding.kind == DivergenceKind.IDENTITY_MISMATCH and "role" in stop.value.binding.mismatches[0]
    assert fake(s).acts() == []


def test_a_recorded_unverifiable_step_is_identity_unverifiable(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    ev = TargetEvidence(role="button", label="Delete", verification="unverifiable")
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(ev, 'click "Delete"'), timeout_ms=300)
    assert stop.value.binding.kind == DivergenceKind.IDENTITY_UNVERIFIABLE
    assert stop.value.binding.cause == "the recording could not verify this element's identity"


def test_evidence_isolates_the_recorded_row_among_distinct_matches(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    bob = TargetEvidence(role="button", label="Delete", sibling=0, viewport_order=1)
    result = planned(s, annotated(bob, 'click "Delete"'))
    assert fake(s).acts() == [("act", 1, 5, Click())]
    assert result["resolution"] == {"kind": "evidence", "matchCount": 2, "signal": "viewportOrder"}


def test_a_failed_dispatch_is_an_action_failure_on_one_match_and_is_not_journaled(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    fake(s).failures["click"] = ActionFailed("click: timed out after 5 ms — it stayed disabled")
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(SAVE, "click id=save"))
    assert stop.value.binding.kind == DivergenceKind.ACTION_FAILURE and stop.value.binding.match_count == 1
    assert stop.value.capture is None and s.journal.entries == []


def test_a_failed_fills_divergence_never_says_the_text_typed_nor_the_pieces_android_types_it_in(
    tmp_path: Path,
) -> None:
    s = session(tmp_path, ROWS)
    fake(s).failures["fill"] = ActionFailed("adb: `input text AndPw-51` failed, then `input text %s9%sZ`")
    name = TargetEvidence(role="textbox", id="name", label="Name")
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(name, 'fill id=name "${PASSWORD}"'), values={"PASSWORD": "AndPw-51 9 Z"})
    said = json.dumps([stop.value.binding.cause, stop.value.error.to_dict()])
    assert "AndPw" not in said and "%s9%sZ" not in said and "<var:PASSWORD>" in stop.value.binding.cause


# the observation-exclusion rule (SPEC §7) ---------------------------------------------------------


def test_a_step_picked_by_position_among_look_alike_rows_is_warned_about_as_recorded(tmp_path: Path) -> None:
    twins = screen(
        N("list", id="todos")(
            N("listitem", text="milk")(N("checkbox", rect=(0, 0, 10, 10))),
            N("listitem", text="milk")(N("checkbox", rect=(0, 20, 10, 10))),
        )
    )
    s = session(tmp_path, twins)
    s.recording = Recording()
    shown = typed(s, "snapshot", "-i")
    second = [n["ref"] for n in shown["snapshot"]["nodes"] if n["role"] == "checkbox"][1]
    result = typed(s, "check", second)
    assert "nth=1" in result["selector"] and "recorded by position" in result["warning"]


def test_a_recorded_observation_of_a_ref_is_written_by_its_selector(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    typed(s, "is", "visible", "@e7", "--record")
    entry = s.journal.entries[-1]
    assert entry.record and entry.line == 'is visible id="save" || role=button label="Save"'
    assert json.loads(entry.evidence or "{}")["id"] == "save"


def test_interactive_observations_are_journaled_but_not_written_to_the_script(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "snapshot", "-i")
    typed(s, "is", "visible", "Save")
    typed(s, "get", "text", "id=save")
    assert [(e.command, e.record) for e in s.journal.entries] == [("snapshot", False), ("is", False), ("get", False)]


def test_record_flag_writes_an_interactive_observation(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "is", "visible", "Save", "--record")
    assert s.journal.entries[-1].record and s.journal.entries[-1].line == 'is visible "Save"'


def test_a_failed_assertion_with_record_is_not_written_into_the_script(tmp_path: Path) -> None:
    from replay.errors import AssertionFailed

    s = session(tmp_path, ROWS)
    with pytest.raises(AssertionFailed):
        typed(s, "is", "checked", "id=save", "--record", timeout_ms=50)
    assert s.journal.entries[-1].command == "is" and s.journal.entries[-1].record is False


def test_no_record_keeps_a_state_fix_out_of_the_script(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "click", "id=save", "--no-record")
    assert s.journal.entries[-1].record is False


def test_an_authored_plan_observation_always_survives(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    planned(s, 'is visible "Save"\n')
    assert s.journal.entries[-1].record is True and s.journal.entries[-1].provenance == PLAN


def test_wait_always_records(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "wait", "id=save")
    assert s.journal.entries[-1].record is True and s.journal.entries[-1].line == 'wait id="save"'


# assertions and waits ---------------------------------------------------------------------------


def test_a_failing_assertion_polls_until_the_deadline_then_fails(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(AssertionFailed, match="not checked"):
        typed(s, "is", "checked", "id=save", timeout_ms=500)
    assert isinstance(s.clock, FakeClock) and s.clock.slept == pytest.approx(0.5)


def test_a_timed_out_wait_text_stops_as_a_selector_miss(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(pipeline.StepStopped) as stop:
        typed(s, "wait", "text", "Order placed", "300")
    assert stop.value.binding.kind == DivergenceKind.SELECTOR_MISS and "did not appear" in stop.value.binding.cause


def test_a_timed_out_wait_absent_is_a_plain_failure_not_a_divergence(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(ElementNotFound, match="still present"):
        typed(s, "wait", "absent", "id=save", "300")


def test_an_annotated_wait_keeps_polling_through_look_alikes(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    elsewhere = TargetEvidence(role="button", label="Save", id="save-2")
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(elsewhere, 'wait "role=button label=\\"Save\\"" 400'))
    assert stop.value.binding.kind == DivergenceKind.IDENTITY_MISMATCH and "look-alikes" in stop.value.binding.cause
    assert isinstance(s.clock, FakeClock) and s.clock.slept == pytest.approx(0.4)


# commands without an element ----------------------------------------------------------------------


def test_page_commands_go_to_their_driver_operation(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    for argv in (["open", "http://x/"], ["back"], ["type", "hi"], ["press", "Enter"], ["scroll", "down", "0.5"]):
        typed(s, *argv)
    assert fake(s).calls == [
        ("navigate", "http://x/"),
        ("history", "back"),
        ("keyboard", "type", "hi"),
        ("keyboard", "press", "Enter"),
        ("scroll", "down", 0.5),
    ]
    assert [e.command for e in s.journal.entries] == ["open", "back", "type", "press", "scroll"]


def test_a_command_the_platform_cannot_perform_is_invalid_args(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    s.platform = "android"
    with pytest.raises(InvalidArgs, match="cannot be performed on android"):
        typed(s, "hover", "id=save")


# the runner uses the same pipeline ---------------------------------------------------------------


def test_a_run_stops_with_a_divergence_whose_screen_refs_act_at_once(tmp_path: Path) -> None:
    s = session(tmp_path, stored("shop-checkout"))
    plan = build_plan(parse(annotated(SAVE, "click id=save"), "flow.ad"))
    runner = Runner(s, plan, RunOptions(timeout_ms=200, artifacts_dir=str(tmp_path)))
    with pytest.raises(DivergenceError) as err:
        run(runner.run())
    d = err.value.source
    assert d is runner.last_divergence and err.value.divergence == d.to_dict()
    assert (d.kind, d.repair_hint) == ("selector-miss", "manual")  # no recorded container on this page
    assert s.refs_capture is not None and s.refs_capture.generation == d.screen.refs_generation


def test_a_run_step_failure_that_is_not_a_divergence_names_its_line(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    plan = build_plan(parse('open http://x/\nis checked "Save"\n', "flow.ad"))
    with pytest.raises(AssertionFailed) as err:
        run(Runner(s, plan, RunOptions(timeout_ms=200)).run())
    assert str(err.value.location) == "flow.ad:2"


def test_look_alikes_no_signal_tells_apart_are_identity_unverifiable(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    any_delete = TargetEvidence(role="button", label="Delete", sibling=0)  # both rows' buttons are child 0
    with pytest.raises(pipeline.StepStopped) as stop:
        planned(s, annotated(any_delete, 'click "Delete"'), timeout_ms=300)
    assert stop.value.binding.kind == DivergenceKind.IDENTITY_UNVERIFIABLE and len(stop.value.binding.candidates) == 2
    assert stop.value.binding.cause == "the recorded element cannot be told apart from look-alikes"
    assert fake(s).acts() == []


def test_a_click_on_an_unnamed_container_is_recorded_against_its_labeled_content(tmp_path: Path) -> None:
    card = screen(N("article", rect=(0, 0, 200, 50))(N("heading", label="Teapot", rect=(10, 10, 80, 20))))
    s = session(tmp_path, card)
    s.recording = Recording()
    typed(s, "snapshot")
    result = typed(s, "click", "@e1")
    assert result["recordedAs"].startswith('@e2 heading "Teapot"')
    assert s.journal.entries[-1].line == 'click role=heading label="Teapot"'


# minimal diffs (SPEC §7): what an armed run journals for a replayed step


def test_a_replayed_step_whose_identity_held_keeps_its_line_and_annotation_byte_for_byte(tmp_path: Path) -> None:
    from replay.script.evidence import Rect
    from replay.tree.identity import record_evidence
    from replay.tree.model import build_capture

    s = session(tmp_path, ROWS)
    s.recording = Recording()
    cap = build_capture({**ROWS, "generation": 1})
    recorded = record_evidence(cap, cap.nodes[7])
    moved = TargetEvidence(**{**recorded.__dict__, "rect": Rect(1, 2, 3, 4)})  # diagnostic drift only
    planned(s, annotated(moved, "click id=save"))
    entry = s.journal.entries[-1]
    assert entry.line == 'click id="save"' and entry.evidence == encode(moved)


def test_a_replayed_step_whose_identity_changed_is_journaled_with_fresh_evidence(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    s.recording = Recording()
    planned(s, annotated(SAVE, "click id=save"))  # SAVE records no ancestry; the element has none either,
    entry = s.journal.entries[-1]  # but SAVE lacks the sibling index and viewport order the tree gives it
    assert entry.line == 'click id="save" || role=button label="Save"' and entry.evidence != encode(SAVE)


# journal before effect (SPEC §12) ------------------------------------------------------------


def test_an_action_is_journaled_on_disk_before_it_reaches_the_app(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    on_disk_when_sent: list[int] = []
    driver = fake(s)
    act = driver.act

    async def watching(*args: Any) -> Any:
        on_disk_when_sent.append(len(read_journal(s.journal.path)))
        return await act(*args)

    driver.act = watching  # type: ignore[method-assign]
    typed(s, "fill", "id=name", "Ada")
    assert on_disk_when_sent == [1]


def test_an_action_whose_journal_entry_cannot_be_encoded_is_never_sent(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(InvalidArgs, match="lone surrogate"):
        typed(s, "fill", "id=name", "\ud800x")
    assert fake(s).acts() == [] and s.journal.entries == [] and not Path(s.journal.path).exists()


def test_an_action_that_fails_is_retracted_from_the_journal(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    typed(s, "fill", "id=name", "Ada")
    fake(s).failures["click"] = ActionFailed("the element is covered")
    with pytest.raises(pipeline.StepStopped):
        typed(s, "click", "id=save")
    assert [e.command for e in s.journal.entries] == ["fill"]
    assert [e.command for e in read_journal(s.journal.path)] == ["fill"]
    fake(s).failures.clear()
    typed(s, "click", "id=save")  # the next entry takes the freed place in order
    assert [e.seq for e in read_journal(s.journal.path)] == [1, 2]


def test_a_regex_selector_that_matches_nothing_is_a_miss_not_a_timeout(tmp_path: Path) -> None:
    s = session(tmp_path, ROWS)
    with pytest.raises(pipeline.StepStopped) as stopped:
        planned(s, 'click label~="^Nothing here"\n', timeout_ms=300)
    assert stopped.value.binding.kind == DivergenceKind.SELECTOR_MISS


def test_an_element_gone_between_the_look_and_the_act_is_looked_for_and_verified_again(tmp_path: Path) -> None:
    # the frame navigated (or the list re-rendered) after the capture: nothing was sent, so the step
    # binds again on a fresh capture instead of stopping; a ref stays stale
    s = session(tmp_path, ROWS)
    fake(s).fail_once["click"] = StaleRef("@e7 is no longer on the page (removed)", hint="snapshot")
    planned(s, annotated(SAVE, "click id=save"))
    assert [c[0] for c in fake(s).calls] == ["capture", "act", "capture", "act"]
    assert len(s.journal.entries) == 1
    typed(s, "snapshot", "-i")
    fake(s).fail_once["click"] = StaleRef("@e7 is no longer on the page (removed)", hint="snapshot")
    with pytest.raises(pipeline.StepStopped):
        typed(s, "click", "@e7")


def test_press_with_a_count_presses_the_key_that_many_times(tmp_path: Path) -> None:
    s = session(tmp_path, EMPTY)
    typed(s, "press", "Backspace", "--count", "3")
    assert [c for c in fake(s).calls if c[0] == "keyboard"] == [("keyboard", "press", "Backspace")] * 3


def test_a_step_whose_wrappers_changed_acts_and_says_so_in_its_response_as_drift(tmp_path: Path) -> None:
    from replay.script.evidence import Ancestor

    wrapped = screen(N("main")(N("treegrid")(N("button", label="Add", id="add"))))
    s = session(tmp_path, wrapped)
    ev = TargetEvidence(role="button", id="add", label="Add", ancestry=(Ancestor("grid"), Ancestor("main")))
    result = planned(s, annotated(ev, "click id=add"))
    assert fake(s).acts() and result["drift"] == ["ancestry: recorded grid < main, found treegrid < main"]


# effects: what a recording learns changed by itself ----------------------------------------------


def _feed(*deliveries: str, done: bool = False) -> dict[str, Any]:
    """A form beside a feed a timer fills (rows the app adds by itself)."""
    return screen(
        N("textbox", label="Item", id="item"),
        N("checkbox", label="Done", id="done", checked=done),
        N("list", label="Deliveries")(*(N("listitem", text=d) for d in deliveries)),
    )


def _from_now_on(s: Session, index: int) -> None:
    """Every capture from the next one on shows screen ``index``."""
    d = fake(s)
    d.timeline = [d.timeline[min(k, len(d.timeline) - 1)] for k in range(d.captures)] + [index]


def _acting_shows(s: Session, index: int) -> None:
    """The next action changes the screen to ``index`` (the captures after it show it)."""
    d = fake(s)
    act = d.act

    async def acted(*args: Any) -> Any:
        _from_now_on(s, index)
        d.act = act  # type: ignore[method-assign]
        return await act(*args)

    d.act = acted  # type: ignore[method-assign]


def _effects(s: Session) -> list[list[dict[str, Any]]]:
    return [json.loads(e.evidence).get("effect", []) for e in s.journal.entries if e.evidence]


def test_rows_later_seen_arriving_by_themselves_leave_every_earlier_steps_effect(tmp_path: Path) -> None:
    s = session(tmp_path, _feed(), _feed("Delivery 1", "Delivery 2"), _feed("Delivery 1", "Delivery 2", done=True))
    fake(s).screens.append(_feed("Delivery 1", "Delivery 2", "Delivery 3", done=True))
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    _acting_shows(s, 1)  # the timer's first rows arrive while the fill settles
    typed(s, "click", "@e1")
    assert any(f.get("appeared") == "listitem" for f in _effects(s)[0])  # nothing has told them apart yet
    typed(s, "snapshot", "-i")
    _acting_shows(s, 2)
    typed(s, "check", "@e2")
    _from_now_on(s, 3)  # a look two steps later sees the timer add one more
    typed(s, "snapshot", "-i")
    assert _effects(s) == [[], [{"target": "checked"}]]


def test_a_recording_looks_once_more_before_it_is_published(tmp_path: Path) -> None:
    s = session(tmp_path, _feed(), _feed("Delivery 1", "Delivery 2"), _feed("Delivery 1", "Delivery 2", "Delivery 3"))
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    _acting_shows(s, 1)
    typed(s, "click", "@e1")
    _from_now_on(s, 2)  # after the last step settled, the timer adds a row; no command looks at it
    written = Path(run(s.write_recording(str(tmp_path / "flow.ad")))).read_text()
    assert "click" in written and "Delivery" not in written


class _LateFrames(FakeDriver):
    """A busy machine's page: what a click put off to the next frame is drawn only once ``late`` seconds
    of the session's clock have passed (``frames`` resolves then, and the screen shows it)."""

    def __init__(self, clock: FakeClock, late: float, *screens: dict[str, Any]) -> None:
        super().__init__(*screens)
        self.clock, self.late, self.due = clock, late, None

    async def act(self, *args: Any) -> Any:
        self.due = self.clock.now() + self.late
        return await super().act(*args)

    async def frames(self) -> None:
        while self.due is None or self.clock.now() < self.due:
            await asyncio.sleep(0)
        self.timeline = [self.timeline[min(k, len(self.timeline) - 1)] for k in range(self.captures)] + [1]

    async def capture(self, *args: Any, **kw: Any) -> Any:
        await asyncio.sleep(0)  # (a look takes a turn of the loop, as a real one does)
        return await super().capture(*args, **kw)


def test_a_recording_waits_for_the_frames_its_action_put_off_however_busy_the_machine(tmp_path: Path) -> None:
    slides = lambda *said: screen(N("button", label="Next slide", id="next"), *said)  # noqa: E731
    clock = FakeClock()
    s = Session(
        "s", str(tmp_path), _LateFrames(clock, 0.3, slides(), slides(N("status", text="Showing slide 2"))), clock=clock
    )
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    typed(s, "click", "@e1")
    assert {"appeared": "status", "text": "Showing slide 2"} in _effects(s)[0]


class _Carousel(FakeDriver):
    """A carousel's click: its track moves for a while (screen 1), then stops (2); what its transition's end
    sets (3, the "moved" handler's status) is set in the frame after the move ended, so a look between
    the two sees nothing moving and nothing changed."""

    def _from(self, *screens: int) -> None:
        self.timeline = [self.timeline[min(k, len(self.timeline) - 1)] for k in range(self.captures)] + list(screens)

    async def act(self, *args: Any) -> Any:
        self._from(1, 1, 1, 2)
        return await super().act(*args)

    async def frames(self) -> None:
        await asyncio.sleep(0)
        if self.captures and self.timeline[min(self.captures - 1, len(self.timeline) - 1)] == 2:
            self._from(3)  # the frame after the move ended: its handler ran

    async def capture(self, *args: Any, **kw: Any) -> Any:
        await asyncio.sleep(0)
        return await super().capture(*args, **kw)


def test_a_recording_sees_what_a_moves_end_sets_in_the_frame_after_it(tmp_path: Path) -> None:
    slides = lambda *said, moving=False: {**screen(N("button", label="Next slide", id="next"), *said), "moving": moving}  # noqa: E731
    driver = _Carousel(slides(), slides(moving=True), slides(), slides(N("status", text="Showing slide 2")))
    s = Session("s", str(tmp_path), driver, clock=FakeClock())
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    typed(s, "click", "@e1")
    assert {"appeared": "status", "text": "Showing slide 2"} in _effects(s)[0]


def test_a_step_scoped_to_the_page_stops_once_the_page_holds_a_second_of_its_role() -> None:
    from replay.script.evidence import Anchor, TargetEvidence
    from replay.tree.identity import carries_identity

    from .treebuild import capture

    ev = TargetEvidence(role="textbox", basis="structural", scope=Anchor("document"))
    one = capture(N("heading", label="Snippet"), N("textbox"))
    two = capture(N("heading", label="Snippet"), N("textbox"), N("textbox"))
    assert carries_identity([n for n in one.nodes if n.role == "textbox"][0], ev)
    assert not any(carries_identity(n, ev) for n in two.nodes if n.role == "textbox")


class _Toast(FakeDriver):
    """Save shows a toast that goes before the next look (a busy machine's): that look shows none, and
    tells that an alert "Shelf saved" came and went after the look before the click."""

    last = 0
    came_after: int | None = None

    async def act(self, generation: int, *args: Any) -> Any:
        self.came_after = self.last
        return await super().act(generation, *args)

    async def capture(self, generation: int, keep: Any = None) -> Any:
        taken = await super().capture(generation, keep)
        if self.came_after is not None:
            taken.passed, self.came_after = (("alert", "Shelf saved", self.came_after),), None
        self.last = generation
        return taken


def test_an_overlay_gone_before_the_look_after_the_action_is_its_effect_recorded_and_replayed(tmp_path: Path) -> None:
    shelf = screen(N("button", label="Save shelf", id="save"))
    s = Session("s", str(tmp_path), _Toast(shelf), clock=FakeClock())
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    typed(s, "click", "@e1")
    assert _effects(s) == [[{"appeared": "alert", "text": "Shelf saved"}]]
    line = next(e for e in s.journal.entries if e.evidence)
    again = Session("r", str(tmp_path / "r"), _Toast(shelf), clock=FakeClock())
    plan = build_plan(parse(WRITE_PREFIX + line.evidence + "\n" + str(line.line) + "\n", "flow.ad"))
    run(Runner(again, plan, RunOptions(timeout_ms=200, artifacts_dir=str(tmp_path), effects=True)).run())


def test_a_toast_that_leaves_by_itself_after_the_step_settled_keeps_the_steps_effect(tmp_path: Path) -> None:
    # a busy machine: the toast still showed when the click's screen settled, and was gone by the next look
    shelf = screen(N("button", label="Save shelf", id="save"))
    toast = screen(N("button", label="Save shelf", id="save"), N("alert", text="Shelf saved"))
    s = session(tmp_path, shelf, toast)
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    fake(s).timeline = [0] * (fake(s).captures + 1) + [1]  # (the click binds on a look of its own)
    typed(s, "click", "@e1")
    fake(s).timeline = [0]
    typed(s, "snapshot", "-i")
    assert _effects(s)[0] == [{"appeared": "alert", "text": "Shelf saved"}]


def test_a_recording_looks_on_while_the_page_changes_what_its_tree_does_not_show_yet(tmp_path: Path) -> None:
    # a loaded machine: the select's popover host is added and filled out of sight for a while (looks that
    # tell the same screen, the document changing under them), then its options are drawn
    closed = screen(N("button", label="Size", id="size"))
    building = {**closed, "changed": True}
    shown = screen(N("button", label="Size", id="size"), N("list", label="Sizes")(N("listitem", text="Small")))
    s = session(tmp_path, closed, building, shown)
    s.recording = Recording()
    typed(s, "snapshot", "-i")
    fake(s).timeline = [0] * (fake(s).captures + 1) + [1] * 8 + [2]
    typed(s, "click", "@e1")
    assert _effects(s) == [[{"appeared": "listitem", "text": "Small"}]]


class _Looking(FakeDriver):
    """A driver that can take views: it lists the specs asked for, and leaves each to the full capture."""

    def __init__(self, *screens: dict[str, Any]) -> None:
        super().__init__(*screens)
        self.specs: list[dict[str, Any]] = []

    async def view(self, generation: int, keep: Any, spec: dict[str, Any]) -> Any:
        self.specs.append(spec)
        return None


def test_the_view_an_effect_check_takes_ahead_is_the_one_the_next_step_binds_by_first(tmp_path: Path) -> None:
    from replay.engine.effects import view_ahead

    driver = _Looking(ROWS)
    s = Session("s", str(tmp_path), driver, clock=FakeClock())
    # a recorded step of two alternatives: binding looks at the first alone first (a fallback brings back
    # the whole page), so the view taken ahead of it must be that one, or it is taken again
    action = parse(annotated(SAVE, 'click role=button label="Save" || id=save'), "flow.ad").actions[0]
    run(pipeline.execute(s, action, provenance=PLAN, path="flow.ad"))
    assert driver.specs[0] == view_ahead(action)


def test_the_whole_screen_the_last_check_looked_at_answers_the_next_steps_view(tmp_path: Path) -> None:
    driver = _Looking(ROWS)
    s = Session("s", str(tmp_path), driver, clock=FakeClock())
    whole = run(driver.capture(1))  # the last step's check looked at the whole screen, nothing done since
    driver.calls.clear()
    s.generation = 1
    s.watch.handoff = (whole, s.journal.count, None)
    run(pipeline.execute(s, parse(annotated(SAVE, 'click role=button label="Save" || id=save'), "f.ad").actions[0]))
    assert driver.specs == [] and [c[0] for c in driver.calls] == ["act"]
