"""The pages of one session's browser context — its tabs. A tab the page opens (a popup, a link to a
new tab, ``window.open``) comes to the front by itself, as it does in a browser: steps act on it
from then on; ``tab N`` goes back. A tab that closes hands the front to the one that opened it."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Callable
from typing import Any

from playwright.async_api import Page

from replay.drivers.base import OpenRequest
from replay.drivers.web.dialogs import Dialogs
from replay.errors import ActionFailed


class Tabs:
    """The tabs of one ``WebDriver`` (its ``page`` is the one in front)."""

    def __init__(self, driver: Any) -> None:  # (its WebDriver: imported by it, not here)
        self.driver = driver
        self.opened: list[Page] = []  # tabs opened since a step last asked
        self._dialogs: dict[Page, Dialogs] = {}
        self._opener: dict[Page, Page] = {}
        self._closing: Page | None = None  # the tab a step closes (any other closed in the browser)
        self.on_front: Callable[[int], Any] | None = None  # a recording hears the person close the front tab
        self.coming = 0  # tabs DevTools said are opening (``Page.windowOpen``) that have not arrived yet
        self.watch(driver.page)
        driver.context.on("page", self._popped)

    def watch(self, page: Page) -> Dialogs:
        """Start following ``page`` (its dialogs, its crash, its closing); its ``Dialogs``."""
        if page not in self._dialogs:
            self._dialogs[page] = Dialogs(page)
            page.on("crash", lambda _: setattr(self.driver, "crashed", True))
            page.on("close", self._closed)
        return self._dialogs[page]

    async def listen(self, cdp: Any) -> None:
        """Hear, through ``cdp`` (a DevTools session of the page in front), a tab about to open —
        Chromium says so while the click that opens it is handled, before the tab exists."""
        cdp.on("Page.windowOpen", lambda _: setattr(self, "coming", self.coming + 1))
        with contextlib.suppress(Exception):  # (unheard: a late tab is then followed, unsaid)
            await cdp.send("Page.enable")

    async def arrival(self, timeout_ms: int) -> None:
        """Wait (within ``timeout_ms``, at most 3 s) for the tabs an action is opening: the step that
        opened one then says so, however late the browser hands it over."""
        deadline = asyncio.get_running_loop().time() + min(timeout_ms, 3000) / 1000
        while self.coming > 0 and asyncio.get_running_loop().time() < deadline:
            await asyncio.sleep(0.01)
        self.coming = 0

    def _popped(self, page: Page) -> None:
        self.coming = max(0, self.coming - 1)
        self.opened.append(page)
        self._opener[page] = self.driver.page
        self.driver.show(page)

    def _closed(self, page: Page) -> None:
        if page is not self.driver.page:
            return
        live = [p for p in self.driver.context.pages if not p.is_closed()]
        opener = self._opener.get(page)
        if live:  # (the last one closing is the session's end: its page stays, closed)
            front = opener if opener in live else live[-1]
            self.driver.show(front)
            if page is not self._closing and self.on_front is not None:
                self.on_front(live.index(front) + 1)

    def dialogs_of(self, page: Page) -> Dialogs:
        return self.watch(page)

    def listed(self) -> list[dict[str, Any]]:
        """Every tab: its number (``tab N``), URL and whether it is in front."""
        pages = self.driver.context.pages
        return [{"tab": i, "url": p.url, "current": p is self.driver.page} for i, p in enumerate(pages, start=1)]

    def taken(self) -> list[dict[str, Any]]:
        """The tabs opened since the last call (a step's popups), as ``listed`` says them."""
        opened, self.opened = self.opened, []
        pages = self.driver.context.pages
        return [{"tab": pages.index(p) + 1, "url": p.url} for p in opened if p in pages]

    def number_of(self, page: Page) -> int | None:
        """``page``'s tab number when it is not the one in front (None when it is, or is gone)."""
        pages = self.driver.context.pages
        return pages.index(page) + 1 if page in pages and page is not self.driver.page else None

    async def perform(self, verb: str, number: int | None, url: str | None, timeout_ms: int) -> dict[str, Any]:
        """``tab [list]``, ``tab N``, ``tab new [URL]``, ``tab close [N]``."""
        if verb == "new":
            before = self.driver.page
            page = await self.driver.context.new_page()  # (in front at once: ``_popped``)
            self.opened = [p for p in self.opened if p is not page]
            if url:
                try:
                    await self.driver.navigate(OpenRequest(target=url), timeout_ms)
                except BaseException:  # a tab that could not open its URL is not left behind
                    self._closing = page
                    with contextlib.suppress(Exception):
                        await page.close()
                    if not before.is_closed():
                        self.driver.show(before)
                    raise
        elif verb in ("index", "close"):
            pages = self.driver.context.pages
            page = pages[number - 1] if number is not None and 0 < number <= len(pages) else None
            if number is not None and page is None:
                raise ActionFailed(f"there is no tab {number} (there are {len(pages)})", hint="`tab` lists them")
            if verb == "close":
                if len(pages) == 1:
                    raise ActionFailed("the last tab cannot be closed by `tab close`", hint="`close` ends the session")
                self._closing = page or self.driver.page
                with contextlib.suppress(Exception):
                    await self._closing.close()
            else:
                assert page is not None
                self.driver.show(page)
                with contextlib.suppress(Exception):
                    await page.bring_to_front()
        return {"tabs": self.listed()}
