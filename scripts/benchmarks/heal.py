"""``scripts/bench heal``: ``replay heal`` with the built-in healer, time by phase and outcome per drift."""

from __future__ import annotations

import shutil
import statistics
import tempfile
import time
from pathlib import Path

from serve import serve

from benchmarks import ROOT
from benchmarks.kit import REPEAT


def bench_heal() -> tuple[list[tuple[str, float]], list[tuple[str, str, str, str]]]:
    """Time to heal the renamed button with the built-in healer, split by phase (median of runs), and
    the healer's outcome on every drift of the fixture corpus."""
    from drifts import DRIFTS

    from replay.client import Client
    from replay.heal.orchestrator import HealOptions, HealRun

    # what a correct built-in healer may do on each drift: heal it, or escalate it to a person
    expected = {"renamed": "heal", "noids": "heal or escalate", "moved": "heal or escalate"}
    home = tempfile.mkdtemp(prefix="rb-", dir="/tmp")
    phases: dict[str, list[float]] = {}
    corpus = []
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            flow = Path(work) / "checkout.ad"
            for _ in range(REPEAT):
                shutil.copy(ROOT / "fixtures" / "flows" / "checkout.ad", flow)
                (Path(work) / "checkout.healed.ad").unlink(missing_ok=True)
                options = HealOptions(values={"SHOP": f"{url}/drift/renamed"}, timeout_ms=1500)
                t = time.perf_counter()
                outcome = HealRun(str(flow), options, home=home, cwd=work).run()
                total = (time.perf_counter() - t) * 1000
                assert outcome.status == "healed", outcome.reason
                for name, ms in {**outcome.phases, "total": total}.items():
                    phases.setdefault(name, []).append(ms)
            for name in sorted(DRIFTS):
                shutil.copy(ROOT / "fixtures" / "flows" / "checkout.ad", flow)
                (Path(work) / "checkout.healed.ad").unlink(missing_ok=True)
                options = HealOptions(values={"SHOP": f"{url}/drift/{name}"}, timeout_ms=1500)
                outcome = HealRun(str(flow), options, home=home, cwd=work).run()
                want = expected.get(name, "escalate")
                did = "heal" if outcome.status == "healed" else "escalate"
                verdict = "correct" if did in want.split(" or ") else f"wrong ({outcome.status})"
                corpus.append((name, want, f"{outcome.status}: {outcome.reason or 'acceptance passed'}"[:90], verdict))
    finally:
        Client(home=home).shutdown()
        shutil.rmtree(home, ignore_errors=True)
    order = ("replay", "healer", "resume", "acceptance", "total")
    return [(k, round(statistics.median(phases[k]), 1)) for k in order if k in phases], corpus


def print_heal() -> None:
    timings, corpus = bench_heal()
    print("## replay heal --agent builtin on the renamed button (median of runs, warm daemon)\n")
    print("| phase | ms |")
    print("|---|---:|")
    for name, ms in timings:
        print(f"| {name} | {ms} |")
    print("\n## The built-in healer on the drift corpus\n")
    print("| drift | may | did | verdict |")
    print("|---|---|---|---|")
    for name, want, did, verdict in corpus:
        print(f"| {name} | {want} | {did} | {verdict} |")
    print()
