"""Every bundled example parses, round-trips, and plans on its own platform."""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.errors import ScriptErrors
from replay.script import build_plan, format_script, parse
from replay.script.loader import load

SCRIPTS = sorted((Path(__file__).resolve().parents[2] / "fixtures" / "scripts").glob("*.ad"))


def test_there_are_fixture_scripts() -> None:
    assert len(SCRIPTS) >= 5


@pytest.mark.parametrize("path", SCRIPTS, ids=lambda p: p.name)
def test_fixture_script_parses_and_round_trips(path: Path) -> None:
    script = load(str(path))
    text = format_script(script)
    assert parse(text, script.path).items == script.items
    assert format_script(parse(text, script.path)) == text


WEB_READY = [p for p in SCRIPTS if p.name != "agent-device-android.ad"]


@pytest.mark.parametrize("path", WEB_READY, ids=lambda p: p.name)
def test_fixture_script_plans_on_its_platform(path: Path) -> None:
    plan = build_plan(load(str(path)))
    assert plan.steps and plan.steps[0].index == 1


def test_agent_device_script_parses_but_its_react_native_step_is_unsupported_at_plan_time() -> None:
    path = next(p for p in SCRIPTS if p.name == "agent-device-android.ad")
    script = load(str(path))  # parsing succeeds
    with pytest.raises(ScriptErrors) as exc:
        build_plan(script)
    assert [(e.code, e.location.line) for e in exc.value.errors if e.location] == [("UNSUPPORTED_COMMAND", 5)]


def test_agent_device_script_on_web_reports_every_step_web_cannot_perform() -> None:
    path = next(p for p in SCRIPTS if p.name == "agent-device-android.ad")
    with pytest.raises(ScriptErrors) as exc:
        build_plan(load(str(path)), "web")
    lines = [e.location.line for e in exc.value.errors if e.location]
    assert lines == [4, 5, 11]  # --launch-url, react-native, keyboard


def test_whitespace_significant_strings_survive_formatting() -> None:
    path = next(p for p in SCRIPTS if p.name == "unicode-and-escapes.ad")
    script = parse(format_script(load(str(path))), "x.ad")
    texts = [a.param("text") for a in script.actions if a.command == "fill"]
    assert texts == [
        "  two  spaces  ",
        'line one\nline two\t"quoted" and \\backslash',
        "\\${NOT_A_VARIABLE}",
        "",
    ]
