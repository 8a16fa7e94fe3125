"""Suite reports: JUnit XML for CI, and a static HTML page for the person who looks in the morning."""

from __future__ import annotations

import html
import os
import xml.etree.ElementTree as ET

from replay.engine.report import render_text
from replay.suite.runner import DIVERGED, FAILED, FLAKY, ScriptResult, SuiteResult


def _failure_text(r: ScriptResult) -> str:
    a = r.last
    if a.divergence is not None:
        return render_text(a.divergence, f"replay run {r.path} --session {a.divergence.get('session')}")
    return str((a.error or {}).get("message", ""))


def write_junit(suite: SuiteResult, path: str) -> str:
    """One ``<testcase>`` per script; a divergence or a failure is a ``<failure>`` with the report."""
    failures = suite.count(DIVERGED) + suite.count(FAILED)
    root = ET.Element("testsuites", tests=str(len(suite.results)), failures=str(failures), time=f"{suite.seconds:.3f}")
    ts = ET.SubElement(
        root,
        "testsuite",
        name="replay",
        tests=str(len(suite.results)),
        failures=str(failures),
        errors="0",
        skipped="0",
        time=f"{suite.seconds:.3f}",
    )
    for r in suite.results:
        case = ET.SubElement(ts, "testcase", classname="replay", name=r.path, time=f"{r.seconds:.3f}")
        if r.status in (DIVERGED, FAILED):
            kind = r.last.divergence["kind"] if r.last.divergence else str((r.last.error or {}).get("code"))
            failure = ET.SubElement(case, "failure", message=r.why(), type=kind)
            failure.text = _failure_text(r)
        if r.status == FLAKY or r.heal_status:
            props = ET.SubElement(case, "properties")
            if r.status == FLAKY:
                ET.SubElement(props, "property", name="flaky", value="true")
            if r.heal_status:
                ET.SubElement(props, "property", name="heal", value=f"{r.heal_status} {r.healed or ''}".strip())
        out = ET.SubElement(case, "system-out")
        out.text = "\n".join(f"attempt {a.number}: {a.status} ({a.seconds:.1f} s) {a.directory}" for a in r.attempts)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    ET.ElementTree(root).write(path, encoding="utf-8", xml_declaration=True)
    return path


def write_html(suite: SuiteResult, directory: str) -> str:
    """``index.html``: a row per script (status, time, attempts), the failure report and its screenshot."""
    os.makedirs(directory, exist_ok=True)
    rows = []
    for r in suite.results:
        detail = ""
        if r.status in (DIVERGED, FAILED):
            detail = f"<pre>{html.escape(_failure_text(r))}</pre>"
            if r.heal_status:
                detail += f"<p>heal: {html.escape(r.heal_status)} {html.escape(r.healed or '')}</p>"
            trace = os.path.join(r.last.directory, "trace.zip")
            if os.path.exists(trace):
                href = html.escape(os.path.relpath(trace, directory))
                detail += f'<p>trace: <a href="{href}">{href}</a> (python -m playwright show-trace)</p>'
            if r.last.screenshot:
                src = os.path.relpath(r.last.screenshot, directory)
                detail += f'<img src="{html.escape(src)}" alt="screenshot of {html.escape(r.path)}" width="640">'
        attempts = ", ".join(
            f'<a href="{html.escape(os.path.relpath(a.directory, directory))}">{a.number}: {a.status}</a>'
            for a in r.attempts
        )
        rows.append(
            f'<tr class="{r.status}"><td>{r.status}</td><td>{html.escape(r.path)}</td>'
            f"<td>{r.seconds:.1f} s</td><td>{attempts}</td></tr>"
            + (f'<tr class="detail"><td colspan="4">{detail}</td></tr>' if detail else "")
        )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>replay test — {html.escape(suite.summary())}</title>
<style>
body {{ font-family: sans-serif; margin: 24px; }} table {{ border-collapse: collapse; }}
td {{ border-bottom: 1px solid #ddd; padding: 4px 8px; vertical-align: top; }}
.passed td:first-child {{ color: green; }} .flaky td:first-child {{ color: darkorange; }}
.diverged td:first-child, .failed td:first-child {{ color: crimson; font-weight: bold; }}
pre {{ background: #f6f6f6; padding: 8px; white-space: pre-wrap; }}
</style></head>
<body><h1>replay test</h1><p>{html.escape(suite.summary())}</p>
<table><tr><th>status</th><th>script</th><th>time</th><th>attempts</th></tr>
{"".join(rows)}
</table></body></html>
"""
    path = os.path.join(directory, "index.html")
    with open(path, "w", encoding="utf-8") as fh:
        fh.write(page)
    return path
