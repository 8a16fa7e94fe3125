"""The driver contract (``replay/drivers/base.py``): the same tests, passed by every driver.

Run on the web driver (a real Chromium on the shop fixture) and on the fake driver (its stored
capture of the same page). A new backend adds its harness here (docs/decisions.md, "How to add a
backend") and passes these before anything above ``drivers/`` may use it.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

from replay.drivers.base import Driver, OpenRequest
from replay.errors import StaleRef
from replay.tree.model import Capture, Node

from ..fakes.driver import FakeDriver, stored
from .conftest import Chromium

T = TypeVar("T")
BUTTON = "Thumbs up"  # a button both harnesses show


class Harness:
    """A driver of one backend, opened on the shop's page, and the loop its coroutines run on."""

    def __init__(self, run: Callable[[Callable[[], Awaitable[Any]]], Any], make: Callable[[], Awaitable[Driver]]):
        self.run = run
        self.make = make
        self.url = ""

    def with_driver(self, test: Callable[[Driver], Awaitable[T]]) -> T:
        async def go() -> T:
            driver = await self.make()
            try:
                await driver.navigate(OpenRequest(target=self.url), 30000)
                return await test(driver)
            finally:
                await driver.close()

        return self.run(go)  # type: ignore[no-any-return]


@pytest.fixture(params=["fake", "web"])
def harness(request: pytest.FixtureRequest, web: str) -> Iterator[Harness]:
    if request.param == "fake":

        async def fake() -> Driver:
            return FakeDriver(stored("shop-index"))

        made = Harness(lambda factory: asyncio.run(factory()), fake)
        made.url = "http://127.0.0.1:8000/shop/index.html"  # where the stored capture was taken
    else:
        chromium: Chromium = request.getfixturevalue("chromium")
        made = Harness(chromium.run, chromium.browser.new_driver)
        made.url = f"{web}/shop/index.html"
    yield made


def button(capture: Capture) -> Node:
    return next(n for n in capture.nodes if n.role == "button" and n.label == BUTTON)


def test_a_capture_is_the_tree_of_its_generation_with_its_screen(harness: Harness) -> None:
    async def test(driver: Driver) -> Capture:
        return await driver.capture(7)

    taken = harness.with_driver(test)
    assert taken.generation == 7 and taken.nodes[0].role == "document" and button(taken).position > 0
    assert taken.screen.path == "index.html"  # relative to the directory of what was opened
    assert taken.screen.title == "Shop – Products"


def test_a_captured_node_is_acted_on_by_its_generation_and_position(harness: Harness) -> None:
    async def test(driver: Driver) -> bool:
        taken = await driver.capture(1)
        await driver.act(1, button(taken).position, "click", {}, 5000)
        return await driver.is_attached(1, button(taken).position)

    assert harness.with_driver(test)


def test_a_node_of_a_generation_never_captured_is_stale(harness: Harness) -> None:
    async def test(driver: Driver) -> None:
        taken = await driver.capture(1)
        await driver.act(99, button(taken).position, "click", {}, 5000)

    with pytest.raises(StaleRef):
        harness.with_driver(test)


def test_the_same_element_is_located_in_a_later_capture(harness: Harness) -> None:
    async def test(driver: Driver) -> tuple[int | None, int]:
        first = await driver.capture(1)
        second = await driver.capture(2)
        return await driver.locate(1, button(first).position, 2), button(second).position

    found, expected = harness.with_driver(test)
    assert found == expected


def test_the_location_is_where_open_went(harness: Harness) -> None:
    async def test(driver: Driver) -> str | None:
        return driver.location()

    assert (harness.with_driver(test) or "").endswith("/shop/index.html")


def test_a_targeted_view_is_declined_or_holds_what_its_link_may_match(harness: Harness) -> None:
    spec = {"links": [[{"key": "role", "op": "=", "value": "button"}]], "fullRoles": []}

    async def test(driver: Driver) -> Capture | None:
        return await driver.view(3, None, spec)

    view = harness.with_driver(test)
    assert view is None or (view.generation == 3 and button(view).label == BUTTON)


def test_a_closed_driver_is_no_longer_alive(harness: Harness) -> None:
    async def test(driver: Driver) -> tuple[bool, bool]:
        before = driver.alive()
        await driver.close()
        return before, driver.alive()

    assert harness.with_driver(test) == (True, False)
