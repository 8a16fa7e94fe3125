"""``scripts/bench capture-vs REV``: this tree's capture.js beside REV's, on the same pages in the same
browser, paired samples alternating (the walk's cost alone: the driver, Python's parsing and the page
are the same for both sides)."""

from __future__ import annotations

import asyncio
import statistics
import subprocess
import time

from benchmarks import ROOT

ROUNDS = 9
SIZES = (1000, 5000, 20000)


def capture_js_at(rev: str) -> str:
    """capture.js as committed at ``rev``."""
    root = ROOT
    return subprocess.run(
        ["git", "show", f"{rev}:replay/drivers/web/capture.js"], cwd=root, check=True, capture_output=True, text=True
    ).stdout


async def bench_capture_vs(rev: str) -> list[tuple[int, float, float]]:
    """(tree nodes, REV's median ms, this tree's median ms) on the mixed page at each size."""
    import replay.drivers.web.driver as web
    from benchmarks.pages import mixed_page, sized
    from replay.drivers.web.browser import WebBrowser

    sides = {"base": capture_js_at(rev), "this": web.CAPTURE_JS}
    browser = WebBrowser()
    rows = []
    for size in SIZES:
        driver = await browser.new_driver()
        await sized(driver, mixed_page, size)
        times: dict[str, list[float]] = {"base": [], "this": []}
        nodes = 0
        for round_ in range(ROUNDS + 1):
            for side in ("base", "this") if round_ % 2 == 0 else ("this", "base"):
                web.CAPTURE_JS = sides[side]
                driver._capture_fn = driver._capture_id = driver._world = None  # compile this side's walk
                await driver.capture(2 * round_ + 1)  # warm: compiled, styles resolved
                t = time.perf_counter()
                cap = await driver.capture(2 * round_ + 2)
                if round_:  # the first round warms both
                    times[side].append(time.perf_counter() - t)
                nodes = len(cap.nodes)
        web.CAPTURE_JS = sides["this"]
        rows.append((nodes, statistics.median(times["base"]) * 1000, statistics.median(times["this"]) * 1000))
        await driver.close()
    await browser.stop()
    return rows


def print_capture_vs(rev: str) -> None:
    rows = asyncio.run(bench_capture_vs(rev))
    print(f"## capture.js of this tree beside {rev}'s (mixed page, {ROUNDS} alternating rounds)\n")
    print(f"| tree nodes | {rev} (ms) | this tree (ms) | ratio |\n|---:|---:|---:|---:|")
    for nodes, base, this in rows:
        print(f"| {nodes} | {base:.1f} | {this:.1f} | {this / base:.2f}× |")
    print()
