"""The web backend's driver: one browser context and its page, driven through Playwright."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any, cast

from playwright.async_api import BrowserContext, CDPSession, JSHandle, Locator, Page

from replay.drivers.base import Gesture, Keep, OpenRequest, kept
from replay.drivers.web import press
from replay.drivers.web.acts import act_on
from replay.drivers.web.capture import CAPTURE_JS, TEST_ID_ATTRIBUTES, page_path, read_capture, viewable
from replay.drivers.web.errors import STALE, driver_alive, from_playwright, raise_if_stale
from replay.drivers.web.hands import WebHands
from replay.drivers.web.loading import Loading
from replay.drivers.web.page_scripts import (
    FRAMES_JS,
    LOCATE_JS,
    MAIN,
    MAIN_NODE_ENGINE,
    NODE_ENGINE,
    UTILITY,
    UTILITY_WORLD,
)
from replay.drivers.web.tabs import Tabs
from replay.drivers.web.trace import Tracing
from replay.errors import ActionFailed, BrowserUnavailable, DialogOpen, ReplayError, StaleRef
from replay.files import make_private
from replay.tree.model import Capture, PageIds, build_capture

INTERRUPT_S = 2.0  # how long stopping a busy page's script may take
NAVIGATION_S = 30.0  # how long a tab come to the front may take to load before it is looked at


class WebDriver(Tracing):
    """The ``Driver`` for one browser context and its page (``page`` is this backend's own business)."""

    def __init__(self, context: BrowserContext, page: Page, devtools: str | None = None) -> None:
        self.context = context
        self.page = page
        self.devtools = devtools  # the relay to its browser, when it has one (a recording)
        self._hands: WebHands | None = None
        self._capture_fn: JSHandle | None = None  # the capture function, compiled once per document
        self._cdp: CDPSession | None = None  # Chromium: captures go through a CDP session of their own
        self._cdp_usable = True
        self._world: int | None = None  # the utility world's context in the current document
        self._world_name: str | None = None  # that world's name (one per page) and the main frame's id
        self._main_frame: str | None = None
        self._capture_id: str | None = None  # the capture function's object in that world
        self._world_of: dict[int, str] = {}  # generation → the world its elements are kept in
        self._subframes: dict[int, list[tuple[str, int, int]]] = {}  # generation → its same-origin iframes walked
        self._looked: dict[int, Capture] = {}  # generation → what it saw (where a fast click checks the box)
        self._page_ids = PageIds()  # the id families its document showed (made up: design §5)
        self._base: str | None = None  # the latest opened URL: page paths are relative to its directory
        self.crashed = False
        self._fresh = False  # a tab just come to the front: looked at once it has loaded
        self.tabs = Tabs(self)
        self.dialogs = self.tabs.dialogs_of(page)
        self.loading = Loading(context)

    def show(self, page: Page) -> None:
        """Act on ``page`` from now on (a tab come to the front): what was kept of the other is dropped."""
        if page is self.page:
            return
        self.page, self.dialogs, self._fresh = page, self.tabs.dialogs_of(page), True
        self._cdp, self._cdp_usable, self._capture_fn = None, True, None
        self._world = self._world_name = self._main_frame = self._capture_id = None

    def _failed(self, exc: BaseException, **where: Any) -> ReplayError:
        """A Playwright failure in our words; a closed page or browser marks this driver dead at once
        (Playwright learns of a killed browser a moment later: its session must not outlive the error)."""
        err = from_playwright(exc, **where)
        if isinstance(err, BrowserUnavailable):
            self.crashed = True
        return err

    def alive(self) -> bool:
        """Not crashed, not closed, and the browser still connected."""
        browser = self.context.browser
        return (
            not self.crashed
            and not self.page.is_closed()
            and driver_alive(self.context)
            and (browser is None or browser.is_connected())
        )

    async def capture(self, generation: int, keep: Keep = None) -> Capture:
        """Capture the tree of the page (one evaluate; same-origin frames walked inside it).

        Captured elements stay actable for the last few generations, and for ``keep`` (the refs
        generation of the latest snapshot) until the page goes away.
        """
        taken = await self._look({"generation": generation, "keep": list(kept(keep))})
        assert taken is not None  # (None only answers a view)
        return taken

    async def view(self, generation: int, keep: Keep, spec: dict[str, Any]) -> Capture | None:
        """The targeted view (capture.js with ``view``): one evaluate; None where it cannot be promised."""
        if not viewable(spec):
            return None
        return await self._look({"generation": generation, "keep": list(kept(keep)), "view": spec})

    async def _look(self, opts: dict[str, Any]) -> Capture | None:
        """Run capture.js with ``opts`` and build what it returns (None: a view it could not take)."""
        opts = {"testIdAttributes": TEST_ID_ATTRIBUTES, **opts}
        if self._fresh:  # a tab just opened: its document first (not the blank page it starts as)
            self._fresh = False
            with contextlib.suppress(Exception):
                await self.page.wait_for_load_state("load", timeout=NAVIGATION_S * 1000)
        for attempt in (1, 2):
            try:
                text = await self.dialogs.during(self._evaluate_capture(opts))
                self.dialogs.refuse_look()  # (one opened while it looked)
                break
            except DialogOpen:
                raise
            except Exception as exc:  # noqa: BLE001 - a new document invalidates the function: retry once
                self._capture_fn = self._capture_id = self._world = None
                if attempt == 2:
                    raise self._failed(exc, action="capture") from None
        return None if text is None else self._built(text, int(opts["generation"]), opts["keep"])

    def _built(self, text: str, generation: int, keep: list[int]) -> Capture:
        raw = read_capture(text)
        taken = build_capture(raw, page_path(str(raw.get("url", "")), self._base), self._page_ids)
        taken.moving = taken.moving or self.loading.asked()  # (what an input asked for, still on its way)
        self._subframes[generation] = [(str(url), int(lo), int(hi)) for url, lo, hi in raw.get("frames", [])]
        self._looked[generation] = taken
        for old in [g for g in self._subframes if g < generation - 8 and g not in keep]:
            del self._subframes[old]
            self._world_of.pop(old, None)
            self._looked.pop(old, None)
        return taken

    async def _evaluate_capture(self, opts: dict[str, Any]) -> str | None:
        """Run capture.js (compiled once per document) and return its text. On Chromium through a CDP
        session of its own, in Playwright's isolated utility world: out of Playwright's trace and call
        bookkeeping, safe from page scripts that replace built-ins, and where the verified node is then
        acted on (a selector engine there runs ~2 ms faster a step than one in the page's main world).
        Elsewhere (no CDP, no utility world) ``evaluate`` in the main world, as ``_world_of`` records."""
        generation = int(opts["generation"])
        if self._cdp is None and self._cdp_usable:
            try:
                self._cdp = await self.context.new_cdp_session(self.page)
                await self.tabs.listen(self._cdp)
            except Exception:  # noqa: BLE001 - not Chromium: evaluate instead
                self._cdp_usable = False
        if self._cdp is None or (self._capture_id is None and await self._utility_world() is None):
            self._world_of[generation] = MAIN
            if self._capture_fn is None:
                self._capture_fn = await self.page.evaluate_handle(f"() => ({CAPTURE_JS.strip()})")
            return cast("str | None", await self._capture_fn.evaluate("(capture, opts) => capture(opts)", opts))
        self._world_of[generation] = UTILITY
        if self._capture_id is None:
            made = await self._cdp.send(
                "Runtime.evaluate", {"expression": f"({CAPTURE_JS.strip()})", "contextId": self._world}
            )
            self._capture_id = made["result"]["objectId"]
        return cast(
            "str | None",
            await self._call({"objectId": self._capture_id}, "function (opts) { return this(opts); }", opts),
        )

    async def _call(self, where: dict[str, Any], function: str, arg: Any) -> Any:
        """``Runtime.callFunctionOn`` through the CDP session: the returned value, or an error raised."""
        assert self._cdp is not None
        done = await self._cdp.send(
            "Runtime.callFunctionOn",
            {**where, "functionDeclaration": function, "arguments": [{"value": arg}], "returnByValue": True}
            | {"awaitPromise": True},
        )
        if "exceptionDetails" in done:
            details = done["exceptionDetails"]
            raise RuntimeError(str(details.get("exception", {}).get("description") or details.get("text")))
        return done["result"].get("value")

    async def _utility_world(self) -> int | None:
        """The execution context of Playwright's utility world in the main frame's document (found
        once per document: it changes when the page navigates), or None when there is none.

        The world's name and the main frame are learned once per page from ``Runtime.enable``'s
        list of contexts; after that, ``Page.createIsolatedWorld`` with that name answers the
        existing world's context in one round trip — ``Runtime.enable`` would also replay the
        page's stored console messages (70 ms after a page that logged 3,000 lines).
        """
        assert self._cdp is not None
        if self._world_name is not None and self._main_frame is not None:
            try:
                made = await self._cdp.send(
                    "Page.createIsolatedWorld",
                    {"frameId": self._main_frame, "worldName": self._world_name, "grantUniveralAccess": True},
                )
                self._world = int(made["executionContextId"])
                return self._world
            except Exception:  # noqa: BLE001 - the main frame changed: look again
                self._world_name = self._main_frame = None
        contexts: list[dict[str, Any]] = []

        def created(event: dict[str, Any]) -> None:
            contexts.append(event["context"])

        self._cdp.on("Runtime.executionContextCreated", created)
        try:
            await self._cdp.send("Runtime.enable")  # reports every live context, then stops
            await self._cdp.send("Runtime.disable")
        finally:
            self._cdp.remove_listener("Runtime.executionContextCreated", created)
        tree = await self._cdp.send("Page.getFrameTree")
        main = tree["frameTree"]["frame"]["id"]
        worlds = [
            c
            for c in contexts
            if str(c.get("name", "")).startswith(UTILITY_WORLD) and c.get("auxData", {}).get("frameId") == main
        ]
        self._world = int(worlds[-1]["id"]) if worlds else None
        if worlds:
            self._world_name, self._main_frame = str(worlds[-1]["name"]), str(main)
        return self._world

    def _selector(self, generation: int, index: int) -> str:
        """The selector of node ``index`` of capture ``generation``, for the engine of its world."""
        engine = NODE_ENGINE if self._world_of.get(generation, UTILITY) == UTILITY else MAIN_NODE_ENGINE
        return f"{engine}={generation}:{index}"

    async def _located(self, generation: int, index: int) -> Locator:
        """The locator of the live element of node ``index`` in capture ``generation``: its frame's — the
        one at the URL its capture saw there, else each (navigated, ``srcdoc`` look-alikes). ``StaleRef``."""
        selector = self._selector(generation, index)
        url = next((u for u, lo, hi in reversed(self._subframes.get(generation, [])) if lo <= index < hi), None)
        if url is None:
            return self.page.locator(selector)
        there = [frame for frame in self.page.frames[1:] if frame.url == url]
        if len(there) == 1:
            return there[0].locator(selector)
        for frame in self.page.frames[1:]:
            located = frame.locator(selector)
            try:
                if await located.count():
                    return located
            except Exception as exc:  # noqa: BLE001 - gone, or a frame that navigated away
                raise_if_stale(exc, index)
        raise StaleRef(f"@e{index} could not be found in any frame", hint="take a new snapshot")

    async def is_attached(self, generation: int, index: int) -> bool:
        """Whether the element is still connected."""
        try:
            return await (await self._located(generation, index)).count() == 1
        except StaleRef:
            return False
        except Exception as exc:  # noqa: BLE001 - the engine's refusal of a node that is gone
            if STALE in str(exc):
                return False
            raise

    async def locate(self, generation: int, index: int, in_generation: int) -> int | None:
        """Map a node of one capture to the same element's index in another (both of one world)."""
        if self._world_of.get(generation) != self._world_of.get(in_generation):
            return None  # not captured in the same world: no element is shared
        found = await self.in_world_of(generation, LOCATE_JS, [generation, index, in_generation])
        return int(found) if isinstance(found, int) and found >= 0 else None

    async def in_world_of(self, generation: int, function: str, arg: Any) -> Any:
        """``function(arg)`` in the world capture ``generation`` keeps its elements in; None: that page is gone."""
        if self._world_of.get(generation) != UTILITY or self._cdp is None or self._world is None:
            if self._world_of.get(generation) != MAIN:
                return None
            with contextlib.suppress(Exception):
                return await self.page.evaluate(function, arg)
            return None
        try:
            return await self._call(
                {"executionContextId": self._world}, f"function (a) {{ return ({function})(a); }}", arg
            )
        except Exception:  # noqa: BLE001 - the document is gone
            return None

    def person_input(self) -> WebHands:
        """A person's hands on this page (design §16)."""
        if self._hands is None:
            self._hands = WebHands(self, self.devtools)
        return self._hands

    async def act(self, generation: int, index: int, gesture: Gesture, timeout_ms: int) -> Any:
        """Act on one node once wired: a plain click where ``press`` promises it, else with Playwright's checks."""
        located = await self._located(generation, index)
        await press.wired(located, self._looked.get(generation), index, timeout_ms)
        if await self._pressed(generation, index, gesture):
            await self.tabs.arrival(timeout_ms)
            return None
        self.loading.input()
        try:  # a dialog the action opens ends it here: it finishes once a step answers the dialog
            done = await self.dialogs.during(act_on(located, gesture, timeout_ms, self._failed))
            await self.tabs.arrival(timeout_ms)
            return done
        except Exception as exc:  # noqa: BLE001 - the engine's refusal of a node that is gone
            raise_if_stale(exc, index)
            raise
        finally:
            await self._rearm()

    async def _pressed(self, generation: int, index: int, gesture: Gesture) -> bool:
        """A plain left click sent at once (``press``); False: nothing reached the page, Playwright's turn."""
        box = press.box(gesture, self._looked.get(generation), index, self._subframes.get(generation, []))
        if box is None or self._hands is not None or self._cdp is None or self._world_of.get(generation) != UTILITY:
            return False
        ready = await self.in_world_of(generation, press.READY_JS, [generation, index, box])
        if not isinstance(ready, dict):
            return False
        self.loading.input()
        try:
            if await self.dialogs.during(press.click(self._cdp, ready)) is None:
                return True  # a dialog opened: the click reached the page
        except Exception as exc:  # noqa: BLE001 - mapped in one place
            raise self._failed(exc, action="click") from None
        return await self.in_world_of(generation, press.LANDED_JS, None) is not False  # (None: it navigated)

    async def _rearm(self) -> None:
        """A person records: their input is held again at once (after the dialog a step opened)."""
        if self._hands is not None:
            if self.dialogs.open is None:
                await self._hands.dispatched()
            else:
                self.dialogs.later(self._hands.dispatched())

    async def navigate(self, request: OpenRequest, timeout_ms: int) -> None:
        """Go to the URL and wait for the load event (a page load is always a fresh start: ``relaunch``
        asks nothing more of a browser); page paths are then relative to it."""
        url = request.target
        try:
            await self.page.goto(url, timeout=timeout_ms, wait_until="load")
        except Exception as exc:  # noqa: BLE001
            raise self._failed(
                exc, action=f"open {url}", timeout_ms=timeout_ms, hint="check that the URL is reachable"
            ) from None
        self._base = url

    async def history(self, direction: str, timeout_ms: int) -> None:
        """back / forward / reload."""
        try:
            if direction == "back":
                await self.page.go_back(timeout=timeout_ms, wait_until="load")
            elif direction == "forward":
                await self.page.go_forward(timeout=timeout_ms, wait_until="load")
            else:
                await self.page.reload(timeout=timeout_ms, wait_until="load")
        except Exception as exc:  # noqa: BLE001
            raise self._failed(exc, action=direction, timeout_ms=timeout_ms) from None

    async def device(self, command: str, params: dict[str, Any]) -> str | None:
        """``press X Y`` (px, or % of the viewport) clicks at that point; the rest are a device's."""
        if command != "press":
            raise ActionFailed(f"`{command}` is a device command", hint="it runs on platform=android")
        size = self.page.viewport_size or {"width": 0, "height": 0}
        x, y = (float(v[:-1]) * size[k] / 100 if v.endswith("%") else float(v) for v, k in _point(params))  # type: ignore[literal-required]
        self.loading.input()
        try:
            await self.dialogs.during(self.page.mouse.click(x, y))
        except DialogOpen:
            raise
        except Exception as exc:  # noqa: BLE001
            raise self._failed(exc, action="press") from None
        return None

    async def keyboard(self, kind: str, text: str) -> None:
        """Press a key/chord or type text."""
        keys = self.page.keyboard
        self.loading.input()
        try:
            await self.dialogs.during(keys.press(text) if kind == "press" else keys.type(text))
        except DialogOpen:
            raise
        except Exception as exc:  # noqa: BLE001
            raise self._failed(exc, action=kind) from None
        finally:
            await self._rearm()

    async def tab(self, verb: str, number: int | None, url: str | None, timeout_ms: int) -> dict[str, Any]:
        """``tab``: list, show, open or close a tab."""
        return await self.tabs.perform(verb, number, url, timeout_ms)

    def opened_tabs(self) -> list[dict[str, Any]]:
        return self.tabs.taken()

    def open_dialog(self) -> dict[str, Any] | None:
        return self.dialogs.said()

    async def dialog(
        self, verb: str, text: str | None, timeout_ms: int, expect: str | None = None
    ) -> dict[str, Any] | None:
        return await self.dialogs.step(verb, text, timeout_ms, expect)

    async def scroll(self, direction: str, amount: float | None) -> None:
        """Wheel-scroll the page at its centre."""
        vp = self.page.viewport_size or {"width": 1280, "height": 800}
        size = vp["height"] if direction in ("up", "down") else vp["width"]
        px = size * 0.8 if amount is None else (size * amount if amount <= 1 else amount)
        dx, dy = {"up": (0, -px), "down": (0, px), "left": (-px, 0), "right": (px, 0)}[direction]
        try:
            await self.page.mouse.move(vp["width"] / 2, vp["height"] / 2)
            await self.page.mouse.wheel(dx, dy)
            await self.page.wait_for_timeout(50)  # let the scroll land before the next capture
        except Exception as exc:  # noqa: BLE001 - mapped in one place
            raise self._failed(exc, action="scroll") from None

    async def screenshot(self, path: str, full_page: bool) -> None:
        """Save a PNG of the page."""
        try:
            await self.page.screenshot(path=path, full_page=full_page)
        except Exception as exc:  # noqa: BLE001 - mapped in one place
            raise self._failed(exc, action="screenshot") from None
        make_private(path)

    async def wait(self, ms: int) -> None:
        """Pause (on the page's clock: a page that dies ends the wait with BROWSER_UNAVAILABLE)."""
        try:
            await self.page.wait_for_timeout(ms)
        except Exception as exc:  # noqa: BLE001 - mapped in one place
            raise self._failed(exc, action="wait") from None

    async def interrupt(self) -> str:
        """Terminate the script the page's main thread is running (CDP ``Runtime.terminateExecution``:
        V8 stops it from outside, so it works while the page is busy). Without CDP, nothing to do."""
        if self._cdp is None:
            return "the page did not answer (its JavaScript kept it busy)"
        with contextlib.suppress(Exception):
            await asyncio.wait_for(self._cdp.send("Runtime.terminateExecution"), INTERRUPT_S)
        return "the page did not answer (its JavaScript kept it busy); the page's running script was stopped"

    def location(self) -> str | None:
        """The page's URL."""
        return self.page.url

    def shared_screen(self) -> str | None:
        return None  # every session has a browser context of its own

    async def frames(self) -> None:
        """Until the page has drawn its next two frames (``Frames``), in the world the last look found."""
        with contextlib.suppress(Exception):  # (at once where it cannot tell: a page that navigated or closed)
            await self._call({"executionContextId": self._world}, FRAMES_JS, None)

    async def close(self) -> None:
        """Close the context (and its page; already closed: nothing to do)."""
        with contextlib.suppress(Exception):
            await self.context.close()


def _point(params: dict[str, Any]) -> tuple[tuple[str, str], tuple[str, str]]:
    return ((str(params["x"]), "width"), (str(params["y"]), "height"))
