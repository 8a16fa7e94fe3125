"""A key's effect (SPEC §15): a press or typed text acts on the focused element, and what it did is
recorded and checked like an element step's — Enter that adds a todo, Escape that closes a menu."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest

from replay.engine import step as pipeline
from replay.engine.journal import PLAN
from replay.errors import ActionFailed
from replay.script import parse
from replay.script.parser import parse_argv
from replay.session.session import Recording, Session

from ..fakes.driver import FakeClock, FakeDriver
from .treebuild import N, screen


def todos(value: str, *items: str) -> dict[str, Any]:
    return screen(
        N("textbox", label="New todo", id="new", editable=True, value=value, focused=True),
        N("list", label="Todos")(*(N("listitem", text=t) for t in items)),
    )


def session(tmp_path: Path, *screens: dict[str, Any]) -> Session:
    return Session("s", str(tmp_path), FakeDriver(*screens), clock=FakeClock())


def press_shows(s: Session, index: int) -> None:
    """The next key changes the screen to ``index`` (every capture after it shows it)."""
    d = s.driver
    assert isinstance(d, FakeDriver)
    key = d.keyboard

    async def pressed(kind: str, text: str) -> None:
        d.timeline = [d.timeline[min(k, len(d.timeline) - 1)] for k in range(d.captures)] + [index]
        d.keyboard = key  # type: ignore[method-assign]
        await key(kind, text)

    d.keyboard = pressed  # type: ignore[method-assign]


def test_a_key_records_what_it_did_with_the_focused_fields_text_said_as_typed(tmp_path: Path) -> None:
    s = session(tmp_path, todos("eggs"), todos("", "eggs"))
    s.recording = Recording()
    press_shows(s, 1)
    said = asyncio.run(pipeline.execute(s, parse_argv(["press", "Enter"])))
    assert said["effect"] == 'a listitem "<typed>" appeared'
    (entry,) = [e for e in s.journal.entries if e.command == "press"]
    assert json.loads(entry.evidence or "{}")["effect"] == [{"appeared": "listitem", "text": "<typed>"}]


def test_a_key_that_changed_nothing_is_written_without_an_annotation(tmp_path: Path) -> None:
    s = session(tmp_path, todos("eggs"))
    s.recording = Recording()
    asyncio.run(pipeline.execute(s, parse_argv(["press", "Escape"])))
    assert [e.evidence for e in s.journal.entries if e.command == "press"] == [None]


PRESSED = (
    '# replay:target-v1 {"role":"textbox","label":"New todo","verification":"unverifiable",'
    '"effect":[{"appeared":"listitem","text":"<typed>"}]}\npress Enter\n'
)


def test_a_replayed_key_holds_its_effect_with_whatever_text_the_field_holds_now(tmp_path: Path) -> None:
    s = session(tmp_path, todos("milk", "eggs"), todos("", "eggs", "milk"))
    press_shows(s, 1)
    action = parse(PRESSED, "flow.ad").actions[0]
    asyncio.run(pipeline.execute(s, action, provenance=PLAN, path="flow.ad"))


def test_a_replayed_key_that_does_nothing_stops_with_no_effect(tmp_path: Path) -> None:
    s = session(tmp_path, todos("milk", "eggs"))
    action = parse(PRESSED, "flow.ad").actions[0]
    with pytest.raises(pipeline.StepStopped) as stopped:
        asyncio.run(pipeline.execute(s, action, provenance=PLAN, path="flow.ad", timeout_ms=300))
    assert isinstance(stopped.value.error, ActionFailed) and "no effect" in stopped.value.error.message


def test_text_typed_into_an_editor_is_its_value_redacted_and_holds_while_the_editor_ends_with_it() -> None:
    from replay.script.effect import Fact
    from replay.tree import effects as eff

    from .treebuild import capture

    page = capture(N("main")(N("textbox", "Labels", editable=True)))
    before = eff.TargetState(True, value="", editable=True)
    after = eff.TargetState(True, value="soon", editable=True)
    facts = eff.target_facts(before, after, "type", "<redacted>")
    assert facts == [Fact("target", "value", value="<redacted>")]
    fact = facts[0]
    assert eff.judge(fact, page, page, (before, after), typed="soon").status == eff.HELD
    stuck = eff.TargetState(True, value="", editable=True)  # the keys went nowhere
    assert eff.judge(fact, page, page, (before, stuck), typed="soon").status == eff.MISSING


def sizes(*shown: str, focused: str | None = None) -> dict[str, Any]:
    return screen(
        N("button", label="Size", id="size", focused=focused is None),
        N("list", label="Sizes")(*(N("listitem", text=t, focused=t == focused) for t in shown)),
    )


CLOSED_WITH_ESCAPE = (
    '# replay:target-v1 {"role":"radio","label":"Small","verification":"unverifiable","effect":'
    '[{"disappeared":"listitem","text":"Small"},{"disappeared":"listitem","text":"Large"}]}\npress Escape\n'
)


def test_a_key_is_pressed_once_what_its_recorded_effect_takes_away_is_on_the_screen(tmp_path: Path) -> None:
    # the step before was done before a loaded machine drew the popover: Escape pressed then closes nothing
    s = session(tmp_path, sizes(), sizes("Small", "Large", focused="Small"), sizes())
    d = s.driver
    assert isinstance(d, FakeDriver)
    d.timeline = [0, 0, 0, 1]
    press_shows(s, 2)
    action = parse(CLOSED_WITH_ESCAPE, "flow.ad").actions[0]
    asyncio.run(pipeline.execute(s, action, provenance=PLAN, path="flow.ad", timeout_ms=2000))
    (pressed,) = [i for i, c in enumerate(d.calls) if c[0] == "keyboard"]
    assert [c for c in d.calls[:pressed] if c[0] == "capture"][-1][1] in [g for g, i in d.shown.items() if i == 1]


def test_a_key_waits_for_none_of_the_rest_once_one_thing_its_effect_takes_away_is_on_the_screen(tmp_path: Path) -> None:
    # the app's next version draws the popover's options as radios: the listitem "Large" never comes, and
    # waiting for it would cost every such step its timeout before the key (the check says the drift)
    drawn = screen(N("button", label="Size", id="size"), N("list", label="Sizes")(N("listitem", text="Small")))
    s = session(tmp_path, drawn, sizes())
    press_shows(s, 1)
    action = parse(CLOSED_WITH_ESCAPE, "flow.ad").actions[0]
    asyncio.run(pipeline.execute(s, action, provenance=PLAN, path="flow.ad", timeout_ms=2000))
    d = s.driver
    assert isinstance(d, FakeDriver)
    assert [c[0] for c in d.calls].index("keyboard") == 1  # pressed on the first look, nothing slept before it
