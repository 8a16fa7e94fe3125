"""The backend seam: every operation the engine needs from a backend, and nothing more.

The engine and the session speak only these protocols; only ``drivers/web/`` imports Playwright.
A ``Backend`` is what the daemon's sessions of one platform share (web: a browser); each session
has a ``Driver`` of its own (web: a browser context and its page). Elements are named by (capture
generation, node index): a driver keeps the captured elements of recent generations actable.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, runtime_checkable

from replay.options import read_backend
from replay.platforms import DEFAULT_PLATFORM
from replay.tree.model import Capture


@dataclass(frozen=True, kw_only=True)
class BackendOptions:
    """Which backend a session runs on; sessions with equal options share one ``Backend``. ``values``:
    the options the platform's backend declares (``OPTIONS``), defaults filled in — opaque here."""

    platform: str = DEFAULT_PLATFORM  # (made by ``of``, which checks the platform and reads the values)
    values: tuple[tuple[str, Any], ...] = ()
    recording: str = ""  # a person records in it (design §16): "shown" (a window), "hidden" (a program: tests)

    @classmethod
    def of(cls, platform: str, given: dict[str, Any] | None = None, *, recording: str = "") -> BackendOptions:
        """The options of ``platform``'s backend out of ``given`` (another backend's are left out)."""
        from replay.drivers import check_platform

        check_platform(platform, "this session")
        return cls(
            platform=platform, values=tuple(sorted(read_backend(platform, given or {}).items())), recording=recording
        )


@dataclass(frozen=True, kw_only=True)
class OpenRequest:
    """What ``open`` asks a driver to show: ``target`` is a URL (web) or an app id or deep link
    (android); ``relaunch`` restarts the app first (android: force-stop, then start)."""

    target: str
    relaunch: bool = False
    clear_state: bool = False  # android: the app's data cleared first (`pm clear`)


class Backend(Protocol):
    """One running backend shared by the sessions of equal ``BackendOptions``."""

    async def start(self) -> None:
        """Start it (once): launch the browser, connect to the device."""
        ...

    def alive(self) -> bool:
        """Whether it still runs (not started yet counts as alive: it starts on use)."""
        ...

    async def new_driver(self) -> Driver:
        """A fresh driver for one session (web: a new browser context and page)."""
        ...

    async def stop(self) -> None:
        """Stop it and everything it runs."""
        ...


@dataclass(frozen=True)
class Gesture:
    """What an element action does to its element (``Driver.act``): one of the kinds below, each with
    its own fields; ``op`` names it (in messages, and in the `.ad` command it performs)."""

    @property
    def op(self) -> str:
        return _OPS[type(self)]


@dataclass(frozen=True)
class Click(Gesture):
    button: str = "left"  # left, right (a context click), middle
    through: bool = False  # the element has no box of its own: pressed through its control's shown part


@dataclass(frozen=True)
class DoubleClick(Gesture):
    pass


@dataclass(frozen=True)
class Hover(Gesture):
    pass


@dataclass(frozen=True)
class Drag(Gesture):
    """The button goes down on the element and the pointer starts moving (its ``Drop`` follows)."""


@dataclass(frozen=True)
class Drop(Gesture):
    """What ``Drag`` holds is let go on the element's centre."""


@dataclass(frozen=True)
class Fill(Gesture):
    text: str  # the field is cleared, then holds this


@dataclass(frozen=True)
class Check(Gesture):
    on: bool  # checked after it (a click only when it is not so already)

    @property
    def op(self) -> str:
        return "check" if self.on else "uncheck"


@dataclass(frozen=True)
class Select(Gesture):
    value: str  # an option's value, else its label


@dataclass(frozen=True)
class Upload(Gesture):
    path: str  # a local file, absolute


@dataclass(frozen=True)
class ScrollTo(Gesture):
    """Scrolled into view."""


@dataclass(frozen=True)
class Read(Gesture):
    what: str  # text, value, attrs: what ``act`` returns

    @property
    def op(self) -> str:
        return f"get_{self.what}"


_OPS: dict[type[Gesture], str] = {
    Click: "click",
    DoubleClick: "dblclick",
    Hover: "hover",
    Drag: "drag",
    Drop: "drop",
    Fill: "fill",
    Select: "select",
    Upload: "upload",
    ScrollTo: "scroll",
}


def gesture(op: str, params: dict[str, str]) -> Gesture:
    """The gesture of element op ``op`` (a `.ad` command's) with its parameters."""
    if op in ("check", "uncheck"):
        return Check(op == "check")
    if op.startswith("get_"):
        return Read(op.removeprefix("get_"))
    if op == "click":
        return Click(params.get("button", "left"))
    if op == "fill":
        return Fill(params["text"])
    if op == "select":
        return Select(params["value"])
    if op == "upload":
        return Upload(params["path"])
    kinds = {name: kind for kind, name in _OPS.items()}
    if op not in kinds:
        raise ValueError(f"{op!r} is not an element op")
    return kinds[op]()


# generations whose nodes must stay actable beyond the recent few: the latest snapshot's refs, and while
# a recording watches a step settle, the capture the step acted in
Keep = int | tuple[int, ...] | None


def kept(keep: Keep) -> tuple[int, ...]:
    """``keep`` as the generations it names."""
    return () if keep is None else (keep,) if isinstance(keep, int) else keep


class Driver(Protocol):
    """One live page (web) or device screen (android) of one session: the core every backend has (the
    capabilities below are optional)."""

    async def capture(self, generation: int, keep: Keep = None) -> Capture:
        """Capture the UI tree in one round trip as ``generation``, with its ``screen`` identity;
        keeps its nodes actable by index.

        ``keep``: generations that must stay actable beyond the recent few (``Keep``).
        """
        ...

    async def act(self, generation: int, index: int, gesture: Gesture, timeout_ms: int) -> Any:
        """Perform ``gesture`` on node ``index`` of ``generation`` through actionability checks; a
        ``Read`` returns what it read. A gesture the backend cannot perform is ``ACTION_FAILED``."""
        ...

    async def locate(self, generation: int, index: int, in_generation: int) -> int | None:
        """The index in capture ``in_generation`` of the element that was node ``index`` of ``generation``."""
        ...

    async def is_attached(self, generation: int, index: int) -> bool:
        """Whether node ``index`` of capture ``generation`` is still in the page."""
        ...

    async def navigate(self, request: OpenRequest, timeout_ms: int) -> None:
        """Show what ``open`` asks for: a URL (web), an app or a deep link (android). Captures from
        then on carry the screen's identity relative to it (web: page paths under the opened URL's
        directory are relative to it)."""
        ...

    async def history(self, direction: str, timeout_ms: int) -> None:
        """``back``, ``forward`` or ``reload`` (web); ``back`` or ``home`` (android)."""
        ...

    async def keyboard(self, kind: str, text: str) -> None:
        """``press`` a key or chord, or ``type`` text into the focused element."""
        ...

    async def scroll(self, direction: str, amount: float | None) -> None:
        """Scroll the page: amount ≤ 1 is a fraction of the viewport, else CSS px."""
        ...

    async def wait(self, ms: int) -> None:
        """Pause ``ms`` milliseconds (the backend's own clock, so a page's timers keep running)."""
        ...

    async def screenshot(self, path: str, full_page: bool) -> None:
        """Save a PNG."""
        ...

    def location(self) -> str | None:
        """Where the page is now (web: its URL), without a round trip; None when unknown."""
        ...

    def shared_screen(self) -> str | None:
        """The screen this driver acts on when other sessions may act on it too (a device: its
        serial, in words); None when each session has a screen of its own (a browser context)."""
        ...

    def alive(self) -> bool:
        """Whether the page can still be driven (web: not crashed, not closed, its browser connected)."""
        ...

    async def close(self) -> None:
        """Close the page and its context."""
        ...


# Capabilities a backend may have beyond the core: the engine asks ``isinstance`` and does without.


@runtime_checkable
class Views(Protocol):
    """A backend that can look at part of the screen more cheaply than all of it (design §13)."""

    async def view(self, generation: int, keep: Keep, spec: dict[str, Any]) -> Capture | None:
        """The targeted view of design §13 as ``generation``, in one round trip: every node the first link
        of any of ``spec["links"]`` (term dicts) can match, with its subtree, and their ancestors; the
        subtrees of ancestors of ``spec["fullRoles"]`` whole. None when the backend cannot promise that
        (the caller then takes the full capture)."""
        ...


@runtime_checkable
class Frames(Protocol):
    """A backend whose screen is drawn in frames a handler may put work off to (web: ``requestAnimationFrame``)."""

    async def frames(self) -> None:
        """Until the screen has drawn its next two frames: what the app put off to them has run (a
        carousel that starts its move on the next frame, late on a busy machine)."""
        ...


@runtime_checkable
class DeviceCommands(Protocol):
    """A backend with commands of a device's own (android: ``swipe``, ``keyboard``; web: ``press X Y``)."""

    async def device(self, command: str, params: dict[str, Any]) -> str | None:
        """A device-level command of a platform that has them (android: ``swipe``, ``keyboard``,
        ``appstate``); what it says, for the ones that observe."""
        ...


@runtime_checkable
class Interrupts(Protocol):
    """A backend that can stop what keeps the app from answering."""

    async def interrupt(self) -> str:
        """Stop what keeps the app from answering (a page's JavaScript that never yields); best
        effort, never raises. What did not answer and what was done, in the backend's words (a
        step's timeout says it)."""
        ...


@runtime_checkable
class Traces(Protocol):
    """A backend that records a trace of everything the page does (web: a Playwright trace)."""

    async def trace_start(self) -> None:
        """Start recording a trace of everything the page does (web: a Playwright trace)."""
        ...

    async def trace_stop(self, path: str | None, secrets: Sequence[tuple[str, str]] = ()) -> None:
        """Stop the trace; save it to ``path`` (``trace.zip``) with each of ``secrets`` (a value, what
        to show instead) replaced and nothing typed left in it, or drop it when ``path`` is None."""
        ...


class PersonInput(Protocol):
    """A person's input on a driver's screen, held before the app sees it (design §16): each input is
    handed over as a gesture — ``{"kind": "click" | "dblclick" | "fill" | "select" | "press" |
    "closed", "path": …, "value": …, "key": …, "secret": bool, "label": …}``, ``path`` the backend's own
    way to point at an element — and the recorder performs it through the step pipeline. A dialog the
    person answered (it cannot be held: the screen's own) is ``{"kind": "dialog", "accept": bool,
    "value": a prompt's text, "dialog": what it showed}``, taken by an ``alert`` step."""

    def devtools(self) -> str | None:
        """Where assistive tools and tests drive the screen as a person does (web: replay's DevTools
        relay on loopback, admitting only its token's path); None when there is none."""
        ...

    async def intercept(self, on_input: Callable[[dict[str, Any]], Any]) -> None:
        """From now on (this page and every page it loads), hold the person's input and hand each
        gesture to ``on_input``; the screen going away (the window closed) is a ``closed`` gesture.
        A ``pick`` (the bar asks what replay would write for an element) is answered with what
        ``on_input`` returns (an awaitable)."""
        ...

    async def say(self, text: str, warning: bool) -> None:
        """Show ``text`` on the recorder's bar (``warning``: in warning colour)."""
        ...

    async def pointed(self, generation: int, path: Any) -> list[int]:
        """The nodes of capture ``generation`` a gesture's ``path`` points into, nearest first (the
        element itself when it was captured, then its captured ancestors); empty when none."""
        ...

    async def files_of(self, gesture: dict[str, Any]) -> list[str]:
        """The paths of the files the person chose for an ``upload`` gesture (empty when unknown)."""
        ...

    def tab_of(self, gesture: dict[str, Any]) -> int | None:
        """The number of the tab ``gesture`` was made in when it is not the one steps act on (a
        ``tab N`` step first), else None."""
        ...

    async def flush(self) -> int:
        """The recording stops: input the driver holds back still (text typed in a field not left
        yet) is handed over now, before the script is written; how many inputs are still on their
        way (held behind a gesture being performed: handed over once it is)."""
        ...

    async def take_back(self, gesture: dict[str, Any]) -> None:
        """A ``type`` gesture (text the person typed into an editor): the text is taken back from the
        screen, so that the recorded ``type`` step performs it again."""
        ...

    async def deliver(self, gesture: dict[str, Any]) -> None:
        """A ``keys`` gesture: the keys the person typed while another gesture was performed, held and
        now typed where the focus is, in their order (typing, not a step)."""
        ...

    def performing(self, gesture: dict[str, Any]) -> None:
        """``gesture`` is performed next: the driver's own input for it passes until it is dispatched."""
        ...

    async def rearm(self) -> None:
        """The gesture being performed was dispatched (or failed before): hold the person's input again.
        The driver calls it itself right after its own input reaches the screen, so what a person does
        while the step's effect settles is held and performed next; the recorder calls it after each
        gesture too (a no-op when already done)."""
        ...


@runtime_checkable
class AnswersDialogs(Protocol):
    """A driver whose screen shows dialogs a step answers (web: JavaScript's alert, confirm, prompt),
    held open until then; while one is open a look raises ``DialogOpen``."""

    def open_dialog(self) -> dict[str, Any] | None:
        """The dialog open now (``{"type": "confirm", "message": …}``), or None."""
        ...

    async def dialog(
        self, verb: str, text: str | None, timeout_ms: int, expect: str | None = None
    ) -> dict[str, Any] | None:
        """``get`` the open dialog (None: none), ``wait`` up to ``timeout_ms`` for one, or ``accept``
        (``text``: a prompt's answer) / ``dismiss`` it, waiting for one first; what it showed. ``expect``:
        the message it must say — another one raises ``ActionFailed`` and stays unanswered."""
        ...


@runtime_checkable
class HasTabs(Protocol):
    """A driver whose screen has tabs (web): a tab the page opens comes to the front by itself."""

    async def tab(self, verb: str, number: int | None, url: str | None, timeout_ms: int) -> dict[str, Any]:
        """``list`` the tabs, show tab ``number`` (``index``), open a ``new`` one (at ``url``), or
        ``close`` one (``number``, else the one in front); ``{"tabs": [{"tab", "url", "current"}…]}``."""
        ...

    def opened_tabs(self) -> list[dict[str, Any]]:
        """The tabs the page opened since the last call (``[{"tab": N, "url": …}]``)."""
        ...


@runtime_checkable
class Recordable(Protocol):
    """A driver a person can record on by using the screen (design §16)."""

    def person_input(self) -> PersonInput:
        """Its person-input capability."""
        ...
