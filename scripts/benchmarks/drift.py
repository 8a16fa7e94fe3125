"""The drift corpus through the CLI (fixtures/drift/corpus.py): ``scripts/bench drift`` and what
each tolerance buys (``benchmarks.tolerances``) both run it."""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

from serve import serve


def bench_drift(rank: bool = True) -> list[Any]:
    """The drift corpus (fixtures/drift/corpus.py) through the CLI: record, replay on its own version and
    on the drifted one, and `replay heal --agent builtin` on each divergence."""
    from fixtures.drift.corpus import run

    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rd-", dir="/tmp")
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            return run(replay, url, home, Path(work), rank=rank)
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)


def print_drift(outcomes: list[Any]) -> None:
    """The confusion table of issue 21: the summary, then every case."""
    from fixtures.drift.corpus import ranking

    recordings = {o.case.recording.name: o for o in outcomes}
    libraries = {o.case.recording.name.split("-")[0] for o in outcomes}
    clean_wanted = [o for o in outcomes if o.case.expect == "clean"]
    heal_wanted = [o for o in outcomes if o.case.expect.startswith("heal:")]
    stop_wanted = [o for o in outcomes if o.case.expect == "state-repair" or o.case.expect.startswith("escalate:")]
    healed = [o for o in outcomes if o.heal == "healed"]
    heal_ms = [o.heal_ms for o in outcomes if o.heal_ms is not None]
    kinds = len({o.case.kind for o in outcomes})
    print(f"## The drift corpus: {len(outcomes)} cases, {kinds} kinds, apps {sorted(libraries)}\n")
    print("| figure | result |\n|---|---|")
    verified = sum(o.verified for o in recordings.values())
    print(f"| flows recorded with every step verified | {verified} / {len(recordings)} |")
    print(
        f"| replay clean on their own version | {sum(o.own_clean for o in recordings.values())} / {len(recordings)} |"
    )
    print(f"| clean on drift where clean is right | {sum(o.correct for o in clean_wanted)} / {len(clean_wanted)} |")
    hinted = sum(o.hint in ("record-and-heal", "caution") for o in heal_wanted) + sum(
        o.hint == o.case.expect.removeprefix("escalate:") for o in stop_wanted
    )
    print(f"| correct repairHint where a stop is right | {hinted} / {len(heal_wanted) + len(stop_wanted)} |")
    stopped = sum(o.correct for o in stop_wanted)
    print(f"| stopped before acting where a person must decide | {stopped} / {len(stop_wanted)} |")
    print(f"| built-in heals correct | {sum(o.correct for o in heal_wanted)} / {len(heal_wanted)} healable |")
    print(f"| built-in heals escalated | {sum(o.heal == 'escalated' for o in heal_wanted)} of the healable |")
    print(f"| built-in heals **false** | {sum(o.false_heal for o in outcomes)} |")
    print(f"| the element healed to is the top suggestion (heal: cases that stop) | {ranking(outcomes)} |")
    print(f"| outcome as expected | {sum(o.correct for o in outcomes)} / {len(outcomes)} |")
    if heal_ms:
        print(f"| time per `replay heal` (median) | {statistics.median(heal_ms):.0f} ms |")
    print(f"| heals performed | {len(healed)} |\n")
    print_drift_groups(outcomes)
    print("| case | kind | expected | replay on the drifted app | healer | verdict | rank |")
    print("|---|---|---|---|---|---|---|")
    for o in outcomes:
        verdict = "correct" if o.correct else ("**false heal**" if o.false_heal else "wrong")
        rank = "—" if o.rank is None else (o.rank or "> 3")
        row = (o.case.name, o.case.kind, o.case.expect, o.result, o.heal or "—", verdict, rank)
        print(f"| {' | '.join(map(str, row))} |")
    print()


def print_drift_groups(outcomes: list[Any]) -> None:
    """The drift corpus by group: TodoMVC's 2014 apps (one markup, replayed on each other), TodoMVC
    2.0's builds on their own data, the 2014 → 2.0 upgrades, and the other apps."""
    from fixtures.drift.corpus import SHARED_MARKUP

    def group(o: Any) -> str:
        name = o.case.recording.name
        if o.case.kind == "the app's next version":
            return "TodoMVC 2014 → 2.0 upgrades"
        if not name.startswith("todomvc-"):
            return "Pennybank, Settings, Team"
        return "TodoMVC 2014 (4 apps)" if name.removeprefix("todomvc-") in SHARED_MARKUP else "TodoMVC 2.0 (9 builds)"

    groups: dict[str, list[Any]] = {}
    for o in outcomes:
        groups.setdefault(group(o), []).append(o)
    print(
        "| group | cases | outcome as expected | clean where clean is right | false heals |\n|---|---:|---:|---:|---:|"
    )
    for name, found in groups.items():
        clean = [o for o in found if o.case.expect == "clean"]
        right, clean_right = sum(o.correct for o in found), sum(o.correct for o in clean)
        false = sum(o.false_heal for o in found)
        print(f"| {name} | {len(found)} | {right} / {len(found)} | {clean_right} / {len(clean)} | {false} |")
    print()
