"""The driver seam: the few operations the session and engine need from a backend."""

from __future__ import annotations

from typing import Any, Protocol

from replay.tree.model import Capture


class Driver(Protocol):
    """One live page (web) or device screen (android) of one session."""

    async def capture(self, generation: int, keep: int | None = None) -> Capture:
        """Capture the UI tree in one round trip; keeps the captured nodes actable by index."""
        ...

    async def act(self, generation: int, index: int, command: str, params: dict[str, Any], timeout_ms: int) -> Any:
        """Perform ``command`` on node ``index`` of capture ``generation`` through actionability checks."""
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

    async def screenshot(self, path: str, full_page: bool) -> None:
        """Save a PNG."""
        ...

    async def close(self) -> None:
        """Close the page and its context."""
        ...
