from __future__ import annotations

from pathlib import Path

from replay.script.registry import COMMANDS, PHASE_NONE, REGISTRY

DOC = (Path(__file__).resolve().parents[2] / "docs" / "ad-format.md").read_text(encoding="utf-8")


def test_every_command_is_documented_in_the_language_reference() -> None:
    missing = [name for name in COMMANDS if f"`{name}" not in DOC]
    assert missing == []


def test_element_forms_declare_a_verification_phase_and_others_do_not() -> None:
    for cmd in COMMANDS.values():
        for form in cmd.forms:
            assert (form.phase != PHASE_NONE) == form.targets_element, (cmd.name, form.name)


def test_foreign_commands_are_not_performed_on_web() -> None:
    assert all(not REGISTRY.supports(c.name, "web") for c in COMMANDS.values() if c.foreign)


def test_observations_are_snapshot_screenshot_is_get_read_only_find_the_device_state_dialogs_and_tabs() -> None:
    observing = sorted({c.name for c in COMMANDS.values() for f in c.forms if f.observation})
    assert observing == ["alert", "appstate", "find", "get", "is", "keyboard", "screenshot", "snapshot", "tab"]
    assert {f.name: f.observation for f in COMMANDS["keyboard"].forms} == {"status": True, "dismiss": False}
    find = COMMANDS["find"]
    assert {f.name: f.observation for f in find.forms} == {"act": False, "read": True}
