"""Fit the suggestion weights (replay/tree/suggest.py WEIGHTS) on the drift corpus (issue 21, SPEC §6).

    scripts/calibrate               # fit on the stored screens (fixtures/drift/screens.jsonl), print
    scripts/calibrate --recapture   # first replay the corpus in-process and store its screens anew
    scripts/calibrate --write       # and write the fitted table into replay/tree/suggest.py

Each case of fixtures/drift/corpus.py that stops before acting with a repair the built-in healer may
perform gives one labeled screen: the divergence's capture, the recorded evidence, and which nodes are
right — for a ``heal:TEXT`` case the nodes of the recorded role (or its family) that say TEXT or sit in
what says it, for the others none. Two screens built by hand carry the rules the unit tests check beside
the corpus (a control in its re-sorted, renamed row; a "Cancel" beside a renamed submit). The judging and
the search are fixtures/drift/calibration.py; tests/unit/test_calibration.py checks that the table in use
is the one this fit gives on the stored screens.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "fixtures"))

from fixtures.drift import calibration  # noqa: E402
from fixtures.drift.calibration import Screen  # noqa: E402
from fixtures.drift.corpus import Cli, Recording, cases, record  # noqa: E402
from fixtures.serve import serve  # noqa: E402
from replay.errors import DivergenceError  # noqa: E402
from replay.script.evidence import TargetEvidence  # noqa: E402
from replay.tree import suggest  # noqa: E402
from replay.tree.model import Capture, Node  # noqa: E402
from replay.tree.roles import kin_roles  # noqa: E402

SUGGEST = ROOT / "replay" / "tree" / "suggest.py"
RULES = 4  # rule_screens() and the members fixture's


async def divergence_of(flow: Path, values: dict[str, str]) -> tuple[str, TargetEvidence, Capture, Node | None] | None:
    """Replay ``flow`` in-process on a fresh Chromium context; the divergence's hint, evidence and screen."""
    from replay.drivers.web.browser import WebBrowser
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
    """The nodes a ``heal:TEXT`` case should heal to: the recorded role (or its family), and TEXT in what
    they or the row, card or region around them say (a label written as ``label="…"`` must be the label)."""
    if not expect.startswith("heal:"):
        return []
    text = expect[5:]
    exact = re.fullmatch(r'label="(.*)"', text)
    out = []
    for n in (n for n in capture.nodes[1:] if kin_roles(ev.role, n.role)):  # or its family (SPEC §8)
        if exact:
            ok = n.label == exact[1]
        else:
            said = [n.label or "", n.content or ""] + [a.label or a.key_text or "" for a in n.ancestors()[:3]]
            ok = any(text in s for s in said)
        if ok:
            out.append(n)
    return out


def rule_screens() -> list[Screen]:
    """The rules of SPEC §6 and §8 the unit tests check (tests/unit/rule_trees.py), as labeled screens:
    two renames (positives) and a deletion (a negative: nothing on it is right)."""
    from tests.unit.rule_trees import deleted_answer, renamed_submit, resorted_rows

    rows, bob_delete, bob = resorted_rows()
    form, place_order, submit = renamed_submit()
    dialog, yes = deleted_answer()
    return [
        Screen("rule: a control in its re-sorted, renamed row", "record-and-heal", bob_delete, rows, bob, None, False),
        Screen("rule: a Cancel beside a renamed submit", "record-and-heal", place_order, form, submit, None),
        Screen("rule: a deleted answer beside the dialog's other one", "record-and-heal", yes, dialog, [], None),
    ]


def recapture() -> list[Screen]:
    """Record the corpus's flows through the CLI and replay each drift in-process; its labeled screens."""
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
                screens.append(Screen(case.name, hint, ev, capture, right_nodes(capture, ev, case.expect), matched))
            screens.append(members_screen(cli, url, Path(work)))
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    return screens + rule_screens()


MEMBERS = Recording(
    "members",
    "members/v1/index.html",
    (
        ("check", "//listitem.*Bob/>>checkbox"),
        ("click", "//listitem.*Bob/>>button"),
        ("click", '//listitem.*Bob/>>button "Delete"'),
    ),
)


def members_screen(cli: Cli, url: str, work: Path) -> Screen:
    """A rule the integration tests check on our own members fixture (tests/integration/test_rows.py):
    Bob's "Delete", renamed "Remove" on re-sorted rows, leads his row's unlabeled star by ≥ 0.1. A
    person decides that rename (no word kept): the lead is the rule, not a heal."""
    flow = work / "members.ad"
    record(cli, url, MEMBERS, flow)
    flow.write_text(flow.read_text().replace("/members/v1/", "/members/renamed/"))
    found = asyncio.run(divergence_of(flow, {}))
    assert found is not None, "the members flow replayed clean on the renamed rows"
    hint, ev, capture, matched = found
    right = [
        n for n in capture.by_value("role", "button") if n.label == "Remove" and "Bob" in (n.parent_node.content or "")
    ]  # type: ignore[union-attr]
    return Screen("rule: the members fixture's renamed row", hint, ev, capture, right, matched, False)


def write(table: dict[str, float]) -> None:
    """Replace the numbers of ``WEIGHTS`` in suggest.py (its comments stay)."""
    text = SUGGEST.read_text()
    start = text.index("WEIGHTS: dict[str, float] = {")
    end = text.index("\n}\n", start)
    block = text[start:end]
    for name, value in table.items():
        block = re.sub(rf'("{name}": )[0-9.]+', rf"\g<1>{value}", block)
    SUGGEST.write_text(text[:start] + block + text[end:])


def main() -> int:
    parser = argparse.ArgumentParser(description="Fit the suggestion weights on the drift corpus.")
    parser.add_argument("--recapture", action="store_true", help="replay the corpus and store its screens anew")
    parser.add_argument("--write", action="store_true", help="write the fitted table into replay/tree/suggest.py")
    args = parser.parse_args()
    if args.recapture or not calibration.SCREENS.exists():
        calibration.save(recapture())
    screens = calibration.load()
    current = dict(suggest.WEIGHTS)
    fitted = calibration.fit(screens)
    healable = sum(1 for s in screens if s.right and s.healable)
    print(
        f"# Suggestion weights fitted on the drift corpus: {len(screens)} screens the healer may act on "
        f"({len(screens) - RULES} from the corpus, {RULES} rules), {healable} healable\n"
    )
    print("| weight | start | fitted | in use |\n|---|---:|---:|---:|")
    for k in current:
        print(f"| {k} | {calibration.START[k]} | {fitted[k]} | {current[k]} |")
    print("\n| table | right heals | false heals | rules broken | smallest margin |\n|---|---:|---:|---:|---:|")
    for name, table in (("start", calibration.START), ("fitted", fitted), ("in use", current)):
        j = calibration.judge(screens, table)
        print(f"| {name} | {j.right} / {healable} | {j.false} | {j.broken} | {j.margin} |")
        for what in (*j.false_cases, *j.broken_cases):
            print(f"|   {what} | | | | |")
    if args.write:
        write(fitted)
        print(f"\nwrote the fitted table into {SUGGEST.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
