"""The Driver seam: a core every backend implements, and capabilities a backend may have (the engine
asks for them and does without); the test double implements the core only."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from replay.drivers.android.driver import AndroidDriver
from replay.drivers.base import (
    AnswersDialogs,
    DeviceCommands,
    Driver,
    HasTabs,
    Interrupts,
    Recordable,
    Traces,
    Views,
)
from replay.drivers.web.browser import find_chromium
from replay.drivers.web.driver import WebDriver

from ..fakes.driver import FakeDriver

OPERATIONS = sorted(n for n, v in vars(Driver).items() if callable(v) and not n.startswith("_"))
CAPABILITIES = (Views, DeviceCommands, Interrupts, Traces, AnswersDialogs, HasTabs, Recordable)


def _operations(protocol: type) -> list[str]:
    return sorted(n for n, v in vars(protocol).items() if callable(v) and not n.startswith("_"))


def test_the_core_is_what_every_backend_needs_and_the_rest_are_capabilities() -> None:
    assert OPERATIONS == [
        "act",
        "alive",
        "capture",
        "close",
        "history",
        "is_attached",
        "keyboard",
        "locate",
        "location",
        "navigate",
        "screenshot",
        "scroll",
        "shared_screen",
        "wait",
    ]
    assert {p.__name__: _operations(p) for p in CAPABILITIES[:4]} == {
        "Views": ["view"],
        "DeviceCommands": ["device"],
        "Interrupts": ["interrupt"],
        "Traces": ["trace_start", "trace_stop"],
    }


@pytest.mark.parametrize(
    ("implementation", "capabilities"),
    [
        (WebDriver, CAPABILITIES),
        (AndroidDriver, (DeviceCommands, Interrupts)),
        (FakeDriver, ()),  # the test double: the core only
    ],
)
def test_a_driver_implements_the_core_and_its_capabilities_with_the_protocols_signatures(
    implementation: type, capabilities: tuple[type, ...]
) -> None:
    claimed = [p for p in CAPABILITIES if all(hasattr(implementation, n) for n in _operations(p))]
    assert claimed == list(capabilities), implementation.__name__
    for protocol in (Driver, *capabilities):
        for name in _operations(protocol):
            want = inspect.signature(getattr(protocol, name))
            have = inspect.signature(getattr(implementation, name))
            assert list(have.parameters) == list(want.parameters), (implementation.__name__, name)
            assert inspect.iscoroutinefunction(getattr(implementation, name)) == inspect.iscoroutinefunction(
                getattr(protocol, name)
            ), (implementation.__name__, name)


def _on_path(tmp_path: Path, *names: str) -> None:
    for name in names:
        exe = tmp_path / name
        exe.write_text("#!/bin/sh\n")
        exe.chmod(0o755)


def test_a_headless_session_prefers_chromiums_headless_shell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _on_path(tmp_path, "chromium", "chromium-headless-shell")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.delenv("REPLAY_CHROMIUM", raising=False)
    assert (find_chromium(headless=True), find_chromium(headless=False)) == (
        str(tmp_path / "chromium-headless-shell"),
        str(tmp_path / "chromium"),
    )


def test_replay_chromium_wins_over_every_browser_on_path(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _on_path(tmp_path, "chromium-headless-shell", "mine")
    monkeypatch.setenv("PATH", str(tmp_path))
    monkeypatch.setenv("REPLAY_CHROMIUM", str(tmp_path / "mine"))
    assert find_chromium(headless=True) == str(tmp_path / "mine")


def test_every_element_command_acts_through_a_typed_gesture() -> None:
    from replay.drivers.base import Gesture, gesture
    from replay.engine.step import ACTING  # the ops the pipeline's element stage performs
    from replay.script.registry import REGISTRY

    ops = {str(form.op) for cmd in REGISTRY.commands.values() for form in cmd.forms if form.op in ACTING}
    assert {"click", "fill", "check", "uncheck", "select", "upload", "drag", "drop"} <= ops
    params = {"text": "t", "value": "v", "path": "/f"}
    made = {op: gesture(op, params) for op in sorted({*ops, *ACTING})}
    assert all(isinstance(g, Gesture) and g.op == op for op, g in made.items()), made
    with pytest.raises(ValueError, match="not an element op"):
        gesture("focus", {})
