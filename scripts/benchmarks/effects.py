"""Effects (SPEC §15) in ``scripts/bench``: the flows the project records, each recorded through the CLI
and replayed clean many times — no replay may stop on a missing effect (``effects``); and what the
check costs a clean 50-step replay beside the same replay with ``--no-effects`` (``effects-cost``).
"""

from __future__ import annotations

import functools
import json
import re
import shutil
import statistics
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.kit import paired
from fixtures.drift.corpus import Cli, Recording, cases, record
from fixtures.drift.widgets import FLOWS, HELD_BACK

REPLAYS = 20
TIMEOUT_MS = 1500  # the corpora's step timeout: a slow effect is a failure here, not waited for


def pantry(name: str, query: str, *steps: tuple[str, ...]) -> Recording:
    """A flow on the effects fixture (fixtures/web/pantry/)."""
    return Recording(f"pantry-{name}", f"pantry/index.html{query}", steps)


NAME, STOCK_IT = '/textbox "Item name"/', '/button "Stock it"/'
STOCK = (("fill", NAME, "eggs"), ("click", STOCK_IT), ("fill", NAME, "milk"), ("click", STOCK_IT))
PANTRY = [
    pantry(
        "chores",
        "",
        *STOCK,
        ("check", '/checkbox "Used up"/'),
        ("click", '/button "Discard"/'),
        ("click", '/link "Account"/'),
        ("wait", "text", "Signed in"),
    ),
    pantry("save", "", *STOCK[:2], ("click", '/button "Save shelf"/'), ("click", '/button "OK"/')),
    pantry("toast", "?toast=1", ("click", '/button "Save shelf"/'), ("wait", "text", "Shelf saved")),
    pantry("feed", "?feed=1", *STOCK, ("click", '/button "Discard"/')),
    pantry("reference", "?ref=1", ("click", '/button "Save shelf"/')),  # a generated reference, UUID, time
]


@dataclass
class FlowFigures:
    """One flow's figures: its element steps, those with an effect, their facts, and its replays."""

    name: str
    steps: int = 0
    with_effect: int = 0
    facts: Counter[str] = field(default_factory=Counter)  # by kind
    replays: int = 0
    clean: int = 0
    effect_failures: list[str] = field(default_factory=list)
    other_failures: list[str] = field(default_factory=list)
    without: list[str] = field(default_factory=list)  # the acting steps that kept no effect, as written


KEYS = ("press", "type")  # acting steps with no element: what the focused element or the page did (issue 55)


def effects_of(script: Path) -> tuple[int, int, Counter[str], list[str]]:
    """(acting steps — element steps and keys —, those with an effect, their facts by kind, the steps
    without one as the script says them) of a script."""
    from replay.script.parser import parse
    from replay.script.registry import PHASE_ACT, REGISTRY

    acting = []
    lines = script.read_text().splitlines()
    for action in parse(script.read_text(), str(script)).actions:
        spec = REGISTRY.get(action.command)
        if spec is None:
            continue
        said = lines[action.line - 1].split(" target-v1 ")[0].strip()[:120]
        if action.annotation is not None and spec.form(action.form).phase == PHASE_ACT:
            acting.append((action.annotation.effect, said))
        elif spec.form(action.form).op in KEYS:
            acting.append((action.annotation.effect if action.annotation is not None else (), said))
    kinds = Counter(fact.kind for effect, _ in acting for fact in effect)
    return len(acting), sum(1 for effect, _ in acting if effect), kinds, [said for effect, said in acting if not effect]


def recordings() -> list[Recording]:
    """Every flow the project records: the drift corpus's, the widget corpus's, the pantry's."""
    seen: dict[str, Recording] = {}
    for case in cases():
        seen.setdefault(case.recording.name, case.recording)
    for rec in FLOWS:
        seen.setdefault(rec.name, rec)
    for rec in PANTRY:
        seen.setdefault(rec.name, rec)
    return list(seen.values())


def bench_effects(replays: int = REPLAYS, only: Callable[[str], bool] = lambda name: True) -> list[FlowFigures]:
    """Record each flow once, replay it ``replays`` times clean; count the replays that stop on a
    missing effect (each a false failure: nothing changed in the app) and any other failure."""
    from serve import serve

    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rfx-", dir="/tmp")
    work = Path(tempfile.mkdtemp(prefix="rfx-work-", dir="/tmp"))
    out = []
    try:
        with serve() as url:
            cli = Cli(replay, home, work)
            for rec in (r for r in recordings() if only(r.name)):
                figures = FlowFigures(rec.name)
                script = work / f"{re.sub(r'[^a-z0-9]+', '-', rec.name.lower())}.ad"
                try:
                    record(cli, url, rec, script)
                except AssertionError as exc:
                    figures.other_failures.append(f"recording: {str(exc)[:200]}")
                    out.append(figures)
                    continue
                figures.steps, figures.with_effect, figures.facts, figures.without = effects_of(script)
                for _ in range(replays):
                    ran = cli("run", str(script), "--timeout", str(TIMEOUT_MS), "--json")
                    figures.replays += 1
                    if ran.returncode == 0:
                        figures.clean += 1
                        continue
                    answer = json.loads(ran.stdout.splitlines()[-1]) if ran.stdout.strip() else {}
                    d = (answer.get("error") or {}).get("divergence") or {}
                    said = f"step {d.get('step', {}).get('index')}: {d.get('cause') or answer.get('error')}"
                    (figures.effect_failures if d.get("effect") else figures.other_failures).append(said[:300])
                out.append(figures)
                print(
                    f"  {rec.name}: {figures.clean}/{figures.replays} clean, {len(figures.effect_failures)} effect",
                    file=sys.stderr,
                    flush=True,
                )
            cli("daemon", "stop")
    finally:
        shutil.rmtree(home, ignore_errors=True)
        shutil.rmtree(work, ignore_errors=True)
    return out


def corpus_of(name: str) -> str:
    """Which corpus a flow belongs to, held-back libraries apart (each must reach the share of its own)."""
    if name.startswith("pantry-"):
        return "pantry"
    if name in {r.name for r in FLOWS}:
        return "widgets, held back" if name.split("-")[0] in HELD_BACK else "widgets, tuned"
    return "drift"


def print_effects(rows: list[FlowFigures], replays: int = REPLAYS) -> None:
    """The table issue 34 asks for: flows, replays, false effect failures, effects recorded per step —
    over all flows, then corpus by corpus (issue 55: ≥ 80 % on every corpus), and the steps with none."""
    print(f"## Effects on clean replays: {len(rows)} flows, each recorded once and replayed {replays} times\n")
    print(
        "| corpus | flows | replays | false effect failures | other failures | acting steps | with an effect |", end=""
    )
    print(" facts/step |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    groups = [("all", rows)] + [
        (corpus, [r for r in rows if corpus_of(r.name) == corpus])
        for corpus in ("drift", "widgets, tuned", "widgets, held back", "pantry")
    ]
    for corpus, part in groups:
        steps = sum(r.steps for r in part)
        with_effect = sum(r.with_effect for r in part)
        facts = sum(sum(r.facts.values()) for r in part)
        false = sum(len(r.effect_failures) for r in part)
        other = sum(len(r.other_failures) for r in part)
        per = facts / with_effect if with_effect else 0.0
        share = f"{with_effect} ({with_effect / max(steps, 1):.0%})"
        replayed = sum(r.replays for r in part)
        print(f"| {corpus} | {len(part)} | {replayed} | {false} | {other} | {steps} | {share} | {per:.2f} |")
    print()
    kinds: Counter[str] = sum((r.facts for r in rows), Counter())
    print("Facts recorded, by kind: " + ", ".join(f"{kind} {n}" for kind, n in kinds.most_common()) + ".")
    print()
    for r in rows:
        for said in r.effect_failures[:3] + r.other_failures[:3]:
            print(f"- {r.name}: {said}")
    print()
    print("Acting steps that kept no effect:\n")
    for r in rows:
        for said in r.without:
            print(f"- {r.name} ({corpus_of(r.name)}): `{said}`")
    print()


def record_pantry_fifty(url: str, home: str, query: str) -> Path:
    """A clean 50-step flow in which every action does something: stock 20 items (a fill, then a
    click that adds a row), tick 5 of them, discard 4 — on the pantry with ``query``."""
    from replay.client import Client

    def ref(shown: str, pattern: str, nth: int = 0) -> str:
        return [line.split()[0] for line in shown.splitlines() if re.search(pattern, line)][nth]

    out = Path(home) / f"pantry-fifty{re.sub(r'[^a-z0-9]+', '-', query)}.ad"
    c = Client("bench-record-pantry", home=home, cwd=home)
    c.open(f"{url}/pantry/index.html{query}", save_script=str(out))
    shown = c.snapshot(interactive=True)["text"]
    field, stock = ref(shown, r'textbox "Item name"'), ref(shown, r'button "Stock it"')
    for i in range(20):
        c.command("fill", field, f"pickle {i}")
        c.command("click", stock)
    for verb, pattern, times in (("check", r'checkbox "Used up"', 5), ("click", r'button "Discard"', 4)):
        for i in range(times):
            shown = c.snapshot(interactive=True)["text"]
            c.command(verb, ref(shown, pattern, -(i + 1) if verb == "check" else -1))
    c.close()
    return out


def bench_effects_cost(pairs: int = 15) -> dict[str, dict[str, list[float]]]:
    """A clean 50-step flow whose every action has an effect (the pantry's), in-process, on the small
    page and on the same page with 800 rows, with and without the effect check: ``pairs`` rounds,
    the order reversed every other round."""
    from serve import serve  # noqa: PLC0415 - fixtures/serve.py (the package puts fixtures/ on the path)

    from replay.client import Client

    out: dict[str, dict[str, list[float]]] = {}
    home = tempfile.mkdtemp(prefix="rfc-", dir="/tmp")
    try:
        with serve() as url:
            for size, query in (("small", ""), ("big (800 rows)", "?rows=800")):
                flow = record_pantry_fifty(url, home, query)
                steps, with_effect, _, _ = effects_of(flow)
                print(f"  {size}: {with_effect} of {steps} actions with an effect", file=sys.stderr, flush=True)
                client = Client(home=home, cwd=home)
                sides: dict[str, Callable[[], Any]] = {
                    "effects": functools.partial(client.run, str(flow)),
                    "no effects": functools.partial(client.run, str(flow), effects=False),
                }
                for side in sides.values():
                    side()  # warm
                times: dict[str, list[float]] = {name: [] for name in sides}
                for i in range(pairs):
                    order = list(sides) if i % 2 == 0 else list(reversed(sides))
                    for name in order:
                        t = time.perf_counter()
                        sides[name]()
                        times[name].append(time.perf_counter() - t)
                out[size] = times
    finally:
        Client(home=home).shutdown()
        shutil.rmtree(home, ignore_errors=True)
    return out


def print_effects_cost(times: dict[str, dict[str, list[float]]]) -> None:
    print("## The effect check's cost: the clean 50-step flow in-process, with and without it\n")
    print("| page | with effects (ms) | --no-effects (ms) | ratio (median of per-round ratios, min–max) | ≤ 1.05× |")
    print("|---|---:|---:|---|---|")
    for size, t in times.items():
        mid, lo, hi = paired(t["effects"], t["no effects"])
        on, off = statistics.median(t["effects"]) * 1000, statistics.median(t["no effects"]) * 1000
        print(
            f"| {size} | {on:.0f} | {off:.0f} | {mid:.3f}× ({lo:.3f}–{hi:.3f}) "
            f"| {'met' if mid <= 1.05 else 'not met'} |"
        )
    print()
