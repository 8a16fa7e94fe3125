"""What the benchmarks share: replay's two sides of a flow, and alternating paired rounds."""

from __future__ import annotations

import statistics
import subprocess
import time
from collections.abc import Callable, Mapping
from pathlib import Path
from typing import Any


def replay_sides(
    replay: str, flow: Path, env: dict[str, str], home: str, client: Any
) -> dict[str, Callable[[], float]]:
    """``replay run FLOW`` as typed (a new CLI process, warm daemon) and the same in process."""

    def cli() -> float:
        t = time.perf_counter()
        subprocess.run([replay, "run", str(flow)], env=env, cwd=home, check=True, capture_output=True)
        return time.perf_counter() - t

    def in_process() -> float:
        t = time.perf_counter()
        client.run(str(flow))
        return time.perf_counter() - t

    return {"replay run (CLI)": cli, "replay in-process": in_process}


def alternate(sides: Mapping[str, Callable[[], float]], pairs: int) -> dict[str, list[float]]:
    """Each side run twice to warm it, then ``pairs`` rounds, the order reversed every other round."""
    for side in sides.values():
        side()
        side()
    times: dict[str, list[float]] = {k: [] for k in sides}
    for k in range(pairs):
        for name, side in list(sides.items())[:: 1 if k % 2 == 0 else -1]:
            times[name].append(side())
    return times


REPEAT = 7


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 1)


def paired(ours: list[float], theirs: list[float]) -> tuple[float, float, float]:
    """Median of the per-pair ratios, and their min and max."""
    ratios = [a / b for a, b in zip(ours, theirs, strict=True)]
    return statistics.median(ratios), min(ratios), max(ratios)


def chromium() -> str | None:
    """The Chromium replay launches headless (an older replay has no headless preference)."""
    from replay.drivers.web.browser import find_chromium

    try:
        return find_chromium(headless=True)  # type: ignore[call-arg, unused-ignore]
    except TypeError:
        return find_chromium()
