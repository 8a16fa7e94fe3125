"""``FakeDriver``: the ``Driver`` protocol over stored screens, recording every call it receives.

A screen is a raw capture (what capture.js returns: url, title, viewport, xml) — from
``fixtures/trees/*.json`` or built by ``tests.unit.treebuild.screen``. ``timeline`` says which
screen the k-th capture shows (the last one repeats), so a test can make an element appear late.
A node is "the same element" across captures when it has the same position on the same screen.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from replay.drivers.base import Gesture, Keep, OpenRequest
from replay.drivers.web.capture import page_path
from replay.errors import ReplayError, StaleRef
from replay.tree.model import Capture, build_capture

TREES = Path(__file__).resolve().parents[2] / "fixtures" / "trees"


def stored(name: str) -> dict[str, Any]:
    """A screen captured from a fixture app (``fixtures/trees/NAME.json``)."""
    raw = json.loads((TREES / f"{name}.json").read_text(encoding="utf-8"))
    return {k: raw[k] for k in ("url", "title", "viewport", "xml")}


class FakeDriver:
    """Serves ``screens`` in the order of ``timeline``; ``calls`` lists what the engine asked for."""

    def __init__(self, *screens: dict[str, Any], timeline: list[int] | None = None) -> None:
        self.screens = list(screens)
        self.timeline = list(timeline or [0])
        self.calls: list[tuple[Any, ...]] = []
        self.failures: dict[str, ReplayError] = {}  # gesture op → the error ``act`` raises
        self.fail_once: dict[str, ReplayError] = {}  # gesture op → the error the next ``act`` of it raises
        self.values: dict[str, Any] = {"get_text": "text", "get_value": "value", "get_attrs": {}}  # by gesture op
        self.shown: dict[int, int] = {}  # generation → screen index
        self.captures = 0
        self.closed = False
        self.base: str | None = None  # the latest opened URL

    @property
    def screen(self) -> int:
        """The screen the next capture shows."""
        return self.timeline[min(self.captures, len(self.timeline) - 1)]

    def acts(self) -> list[tuple[Any, ...]]:
        """The ``act`` calls only."""
        return [c for c in self.calls if c[0] == "act"]

    async def capture(self, generation: int, keep: Keep = None) -> Capture:
        index = self.screen
        self.captures += 1
        self.shown[generation] = index
        self.calls.append(("capture", generation))
        raw = {**self.screens[index], "generation": generation}
        return build_capture(raw, page_path(str(raw["url"]), self.base))  # (as the web driver does)

    async def act(self, generation: int, index: int, gesture: Gesture, timeout_ms: int) -> Any:
        self.calls.append(("act", generation, index, gesture))
        command = gesture.op
        if generation not in self.shown:
            raise StaleRef(f"@e{index} is no longer on the page (navigated away)", hint="take a new snapshot")
        if command in self.failures:
            raise self.failures[command]
        if command in self.fail_once:
            raise self.fail_once.pop(command)
        return self.values.get(command)

    async def locate(self, generation: int, index: int, in_generation: int) -> int | None:
        self.calls.append(("locate", generation, index, in_generation))
        same = generation in self.shown and self.shown.get(in_generation) == self.shown[generation]
        return index if same else None

    async def is_attached(self, generation: int, index: int) -> bool:
        self.calls.append(("is_attached", generation, index))
        return self.shown.get(generation) == self.screen

    async def navigate(self, request: OpenRequest, timeout_ms: int) -> None:
        self.calls.append(("navigate", request.target))
        self.base = request.target

    async def history(self, direction: str, timeout_ms: int) -> None:
        self.calls.append(("history", direction))

    async def keyboard(self, kind: str, text: str) -> None:
        self.calls.append(("keyboard", kind, text))

    async def scroll(self, direction: str, amount: float | None) -> None:
        self.calls.append(("scroll", direction, amount))

    async def wait(self, ms: int) -> None:
        self.calls.append(("wait", ms))

    async def screenshot(self, path: str, full_page: bool) -> None:
        self.calls.append(("screenshot", path, full_page))

    def location(self) -> str | None:
        return str(self.screens[self.screen]["url"])

    def shared_screen(self) -> str | None:
        return None

    def alive(self) -> bool:
        return not self.closed

    async def close(self) -> None:
        self.calls.append(("close",))
        self.closed = True


class FakeClock:
    """A monotonic clock that only moves when something sleeps on it (no real waiting)."""

    def __init__(self, start: float = 1000.0) -> None:
        self.t = start
        self.slept = 0.0

    def now(self) -> float:
        return self.t

    async def sleep(self, seconds: float) -> None:
        self.t += seconds
        self.slept += seconds

    def advance(self, seconds: float) -> None:
        """Let time pass outside any sleep."""
        self.t += seconds
