"""Suite reports: JUnit XML for CI, and a static HTML page for the person who looks in the morning."""

from __future__ import annotations

import contextlib
import difflib
import html
import json
import os
import xml.etree.ElementTree as ET
from collections.abc import Iterator
from typing import Any

from replay.drivers.web.trace import VIEWER as TRACE_VIEWER
from replay.engine.report import render_text
from replay.errors import CannotWrite, InvalidArgs
from replay.files import open_private
from replay.heal.audit import script_diff
from replay.scrubbing import printable
from replay.suite.runner import DIVERGED, FAILED, FLAKY, PASSED, Attempt, ScriptResult, SuiteResult
from replay.suite.triage import ORDER, Triage, expected_observed, triage


def failure_text(path: str, a: Attempt) -> str:
    """An attempt's divergence report (its session is closed: heal it anew) or its error."""
    if a.divergence is not None:
        closed = f"replay heal {path} --agent builtin, or heal by doing: replay run {path} --session NAME"
        return render_text(a.divergence.json, f"replay run {path}", closed=closed)
    error = a.error or {}
    return f"{error.get('code')}: {error.get('message')}"


def _failure_text(r: ScriptResult) -> str:
    return failure_text(r.path, r.last)


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
    for r in suite.results:  # (every text through ``printable``: an ESC or a NUL in a path is no XML)
        case = ET.SubElement(ts, "testcase", classname="replay", name=printable(r.path), time=f"{r.seconds:.3f}")
        if (cls := triage(r)) is not None:  # the class first (design §10); the kind or code stays in the message
            failure = ET.SubElement(case, "failure", message=printable(f"{cls}: {r.why()}"), type=str(cls))
            failure.text = printable(_failure_text(r))
        if r.status == FLAKY or r.heal_status:
            props = ET.SubElement(case, "properties")
            if r.status == FLAKY:
                ET.SubElement(props, "property", name="flaky", value="true")
            if r.heal_status:
                healed = f"{r.heal_status} {r.healed or ''}".strip()
                ET.SubElement(props, "property", name="heal", value=printable(healed))
        out = ET.SubElement(case, "system-out")
        out.text = printable(
            "\n".join(f"attempt {a.number}: {a.status} ({a.seconds:.1f} s) {a.directory}" for a in r.attempts)
        )
    with _writing(path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open_private(path) as fh:
            ET.ElementTree(root).write(fh, encoding="unicode", xml_declaration=True)
    return path


def since_words(r: ScriptResult) -> str:
    """``new``, ``fixed`` or ``still failing for 3 runs``."""
    return f"{r.since} for {r.failing_runs} runs" if r.since == "still failing" else str(r.since)


def result_record(r: ScriptResult, root: str) -> dict[str, Any]:
    """One script in ``results.json``: path, class, status, attempts, the divergence, the heal, and its
    attempts' folders relative to ``root`` (where results.json is: a shard's folder moves)."""
    d, cls = r.last.divergence, triage(r)
    seen = expected_observed(r) if cls == Triage.REGRESSION else None
    return {
        "path": r.path,
        "class": cls,
        "status": r.status,
        "attempts": len(r.attempts),
        "seconds": round(r.seconds, 3),
        "why": r.why(),
        "divergence": {"kind": d.kind, "repairHint": d.repair_hint, "step": d.index} if d is not None else None,
        "error": (r.last.error or {}).get("code") if d is None else None,
        "expected": seen[0] if seen else None,
        "observed": seen[1] if seen else None,
        "healed": r.healed,
        "heal": r.heal_status,
        "since": r.since,
        "failingRuns": r.failing_runs,
        "runs": [_relative(a.directory, root) for a in r.attempts],  # each attempt's folder: its result.json
    }


def _relative(path: str, root: str) -> str:
    return os.path.relpath(path, root).replace(os.sep, "/")


def write_results(suite: SuiteResult, path: str, meta: dict[str, Any], order: dict[str, int] | None = None) -> str:
    """``results.json``: the run's metadata and one record per script, in suite order — what tomorrow's
    run compares with and what ``replay report merge`` joins. ``order``: each script's place in the
    unsharded suite by path (a shard's scripts are every Nth)."""
    root = os.path.dirname(os.path.abspath(path))
    records = [result_record(r, root) for r in suite.results]
    for k, record in enumerate(records):  # a script --fail-fast never started has no record
        record["order"] = order.get(record["path"], k) if order is not None else k
    payload = {
        "version": RESULTS_VERSION,
        "run": {**meta, "seconds": round(suite.seconds, 3), "summary": suite.summary()},
        "results": records,
    }
    with _writing(path):
        os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
        with open_private(path) as fh:
            json.dump(payload, fh, indent=1)
            fh.write("\n")
    return path


RESULTS_VERSION = 1


def heals_patch(suite: SuiteResult, root: str = ".") -> str:
    """Every healed script's minimal diff against its original, as one patch ``git apply`` takes from
    ``root`` (the review step of a heal pull request). Exact text, not redacted: a patch that says
    something else than the file does not apply — and it holds only the script's own lines (its
    ``${VAR}`` stay names), which the repository already has."""
    patch = []
    for r in suite.results:
        if r.heal_status != "healed" or not r.healed or not os.path.exists(r.healed):
            continue
        with open(r.path, encoding="utf-8") as a, open(r.healed, encoding="utf-8") as b:
            before, after = a.read().splitlines(True), b.read().splitlines(True)
        rel = os.path.relpath(r.path, root).replace(os.sep, "/")
        for line in difflib.unified_diff(before, after, f"a/{rel}", f"b/{rel}"):
            patch.append(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n")
    return "".join(patch)


def write_heals_diff(suite: SuiteResult, path: str) -> str | None:
    """``heals.diff`` beside results.json when anything was healed; its path, else None."""
    patch = heals_patch(suite)
    if not patch:
        return None
    with _writing(path), open_private(path) as fh:
        fh.write(patch)
    return path


def check_targets(junit: str | None, html_dir: str | None) -> None:
    """Refuse report places that cannot be written before the suite runs, not after: a JUnit file
    that is a folder, an HTML folder that is a file."""
    if junit and os.path.isdir(junit):
        raise InvalidArgs(f"--junit {junit} is a folder", hint="give the XML file's path, e.g. --junit out.xml")
    if html_dir and os.path.exists(html_dir) and not os.path.isdir(html_dir):
        raise InvalidArgs(f"--html {html_dir} is a file", hint="give a folder: the report is its index.html")


@contextlib.contextmanager
def _writing(path: str) -> Iterator[None]:
    """A report that cannot be written is ``IO_ERROR`` naming it (a full disk, a read-only place)."""
    try:
        yield
    except OSError as exc:
        raise CannotWrite(
            f"cannot write {path}: {exc.strerror or type(exc).__name__}", hint="check the disk space and permissions"
        ) from None


STATUSES = (PASSED, FLAKY, DIVERGED, FAILED)

# a section off screen is not laid out until it is scrolled to (content-visibility): a bad night's thousands
# of open failures held the page's opening for seconds; find-in-page still finds their text
_STYLE = """
body { font-family: system-ui, sans-serif; margin: 24px; color: #222; }
nav button { margin-right: 6px; padding: 4px 10px; border: 1px solid #bbb; background: #fff; cursor: pointer; }
nav button[aria-pressed="true"] { background: #222; color: #fff; }
section.script { border-top: 1px solid #ddd; padding: 6px 0; }
section.script { content-visibility: auto; contain-intrinsic-size: auto 3em; }
section.script[hidden] { display: none; }
summary { cursor: pointer; }
.status { display: inline-block; width: 6em; font-weight: bold; }
.passed .status { color: green; } .flaky .status { color: darkorange; }
.diverged .status, .failed .status { color: crimson; }
pre { background: #f6f6f6; padding: 8px; white-space: pre-wrap; }
table.timeline td { padding: 1px 6px; font-size: 90%; }
.bar { background: #6a8fd8; height: 10px; }
.diff .add { color: #0a6d0a; } .diff .del { color: #b00020; }
img { border: 1px solid #ccc; width: 640px; max-width: 100%; }
"""

_SCRIPT = """
let bodies = null;
function timeline(steps) {  // [index, command, line, ms] a step: one row and one bar each, longest = full width
  if (!steps.length) { const p = document.createElement("p"); p.textContent = "no step ran"; return p; }
  const longest = Math.max(...steps.map((s) => s[3])) || 1;
  const table = document.createElement("table");
  table.className = "timeline";
  for (const [index, command, line, ms] of steps) {
    const row = table.insertRow();
    for (const text of [index, command, `line ${line}`, `${ms.toFixed(0)} ms`]) row.insertCell().textContent = text;
    const cell = row.insertCell(), bar = document.createElement("div");
    cell.style.width = "320px";
    bar.className = "bar";
    bar.style.width = `${(100 * ms / longest).toFixed(0)}%`;
    cell.append(bar);
  }
  return table;
}
document.addEventListener("toggle", (event) => {
  const details = event.target;
  if (!details.open || details.dataset.lazy === undefined) return;
  bodies = bodies || JSON.parse(document.getElementById("lazy").textContent);
  const [before, steps, after] = bodies[Number(details.dataset.lazy)];
  details.insertAdjacentHTML("beforeend", before);
  if (steps !== null) details.append(timeline(steps));
  details.insertAdjacentHTML("beforeend", after);
  delete details.dataset.lazy;
}, true);
for (const button of document.querySelectorAll("nav button")) {
  button.addEventListener("click", () => {
    const want = button.dataset.filter;
    for (const b of document.querySelectorAll("nav button")) b.setAttribute("aria-pressed", String(b === button));
    for (const s of document.querySelectorAll("section.script")) s.hidden = want !== "all" && s.dataset.status !== want;
  });
}
"""


def _steps(a: Attempt) -> list[list[Any]]:
    """The attempt's steps as the page's script draws them (``timeline``): ``[index, command, line, ms]``
    each — a bad night's thousands of timelines as markup were most of the page and held its opening."""
    return [[t.index, printable(t.command), t.line, round(t.ms, 1)] for t in a.timings]


def _diff(text: str) -> str:
    lines = []
    for line in text.splitlines():
        cls = "add" if line.startswith("+") and not line.startswith("+++") else ""
        cls = "del" if line.startswith("-") and not line.startswith("---") else cls
        lines.append(f'<span class="{cls}">{html.escape(line)}</span>' if cls else html.escape(line))
    return '<pre class="diff">' + "\n".join(lines) + "</pre>"


def _section(r: ScriptResult, directory: str, lazy: list[list[Any]]) -> str:
    a = r.last
    rel = lambda p: html.escape(_link(p, directory))  # noqa: E731 - a link, relative to the report
    failing = r.status in (DIVERGED, FAILED)
    parts: list[str] = []
    if failing:
        parts += ["<h3>Why</h3>", f"<pre>{html.escape(_failure_text(r))}</pre>"]
        seen = expected_observed(r) if triage(r) == Triage.REGRESSION else None
        if seen is not None:  # a missing effect (design §15) or a failed check: what was expected, what was seen
            expected, observed = seen
            parts.append(
                '<table class="effect"><tr><th>expected</th><td>'
                f"{html.escape(expected)}</td></tr><tr><th>observed</th><td>"
                f"{html.escape(observed)}</td></tr></table>"
            )
        if a.screenshot:  # (lazy: a bad night's thousand screenshots must not hold the page's opening)
            parts.append(
                f'<img src="{rel(a.screenshot)}" loading="lazy" alt="the screen when {html.escape(r.path)} stopped">'
            )
        # a failure shows why at once; its steps go in when they are opened: a bad night's thousands of
        # timelines are most of the page and would hold its opening for seconds
        parts.append(f'<details data-lazy="{len(lazy)}"><summary>Steps ({len(a.timings)})</summary></details>')
        lazy.append(["", _steps(a), ""])
    trace = os.path.join(a.directory, "trace.zip")
    if os.path.exists(trace):
        parts.append(
            f'<p>Trace: <a href="{rel(trace)}">{rel(trace)}</a> — '
            f"<code>{html.escape(TRACE_VIEWER.format(path=trace))}</code></p>"
        )
    if r.heal_status:
        parts.append(f"<h3>Heal: {html.escape(r.heal_status)}</h3>")
        if r.healed and os.path.exists(r.healed):
            parts += [f"<p>{html.escape(r.healed)}, pending review</p>", _diff(script_diff(r.path, r.healed))]
    attempts = ", ".join(f'<a href="{rel(x.directory)}">attempt {x.number}: {x.status}</a>' for x in r.attempts)
    parts.append(f"<p>Artifacts: {attempts}</p>")
    cls = triage(r)
    why = f" — <b>{cls}</b>: {html.escape(r.why())}" if cls is not None else ""
    why += f" <em>({html.escape(since_words(r))})</em>" if r.since else ""
    tries = f", {len(r.attempts)} attempts" if len(r.attempts) > 1 else ""
    body = "".join(parts)
    opened = " open"  # a failure shows at once
    if not failing:  # a pass's details go in when it is opened: 2,000 timelines are slow
        opened = f' data-lazy="{len(lazy)}"'
        lazy.append(["<h3>Steps</h3>", _steps(a), body])
        body = ""
    return (
        f'<section class="script {r.status}" data-status="{r.status}"><details{opened}><summary>'
        f'<span class="status">{r.status}</span> {html.escape(r.path)} ({r.seconds:.1f} s{tries}){why}'
        f"</summary>{body}</details></section>"
    )


def _grouped(suite: SuiteResult, directory: str) -> str:
    """Regressions first, then drift, healed, broken, failed (design §10), then the scripts that passed;
    the passes' details as one JSON block the page reads when one is opened."""
    classes, lazy = suite.classes(), list[list[Any]]()
    groups = [(str(c), classes[c]) for c in ORDER] + [("passed", [r for r in suite.results if triage(r) is None])]
    parts = [
        f'<h2 id="{name}">{name} ({len(found)})</h2>' + "".join(_section(r, directory, lazy) for r in found)
        for name, found in groups
        if found
    ]
    data = json.dumps(lazy).replace("</", "<\\/")  # no "</script>" inside: "<\\/" is "</" in JSON
    parts.append(f'<script type="application/json" id="lazy">{data}</script>')
    return "".join(parts)


def _link(path: str, directory: str) -> str:
    """A link to ``path`` from the report: relative and ``./``-led, so a folder named ``javascript:…``
    is a folder, never a scheme the browser runs."""
    found = os.path.relpath(path, directory)
    return found if found.startswith(("./", "../")) else f"./{found}"


# the page opens from disk and runs its own script only: nothing it shows may load or run anything else
_CSP = "default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'; script-src 'unsafe-inline'"


def write_html(suite: SuiteResult, directory: str) -> str:
    """``index.html``: the summary, filters by status, and per script its step timeline, the failure
    with its screenshot and suggestions, the trace, and the healed script's diff. It opens from disk:
    no server, no network."""
    with _writing(directory):
        os.makedirs(directory, exist_ok=True)
    buttons = [f'<button data-filter="all" aria-pressed="true">all ({len(suite.results)})</button>']
    buttons += [f'<button data-filter="{s}" aria-pressed="false">{s} ({suite.count(s)})</button>' for s in STATUSES]
    pending = [r.healed for r in suite.results if r.healed]
    review = (
        "<p>Healed scripts pending review: " + ", ".join(html.escape(p) for p in pending) + "</p>" if pending else ""
    )
    page = f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="{_CSP}"><title>replay test — {html.escape(suite.summary())}</title>
<style>{_STYLE}</style></head>
<body><h1>replay test</h1><p id="summary">{html.escape(suite.summary())}</p>{review}
<nav aria-label="filter by status">{"".join(buttons)}</nav>
{_grouped(suite, directory)}
<script>{_SCRIPT}</script>
</body></html>
"""
    path = os.path.join(directory, "index.html")
    with _writing(path), open_private(path) as fh:
        fh.write(page)
    return path
