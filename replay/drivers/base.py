"""The driver seam: every operation the engine needs from a backend, and nothing more.

The engine and the session speak only this protocol; only ``drivers/web.py`` imports Playwright.
Elements are named by (capture generation, node index): a backend keeps the captured elements of
recent generations actable.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from replay.tree.model import Capture


class Driver(Protocol):
    """One live page (web) or device screen (android) of one session."""

    async def capture(self, generation: int, keep: int | None = None) -> Capture:
        """Capture the UI tree in one round trip as ``generation``; keeps its nodes actable by index.

        ``keep`` is a refs generation that must stay actable beyond the recent few.
        """
        ...

    async def view(self, generation: int, keep: int | None, spec: dict[str, Any]) -> Capture | None:
        """The targeted view of SPEC §13 as ``generation``, in one round trip: every node the first link
        of any of ``spec["links"]`` (term dicts) can match, with its subtree, and their ancestors; the
        subtrees of ancestors of ``spec["fullRoles"]`` whole. None when the backend cannot promise that
        (the caller then takes the full capture)."""
        ...

    async def act(self, generation: int, index: int, command: str, params: dict[str, Any], timeout_ms: int) -> Any:
        """Perform element op ``command`` on node ``index`` of ``generation`` through actionability checks.

        Ops: click, dblclick, hover, fill (``params["text"]``), check, uncheck, select
        (``params["value"]``), scroll (into view), focus; ``get_text``, ``get_value`` and
        ``get_attrs`` return what they read.
        """
        ...

    async def locate(self, generation: int, index: int, in_generation: int) -> int | None:
        """The index in capture ``in_generation`` of the element that was node ``index`` of ``generation``."""
        ...

    async def is_attached(self, generation: int, index: int) -> bool:
        """Whether node ``index`` of capture ``generation`` is still in the page."""
        ...

    async def navigate(self, url: str, timeout_ms: int) -> None:
        """Open a URL (web) or an app (android)."""
        ...

    async def history(self, direction: str, timeout_ms: int) -> None:
        """``back``, ``forward`` or ``reload``."""
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

    async def interrupt(self) -> None:
        """Stop the script the page is running (a page whose JavaScript never yields answers nothing
        until it is stopped); best effort, never raises."""
        ...

    async def trace_start(self) -> None:
        """Start recording a trace of everything the page does (web: a Playwright trace)."""
        ...

    async def trace_stop(self, path: str | None, secrets: Sequence[tuple[str, str]] = ()) -> None:
        """Stop the trace; save it to ``path`` (``trace.zip``) with each of ``secrets`` (a value, what
        to show instead) replaced and nothing typed left in it, or drop it when ``path`` is None."""
        ...

    def location(self) -> str | None:
        """Where the page is now (web: its URL), without a round trip; None when unknown."""
        ...

    def alive(self) -> bool:
        """Whether the page can still be driven (web: not crashed, not closed, its browser connected)."""
        ...

    async def close(self) -> None:
        """Close the page and its context."""
        ...
