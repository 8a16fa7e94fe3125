"""``scripts/bench roundtrip``: warm-daemon CLI round trips on the small page."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time

from serve import serve

from benchmarks.kit import REPEAT, median_ms


def bench_roundtrip() -> dict[str, float]:
    replay = shutil.which("replay", path=os.path.dirname(sys.executable)) or "replay"
    home = tempfile.mkdtemp(prefix="rb-", dir="/tmp")
    env = {**os.environ, "REPLAY_HOME": home}
    out: dict[str, float] = {}
    try:
        with serve() as url:

            def run(*args: str) -> float:
                t = time.perf_counter()
                subprocess.run([replay, *args], env=env, check=True, capture_output=True, cwd=home)
                return time.perf_counter() - t

            run("open", f"{url}/shop/index.html")
            run("snapshot", "-i")  # warm
            out["replay snapshot -i"] = median_ms([run("snapshot", "-i") for _ in range(REPEAT * 2)])
            snap = subprocess.run(
                [replay, "snapshot", "-i"], env=env, check=True, capture_output=True, text=True, cwd=home
            ).stdout
            ref = next(line.split()[0] for line in snap.splitlines() if '"Thumbs up"' in line)
            out["replay click @eN"] = median_ms([run("click", ref) for _ in range(REPEAT * 2)])
            out["python startup + CLI import (replay --version)"] = median_ms(
                [run("--version") for _ in range(REPEAT * 2)]
            )

            def bare() -> float:
                t = time.perf_counter()
                subprocess.run([sys.executable, "-c", "pass"], check=True, capture_output=True)
                return time.perf_counter() - t

            out["bare python -c pass"] = median_ms([bare() for _ in range(REPEAT * 2)])
            from replay.client import Client

            client = Client(home=home, cwd=home)
            samples = []
            for _ in range(REPEAT * 2):
                t = time.perf_counter()
                client.snapshot(interactive=True)
                samples.append(time.perf_counter() - t)
            out["in-process Client.snapshot(-i)"] = median_ms(samples)
            run("close")
    finally:
        subprocess.run([replay, "session", "list"], env=env, capture_output=True)
        from replay.client import Client

        Client(home=home).shutdown()
        time.sleep(1)
        shutil.rmtree(home, ignore_errors=True)
    return out


# The 50-step flow: (how replay's recording targets it, how hand-written Playwright does it)


def print_roundtrip() -> None:
    print("## Warm-daemon round trips (small page)\n")
    print("| operation | median (ms) |")
    print("|---|---:|")
    trips = bench_roundtrip()
    for name, ms in trips.items():
        print(f"| {name} | {ms} |")
    ratio = trips["replay snapshot -i"] / trips["bare python -c pass"]
    print(
        f"\n| budget (SPEC §13) | figure | |\n|---|---|---|\n| `replay snapshot -i` round trip ≤ 2.5× a bare "
        f"`python -c pass` | {ratio:.2f}× | {'met' if ratio <= 2.5 else 'not met'} |"
    )
    print()
