"""Fit the suggestion weights (replay/tree/suggest.py WEIGHTS) on the drift corpus (issue 21, SPEC §6).

    scripts/calibrate            # set up, record the corpus's flows, replay each drift in-process, search

Each case of fixtures/drift/corpus.py that stops before acting with a repair the built-in healer may
perform gives one labeled screen: the divergence's capture, the recorded evidence, and which nodes are
right — for a ``heal:TEXT`` case the nodes of the recorded role that say TEXT or sit in what says it,
for the others none. A table is judged by the built-in healer's decision on every screen: a heal on a
right node counts, a heal on any other node is a false heal. The search (coordinate steps from the
current table, the non-anchor weights kept summing to 1) keeps a step only when it keeps every heal and
no false heal, keeps SPEC §6's meaning (the structure alone at most 0.5), and widens the smallest
safety margin: the healable cases' lead over the 0.8 floor and the 0.15 rival margin, and the other
cases' distance below acting. It prints the fitted table, the
current one, and both tables' figures; it changes nothing (copy a table into suggest.py by hand, and
only if the test suite still holds: the corpus does not yet carry every rule the tests check).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures"))

from fixtures.drift.corpus import Case, Cli, cases, record  # noqa: E402
from fixtures.serve import serve  # noqa: E402
from replay.errors import DivergenceError  # noqa: E402
from replay.heal import builtin  # noqa: E402
from replay.script.evidence import TargetEvidence  # noqa: E402
from replay.tree import suggest  # noqa: E402
from replay.tree.model import Capture, Node  # noqa: E402

STEP = 0.02
ROUNDS = 6


@dataclass
class Screen:
    """One divergence the healer may act on, labeled."""

    case: Case
    hint: str
    evidence: TargetEvidence
    capture: Capture
    right: list[Node]
    matched: Node | None


async def divergence_of(flow: Path, values: dict[str, str]) -> tuple[str, TargetEvidence, Capture, Node | None] | None:
    """Replay ``flow`` in-process on a fresh Chromium context; the divergence's hint, evidence and screen."""
    from replay.drivers.web import WebBrowser
    from replay.engine.runner import Runner, RunOptions
    from replay.script.loader import load
    from replay.script.plan import build_plan
    from replay.script.resolve import variables_for
    from replay.session.session import Session

    script = load(str(flow))
    plan = build_plan(script, None)
    browser = WebBrowser()
    await browser.start()
    home = tempfile.mkdtemp(prefix="rcal-", dir="/tmp")
    try:
        session = Session("calibrate", home, await browser.new_driver())
        values = variables_for(script, platform="web", cli=values, shell={})
        runner = Runner(session, plan, RunOptions(values=values, timeout_ms=1500, artifacts_dir=home))
        try:
            await runner.run()
            return None
        except DivergenceError as err:
            d = runner.last_divergence
            step = plan.steps[err.divergence["step"]["index"] - 1]
            if d is None or step.action.annotation is None or session.refs_capture is None:
                return None
            winner = err.divergence["targetBinding"].get("observed") or {}
            capture = session.refs_capture
            matched = next((n for n in capture.nodes if n.ref == winner.get("ref")), None)
            return d.repair_hint, step.action.annotation, capture, matched
        finally:
            await session.driver.close()
    finally:
        await browser.stop()
        shutil.rmtree(home, ignore_errors=True)


def right_nodes(capture: Capture, ev: TargetEvidence, expect: str) -> list[Node]:
    """The nodes a ``heal:TEXT`` case should heal to: the recorded role, and TEXT in what they or the
    row, card or region around them say (a label written as ``label="…"`` must be the label)."""
    if not expect.startswith("heal:"):
        return []
    text = expect[5:]
    exact = re.fullmatch(r'label="(.*)"', text)
    out = []
    for n in capture.by_value("role", ev.role or ""):
        if exact:
            ok = n.label == exact[1]
        else:
            said = [n.label or "", n.content or ""] + [a.label or a.key_text or "" for a in n.ancestors()[:3]]
            ok = any(text in s for s in said)
        if ok:
            out.append(n)
    return out


def judge(screens: list[Screen], wrong: list[str] | None = None) -> tuple[int, int, float]:
    """(right heals, false heals, the smallest margin) of the current WEIGHTS on every screen; the
    cases of the false heals go to ``wrong``. A decision on a disabled element is no heal: its action
    fails and the healer escalates, as a run shows."""
    right = false = 0
    margin = 1.0
    for s in screens:
        decision = builtin.decide(s.hint, s.evidence, s.capture, matched=s.matched)
        if decision.node is not None and not decision.node.enabled:
            continue
        ranked = suggest.rank(s.capture, s.evidence, limit=builtin.RIVALS)
        top = ranked[0].score if ranked else 0.0
        if s.right:
            if decision.node in s.right:
                right += 1
                second = builtin._plausible_rival(
                    ranked, s.evidence, builtin.recorded_container(s.evidence), s.capture, None
                )
                margin = min(margin, top - builtin.MIN_SCORE, (top - second) - builtin.MIN_MARGIN)
            elif decision.node is not None:
                false += 1
                (wrong if wrong is not None else []).append(s.case.name)
        elif decision.node is not None:
            false += 1
            (wrong if wrong is not None else []).append(s.case.name)
        else:
            margin = min(margin, builtin.MIN_SCORE - top if top < builtin.MIN_SCORE else margin)
    return right, false, round(margin, 3)


STRUCTURE = ("role", "ancestry", "region", "sibling", "position")


def within_spec() -> bool:
    """SPEC §6's meaning of a score: what shares only where the recorded element sat (the structure)
    scores ≤ 0.5 — also when no id was recorded (the id's weight then leaves the scale)."""
    return sum(suggest.WEIGHTS[k] for k in STRUCTURE) <= 0.5 * (1 - suggest.WEIGHTS["id"]) + 1e-9


def search(screens: list[Screen]) -> dict[str, float]:
    """Coordinate steps from the current table, keeping heals, no false heal, and widening the margin."""
    best = judge(screens)
    names = [k for k in suggest.WEIGHTS if k != "anchor"]
    for _ in range(ROUNDS):
        improved = False
        for name in [*names, "anchor"]:
            for delta in (STEP, -STEP):
                saved = dict(suggest.WEIGHTS)
                suggest.WEIGHTS[name] = round(max(0.0, suggest.WEIGHTS[name] + delta), 3)
                if name != "anchor":  # the others absorb the change: they still sum to 1
                    rest = [k for k in names if k != name]
                    total = sum(suggest.WEIGHTS[k] for k in rest)
                    for k in rest:
                        suggest.WEIGHTS[k] = round(suggest.WEIGHTS[k] * (1 - suggest.WEIGHTS[name]) / total, 3)
                got = judge(screens)
                if got[1] == 0 and got[0] >= best[0] and got[2] > best[2] and within_spec():
                    best, improved = got, True
                else:
                    suggest.WEIGHTS.clear()
                    suggest.WEIGHTS.update(saved)
        if not improved:
            break
    return dict(suggest.WEIGHTS)


def main() -> int:
    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rc-", dir="/tmp")
    screens: list[Screen] = []
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            cli = Cli(replay, home, Path(work))
            recorded: dict[str, Path] = {}
            for case in cases():
                if case.expect == "clean":
                    continue
                rec = case.recording
                if rec.name not in recorded:
                    recorded[rec.name] = Path(work) / f"{rec.name}.ad"
                    record(cli, url, rec, recorded[rec.name])
                flow = Path(work) / "case.ad"
                flow.write_text(case.edit(recorded[rec.name].read_text()))
                found = asyncio.run(divergence_of(flow, {}))
                if found is None or found[0] not in ("record-and-heal", "caution"):
                    continue
                hint, ev, capture, matched = found
                screens.append(Screen(case, hint, ev, capture, right_nodes(capture, ev, case.expect), matched))
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    current = dict(suggest.WEIGHTS)
    wrong: list[str] = []
    before = judge(screens, wrong)
    fitted = search(screens)
    after = judge(screens)
    healable = sum(1 for s in screens if s.right)
    print(
        f"# Suggestion weights fitted on the drift corpus: {len(screens)} screens the healer may act on, "
        f"{healable} healable\n"
    )
    print("| weight | current | fitted |\n|---|---:|---:|")
    for k in current:
        print(f"| {k} | {current[k]} | {fitted[k]} |")
    print("\n| table | right heals | false heals | smallest margin |\n|---|---:|---:|---:|")
    print(f"| current | {before[0]} / {healable} | {before[1]} | {before[2]} |")
    print(f"| fitted | {after[0]} / {healable} | {after[1]} | {after[2]} |")
    if wrong:
        print(f"\nfalse heals with the current table: {', '.join(wrong)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
