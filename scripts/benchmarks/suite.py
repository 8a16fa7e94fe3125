"""``scripts/bench suite``: ``replay test`` with 1 and 2 workers beside a pytest-playwright suite."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from serve import serve

from benchmarks import ROOT

PW_SUITE = """
import pytest

@pytest.mark.parametrize("n", range(FLOWS))
def test_checkout(page, n):
    page.goto(SHOP + "/checkout.html", wait_until="load")
    page.locator("#name").fill("Ada Lovelace")
    page.locator("#email").fill("ada@example.com")
    page.locator("#password").fill("correct-horse-battery")
    page.locator("#terms").check()
    page.get_by_test_id("place-order").click()
    page.get_by_text("Order placed").wait_for()
"""
PW_CONFTEST = """
import pytest
from replay.drivers.base import OpenRequest
from replay.drivers.web.browser import LAUNCH_ARGS, find_chromium

@pytest.fixture(scope="session")
def browser_type_launch_args(browser_type_launch_args):
    return {**browser_type_launch_args, "executable_path": find_chromium(headless=True), "args": LAUNCH_ARGS}
"""


def _busy_cpu_seconds() -> float:
    """CPU time the whole machine spent busy so far (every process: daemon, driver, browsers)."""
    with open("/proc/stat", encoding="ascii") as fh:
        fields = [int(x) for x in fh.readline().split()[1:]]
    idle = fields[3] + fields[4]
    return (sum(fields[:8]) - idle) / os.sysconf("SC_CLK_TCK")


SUITE_FLOWS = 20


def bench_suite(flows: int = SUITE_FLOWS, pairs: int = 7) -> dict[str, list[tuple[float, float]]]:
    """A suite of ``flows`` clean checkout flows: `replay test` with 1 and 2 workers beside the same
    flows as a pytest-playwright suite (1 process, and -n 2), the commands a user types, each side
    keeping a Playwright trace of failures only (`--trace retain-on-failure` / `--tracing
    retain-on-failure`); then both with tracing off. One warm-up of each, then ``pairs`` rounds, the
    order reversed every other round. Returns per command [(wall s, busy CPU s)] in round order."""
    times: dict[str, list[tuple[float, float]]] = {}
    home = tempfile.mkdtemp(prefix="rs-", dir="/tmp")
    env = {**os.environ, "REPLAY_HOME": home, "REPLAY_DAEMON_LINGER": "1"}
    replay = str(Path(sys.executable).with_name("replay"))
    pytest_cmd = [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider"]
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            suite, pw = Path(work) / "flows", Path(work) / "pw"
            suite.mkdir()
            pw.mkdir()
            text = (ROOT / "fixtures" / "flows" / "checkout.ad").read_text().replace("${SHOP}", f"{url}/shop")
            for k in range(flows):
                (suite / f"checkout-{k:02d}.ad").write_text(text)
            (pw / "test_checkout.py").write_text(
                PW_SUITE.replace("FLOWS", str(flows)).replace("SHOP", repr(url + "/shop"))
            )
            (pw / "conftest.py").write_text(PW_CONFTEST)
            commands = {
                "replay test --workers 1": [replay, "test", str(suite), "--workers", "1"],
                "pytest-playwright --tracing retain-on-failure": [
                    *pytest_cmd,
                    "--tracing",
                    "retain-on-failure",
                    str(pw),
                ],
                "replay test --workers 2": [replay, "test", str(suite), "--workers", "2"],
                "pytest-playwright --tracing retain-on-failure -n 2": [
                    *pytest_cmd,
                    "--tracing",
                    "retain-on-failure",
                    "-n",
                    "2",
                    str(pw),
                ],
                "replay test --trace off": [replay, "test", str(suite), "--trace", "off"],
                "pytest-playwright": [*pytest_cmd, str(pw)],
            }
            for cmd in commands.values():  # warm the page cache and the interpreter's imports once
                subprocess.run(cmd, env=env, cwd=work, capture_output=True, check=False)
            for k in range(pairs):
                order = list(commands.items()) if k % 2 == 0 else list(reversed(commands.items()))
                for name, cmd in order:
                    cpu, t = _busy_cpu_seconds(), time.perf_counter()
                    proc = subprocess.run(cmd, env=env, cwd=work, capture_output=True, text=True)
                    wall, busy = time.perf_counter() - t, _busy_cpu_seconds() - cpu
                    assert proc.returncode == 0, proc.stdout + proc.stderr
                    times.setdefault(name, []).append((wall, busy))
    finally:
        shutil.rmtree(home, ignore_errors=True)
    return times


def _ratio(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> str:
    """The median of the per-round ratios a/b, with their min–max."""
    ratios = [x[0] / y[0] for x, y in zip(a, b, strict=True)]
    return f"{statistics.median(ratios):.2f}× ({min(ratios):.2f}–{max(ratios):.2f})"


def print_suite(times: dict[str, list[tuple[float, float]]]) -> None:
    """The suite table, then each goal beside its figure."""
    n = len(next(iter(times.values())))
    print(f"## A suite of {SUITE_FLOWS} clean flows: replay test beside pytest-playwright ({n} alternating rounds)\n")
    print("| command | median wall (s) | per flow (ms) | cores busy (median) |")
    print("|---|---:|---:|---:|")
    for name, samples in times.items():
        wall = statistics.median(w for w, _ in samples)
        cores = statistics.median(c / w for w, c in samples)
        print(f"| `{name}` | {wall:.2f} | {wall / SUITE_FLOWS * 1000:.0f} | {cores:.2f} |")
    one, two = times["replay test --workers 1"], times["replay test --workers 2"]
    speedup = [x[0] / y[0] for x, y in zip(one, two, strict=True)]
    print("\n| goal | figure | |")
    print("|---|---|---|")
    met = "met" if statistics.median(speedup) >= 1.7 else "not met"
    print(f"| 2 workers ≥ 1.7× the throughput of 1 | {_ratio(one, two)} | {met} |")
    for ours, theirs in (
        ("replay test --workers 1", "pytest-playwright --tracing retain-on-failure"),
        ("replay test --workers 2", "pytest-playwright --tracing retain-on-failure -n 2"),
        ("replay test --trace off", "pytest-playwright"),
    ):
        ratios = [x[0] / y[0] for x, y in zip(times[ours], times[theirs], strict=True)]
        met = "met" if statistics.median(ratios) <= 1.10 else "not met"
        print(f"| `{ours}` ≤ 1.10× `{theirs}` | {_ratio(times[ours], times[theirs])} | {met} |")
    print()
