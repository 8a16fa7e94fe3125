"""A person's hands on a web page (design §16): ``recorder.js`` holds their input in every frame before
the page's handlers and hands each gesture to the recorder through a DevTools binding.

Both live in an isolated world of the page (as a browser extension's content script does): the
script is added to each new document's world named ``WORLD`` and the binding is exposed to that
world only, so no page script can call it, read what it is handed or replace what the recorder
trusts (``JSON``, ``window.__…``, ``addEventListener``)."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from replay.drivers.web.page_scripts import POINTED_JS

log = logging.getLogger("replay.daemon")

RECORDER_JS = (Path(__file__).with_name("recorder.js")).read_text(encoding="utf-8")
BINDING = "__replayRecord"  # the function recorder.js hands a gesture to (in its world only)
WORLD = "__replay_recorder"  # the isolated world recorder.js runs in
REARM_JS = "window.__replayRecorder && window.__replayRecorder.rearmed({seq}, {settled})"
SAY_JS = "window.__replayRecorder && window.__replayRecorder.said({text}, {warning})"
FLUSH_JS = "window.__replayRecorder && window.__replayRecorder.flushNow()"
ANSWER_JS = "window.__replayRecorder && window.__replayRecorder.answered({n}, {value})"
RUN_S = 2.0  # how long the recorder waits for its world to run a call (a dialog may hold the page)
FRAME = "frame"  # a gesture's key for where it came from (a ``Where``; in memory only)
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


@dataclass(eq=False)
class _Tab:
    """One tab's DevTools session and the recorder's world in each of its frames."""

    page: Any
    cdp: Any
    worlds: dict[str, int] = field(default_factory=dict)  # frame id → its recorder world's context
    main: str = ""  # the main frame's id

    def created(self, event: dict[str, Any]) -> None:
        context = event["context"]
        if context.get("name") == WORLD:
            self.worlds[str(context.get("auxData", {}).get("frameId"))] = int(context["id"])

    def destroyed(self, event: dict[str, Any]) -> None:
        gone = int(event.get("executionContextId", -1))
        for frame in [f for f, c in self.worlds.items() if c == gone]:
            del self.worlds[frame]

    async def run(self, context: int, expression: str) -> Any:
        """``expression`` in the recorder's world ``context``, its value (None when it timed out),
        waited for ``RUN_S`` at most: a page whose dialog is open (a storm of them) runs no script until
        it is answered, and nothing of the recorder may wait on that (the call still runs when the
        dialog goes)."""
        sent = self.cdp.send(
            "Runtime.evaluate", {"expression": expression, "contextId": context, "returnByValue": True}
        )
        with contextlib.suppress(TimeoutError):
            done = await asyncio.wait_for(asyncio.shield(sent), RUN_S)
            return done.get("result", {}).get("value")
        return None


@dataclass(frozen=True)
class Where:
    """Where a gesture came from: its tab and the recorder world (its frame's) that handed it over."""

    tab: _Tab
    context: int

    @property
    def page(self) -> Any:
        return self.tab.page


class WebHands:
    """``PersonInput`` for one web session's page."""

    def __init__(self, driver: Any, devtools: str | None) -> None:  # (its WebDriver: imported by it, not here)
        self.driver = driver
        self._devtools = devtools
        self._pending: dict[str, Any] | None = None  # the gesture being performed (its frame holds input)
        self._tabs: list[_Tab] = []
        self._later: set[asyncio.Future[Any]] = set()  # (work started from an event: kept until done)
        self._on_input: Callable[[dict[str, Any]], Any] = lambda _: None

    def devtools(self) -> str | None:
        return self._devtools

    async def intercept(self, on_input: Callable[[dict[str, Any]], Any]) -> None:
        page, context = self.driver.page, self.driver.context
        self._on_input = on_input
        await self._attach(page)
        page.on("close", lambda _: on_input({"kind": "closed"}))
        # the front tab closed in the browser: the one in front now is where the person goes on
        self.driver.tabs.on_front = lambda number: on_input({"kind": "tab", "number": number})
        context.on("page", lambda tab: self._later_do(self._attach(tab)))

    def _later_do(self, work: Any) -> None:
        done = asyncio.ensure_future(work)
        self._later.add(done)
        done.add_done_callback(self._later.discard)

    async def _attach(self, page: Any) -> None:
        """The recorder in ``page``: in the isolated world of every document it loads from now on, and
        of each frame it shows already; how the person answers a dialog there is heard too."""
        dialogs = self.driver.tabs.dialogs_of(page)
        on_input = self._on_input
        dialogs.on_answer = lambda answer: on_input(
            {"kind": "dialog", "accept": answer["accept"], "value": answer["text"], "dialog": answer["dialog"]}
        )
        try:
            cdp = await self.driver.context.new_cdp_session(page)
            tab = _Tab(page, cdp)
            cdp.on("Runtime.executionContextCreated", tab.created)
            cdp.on("Runtime.executionContextDestroyed", tab.destroyed)
            cdp.on("Runtime.executionContextsCleared", lambda _: tab.worlds.clear())
            cdp.on("Runtime.bindingCalled", lambda event: self._called(tab, event))
            cdp.on("Page.javascriptDialogClosed", dialogs.closed)
            await cdp.send("Page.enable")
            await cdp.send("Runtime.enable")
            await cdp.send("Runtime.addBinding", {"name": BINDING, "executionContextName": WORLD})
            await cdp.send("Page.addScriptToEvaluateOnNewDocument", {"source": RECORDER_JS, "worldName": WORLD})
            tree = (await cdp.send("Page.getFrameTree"))["frameTree"]
            tab.main = str(tree["frame"]["id"])
            self._tabs.append(tab)
        except Exception:  # noqa: BLE001 - a tab closed at once: nothing to record in it
            return
        frames = [tree]
        while frames:  # the documents shown already started before the script: it runs in them now
            frame = frames.pop()
            frames += frame.get("childFrames", [])
            with contextlib.suppress(Exception):  # (a frame that went away meanwhile)
                made = await cdp.send("Page.createIsolatedWorld", {"frameId": frame["frame"]["id"], "worldName": WORLD})
                await tab.run(int(made["executionContextId"]), RECORDER_JS)

    def _called(self, tab: _Tab, event: dict[str, Any]) -> None:
        """A gesture from recorder.js (only its world has the binding); a question is answered there."""
        if event.get("name") != BINDING:
            return
        try:
            gesture = json.loads(event["payload"])
            context = int(event["executionContextId"])
        except (KeyError, TypeError, ValueError):
            return
        if not isinstance(gesture, dict):
            return
        answer = self._on_input({**gesture, FRAME: Where(tab, context)})
        if gesture.get("ask") is not None and answer is not None:
            self._later_do(self._answer(tab, context, int(gesture["ask"]), answer))

    async def _answer(self, tab: _Tab, context: int, number: int, answer: Any) -> None:
        value = await answer
        with contextlib.suppress(Exception):  # the document is gone: nobody asks any more
            await tab.run(context, ANSWER_JS.format(n=number, value=json.dumps(value)))

    async def pointed(self, generation: int, path: Any) -> list[int]:
        found = await self.driver.in_world_of(generation, POINTED_JS, [generation, path])
        return [int(i) for i in found] if isinstance(found, list) else []

    async def files_of(self, gesture: dict[str, Any]) -> list[str]:
        """The paths of the files the person chose in the file input ``gesture`` points at (DevTools'
        ``DOM.getFileInfo``: a page's script sees only their names)."""
        where, path = gesture.get(FRAME), gesture.get("path")
        if not isinstance(where, Where) or not isinstance(path, list) or not all(isinstance(p, int) for p in path):
            return []
        cdp = await self.driver.context.new_cdp_session(where.page)
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
                if not info.get("path"):  # a file given as bytes (a DataTransfer's): on no disk either
                    return []
                found.append(str(info["path"]))
            return found
        finally:
            with contextlib.suppress(Exception):
                await cdp.detach()

    def tab_of(self, gesture: dict[str, Any]) -> int | None:
        where = gesture.get(FRAME)
        return self.driver.tabs.number_of(where.page) if isinstance(where, Where) else None

    async def take_back(self, gesture: dict[str, Any]) -> None:
        """A ``type`` gesture's text, typed by the person at the caret, taken back by keys (selected
        backwards, deleted): the editor's own handlers see it go, and replay's ``type`` types it again."""
        where, text = gesture.get(FRAME), gesture.get("text")
        if not isinstance(where, Where) or not isinstance(text, str) or not text:
            return
        keyboard = where.page.keyboard
        await keyboard.down("Shift")
        try:
            for _ in text:
                await keyboard.press("ArrowLeft")
        finally:
            await keyboard.up("Shift")
        await keyboard.press("Backspace")

    async def deliver(self, gesture: dict[str, Any]) -> None:
        """The keys the person typed while a gesture was performed, typed now where the focus is, in
        their order: characters inserted as text (as a `fill` replays them: no key event a person's
        could be taken for), other keys pressed (recorder.js expects them as replay's own)."""
        where = gesture.get(FRAME)
        keys = gesture.get("keys")
        if not isinstance(where, Where) or not isinstance(keys, list):
            return
        keyboard, text = where.page.keyboard, ""
        for key in [k for k in keys if isinstance(k, dict) and isinstance(k.get("key"), str)]:
            name = str(key["key"])
            chord = [m for m, on in (("Control", "ctrl"), ("Alt", "alt"), ("Meta", "meta")) if key.get(on)]
            if len(name) == 1 and not chord:
                text += name
                continue
            if text:
                await keyboard.insert_text(text)
                text = ""
            shift = ["Shift"] if key.get("shift") else []
            await keyboard.press("+".join([*chord, *shift, "Space" if name == " " else name]))
        if text:
            await keyboard.insert_text(text)

    def performing(self, gesture: dict[str, Any]) -> None:
        self._pending = gesture

    async def rearm(self) -> None:
        await self.dispatched(settled=False)

    async def dispatched(self, *, settled: bool = True) -> None:
        """The gesture being performed reached the page (the driver's own input is done): the person's
        input is held again; ``settled``: what its field holds now is what the script says it holds
        (not later: the person may be typing again by then)."""
        gesture, self._pending = self._pending, None
        where = gesture.get(FRAME) if gesture is not None else None
        if gesture is None or not isinstance(where, Where):
            return
        seq = int(gesture.get("seq") or 0)
        with contextlib.suppress(Exception):  # a frame that went away meanwhile
            await where.tab.run(where.context, REARM_JS.format(seq=seq, settled=json.dumps(settled)))

    async def flush(self) -> int:
        """The recording stops: each frame's recorder hands over the text typed in a field it has not
        reported yet (its ``fill`` reaches ``on_input`` before this returns); how many of the person's
        inputs are still on their way (held behind a gesture being performed)."""
        pending = 0
        for tab in list(self._tabs):
            for context in list(tab.worlds.values()):
                with contextlib.suppress(Exception):  # (a tab or frame gone meanwhile)
                    said = await tab.run(context, FLUSH_JS)
                    pending += said if isinstance(said, int) and not isinstance(said, bool) else 0
        return pending

    async def say(self, text: str, warning: bool) -> None:
        tab = next((t for t in self._tabs if t.page is self.driver.page), None)
        context = tab.worlds.get(tab.main) if tab is not None else None
        if tab is None or context is None:
            return  # no bar (a page that went away meanwhile): nothing to say
        with contextlib.suppress(Exception):
            await tab.run(context, SAY_JS.format(text=json.dumps(text), warning=json.dumps(warning)))
