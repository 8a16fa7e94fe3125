"""Benchmarks (not tests): figures for docs/benchmarks.md, measured side by side in one run.

scripts/bench            # all (a regular, byte-compiled install in .venv-bench, not the editable one)
scripts/bench capture    # tree capture vs Playwright's aria_snapshot, by tree nodes, generated and mixed pages
scripts/bench roundtrip  # warm-daemon CLI round trips
scripts/bench fifty      # a clean 50-step flow: replay (CLI and in-process) vs warm hand-written Playwright,
                         # on the shop's page and inside an 800-row table (~5,000 more tree nodes)
scripts/bench scaling    # the same flow's per-action cost at ~100, 1k, 5k and 20k more tree nodes
scripts/bench fifty-vs OTHER/bin/replay  # the same through `replay run` of this install and another, A/B in one run
scripts/bench verify     # verification + divergence at 5k nodes: 0/20/100/300 look-alikes, selector-miss
scripts/bench materialize # recording's materialization for every actionable node of a 5k-node page
scripts/bench memory     # daemon and Playwright driver RSS over 2,000 clicks (memory-long: 8,000)
scripts/bench heal       # replay heal with the built-in healer: time by phase, outcome per drift
scripts/bench suite      # 20 flows: replay test with 1 and 2 workers beside a pytest-playwright suite
scripts/bench report     # the morning-after report of a 2,000-script night: written ≤ 2 s, opened in Chromium ≤ 1 s
scripts/bench android    # a recorded Android flow on the simulator through the real adb, beside the raw adb calls

and the rest of what `README`-level users run, listed with their options in docs/benchmarks.md (drift, deletion,
effects, effects-cost, record, record-corpus, record-widgets, first-sight, ranking, capture-vs, startup-vs,
fifty-vs). Each benchmark is a module of this package; a name selects it, several run in order.
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

from benchmarks.kit import REPEAT

EVERY = (
    "capture",
    "roundtrip",
    "fifty",
    "effects-cost",
    "record",
    "scaling",
    "verify",
    "materialize",
    "memory",
    "heal",
    "suite",
    "report",
    "android",
)


def _after(which: list[str], flag: str) -> str:
    return which[which.index(flag) + 1]


def _only(which: list[str]) -> set[str] | None:
    return set(_after(which, "--only").split(",")) if "--only" in which else None


def main() -> None:  # noqa: C901 - one `if` a benchmark, in the order a full run takes them
    which = sys.argv[1:] or list(EVERY)
    print(
        f"# replay benchmarks — {time.strftime('%Y-%m-%d %H:%M')} — {os.cpu_count()} cores, median of {REPEAT}+ runs\n"
    )
    if "capture" in which:
        from benchmarks.capture import bench_capture, print_capture

        print_capture(asyncio.run(bench_capture()))
    if "fifty" in which:
        from benchmarks.fifty import BIG, SMALL, bench_fifty, print_fifty

        for page, what in ((SMALL, "the shop's page"), (BIG, "the same page inside an 800-row orders table")):
            print_fifty(bench_fifty(page), what)
    if "scaling" in which:
        from benchmarks.scaling import bench_scaling, print_scaling

        print_scaling(bench_scaling())
    if "capture-vs" in which:
        from benchmarks.capture_ab import print_capture_vs

        print_capture_vs(_after(which, "capture-vs"))
    if "startup-vs" in which:
        from benchmarks.fifty import print_startup_vs

        print_startup_vs(_after(which, "startup-vs"))
    if "fifty-vs" in which:
        from benchmarks.fifty import print_fifty_vs

        print_fifty_vs(_after(which, "fifty-vs"))
    if "verify" in which:
        from benchmarks.verify import print_verify

        print_verify()
    if "materialize" in which:
        from benchmarks.verify import print_materialize

        print_materialize()
    if "report" in which:
        from benchmarks.report import bench_report, print_report

        size = {k: int(_after(which, f"--{k}")) for k in ("scripts", "failing") if f"--{k}" in which}
        print_report(bench_report(**size))
    if "ranking" in which:
        from benchmarks.ranking import bench_ranking, print_ranking

        print_ranking(bench_ranking())
    if "effects" in which:
        from benchmarks.effects import bench_effects, print_effects

        replays = int(_after(which, "--replays")) if "--replays" in which else 20
        apps = _only(which)
        print_effects(bench_effects(replays, lambda name: apps is None or name.split("-")[0] in apps), replays)
    if "effects-cost" in which:
        from benchmarks.effects import bench_effects_cost, print_effects_cost

        print_effects_cost(bench_effects_cost())
    if "record" in which:
        from benchmarks.record import bench_record, print_record

        print_record(bench_record())
    if "record-corpus" in which:
        from benchmarks.record import bench_record_corpus, print_record_corpus

        print_record_corpus(bench_record_corpus())
    if "record-widgets" in which:
        from benchmarks.record import bench_record_corpus, print_record_corpus

        print_record_corpus(bench_record_corpus(widgets=True, apps=_only(which)), "widget")
    if "drift" in which and "--without" in which:  # drift --without NAME[,NAME…]|all [--corpus C] [--only APP,…]
        from benchmarks.tolerances import bench_without, print_without

        corpora = (_after(which, "--corpus"),) if "--corpus" in which else ("drift", "widgets")
        print_without(bench_without(which[which.index("--without") + 1 :][:1], corpora, _only(which)))
    elif "drift" in which and "heal" not in which:
        from benchmarks.drift import bench_drift, print_drift

        print_drift(bench_drift())
    if "drift" in which and "--without" not in which:
        from benchmarks.widgets import bench_widget_drift, print_widget_drift

        print_widget_drift(*bench_widget_drift(peer="--peer" in which))
    if "first-sight" in which:  # scripts/bench first-sight APP …: libraries new to the project, before any rule
        from benchmarks.first_sight import first_sight, print_first_sight

        print_first_sight(first_sight([w for w in which if w != "first-sight"]))
    if "deletion" in which:  # scripts/bench deletion [APP …]: the widget corpus's targets removed, one by one
        from benchmarks.deletion import bench_deletion, print_deletion

        print_deletion(*bench_deletion([w for w in which if w != "deletion"] or None))
    if "heal" in which:
        from benchmarks.drift import bench_drift, print_drift
        from benchmarks.heal import print_heal

        print_heal()
        print_drift(bench_drift())
    if "suite" in which:
        from benchmarks.suite import bench_suite, print_suite

        print_suite(bench_suite())
    if "android" in which:
        from benchmarks.android import print_android

        print_android()
    for mode, actions in (("memory", 2000), ("memory-long", 8000)):
        if mode in which:
            from benchmarks.memory import bench_memory, print_memory

            print_memory(bench_memory(actions), actions)
    if "roundtrip" in which:
        from benchmarks.roundtrip import print_roundtrip

        print_roundtrip()


if __name__ == "__main__":
    main()
