"""``scripts/bench memory`` (``memory-long``): the daemon's and Playwright's driver RSS over thousands of clicks."""

from __future__ import annotations

import asyncio
import os
import shutil
import tempfile
from pathlib import Path

from serve import serve

from benchmarks.kit import chromium


def _rss_mib(pid: int) -> float:
    with open(f"/proc/{pid}/status", encoding="ascii") as fh:
        kib = next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:"))
    return round(kib / 1024, 1)


def _children(pid: int) -> list[int]:
    out = []
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat", encoding="utf-8", errors="replace") as fh:
                    stat = fh.read()
            except OSError:
                continue
            if int(stat[stat.rindex(")") + 2 :].split()[1]) == pid:
                out.append(int(entry))
    return out


def _node_child(pid: int) -> int:
    return next(c for c in _children(pid) if "node" in Path(f"/proc/{c}/cmdline").read_text())


def _playwright_clicks(url: str, actions: int, every: int) -> list[float]:
    """The same clicks with plain Playwright (its own driver process): that driver's RSS every ``every``."""

    async def clicks() -> list[float]:
        from playwright.async_api import async_playwright

        from replay.drivers.web.browser import LAUNCH_ARGS

        rss = []
        async with async_playwright() as pw:
            browser = await pw.chromium.launch(executable_path=chromium(), args=LAUNCH_ARGS)
            page = await browser.new_page(viewport={"width": 1280, "height": 800})
            await page.goto(f"{url}/shop/index.html")
            driver = _node_child(os.getpid())
            for done in range(actions + 1):
                if done % every == 0:
                    rss.append(_rss_mib(driver))
                if done < actions:
                    await page.get_by_test_id("rate-up").click()
            await browser.close()
        return rss

    return asyncio.run(clicks())


def bench_memory(actions: int = 2000) -> list[tuple[int, float, float, float]]:
    """RSS of the daemon and of its Playwright driver (node) over ``actions`` clicks in one session,
    beside the driver of plain Playwright doing the same clicks on the same page."""
    from replay.client import Client

    home = tempfile.mkdtemp(prefix="rb-", dir="/tmp")
    rows = []
    try:
        with serve() as url:
            client = Client("mem", home=home, cwd=home)
            client.open(f"{url}/shop/index.html")
            daemon = int(Path(home, "daemon.pid").read_text())
            driver = _node_child(daemon)
            for done in range(actions + 1):
                if done % (actions // 4) == 0:
                    rows.append((done, _rss_mib(daemon), _rss_mib(driver)))
                if done < actions:
                    client.command("click", "id=rate-up")
            client.close()
            plain = _playwright_clicks(url, actions, actions // 4)
    finally:
        Client(home=home).shutdown()
        shutil.rmtree(home, ignore_errors=True)
    return [(*row, theirs) for row, theirs in zip(rows, plain, strict=True)]


def print_memory(rss: list[tuple[int, float, float, float]], actions: int) -> None:
    print(f"## Memory over {actions:,} clicks in one session (RSS, MiB), beside plain Playwright's driver\n")
    print("| clicks | daemon | its Playwright driver | plain Playwright's driver |")
    print("|---:|---:|---:|---:|")
    for done, ours, driver, plain in rss:
        print(f"| {done} | {ours} | {driver} | {plain} |")
    # flat: what the last 3/4 of the clicks add (the first quarter warms caches and pools up)
    daemon = (rss[-1][1] - rss[1][1]) * 1024 / (rss[-1][0] - rss[1][0])
    grown = (rss[-1][2] - rss[1][2]) - (rss[-1][3] - rss[1][3])
    print("\n| budget | figure | |\n|---|---|---|")
    print(
        f"| the daemon flat (≤ 0.5 KiB per action after the first quarter) | {daemon:.2f} KiB/action | "
        f"{'met' if daemon <= 0.5 else 'not met'} |"
    )
    print(
        f"| its Playwright driver grows no more than plain Playwright's (+2 MiB) | {grown:+.1f} MiB | "
        f"{'met' if grown <= 2 else 'not met'} |"  # (growing less, or shrinking, is fine)
    )
    print()
