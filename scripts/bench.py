"""Benchmarks (not tests): figures for docs/benchmarks.md, measured side by side in one run.

scripts/bench            # all
scripts/bench capture    # tree capture vs Playwright's aria_snapshot
scripts/bench roundtrip  # warm-daemon CLI round trips
"""

from __future__ import annotations

import asyncio
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fixtures"))

from serve import serve  # noqa: E402

REPEAT = 7


def generated_page(nodes: int) -> str:
    """A page of about ``nodes`` elements: sections of lists, cards, buttons, inputs and text."""
    parts = ["<!doctype html><html><head><title>Generated</title></head><body><main>"]
    count = 2
    i = 0
    while count < nodes:
        parts.append(
            f'<section aria-label="Section {i}"><h2>Section {i}</h2><ul>'
            + "".join(
                f"<li><article><h3>Item {i}.{j}</h3><p>Some text for item {j} of {i}.</p>"
                f'<button data-testid="b-{i}-{j}">Add {j}</button>'
                f"<div><div><span>wrapper</span></div></div></article></li>"
                for j in range(5)
            )
            + f'</ul><label>Note {i} <input placeholder="note {i}"></label></section>'
        )
        count += 2 + 5 * 9 + 2
        i += 1
    parts.append("</main></body></html>")
    return "".join(parts)


def median_ms(samples: list[float]) -> float:
    return round(statistics.median(samples) * 1000, 1)


async def bench_capture() -> list[tuple[int, int, float, float]]:
    from replay.drivers.web import WebBrowser

    browser = WebBrowser()
    rows = []
    for size in (1000, 5000, 20000):
        driver = await browser.new_driver()
        await driver.page.set_content(generated_page(size))
        dom_nodes = await driver.page.evaluate("() => document.getElementsByTagName('*').length")
        ours, theirs = [], []
        for gen in range(1, REPEAT + 1):
            t = time.perf_counter()
            cap = await driver.capture(gen)
            ours.append(time.perf_counter() - t)
            t = time.perf_counter()
            await driver.page.locator("body").aria_snapshot()
            theirs.append(time.perf_counter() - t)
        rows.append((dom_nodes, len(cap.nodes), median_ms(ours), median_ms(theirs)))
        await driver.close()
    await browser.stop()
    return rows


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


def main() -> None:
    which = sys.argv[1:] or ["capture", "roundtrip"]
    print(
        f"# replay benchmarks — {time.strftime('%Y-%m-%d %H:%M')} — {os.cpu_count()} cores, median of {REPEAT}+ runs\n"
    )
    if "capture" in which:
        print("## Tree capture vs Playwright aria_snapshot (same page, same run)\n")
        print("| DOM elements | tree nodes | replay capture (ms) | aria_snapshot (ms) | ratio |")
        print("|---:|---:|---:|---:|---:|")
        for dom, kept, ours, theirs in asyncio.run(bench_capture()):
            print(f"| {dom} | {kept} | {ours} | {theirs} | {ours / theirs:.2f}× |")
        print()
    if "roundtrip" in which:
        print("## Warm-daemon round trips (small page)\n")
        print("| operation | median (ms) |")
        print("|---|---:|")
        for name, ms in bench_roundtrip().items():
            print(f"| {name} | {ms} |")
        print()


if __name__ == "__main__":
    main()
