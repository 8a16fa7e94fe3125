"""`scripts/bench android`: a recorded Android flow replayed on the simulated device through Debian's
real `adb` client, beside the raw adb calls the same steps need, in the same run.

The raw side is what a hand-written adb script does for the flow: the app restarted, then per element
step one `uiautomator dump` and the input the step sends (a tap at the coordinates the recording saw;
for a fill, agent-device's tap, move-end, deletes and typed chunks). replay's side is `replay run` as
typed (a new CLI process, warm daemon) and the same in-process (`Client.run`). Both sides warm,
paired samples alternating their order.
"""

from __future__ import annotations

import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from benchmarks.kit import alternate, paired, replay_sides
from fixtures.android.adb_server import serving

PACKAGE = "com.example.shop"
SERIAL = "emulator-5554"


def record(replay: str, env: dict[str, str], cwd: str) -> Path:
    """Sign in; then for each of three look-alike orders: open it, change its street, save, and go
    back to the list (24 steps) — through the CLI."""

    def cli(*args: str) -> str:
        done = subprocess.run([replay, *args, "--session", "bench"], env=env, cwd=cwd, capture_output=True, text=True)
        if done.returncode != 0:
            raise RuntimeError(f"replay {' '.join(args)}: {done.stderr}")
        return done.stdout

    cli("open", "--platform", "android", "--serial", SERIAL, PACKAGE, "--relaunch", "--save-script", "flow.ad")
    cli("fill", f"id={PACKAGE}:id/email", "ada@example.com")
    cli("click", 'label="Sign in"')
    for row in range(3):
        rows = [line.split()[0] for line in cli("snapshot", "-i").splitlines() if '"Open"' in line]
        cli("click", rows[row])
        cli("click", 'label="Edit address"')
        cli("fill", f"id={PACKAGE}:id/street", f"{row + 1} Main St")
        cli("click", 'label="Save"')
        for _ in range(3):
            cli("back")
    cli("close")
    return Path(cwd) / "flow.ad"


def raw_steps(flow: Path) -> list[list[list[str]]]:
    """Each step of ``flow`` as the adb calls a hand-written script makes for it: for an element step
    one dump, then its input at the centre of the rect the recording saw; for ``back``, the key."""
    from replay.drivers.android import adb

    steps: list[list[list[str]]] = [[adb.force_stop(PACKAGE), adb.start_app(PACKAGE)]]
    evidence: dict[str, Any] | None = None
    for line in flow.read_text().splitlines():
        if line == "back":
            steps.append([adb.keyevent("back")])
            continue
        if line.startswith("# replay:target-v1 "):
            evidence = json.loads(line.split(" ", 2)[2])
            continue
        if evidence is None or not line.startswith(("click ", "fill ")):
            continue
        r = evidence["rect"]
        x, y = r["x"] + r["width"] / 2, r["y"] + r["height"] / 2
        calls = [adb.dump(), adb.tap(x, y)]
        if line.startswith("fill "):
            text = line.rsplit('"', 2)[-2]
            deletes = ["shell", "input", "keyevent"] + [adb.KEYCODES["del"]] * 12  # an empty field: 0 + 12
            calls += [adb.keyevent("move_end"), deletes, *adb.text_chunks(text)]
        steps.append(calls)
        evidence = None
    return steps


def bench_android(pairs: int = 9) -> dict[str, Any]:
    """The recorded flow three ways in ``pairs`` rounds, the order reversed every other round."""
    from replay.client import Client

    adb_binary = shutil.which("adb")
    if adb_binary is None:
        raise SystemExit("bench android needs Debian's adb (scripts/_setup.sh installs it)")
    home = tempfile.mkdtemp(prefix="rb-android-", dir="/tmp")
    replay = str(Path(sys.executable).with_name("replay"))
    with serving("shop:1") as socket:
        os.environ.update({"ADB_SERVER_SOCKET": socket, "ANDROID_SERIAL": SERIAL})  # the daemon's too
        env = {**os.environ, "REPLAY_HOME": home}
        try:
            flow = record(replay, env, home)
            steps = raw_steps(flow)
            client = Client(home=home, cwd=home)

            def raw() -> float:
                t = time.perf_counter()
                for calls in steps:
                    for args in calls:
                        subprocess.run([adb_binary, "-s", SERIAL, *args], env=env, check=True, capture_output=True)
                return time.perf_counter() - t

            sides = {**replay_sides(replay, flow, env, home, client), "raw adb": raw}
            times = alternate(sides, pairs)  # warm each: daemon up, imports done, adb's server answering
        finally:
            Client(home=home).shutdown()
            shutil.rmtree(home, ignore_errors=True)
    calls = sum(len(c) for c in steps)
    return {"steps": len(steps), "calls": calls, "times": times}


ANDROID_PAIRS = 15  # a run is ~0.5 s and this machine's noise is ±30 % a round: more rounds, a steadier median


def print_android() -> None:
    r = bench_android(ANDROID_PAIRS)
    times, steps = r["times"], r["steps"]
    print(
        f"## An Android flow on the simulator through Debian's adb: {steps} steps ({r['calls']} adb calls), "
        f"{ANDROID_PAIRS} alternating rounds\n"
    )
    print("| side | median (ms) | per step (ms) | ratio to raw adb (median of per-round ratios, min–max) |")
    print("|---|---:|---:|---|")
    for name in ("replay run (CLI)", "replay in-process", "raw adb"):
        ms = statistics.median(times[name]) * 1000
        ratio = "" if name == "raw adb" else "{:.2f}× ({:.2f}–{:.2f})".format(*paired(times[name], times["raw adb"]))
        print(f"| {name} | {ms:.0f} | {ms / steps:.1f} | {ratio} |")
    mid = paired(times["replay in-process"], times["raw adb"])[0]
    cli = paired(times["replay run (CLI)"], times["raw adb"])[0]
    print("\n| budget (issue 24) | figure | |\n|---|---|---|")
    verdict = "met" if mid <= 1.15 else "not met"
    print(f"| a step ≤ 1.15× the raw adb calls it needs, in-process | {mid:.2f}× | {verdict} |")
    print(f"| the same through `replay run` (adds a CLI process start a run) | {cli:.2f}× | for reference |")
    print()
