"""The clock seam: monotonic time and sleeping, one place (tests inject a fake that advances on ``sleep``)."""

from __future__ import annotations

import asyncio
import time
from typing import Protocol


class Clock(Protocol):
    """Monotonic time and sleeping; tests inject a fake one that advances on ``sleep``."""

    def now(self) -> float:
        """Seconds on a monotonic clock."""
        ...

    async def sleep(self, seconds: float) -> None:
        """Wait ``seconds``."""
        ...


class SystemClock:
    """The real clock."""

    def now(self) -> float:
        """``time.monotonic()``."""
        return time.monotonic()

    async def sleep(self, seconds: float) -> None:
        """``asyncio.sleep``."""
        await asyncio.sleep(seconds)


SYSTEM_CLOCK = SystemClock()
