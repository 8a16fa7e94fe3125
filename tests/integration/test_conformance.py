"""The driver contract (``replay/drivers/base.py``): the same tests, passed by every driver.

Run on the web driver (a real Chromium on the shop fixture), on the fake driver (its stored capture
of the same page) and on the Android driver — the simulated device's shop app in process, and the
same through Debian's real ``adb`` client talking to the simulator's adb server. A new
backend adds its harness here (docs/decisions.md, "How to add a backend") and passes these before
anything above ``drivers/`` may use it.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Awaitable, Callable, Iterator
from typing import Any, TypeVar

import pytest

from replay.drivers.base import Click, Driver, OpenRequest, Views
from replay.errors import StaleRef
from replay.tree.model import Capture, Node

from ..fakes.driver import FakeDriver, stored
from .conftest import Chromium

T = TypeVar("T")


class Harness:
    """A driver of one backend, opened on the shop's page, and the loop its coroutines run on."""

    def __init__(
        self,
        run: Callable[[Callable[[], Awaitable[Any]]], Any],
        make: Callable[[], Awaitable[Driver]],
        *,
        url: str,
        control: tuple[str, str],
        screen: tuple[str, str | None],
        where: str,
    ) -> None:
        self.run, self.make, self.url = run, make, url
        self.control = control  # (role, label) of a control that stays on the screen when acted on
        self.screen = screen  # the screen identity (path, title) its captures carry
        self.where = where  # how ``location()`` ends

    def with_driver(self, test: Callable[[Driver], Awaitable[T]]) -> T:
        async def go() -> T:
            driver = await self.make()
            try:
                await driver.navigate(OpenRequest(target=self.url), 30000)
                return await test(driver)
            finally:
                await driver.close()

        return self.run(go)  # type: ignore[no-any-return]


SHOP = {"control": ("button", "Thumbs up"), "screen": ("index.html", "Shop – Products"), "where": "/shop/index.html"}


@pytest.fixture(params=["fake", "web", "android", "adb"])
def harness(request: pytest.FixtureRequest, web: str) -> Iterator[Harness]:
    def in_process(factory: Callable[[], Awaitable[Any]]) -> Any:
        return asyncio.run(factory())  # type: ignore[arg-type]

    if request.param == "fake":

        async def fake() -> Driver:
            return FakeDriver(stored("shop-index"))

        # where the stored capture was taken
        yield Harness(in_process, fake, url="http://127.0.0.1:8000/shop/index.html", **SHOP)  # type: ignore[arg-type]
    elif request.param == "web":
        chromium: Chromium = request.getfixturevalue("chromium")
        yield Harness(chromium.run, chromium.browser.new_driver, url=f"{web}/shop/index.html", **SHOP)  # type: ignore[arg-type]
    else:
        from fixtures.android import shop_app
        from fixtures.android.adb_server import AdbServer
        from fixtures.android.device import Device
        from replay.drivers.android.adb import SubprocessAdb
        from replay.drivers.android.driver import AndroidDriver

        device = Device(shop_app.app())
        loop = asyncio.new_event_loop()
        server = AdbServer(device)
        env = {**os.environ, "ADB_SERVER_SOCKET": f"tcp:127.0.0.1:{loop.run_until_complete(server.start())}"}

        async def android() -> Driver:
            return AndroidDriver(device if request.param == "android" else SubprocessAdb(device.serial, env=env))

        try:
            yield Harness(
                lambda factory: loop.run_until_complete(factory()),
                android,
                url=shop_app.PACKAGE,
                control=("checkbox", "Remember me"),
                screen=(shop_app.PACKAGE, None),
                where=shop_app.PACKAGE,
            )
        finally:
            loop.run_until_complete(server.stop())
            loop.close()
        if request.param == "adb":
            assert server.requests, "the adb client never reached the simulator's server"


def control(harness: Harness, capture: Capture) -> Node:
    role, label = harness.control
    return next(n for n in capture.nodes if n.role == role and n.label == label)


def test_a_capture_is_the_tree_of_its_generation_with_its_screen(harness: Harness) -> None:
    async def test(driver: Driver) -> Capture:
        return await driver.capture(7)

    taken = harness.with_driver(test)
    assert taken.generation == 7 and taken.nodes[0].role == "document" and control(harness, taken).position > 0
    assert (taken.screen.path, taken.screen.title) == harness.screen  # web: relative to what was opened


def test_a_captured_node_is_acted_on_by_its_generation_and_position(harness: Harness) -> None:
    async def test(driver: Driver) -> bool:
        taken = await driver.capture(1)
        await driver.act(1, control(harness, taken).position, Click(), 5000)
        return await driver.is_attached(1, control(harness, taken).position)

    assert harness.with_driver(test)


def test_a_node_of_a_generation_never_captured_is_stale(harness: Harness) -> None:
    async def test(driver: Driver) -> None:
        taken = await driver.capture(1)
        await driver.act(99, control(harness, taken).position, Click(), 5000)

    with pytest.raises(StaleRef):
        harness.with_driver(test)


def test_the_same_element_is_located_in_a_later_capture(harness: Harness) -> None:
    async def test(driver: Driver) -> tuple[int | None, int]:
        first = await driver.capture(1)
        second = await driver.capture(2)
        return await driver.locate(1, control(harness, first).position, 2), control(harness, second).position

    found, expected = harness.with_driver(test)
    assert found == expected


def test_the_location_is_where_open_went(harness: Harness) -> None:
    async def test(driver: Driver) -> str | None:
        return driver.location()

    assert (harness.with_driver(test) or "").endswith(harness.where)


def test_a_targeted_view_is_declined_or_holds_what_its_link_may_match(harness: Harness) -> None:
    role, label = harness.control
    spec = {"links": [[{"key": "role", "op": "=", "value": role}]], "fullRoles": []}

    async def test(driver: Driver) -> Capture | None:
        if not isinstance(driver, Views):  # no views: declined, the engine takes the full capture
            return None
        return await driver.view(3, None, spec)

    view = harness.with_driver(test)
    assert view is None or (view.generation == 3 and control(harness, view).label == label)


def test_a_closed_driver_is_no_longer_alive(harness: Harness) -> None:
    async def test(driver: Driver) -> tuple[bool, bool]:
        before = driver.alive()
        await driver.close()
        return before, driver.alive()

    assert harness.with_driver(test) == (True, False)
