"""What an input asked the network for and the page has not had yet: the screen is not settled while
it is on its way (a component kit that fetches its popover's code on first use, a search that fetches
its suggestions) — however quiet the screen looks meanwhile."""

from __future__ import annotations

import math
import time
from typing import Any

# requests that never end, or end whenever: none of them is a screen on its way
UNENDING = frozenset({"websocket", "eventsource", "media", "ping", "manifest", "texttrack"})


class Loading:
    """The requests of one browser context in flight, and when the driver last gave input."""

    def __init__(self, context: Any) -> None:
        self._started: dict[Any, float] = {}
        self._input_at = math.inf
        context.on("request", self._start)
        context.on("requestfinished", self._end)
        context.on("requestfailed", self._end)

    def _start(self, request: Any) -> None:
        if request.resource_type not in UNENDING:
            self._started[request] = time.monotonic()

    def _end(self, request: Any) -> None:
        self._started.pop(request, None)

    def input(self) -> None:
        """The driver is about to give the page input: what it asks for from now on is its doing."""
        self._input_at = time.monotonic()

    def asked(self) -> bool:
        """A request that began since the last input has not finished."""
        return any(at >= self._input_at for at in self._started.values())
