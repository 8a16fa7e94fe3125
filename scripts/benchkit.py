"""What the benchmarks share: replay's two sides of a flow, and alternating paired rounds."""

from __future__ import annotations

import subprocess
import time
from collections.abc import Callable
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


def alternate(sides: dict[str, Callable[[], float]], pairs: int) -> dict[str, list[float]]:
    """Each side run twice to warm it, then ``pairs`` rounds, the order reversed every other round."""
    for side in sides.values():
        side()
        side()
    times: dict[str, list[float]] = {k: [] for k in sides}
    for k in range(pairs):
        for name, side in list(sides.items())[:: 1 if k % 2 == 0 else -1]:
            times[name].append(side())
    return times
