"""First sight of libraries new to the project (issue 56's held-out discipline): ``scripts/bench first-sight
APP …`` records each widget flow of those apps on its oldest version, replays it on every version, heals
what stops with the built-in, and runs Playwright's generator's selectors beside it — one row a case, to
be kept in docs/benchmarks.md with the commit, before any rule the figures prompt."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from benchmarks import widgets as bw
from fixtures.drift.corpus import run
from fixtures.drift.widgets import FLOWS, widget_cases


def first_sight(apps: list[str]) -> list[str]:
    """One table row per case of ``apps``' widget flows."""
    from playwright.sync_api import sync_playwright
    from serve import serve

    from replay.drivers.web.browser import LAUNCH_ARGS, find_chromium

    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rf-", dir="/tmp")
    rows = []
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            cases = [c for c in widget_cases() if c.recording.name.split("-")[0] in apps]
            outcomes = run(replay, url, home, Path(work), cases, rank=False)
            with sync_playwright() as pw:
                browser = pw.chromium.launch(executable_path=find_chromium(headless=True), args=LAUNCH_ARGS)
                flows = {
                    r.name: bw.peer_record(browser, url, r, Path(work) / f"{r.name}.ad")
                    for r in FLOWS
                    if r.name.split("-")[0] in apps
                }
                peers = {c.name: bw.peer_replay(browser, url, flows[c.recording.name], c) for c in cases}
                browser.close()
            for o in outcomes:
                verdict = "correct" if o.correct else ("FALSE HEAL" if o.false_heal else "wrong")
                rows.append(
                    f"| {o.case.name} | {o.case.expect} | {o.result} | {o.heal or '—'} | {verdict} "
                    f"| {'yes' if o.verified else 'no'} | {'yes' if o.own_clean else 'no'} | {peers.get(o.case.name)} |"
                )
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    return rows


def print_first_sight(rows: list[str]) -> None:
    print("## First sight\n")
    print("| case | expected | replay | healer | verdict | every step verified | own version clean | generator |")
    print("|---|---|---|---|---|---|---|---|")
    print("\n".join(rows) + "\n")
