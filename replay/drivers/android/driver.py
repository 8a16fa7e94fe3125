"""The Android ``Driver`` (design §9): one device through an ``AdbTransport``, agent-device's command lines.

Android has no element handles: a node of a capture is found again in a fresh dump (same role, id
and name; the same rect among look-alikes) before anything acts on it, and the tap goes to its
centre. Transient adb failures are retried within the step's deadline; a screen that never settles
is said to be busy.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from replay.clock import SYSTEM_CLOCK, Clock
from replay.drivers.android import adb
from replay.drivers.android.uix import parse_dump
from replay.drivers.base import Check, Click, DoubleClick, Fill, Gesture, Keep, OpenRequest, Read, ScrollTo, kept
from replay.errors import ActionFailed, InvalidArgs, StaleRef
from replay.files import make_private
from replay.script import apps
from replay.tree.model import Capture, Node

KEPT = 8  # captures whose nodes stay actable (as the web driver keeps recent generations)
RETRY_S = (0.25, 0.5, 1.0)  # between attempts of a command that failed transiently
PNG = b"\x89PNG\r\n\x1a\n"
FILL_DELETES = (8, 48)  # agent-device's bounds on the deletes before typing (len + 12, clamped)
KEYS = {"enter": "enter", "return": "enter", "back": "back", "escape": "back", "home": "home", "tab": "61"}
# agent-device's freshness (android-snapshot-freshness.ts): for a while after an action that moves
# the screen, a dump that looks like the screen before it, or like nothing, is looked at again
SETTLE_WINDOW_S = 2.5  # how long after the action a dump is suspect
SETTLE_DEADLINE_S = 1.5  # how long one look waits for a fresh dump
SETTLE_PAUSES_S = (0.25, 0.4, 0.6)
UNCHANGED = 0.9  # this share of the dump's nodes as they were: the screen has not moved yet
SHRUNK = 0.2  # a dump with at most this share of a screen's nodes (of ≥ 12): half drawn
# a capture taken this recently, with nothing sent to the device since, is the screen as it is: the
# node a step verified in it is acted on without a second dump (what a hand-written adb script does)
FRESH_S = 0.5
READ_ONLY = (("exec-out", "uiautomator"), ("shell", "uiautomator"), ("shell", "cat"), ("shell", "wm"))


class AndroidDriver:
    """A session on one device: what its screen shows, and acting on it."""

    def __init__(self, transport: adb.AdbTransport, clock: Clock = SYSTEM_CLOCK) -> None:
        self.transport = transport
        self.clock = clock
        self._captures: dict[int, Capture] = {}
        self._package: str | None = None  # the app `open` started (or the latest dump's)
        self._closed = False
        self._latest: Capture | None = None  # the last screen seen
        self._latest_at: float | None = None  # when, if nothing was sent to the device since
        self._moved: tuple[float, Capture | None] | None = None  # when an action moved the screen, from what
        self._size: tuple[int, int] | None = None  # the screen's size in px, once asked
        self._signatures: tuple[Capture, Signatures] | None = None  # the last capture's, for the next settle

    # looking ------------------------------------------------------------------------------------

    async def capture(self, generation: int, keep: Keep = None) -> Capture:
        """One dump of the screen as ``generation`` (stdout, else the file fallback); just after an
        action that moves the screen, a fresh one (agent-device's freshness rules)."""
        taken = await self._settled(generation)
        self._package = taken.screen.path or self._package
        self._captures[generation] = taken
        for old in [g for g in self._captures if g < generation - KEPT and g not in kept(keep)]:
            del self._captures[old]
        return taken

    async def _settled(self, generation: int) -> Capture:
        taken = parse_dump(await self._dump(), generation=generation)
        moved, self._moved = self._moved, None
        if moved is not None and self.clock.now() - moved[0] <= SETTLE_WINDOW_S:
            before = moved[1]
            was = self._signed(before) if before is not None else None  # once: every look compares to it
            started, last = self.clock.now(), None
            for pause in SETTLE_PAUSES_S:
                now = self._signed(taken)
                if not _suspect(taken, now, before, was) or self.clock.now() - started + pause > SETTLE_DEADLINE_S:
                    break
                if now == last and now != was:
                    break  # the screen changed in place (a checkbox, a selection) and holds still
                await self.clock.sleep(pause)
                last, taken = now, parse_dump(await self._dump(), generation=generation)
        self._latest, self._latest_at = taken, self.clock.now()
        return taken

    def _signed(self, taken: Capture) -> Signatures:
        """``taken``'s node signatures; the last capture's kept (it is the next settle's screen before)."""
        if self._signatures is None or self._signatures[0] is not taken:
            self._signatures = (taken, _signatures(taken))
        return self._signatures[1]

    def _moving(self, before: Capture | None) -> None:
        """The screen is about to move (a tap, a key, an app started): the next look waits for it."""
        self._moved = (self.clock.now(), before)

    async def _dump(self) -> str:
        printed = await self._run(adb.dump(), "snapshot")
        if "<hierarchy" in printed.text:
            return printed.text
        await self._run(adb.dump_to_file(), "snapshot")
        return (await self._run(adb.cat_dump(), "snapshot")).text

    async def _run(self, args: list[str], what: str) -> adb.Result:
        """``args`` through the transport; transient failures retried (a few times, growing pauses)."""
        if tuple(args[:2]) not in READ_ONLY:
            self._latest_at = None  # the screen may move: what was seen is no longer the screen
        result = await self.transport.run(args, adb.COMMAND_S)
        for pause in RETRY_S:
            if not adb.transient(result):
                break
            await self.clock.sleep(pause)
            result = await self.transport.run(args, adb.COMMAND_S)
        return adb.check(result, what)

    # nodes --------------------------------------------------------------------------------------

    def _node(self, generation: int, index: int) -> Node:
        taken = self._captures.get(generation)
        if taken is None or not 0 < index < len(taken.nodes):
            raise StaleRef(f"@e{index} is no longer on the screen", hint="take a new snapshot (`replay snapshot -i`)")
        return taken.nodes[index]

    async def _live(self, generation: int, index: int) -> Node:
        """The node as the screen shows it now (a fresh dump, unless its capture is the screen as it
        is: just taken, nothing sent since), or ``StaleRef``."""
        was = self._node(generation, index)
        taken = self._captures[generation]
        if taken is self._latest and self._latest_at is not None and self.clock.now() - self._latest_at <= FRESH_S:
            return was
        now = parse_dump(await self._dump(), generation=0)
        self._latest, self._latest_at = now, self.clock.now()
        found = _same(was, now)
        if found is None:
            raise StaleRef(f"@e{index} is no longer on the screen", hint="take a new snapshot (`replay snapshot -i`)")
        return found

    async def locate(self, generation: int, index: int, in_generation: int) -> int | None:
        there = self._captures.get(in_generation)
        if there is None:
            return None
        if generation not in self._captures:
            return None  # (its capture is no longer kept: where it is now cannot be told)
        found = _same(self._node(generation, index), there)
        return found.position if found is not None else None

    async def is_attached(self, generation: int, index: int) -> bool:
        try:
            await self._live(generation, index)
        except StaleRef:
            return False
        return True

    # acting -------------------------------------------------------------------------------------

    async def act(self, generation: int, index: int, gesture: Gesture, timeout_ms: int) -> Any:
        """Tap (click, double tap), fill, check/uncheck; read text, value, fields."""
        node = await self._live(generation, index)
        x, y = node.center
        command = gesture.op
        if isinstance(gesture, Read):
            return _read(node, gesture.what)
        if not node.enabled and not isinstance(gesture, ScrollTo):
            raise ActionFailed(f"{command}: the element is disabled", hint="bring the app to where it is enabled")
        match gesture:
            case Click():
                self._moving(self._latest)
                await self._run(adb.tap(x, y), command)
            case DoubleClick():
                self._moving(self._latest)
                await self._run(adb.tap(x, y), command)
                await self._run(adb.tap(x, y), command)
            case Check(on=on):
                if node.checked != on:
                    await self._run(adb.tap(x, y), command)
            case Fill(text=text):
                await self._fill(node, text)
            case ScrollTo():
                return None  # a node in a dump is on the screen already
            case _:
                raise ActionFailed(f"{command} is not an Android element action", hint="see docs/android.md")
        return None

    async def _fill(self, node: Node, text: str) -> None:
        """agent-device's fill: tap the field, go to its end, delete what is there, type the text."""
        x, y = node.center
        await self._run(adb.tap(x, y), "fill")
        await self._run(adb.keyevent("move_end"), "fill")
        low, high = FILL_DELETES
        deletes = min(high, max(low, len(node.value or "") + 12))
        await self._run(["shell", "input", "keyevent"] + [adb.KEYCODES["del"]] * deletes, "fill")
        for chunk in adb.text_chunks(text):
            await self._run(chunk, "fill")

    async def navigate(self, request: OpenRequest, timeout_ms: int) -> None:
        """An app id starts the app (force-stopped first with ``relaunch``); a URL opens as a deep link."""
        target = request.target
        problem = apps.app_problem(target)  # before any word reaches the device's shell
        if problem is not None:
            raise InvalidArgs(f"open: {problem}", hint=apps.HINT)
        self._moving(self._latest)
        if apps.is_link(target):
            await self._run(adb.open_link(target), f"open {target}")
            return
        if target in apps.ALIASES:  # agent-device's `open settings`: an intent, not a package to restart
            await self._run(adb.ALIASES[target], f"open {target}")
            self._package = adb.ALIAS_PACKAGES[target]
            return
        if request.clear_state:
            await self._run(adb.clear_data(target), f"open {target} --clear-state")
        if request.relaunch:
            await self._run(adb.force_stop(target), f"open {target}")
        await self._run(adb.start_app(target), f"open {target}")
        self._package = target

    async def history(self, direction: str, timeout_ms: int) -> None:
        if direction not in ("back", "home"):
            raise ActionFailed(f"{direction} has no Android meaning", hint="use back or home, or open the app again")
        self._moving(self._latest)
        await self._run(adb.keyevent(direction), direction)

    async def device(self, command: str, params: dict[str, Any]) -> str | None:
        """``swipe`` (agent-device's count, pause and pattern), ``press X Y``, ``long-press X Y [MS]``,
        ``keyboard status|dismiss``, ``appstate``."""
        if command == "swipe":
            await self._swipe(params)
            return None
        if command in ("press", "long-press", "longpress"):  # agent-device's press X Y, long-press X Y [MS]
            self._moving(self._latest)
            x, y = await self._point(params["x"], params["y"])
            held = adb.long_press(x, y, int(params.get("ms") or adb.LONG_PRESS_MS))
            await self._run(adb.tap(x, y) if command == "press" else held, command)
            return None
        if command == "appstate":
            shown = adb.focused_app((await self._run(adb.windows(), "appstate")).text)
            return f"foreground: {shown or 'unknown (dumpsys window names no focused window)'}"
        shown_now = adb.keyboard_shown((await self._run(adb.input_method(), "keyboard")).text)
        if params.get("what") == "status":
            return f"keyboard: {'shown' if shown_now else 'hidden'}"
        for _ in range(2):  # agent-device: ESCAPE while it shows, twice at most, 120 ms apart
            if not shown_now:
                return None
            await self._run(adb.keyevent("hide_keyboard"), "keyboard dismiss")
            await self.clock.sleep(0.12)
            shown_now = adb.keyboard_shown((await self._run(adb.input_method(), "keyboard")).text)
        if shown_now:
            raise ActionFailed("keyboard dismiss: the keyboard still shows", hint="dismiss it by hand (back)")
        return None

    async def _point(self, x: str, y: str) -> tuple[float, float]:
        """A point in device px; a percentage is of the screen's size (``wm size``, asked once)."""
        if not (x.endswith("%") or y.endswith("%")):
            return float(x), float(y)
        if self._size is None:
            self._size = adb.physical_size((await self._run(adb.screen_size(), "swipe")).text) or (1080, 1920)
        w, h = self._size
        return (
            float(x[:-1]) * w / 100 if x.endswith("%") else float(x),
            float(y[:-1]) * h / 100 if y.endswith("%") else float(y),
        )

    async def _swipe(self, params: dict[str, Any]) -> None:
        start = await self._point(params["x1"], params["y1"])
        end = await self._point(params["x2"], params["y2"])
        ms = int(params.get("ms") or adb.SWIPE_MS)
        count, pause_ms = int(params.get("count") or 1), int(params.get("pause-ms") or 0)
        pattern = params.get("pattern") or "one-way"
        if pattern not in ("one-way", "ping-pong"):
            raise ActionFailed(f"swipe --pattern {pattern}: not a pattern", hint="one-way or ping-pong")
        self._moving(self._latest)
        for i in range(count):
            a, b = (start, end) if pattern == "one-way" or i % 2 == 0 else (end, start)
            await self._run(adb.swipe(*a, *b, ms), "swipe")
            if pause_ms and i < count - 1:
                await self.clock.sleep(pause_ms / 1000)

    async def keyboard(self, kind: str, text: str) -> None:
        if kind == "type":
            for chunk in adb.text_chunks(text):
                await self._run(chunk, "type")
            return
        key = KEYS.get(text.lower())
        if key is None:
            raise ActionFailed(f"press {text}: not a key this device takes", hint=f"keys: {', '.join(sorted(KEYS))}")
        if key in ("enter", "back", "home"):
            self._moving(self._latest)
        await self._run(adb.keyevent(key), f"press {text}")

    async def scroll(self, direction: str, amount: float | None) -> None:
        size = adb.physical_size((await self._run(adb.screen_size(), "scroll")).text) or (1080, 1920)
        w, h = size
        span = (h if direction in ("up", "down") else w) * (0.6 if amount is None else min(amount, 1.0) * 0.8)
        cx, cy = w / 2, h / 2
        dx, dy = {"up": (0, -span), "down": (0, span), "left": (-span, 0), "right": (span, 0)}[direction]
        # the finger moves against the content: to see what is below, it swipes up
        await self._run(adb.swipe(cx + dx / 2, cy + dy / 2, cx - dx / 2, cy - dy / 2), "scroll")

    async def wait(self, ms: int) -> None:
        await self.clock.sleep(ms / 1000)

    async def screenshot(self, path: str, full_page: bool) -> None:
        data = (await self._run(adb.screencap(), "screenshot")).out
        at = data.find(PNG)
        if at < 0:
            raise ActionFailed("screenshot: the device sent no PNG", hint="is the screen on?")
        with open(path, "wb") as fh:
            fh.write(data[at:])
        make_private(path)

    async def interrupt(self) -> str:
        # no script runs on our behalf on the device: its adb command was killed with the step
        return "the device did not answer (adb); its command was stopped"

    def location(self) -> str | None:
        return self._package

    def alive(self) -> bool:
        return not self._closed

    def shared_screen(self) -> str | None:
        serial = getattr(self.transport, "serial", None)  # one device, one screen, whoever drives it
        return f"the Android device {serial}" if serial else None  # a transport that names no device

    async def close(self) -> None:
        self._closed = True  # the app stays as it is: a person may look at it


def _same(was: Node, now: Capture) -> Node | None:
    """``was``'s node in the capture ``now``: the one of its role, id and name; among several, the one
    in the same place (a list whose rows look alike)."""
    alike = [
        n
        for n in now.nodes[1:]
        if n.role == was.role and n.test_id == was.test_id and n.label == was.label and n.tag_name == was.tag_name
    ]
    if len(alike) == 1:
        return alike[0]
    there = [n for n in alike if n.rect == was.rect]
    return there[0] if len(there) == 1 else None


def _suspect(taken: Capture, now: Signatures, before: Capture | None, was: Signatures | None) -> bool:
    """A dump that may predate the screen an action opened (agent-device's three tells): nothing to act
    on; far fewer nodes than the screen before (of 12 or more); or nine in ten nodes as they were."""
    if not any(n.actionable for n in taken.nodes):
        return True
    if before is None or was is None:
        return False
    if len(before.nodes) >= 12 and len(taken.nodes) <= SHRUNK * len(before.nodes):
        return True
    return sum((now & was).values()) >= UNCHANGED * max(1, sum(now.values()))


Signatures = Counter[tuple[Any, ...]]


def _signatures(taken: Capture) -> Signatures:
    """agent-device's node signature (depth, type, label, value, id, enabled, selected, hittable),
    with checked and focused, which this tree reads and agent-device's does not: a tap on a checkbox
    or a field changes the screen in place. Depths in one pass, parents before children."""
    depth = {0: -1}  # the document: its children have no ancestors but it
    out: Signatures = Counter()
    for n in taken.nodes[1:]:
        parent = n.parent_node
        d = depth[n.position] = depth[parent.position if parent is not None else 0] + 1
        out[(d, n.role, n.label, n.value, n.test_id, n.enabled, n.selected, n.hittable, n.checked, n.focused)] += 1
    return out


def _read(node: Node, what: str) -> Any:
    if what == "text":
        return node.content or node.label or ""
    if what == "value":
        return node.value or ""
    return {k: v for k, v in node.attrib.items() if k not in ("i", "f")}
