"""``scripts/bench fifty`` (and ``fifty-vs``, ``startup-vs``): a clean 50-step flow, replay through the CLI
and in-process beside warm hand-written Playwright, on the shop's page and inside an 800-row table."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from serve import serve

from benchmarks.kit import REPEAT, alternate, chromium, paired, replay_sides

FIFTY = [
    ("click", 'button "Thumbs up"', lambda p: p.get_by_test_id("rate-up").click()),
    ("click", 'button "Thumbs down"', lambda p: p.get_by_role("button", name="Thumbs down").click()),
    ("fill", 'searchbox "Search"', lambda p: p.get_by_label("Search").fill("tea")),
    ("click", 'heading "Order A-100"', lambda p: p.get_by_role("heading", name="Order A-100").click()),
    ("click", 'heading "Order A-101"', lambda p: p.get_by_role("heading", name="Order A-101").click()),
    ("fill", 'textbox "Question"', lambda p: p.frame_locator("iframe").get_by_label("Question").fill("when?")),
    ("click", 'button "Ask"', lambda p: p.frame_locator("iframe").get_by_role("button", name="Ask").click()),
]


SMALL = "index.html"  # the shop's page


def with_rows(rows: int) -> str:
    """The shop's page inside an orders table of ``rows`` rows (~6 tree nodes a row; shop.js renders it)."""
    return f"{SMALL}?rows={rows}"


BIG = with_rows(800)


def record_fifty(url: str, home: str, page: str = SMALL) -> Path:
    """Record a clean 50-step flow (open + 49 actions) on the fixture shop's ``page``, with evidence."""
    from replay.client import Client

    out = Path(home) / f"fifty-{re.sub(r'[^a-z0-9]+', '-', page)}.ad"
    c = Client("bench-record", home=home, cwd=home)
    c.open(f"{url}/shop/{page}", save_script=str(out))
    snap = c.snapshot(interactive=True)["text"]
    refs = {needle: next(line.split()[0] for line in snap.splitlines() if needle in line) for _, needle, _ in FIFTY}
    for i in range(49):
        verb, needle, _ = FIFTY[i % len(FIFTY)]
        c.command(verb, refs[needle], *(["tea" if "Search" in needle else "when?"] if verb == "fill" else []))
    c.close()
    return out


class WarmPlaywright:
    """Hand-written Playwright kept warm like replay's daemon: one browser for every sample, a fresh
    context per sample (as replay's ephemeral session), on an event loop of its own."""

    def __init__(self) -> None:
        self.loop = asyncio.new_event_loop()
        self.loop.run_until_complete(self._start())

    async def _start(self) -> None:
        from playwright.async_api import async_playwright

        from replay.drivers.web.browser import LAUNCH_ARGS

        self.pw = await async_playwright().start()
        self.browser = await self.pw.chromium.launch(executable_path=chromium(), args=LAUNCH_ARGS)

    def fifty(self, url: str, shop_page: str = SMALL) -> float:
        return self.loop.run_until_complete(self._fifty(url, shop_page))

    async def _fifty(self, url: str, shop_page: str) -> float:
        t = time.perf_counter()
        context = await self.browser.new_context(viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        await page.goto(f"{url}/shop/{shop_page}", wait_until="load")
        for i in range(49):
            await FIFTY[i % len(FIFTY)][2](page)
        await context.close()
        return time.perf_counter() - t

    def round_trip(self, url: str) -> float:
        """The median no-op browser round trip (a CDP ``Runtime.evaluate`` of ``1``) on the flow's page:
        the least the one look before each step can cost."""
        return self.loop.run_until_complete(self._round_trip(url))

    async def _round_trip(self, url: str) -> float:
        context = await self.browser.new_context(viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        await page.goto(f"{url}/shop/index.html", wait_until="load")
        cdp = await context.new_cdp_session(page)
        samples = []
        for _ in range(REPEAT * 6):
            t = time.perf_counter()
            await cdp.send("Runtime.evaluate", {"expression": "1"})
            samples.append(time.perf_counter() - t)
        await context.close()
        return statistics.median(samples)

    def close(self) -> None:
        self.loop.run_until_complete(self.browser.close())
        self.loop.run_until_complete(self.pw.stop())
        self.loop.close()


PAIRS = 9


def bench_fifty(page: str = SMALL) -> dict[str, Any]:
    """The clean 50-step flow on the shop's ``page`` three ways — `replay run` as typed, replay
    in-process (`Client.run`) and warm hand-written Playwright — in ``PAIRS`` rounds, the order
    reversed every other round."""
    from replay.client import Client

    home = tempfile.mkdtemp(prefix="rb-", dir="/tmp")
    replay = str(Path(sys.executable).with_name("replay"))
    env = {**os.environ, "REPLAY_HOME": home}
    playwright = WarmPlaywright()
    try:
        with serve() as url:
            flow = record_fifty(url, home, page)
            client = Client(home=home, cwd=home)
            sides = {
                **replay_sides(replay, flow, env, home, client),
                "Playwright": lambda: playwright.fifty(url, page),
            }
            times = alternate(sides, PAIRS)  # warm each: browser launched, caches hot, imports done
            lines = [line for line in flow.read_text().splitlines() if line and not line.startswith(("#", "context"))]
            actions = sum(1 for line in lines if line.split()[0] not in ("open", "close"))
            round_trip = playwright.round_trip(url)
    finally:
        playwright.close()
        Client(home=home).shutdown()
        shutil.rmtree(home, ignore_errors=True)
    return {"actions": actions, "times": times, "round_trip": round_trip}


def bench_startup_vs(other: str) -> dict[str, dict[str, list[float]]]:
    """The fast path of this install and of ``other`` (another install's `replay`) on a warm daemon
    each: `replay snapshot -i` (an interactive command) and `replay run` of a one-line flow (the run
    path's option reader, its request, a session made and closed), ``PAIRS * 2`` alternating rounds."""
    from replay.client import Client

    this = str(Path(sys.executable).with_name("replay"))
    exes = {"other": other, "this": this}
    homes = {name: tempfile.mkdtemp(prefix="rb-", dir="/tmp") for name in exes}
    times: dict[str, dict[str, list[float]]] = {"snapshot -i": {}, "run (1 step)": {}}
    try:
        with serve() as url:

            def timed(name: str, *args: str) -> float:
                env = {**os.environ, "REPLAY_HOME": homes[name]}
                t = time.perf_counter()
                subprocess.run([exes[name], *args], env=env, cwd=homes[name], check=True, capture_output=True)
                return time.perf_counter() - t

            for name, home in homes.items():
                Path(home, "one.ad").write_text(f"open {url}/shop/index.html\n", encoding="utf-8")
                timed(name, "open", f"{url}/shop/index.html", "--session", "s")
                for _ in range(3):  # warm
                    timed(name, "snapshot", "-i", "--session", "s")
                    timed(name, "run", "one.ad")
            for what, args in (
                ("snapshot -i", ("snapshot", "-i", "--session", "s")),
                ("run (1 step)", ("run", "one.ad")),
            ):
                times[what] = {name: [] for name in exes}
                for k in range(PAIRS * 2):
                    for name in ("this", "other") if k % 2 else ("other", "this"):
                        times[what][name].append(timed(name, *args))
    finally:
        for home in homes.values():
            Client(home=home).shutdown()
            shutil.rmtree(home, ignore_errors=True)
    return times


def bench_fifty_vs(other: str) -> dict[str, list[float]]:
    """The clean 50-step flow through `replay run` of this install and of ``other`` (another install's
    `replay`, e.g. an older commit's), beside warm Playwright: ``PAIRS`` rounds, the order rotated."""
    from replay.client import Client

    this = str(Path(sys.executable).with_name("replay"))
    homes = {"other": tempfile.mkdtemp(prefix="rb-", dir="/tmp"), "this": tempfile.mkdtemp(prefix="rb-", dir="/tmp")}
    playwright = WarmPlaywright()
    try:
        with serve() as url:
            flow = record_fifty(url, homes["this"])

            def cli(which: str, exe: str) -> Callable[[], float]:
                def run() -> float:
                    env = {**os.environ, "REPLAY_HOME": homes[which]}
                    t = time.perf_counter()
                    subprocess.run([exe, "run", str(flow)], env=env, cwd=homes[which], check=True, capture_output=True)
                    return time.perf_counter() - t

                return run

            sides = {
                "other": cli("other", other),
                "this": cli("this", this),
                "Playwright": lambda: playwright.fifty(url),
            }
            for side in sides.values():
                side()
                side()
            times: dict[str, list[float]] = {k: [] for k in sides}
            order = list(sides.items())
            for k in range(PAIRS):
                for name, side in order[k % 3 :] + order[: k % 3]:
                    times[name].append(side())
    finally:
        playwright.close()
        for home in homes.values():
            Client(home=home).shutdown()
            shutil.rmtree(home, ignore_errors=True)
    return times


def print_fifty(r: dict[str, Any], what: str) -> None:
    times = r["times"]
    print(
        f"## A clean 50-step flow on {what} (open, {r['actions']} actions, close): replay beside warm "
        f"hand-written Playwright ({PAIRS} alternating rounds)\n"
    )
    print("| side | median (ms) |")
    print("|---|---:|")
    for name, samples in times.items():
        print(f"| {name} | {statistics.median(samples) * 1000:.0f} |")
    print("\n| budget | figure (median of per-round ratios, min–max) | |")
    print("|---|---|---|")
    for name, budget in (("replay in-process", 1.05), ("replay run (CLI)", 1.10)):
        mid, lo, hi = paired(times[name], times["Playwright"])
        print(
            f"| {name} ≤ {budget:.2f}× Playwright | {mid:.2f}× ({lo:.2f}–{hi:.2f}) | "
            f"{'met' if mid <= budget else 'not met'} |"
        )
    playwright_ms = statistics.median(times["Playwright"]) * 1000
    actions = r["actions"]  # the open and the close are a new context and its close on both sides
    print(f"\nPer action (the {actions} between the open and the close), medians of this run:\n")
    print("| | ms |\n|---|---:|")
    print(f"| Playwright, the whole flow per action | {playwright_ms / actions:.1f} |")
    for name in ("replay in-process", "replay run (CLI)"):
        extra = (statistics.median(times[name]) * 1000 - playwright_ms) / actions
        print(f"| {name}: replay's extra per action | {extra:.1f} |")
    for budget in (1.05, 1.10):
        print(f"| extra per action a {budget:.2f}× budget allows | {(budget - 1) * playwright_ms / actions:.1f} |")
    print(f"| a no-op browser round trip (the least one look before a step costs) | {r['round_trip'] * 1000:.1f} |")
    print()


def print_startup_vs(other: str) -> None:
    print(f"## The fast path: this install beside {other} ({PAIRS * 2} alternating rounds, warm daemons)\n")
    print("| command | this (ms) | other (ms) | this ÷ other (median of per-round ratios, min–max) |")
    print("|---|---:|---:|---|")
    for what, sides in bench_startup_vs(other).items():
        mid, lo, hi = paired(sides["this"], sides["other"])
        this_ms, other_ms = (statistics.median(sides[n]) * 1000 for n in ("this", "other"))
        print(f"| replay {what} | {this_ms:.1f} | {other_ms:.1f} | {mid:.2f}× ({lo:.2f}–{hi:.2f}) |")
    print()


def print_fifty_vs(other: str) -> None:
    times = bench_fifty_vs(other)
    print(f"## The 50-step flow through `replay run`: this install beside {other} ({PAIRS} rotating rounds)\n")
    print("| side | median (ms) | ratio to warm Playwright (median of per-round ratios, min–max) |")
    print("|---|---:|---|")
    for name in ("other", "this"):
        mid, lo, hi = paired(times[name], times["Playwright"])
        print(f"| {name} | {statistics.median(times[name]) * 1000:.0f} | {mid:.2f}× ({lo:.2f}–{hi:.2f}) |")
    print(f"| Playwright | {statistics.median(times['Playwright']) * 1000:.0f} | |")
    print()
