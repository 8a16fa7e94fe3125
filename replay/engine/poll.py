"""Time for the engine: one clock seam and one polling loop (every wait in a step goes through here)."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import Protocol, TypeVar

T = TypeVar("T")
POLL_S = 0.1


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


async def poll_until(
    deadline: float,
    probe: Callable[[], Awaitable[tuple[bool, T]]],
    *,
    clock: Clock = SYSTEM_CLOCK,
    interval: float = POLL_S,
) -> T:
    """Call ``probe`` until it says it is done or ``deadline`` (on ``clock``) has passed; its last value.

    The probe always runs at least once, and once more at the deadline, so a condition that holds
    just in time is seen.
    """
    while True:
        done, value = await probe()
        if done or clock.now() >= deadline:
            return value
        await clock.sleep(interval)
