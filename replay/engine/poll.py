"""Time for the engine: one clock seam and one polling loop (every wait in a step goes through here)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import TypeVar

from replay.clock import SYSTEM_CLOCK, Clock, SystemClock

__all__ = ["SYSTEM_CLOCK", "Clock", "SystemClock", "poll_until"]

T = TypeVar("T")
POLL_S = 0.1


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
