"""A person's hands on `replay record`'s page: `replay record URL --headless --json` running, and
trusted mouse and keyboard input through the recorder's relay — never `replay click`."""

from __future__ import annotations

import json
import queue
import signal
import subprocess
import threading
from pathlib import Path
from typing import Any

from .conftest import REPLAY, Cli

STEP_S = 30.0  # how long a person waits to see their step recorded (a loaded CI machine)


class Recording:
    """`replay record URL --headless --json` running, and a person's hands on its page."""

    def __init__(
        self, cli: Cli, target: str, out: Path, session: str, *extra: str, url: str | None = None, pw: Any = None
    ) -> None:
        argv = [REPLAY, "record", target, *extra, "--headless", "--json", "-o", str(out), "--session", session]
        self.session = session
        self.proc = subprocess.Popen(argv, stdout=subprocess.PIPE, text=True, cwd=cli.cwd, env=cli.env)
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        self.seen: list[dict[str, Any]] = []
        threading.Thread(target=self._read, daemon=True).start()
        ready = self.next_event()
        assert ready["event"] == "ready", ready
        from playwright.sync_api import sync_playwright

        self._own_pw = pw is None  # (one Playwright a thread: a second recording in a test shares the first's)
        self.pw: Any = pw or sync_playwright().start()
        self.endpoint = str(ready["cdp"])  # replay's relay to the recording's browser (on a pipe)
        self.browser = self.pw.chromium.connect_over_cdp(self.endpoint)
        pages = [p for c in self.browser.contexts for p in c.pages if p.url == (url or target)]
        assert len(pages) == 1, [p.url for c in self.browser.contexts for p in c.pages]
        self.page = pages[0]

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for line in self.proc.stdout:
            self.lines.put(json.loads(line))

    def next_event(self) -> dict[str, Any]:
        try:
            event = self.lines.get(timeout=STEP_S)
        except queue.Empty:
            raise AssertionError(f"no event in {STEP_S} s; seen: {json.dumps(self.seen, indent=1)}") from None
        self.seen.append(event)
        return event

    def steps(self, n: int = 1) -> list[dict[str, Any]]:
        """Wait, as a person watching, until ``n`` more steps were recorded."""
        got: list[dict[str, Any]] = []
        while len(got) < n:
            event = self.next_event()
            assert event["event"] in ("step", "variable"), event
            got += [event] if event["event"] == "step" else []
        return got

    def click(self, selector: str, *, double: bool = False) -> None:
        target = self.page.locator(selector).first
        target.scroll_into_view_if_needed()  # (a person scrolls to what they click; scrolling is not a step)
        box = target.bounding_box()
        assert box is not None, selector
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        if double:
            self.page.mouse.dblclick(x, y)
        else:
            self.page.mouse.click(x, y)

    def drag(self, source: str, target: str) -> None:
        """Press on ``source``, move the pointer onto ``target`` and let go there."""
        ends = [self.page.locator(selector).first.bounding_box() for selector in (source, target)]
        assert ends[0] is not None and ends[1] is not None, (source, target)
        (x0, y0), (x1, y1) = ((b["x"] + b["width"] / 2, b["y"] + b["height"] / 2) for b in ends)
        self.page.mouse.move(x0, y0)
        self.page.mouse.down()
        self.page.mouse.move(x1, y1, steps=8)
        self.page.mouse.up()

    def bar(self, button: str) -> None:
        """Click a button of the recorder's bar (found through DevTools' DOM, shadow roots pierced)."""
        from fixtures.drift.by_hand import press_bar

        press_bar(self.page, button)

    def bar_says(self) -> str:
        found = self._bar_node('class="said')
        return str(self.cdp.send("DOM.getOuterHTML", {"backendNodeId": found["backendNodeId"]})["outerHTML"])

    def _bar_node(self, attribute: str) -> dict[str, Any]:
        if not hasattr(self, "cdp"):
            self.cdp = self.page.context.new_cdp_session(self.page)
        tree = self.cdp.send("DOM.getDocument", {"depth": -1, "pierce": True})["root"]
        stack = [tree]
        while stack:
            node = stack.pop()
            attrs = node.get("attributes", [])
            pairs = " ".join(f'{k}="{v}' for k, v in zip(attrs[::2], attrs[1::2], strict=True))
            if attribute in pairs:
                return dict(node)
            stack += node.get("children", []) + node.get("shadowRoots", [])
        raise AssertionError(f"no {attribute} in the bar")

    def enter(self, text: str) -> list[dict[str, Any]]:
        """Type ``text`` and press Enter: the field's fill, then the key."""
        self.type(text)
        self.press("Enter")
        return self.steps(2)

    def type(self, text: str) -> None:
        self.page.keyboard.type(text)

    def press(self, key: str) -> None:
        self.page.keyboard.press(key)

    def let_go(self) -> None:
        """The test's connection ends (the recorder's browser stays)."""
        if self.pw is not None:
            self.browser.close()
            if self._own_pw:
                self.pw.stop()
            self.pw = None

    def stop(self, *, let_go: bool = True) -> dict[str, Any]:
        """Ctrl+C: the recording is published; its last event says where. ``let_go``: the test's
        connection ends first (else it stays, as a person's browser does, until ``let_go``)."""
        if let_go:
            self.let_go()
        self.proc.send_signal(signal.SIGINT)
        self.proc.wait(timeout=60)
        while (event := self.next_event())["event"] != "stopped":
            pass
        return event

    def kill(self) -> None:
        self.let_go()
        if self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def replays_clean(cli: Cli, script: Path, *args: str) -> None:
    """The recorded ``script`` replays, clean, on the app it was recorded on (``args``: its variables)."""
    ran = cli("run", str(script), *args, ok=None)
    assert ran.returncode == 0, ran.stdout + ran.stderr
