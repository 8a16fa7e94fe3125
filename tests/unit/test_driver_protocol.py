"""The Driver seam: the web driver and the test double implement every operation the engine uses."""

from __future__ import annotations

import inspect
from pathlib import Path

import pytest

from replay.drivers.base import Driver
from replay.drivers.web.browser import find_chromium
from replay.drivers.web.driver import WebDriver

from ..fakes.driver import FakeDriver

OPERATIONS = sorted(n for n, v in vars(Driver).items() if callable(v) and not n.startswith("_"))


def test_the_protocol_names_every_operation_the_engine_needs() -> None:
    assert OPERATIONS == [
        "act",
        "alive",
        "capture",
        "close",
        "device",
        "history",
        "interrupt",
        "is_attached",
        "keyboard",
        "locate",
        "location",
        "navigate",
        "screenshot",
        "scroll",
        "shared_screen",
        "trace_start",
        "trace_stop",
        "view",
        "wait",
    ]


@pytest.mark.parametrize("implementation", [WebDriver, FakeDriver])
def test_a_driver_implements_every_operation_with_the_protocols_signature(implementation: type) -> None:
    for name in OPERATIONS:
        want = inspect.signature(getattr(Driver, name))
        have = inspect.signature(getattr(implementation, name))
        assert list(have.parameters) == list(want.parameters), (implementation.__name__, name)
        assert inspect.iscoroutinefunction(getattr(implementation, name)) == inspect.iscoroutinefunction(
            getattr(Driver, name)
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
