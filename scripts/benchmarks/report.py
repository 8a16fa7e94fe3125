"""The morning-after report at scale (SPEC §10): a 2,000-script night of synthetic results — 1,900
passed, the rest regressions, drift, healed, broken and failed, each failing one with a real
divergence object and an attempt folder — written as results.json, JUnit and HTML (budget ≤ 2 s),
and the HTML opened in Chromium from disk (budget ≤ 1 s to its load event). Medians of 7.

``scripts/bench report --scripts N --failing M``: a night of N scripts, M of them failing (a bad night:
5,000 scripts, two thirds failing)."""

from __future__ import annotations

import json
import os
import statistics
import tempfile
import time
from pathlib import Path
from typing import Any

from replay.engine.report import Reported
from replay.results import Timing
from replay.suite import reports
from replay.suite.discover import Entry
from replay.suite.runner import DIVERGED, FAILED, PASSED, Attempt, ScriptResult, SuiteResult, write_artifacts

SCRIPTS = 2000
KINDS = ("selector-miss", "identity-mismatch", "action-failure")


def _divergence(k: int, effect: bool, action: str) -> Reported:
    refs = [{"ref": f"@e{i}", "role": "button", "label": f"Button {i}"} for i in range(40)]
    d: dict[str, Any] = {
        "kind": KINDS[k % 3] if not effect else "action-failure",
        "step": {"index": 6, "source": {"path": f"flows/f{k}.ad", "line": 12}},
        "action": action,
        "cause": "no node matches the selector",
        "repairHint": "manual" if effect else "record-and-heal",
        "screen": {"state": "available", "refsGeneration": 3, "refs": refs, "refCount": 40},
        "suggestions": [{"ref": "@e2", "role": "button", "label": "Save", "score": 0.81, "basis": "label"}],
        "resume": {"from": 6, "planDigest": "d" * 64},
    }
    if effect:
        d["effect"] = {"expected": 'status "Saved" appears', "observed": "nothing changed"}
    return Reported.from_dict(d)


def night(root: Path, scripts: int = SCRIPTS, failing: int = 100) -> SuiteResult:
    """``scripts`` scripts, the last ``failing`` of them failing, each with an attempt folder holding its
    result.json, 50 steps' timings each."""
    results = []
    for k in range(scripts):
        folder = root / "replay-results" / f"f{k}" / "attempt-1"
        folder.mkdir(parents=True)
        timings = [Timing({"index": i, "line": i + 2, "command": "click", "ms": 40.0 + i}) for i in range(1, 51)]
        kind = k % 20 if k >= scripts - failing else None
        if kind is None:
            a = Attempt(1, PASSED, 2.0, str(folder), timings=timings)
        elif kind < 18:
            action = "open http://down/" if kind < 3 else 'click role=button label="Save"'
            a = Attempt(
                1, DIVERGED, 2.0, str(folder), divergence=_divergence(k, kind in (5, 6, 7), action), timings=timings
            )
        else:
            a = Attempt(
                1, FAILED, 2.0, str(folder), error={"code": "MISSING_VARIABLE", "message": "m"}, timings=timings
            )
        write_artifacts(Entry(f"flows/f{k}.ad", "web", None), a)
        healed = "healed" if kind in (10, 11) else None
        results.append(ScriptResult(f"flows/f{k}.ad", a.status, [a], heal_status=healed))
    return SuiteResult(results, 3600.0)


def bench_report(samples: int = 7, scripts: int = SCRIPTS, failing: int = 100) -> dict[str, Any]:
    from playwright.sync_api import sync_playwright

    from replay.drivers.web.browser import LAUNCH_ARGS, find_chromium

    root = Path(tempfile.mkdtemp(prefix="rreport-", dir="/tmp"))
    suite = night(root, scripts, failing)
    written, opened = [], []
    for k in range(samples):
        out = root / f"out-{k}"
        t = time.perf_counter()
        reports.write_results(suite, str(out / "results.json"), {"shard": None})
        reports.write_junit(suite, str(out / "junit.xml"))
        page = reports.write_html(suite, str(out / "html"))
        written.append(time.perf_counter() - t)
    size = os.path.getsize(page)
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=find_chromium(headless=True), args=LAUNCH_ARGS)
        tab = browser.new_page()
        for k in range(samples):
            url = Path(root / f"out-{k}" / "html" / "index.html").as_uri()
            t = time.perf_counter()
            tab.goto(url, wait_until="load")
            opened.append(time.perf_counter() - t)
        tab.goto(Path(page).as_uri())
        first = tab.locator("section.script.passed details").first
        lazy = tab.evaluate("document.querySelectorAll('table.timeline').length")
        first.locator("summary").click()
        shown = tab.evaluate("document.querySelectorAll('table.timeline').length")
        browser.close()
    with open(root / "out-0" / "results.json", encoding="utf-8") as fh:
        records = len(json.load(fh)["results"])
    return {
        "write_s": statistics.median(written),
        "open_s": statistics.median(opened),
        "html_kib": size / 1024,
        "records": records,
        "failing": failing,
        "timelines_before_open": lazy,
        "timelines_after_opening_one": shown,
    }


def print_report(f: dict[str, Any]) -> None:
    print(
        f"## The morning-after report: a {f['records']}-script night, {f['failing']} failing (synthetic results),"
        " medians of 7\n"
    )
    print("| figure | measured | budget |\n|---|---:|---|")
    print(f"| results.json + JUnit + HTML written | {f['write_s']:.2f} s | ≤ 2 s |")
    print(f"| the HTML opened in Chromium from disk (load event) | {f['open_s']:.2f} s | ≤ 1 s |")
    print(f"| the HTML's size | {f['html_kib']:.0f} KiB | — |")
    print(
        f"| step timelines in the page before / after opening one script | "
        f"{f['timelines_before_open']} / {f['timelines_after_opening_one']} | details loaded when opened |\n"
    )


if __name__ == "__main__":
    print_report(bench_report())
