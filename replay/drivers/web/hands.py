"""A person's hands on a web page (SPEC §16): ``recorder.js`` holds their input in every frame before
the page's handlers and hands each gesture to the recorder through a Playwright binding."""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import Any

from replay.drivers.web.page_scripts import POINTED_JS

RECORDER_JS = (Path(__file__).with_name("recorder.js")).read_text(encoding="utf-8")
BINDING = "__replayRecord"  # the function recorder.js hands a gesture to
REARM_JS = "([seq, settled]) => { const r = window.__replayRecorder; if (r) r.rearmed(seq, settled); }"
SAY_JS = "([t, w]) => { const r = window.__replayRecorder; if (r && r.said) r.said(t, w); }"
FRAME = "frame"  # a gesture's key for the frame it came from (in memory only)
MAX_FILES = 16
# the ``i``-th file chosen in the file input at a recorder path (from the top document), or null
FILE_AT_JS = """(path, i) => {
  let node = document;
  for (const step of path) {
    node = step === -1 ? node.shadowRoot : step === -2 ? node.contentDocument : node && node.children[step];
    if (!node) return null;
  }
  return (node.files && node.files[i]) || null;
}"""


class WebHands:
    """``PersonInput`` for one web session's page."""

    def __init__(self, driver: Any, devtools: str | None) -> None:  # (its WebDriver: imported by it, not here)
        self.driver = driver
        self._devtools = devtools
        self._pending: dict[str, Any] | None = None  # the gesture being performed (its frame holds input)
        self._cdps: list[Any] = []  # DevTools sessions of its tabs, for how the person answered a dialog
        self._later: set[asyncio.Future[None]] = set()  # (a new tab's: kept until done)

    def devtools(self) -> str | None:
        return self._devtools

    async def intercept(self, on_input: Callable[[dict[str, Any]], Any]) -> None:
        page, context = self.driver.page, self.driver.context

        token = secrets.token_hex(16)
        script = RECORDER_JS.replace("__REPLAY_TOKEN__", token)

        def called(source: Any, gesture: Any) -> Any:
            # only recorder.js knows the token: a page script calling the binding records nothing
            if not isinstance(gesture, dict) or not hmac.compare_digest(str(gesture.pop("token", "")), token):
                return None
            # (a pick's answer — the selector replay would write — goes back to the bar)
            return on_input({**gesture, FRAME: source.get("frame")})

        await context.expose_binding(BINDING, called)
        await context.add_init_script(script)
        for frame in page.frames:  # the page already shown: its documents started before the script
            with contextlib.suppress(Exception):
                await frame.evaluate(script)
        page.on("close", lambda _: on_input({"kind": "closed"}))
        # the front tab closed in the browser: the one in front now is where the person goes on
        self.driver.tabs.on_front = lambda number: on_input({"kind": "tab", "number": number})
        await self._hear_dialogs(page, on_input)  # … in every tab: the ones the page opens too

        def opened(tab: Any) -> None:
            hearing = asyncio.ensure_future(self._hear_dialogs(tab, on_input))
            self._later.add(hearing)
            hearing.add_done_callback(self._later.discard)

        context.on("page", opened)

    async def _hear_dialogs(self, page: Any, on_input: Callable[[dict[str, Any]], Any]) -> None:
        """A dialog the person answers in ``page``: DevTools says how (a step then takes that answer)."""
        dialogs = self.driver.tabs.dialogs_of(page)
        dialogs.on_answer = lambda answer: on_input(
            {"kind": "dialog", "accept": answer["accept"], "value": answer["text"], "dialog": answer["dialog"]}
        )
        with contextlib.suppress(Exception):  # (a tab closed at once: nothing to hear)
            cdp = await self.driver.context.new_cdp_session(page)
            cdp.on("Page.javascriptDialogClosed", dialogs.closed)
            await cdp.send("Page.enable")
            self._cdps.append(cdp)

    async def pointed(self, generation: int, path: Any) -> list[int]:
        found = await self.driver.in_world_of(generation, POINTED_JS, [generation, path])
        return [int(i) for i in found] if isinstance(found, list) else []

    async def files_of(self, gesture: dict[str, Any]) -> list[str]:
        """The paths of the files the person chose in the file input ``gesture`` points at (DevTools'
        ``DOM.getFileInfo``: a page's script sees only their names)."""
        frame, path = gesture.get(FRAME), gesture.get("path")
        if frame is None or not isinstance(path, list) or not all(isinstance(p, int) for p in path):
            return []
        cdp = await self.driver.context.new_cdp_session(frame.page)
        try:
            found: list[str] = []
            for i in range(MAX_FILES):
                made = await cdp.send("Runtime.evaluate", {"expression": f"({FILE_AT_JS})({json.dumps(path)}, {i})"})
                if "objectId" not in made["result"]:
                    break
                try:
                    info = await cdp.send("DOM.getFileInfo", {"objectId": made["result"]["objectId"]})
                except Exception:  # noqa: BLE001 - a file made by script, no file on disk: no path
                    return []
                found.append(str(info["path"]))
            return found
        finally:
            with contextlib.suppress(Exception):
                await cdp.detach()

    def tab_of(self, gesture: dict[str, Any]) -> int | None:
        frame = gesture.get(FRAME)
        return None if frame is None else self.driver.tabs.number_of(frame.page)

    def performing(self, gesture: dict[str, Any]) -> None:
        self._pending = gesture

    async def rearm(self) -> None:
        await self.dispatched(settled=False)

    async def dispatched(self, *, settled: bool = True) -> None:
        """The gesture being performed reached the page (the driver's own input is done): the person's
        input is held again; ``settled``: what its field holds now is what the script says it holds
        (not later: the person may be typing again by then)."""
        gesture, self._pending = self._pending, None
        if gesture is None or gesture.get(FRAME) is None:
            return
        with contextlib.suppress(Exception):  # a frame that went away meanwhile
            await gesture[FRAME].evaluate(REARM_JS, [int(gesture.get("seq") or 0), settled])

    async def say(self, text: str, warning: bool) -> None:
        with contextlib.suppress(Exception):  # no bar (a page that went away meanwhile): nothing to say
            await self.driver.page.evaluate(SAY_JS, [text, warning])
