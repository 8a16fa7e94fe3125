"""A tab the page is opening is waited for: DevTools says it is coming (``Page.windowOpen``) while
the click is handled, and the browser hands the tab over later — the action ends when it has."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from replay.drivers.web.tabs import Tabs


class _Emitter:
    def __init__(self) -> None:
        self.heard: dict[str, list[Any]] = {}
        self.sent: list[str] = []

    def on(self, event: str, fn: Any) -> None:
        self.heard.setdefault(event, []).append(fn)

    def emit(self, event: str, *args: Any) -> None:
        for fn in self.heard.get(event, []):
            fn(*args)

    async def send(self, method: str) -> None:
        self.sent.append(method)


class _Driver:
    def __init__(self) -> None:
        self.page, self.context = _Emitter(), _Emitter()
        self.context.pages = [self.page]  # type: ignore[attr-defined]

    def show(self, page: Any) -> None:
        self.page = page


def test_an_action_that_opens_a_tab_ends_when_the_tab_has_arrived() -> None:
    async def go() -> tuple[float, list[Any], list[str]]:
        driver, cdp = _Driver(), _Emitter()
        tabs = Tabs(driver)
        await tabs.listen(cdp)
        popup = _Emitter()
        cdp.emit("Page.windowOpen", {"url": "help.html"})  # while the click is handled
        loop = asyncio.get_running_loop()
        loop.call_later(0.3, driver.context.emit, "page", popup)  # the browser hands it over late
        started = loop.time()
        await tabs.arrival(5000)
        return loop.time() - started, tabs.opened, cdp.sent

    waited, opened, sent = asyncio.run(go())
    assert sent == ["Page.enable"] and len(opened) == 1 and 0.25 <= waited < 2.9  # (it came: not the 3 s cap)


def test_an_action_that_opens_no_tab_does_not_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    slept: list[float] = []

    async def sleep(seconds: float) -> None:
        slept.append(seconds)

    async def go() -> None:
        tabs = Tabs(_Driver())
        await tabs.listen(_Emitter())
        monkeypatch.setattr("replay.drivers.web.tabs.asyncio.sleep", sleep)
        await tabs.arrival(5000)

    asyncio.run(go())
    assert slept == []
