"""The deletion tier (issue 55, SPEC §8 "Deletion is the test of it"): every targeted action step of every
widget flow, its target removed from the page and kept removed, the flow replayed, then healed by the
built-in healer and by a report-trusting agent (it performs the step on the top suggestion) — with the
flow's end assertions and without them (flows people record often have none).

Nothing may pass: ``replay run`` never goes past a deleted target, the built-in acts on no element (any
element it acts on is a wrong one: the recorded one is gone) and publishes nothing, and no agent's pick
is published by the acceptance gate.

How a target is removed: the element replay recorded is found on its recorded version as the widget
bench's peer finds it (by its role and name, else at its recorded rectangle), widened to the ancestor
whose box is nearest the recorded rectangle (a nameless arrow, not its icon) and to its own wrapping
label (a checkbox's shown part: clicking the label would still toggle a hidden box), described by its
place under ``body``; the fixture server then serves the page with a style that hides whatever sits there, whenever
it appears (fixtures/serve.py ``gone_prefix``). A target inside a shadow root cannot be hidden so and is
counted apart.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from benchmarks.widgets import ELEMENT_COMMANDS, _act, _element_steps, _pick, _settle
from fixtures.drift.corpus import PICK_AGENT, Cli, Recording, record
from fixtures.drift.widgets import FLOWS, HELD_BACK

PLACE = """(el, [x, y, w, h]) => {
  // the element the step acted on: of the picked node and its ancestors, the box nearest the recorded one
  // (a nameless arrow's svg is picked at its centre; the arrow is what was recorded)
  const overlap = (e) => {
    const r = e.getBoundingClientRect();
    const ix = Math.max(0, Math.min(r.right, x + w) - Math.max(r.left, x));
    const iy = Math.max(0, Math.min(r.bottom, y + h) - Math.max(r.top, y));
    const inter = ix * iy;
    return inter / (r.width * r.height + w * h - inter || 1);
  };
  let best = el, score = overlap(el);
  for (let e = el.parentElement; e && e !== document.body; e = e.parentElement) {
    const s = overlap(e);
    if (s >= score - 0.05) { best = e; score = Math.max(score, s); }  // (a wrapper of the same box: the outer)
  }
  el = best;
  // a form control inside its own label: the label is its shown part (a click on it still toggles it)
  const wrap = el.matches('input, select, textarea') ? el.closest('label') : null;
  if (wrap) el = wrap;
  if (el.getRootNode() !== document) return null;
  const parts = [];
  while (el && el !== document.body && el.parentElement) {
    const i = Array.prototype.indexOf.call(el.parentElement.children, el) + 1;
    parts.unshift(el.tagName.toLowerCase() + ':nth-child(' + i + ')');
    el = el.parentElement;
  }
  return parts.length ? 'body > ' + parts.join(' > ') : null;  // (the page itself is no target)
}"""


@dataclass
class Deleted:
    """One deletion case: a flow, the element step whose target is gone, the variant, what happened."""

    flow: str
    step: int  # the plan step (1-based) whose target is removed
    variant: str  # "with assertions" | "without"
    held_back: bool
    run: str = ""  # "stopped at N" | "passed" | "went past to N"
    builtin: str = ""  # "abstained" | "acted: …" | "published: …"
    agent: str = ""  # "not published" | "published"
    notes: list[str] = field(default_factory=list)

    @property
    def false(self) -> list[str]:
        """What went wrong on this case (empty: nothing passed)."""
        out = []
        if not self.run.startswith("stopped"):
            out.append(f"replay {self.run}")
        if self.builtin != "abstained":
            out.append(f"built-in {self.builtin}")
        if self.agent == "published":
            out.append("agent's pick published")
        return out


def targets(browser: Any, url: str, rec: Recording, script: Path) -> list[str | None]:
    """Each element step's target, as a place under ``body`` on its recorded version (None: not hideable)."""
    steps = iter(_element_steps(script))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    out: list[str | None] = []
    try:
        page.goto(f"{url}/{rec.url}", wait_until="load")
        for command, *args in rec.steps:
            locator = None
            if command in ELEMENT_COMMANDS:
                _settle(page)
                ev = next(steps)
                chosen = _pick(page, ev)
                box = [ev.rect.x, ev.rect.y, ev.rect.width, ev.rect.height]
                out.append(chosen.evaluate(PLACE, box) if chosen is not None else None)
                locator = chosen
            _act(page, command, args, locator)
    except Exception as exc:  # noqa: BLE001 - the rest of the flow's steps are not measured
        print(f"  {rec.name}: stopped finding targets ({type(exc).__name__})", file=sys.stderr)
    finally:
        page.close()
    return out


def _element_lines(script: Path) -> list[int]:
    """The plan step index (1-based) of each element step with evidence, in order."""
    from replay.script.parser import parse

    actions = parse(script.read_text(), str(script)).actions
    return [
        i
        for i, a in enumerate(actions, 1)
        if a.command in ELEMENT_COMMANDS and a.annotation is not None and a.annotation.rect is not None
    ]


def _without_assertions(text: str) -> str:
    """The flow without its end assertions: its trailing ``wait``/``is`` lines and their annotations."""
    lines = text.rstrip("\n").split("\n")
    while lines and re.match(r"(wait|is) ", lines[-1]):
        lines.pop()
        while lines and lines[-1].startswith("# replay:"):
            lines.pop()
    return "\n".join(lines) + "\n"


def _rounds(flow: Path) -> list[dict[str, Any]]:
    log = flow.parent / "replay-results" / flow.stem / "heal.jsonl"
    if not log.exists():
        return []
    return [json.loads(line) for line in log.read_text().splitlines() if line.strip()]


def run_case(cli: Cli, flow: Path, step: int) -> Deleted:
    """Replay, heal with the built-in, heal with the trusting agent; each on a fresh copy of ``flow``."""
    d = Deleted(flow.stem, step, "", False)
    ran = cli("run", str(flow), "--timeout", "1500", "--json")
    answer = json.loads(ran.stdout.splitlines()[-1]) if ran.stdout.strip() else {}
    divergence = (answer.get("error") or {}).get("divergence")
    if ran.returncode == 0:
        d.run = "passed"
    elif divergence is None:
        d.run = f"stopped at ? ({(answer.get('error') or {}).get('code')})"
    else:
        at = divergence["step"]["index"]
        d.run = f"stopped at {at}" if at <= step else f"went past to {at}"
    healed = flow.with_suffix(".healed.ad")
    shutil.rmtree(flow.parent / "replay-results" / flow.stem, ignore_errors=True)
    built = cli("heal", str(flow), "--agent", "builtin", "--timeout", "1500")
    acted = [r for r in _rounds(flow) if str(r.get("adjustment", "")).startswith("performed on")]
    if built.returncode == 5:
        d.builtin = f"published ({acted[0]['adjustment'] if acted else '?'})"
    elif acted:
        d.builtin = f"acted: {acted[0]['label']}: {acted[0]['adjustment']}"
    else:
        d.builtin = "abstained"
    healed.unlink(missing_ok=True)
    flow.with_suffix(".rejected.ad").unlink(missing_ok=True)
    agent = cli("heal", str(flow), "--agent", f"{sys.executable} {PICK_AGENT} 1", "--timeout", "1500", "--repair", "1")
    d.agent = "published" if agent.returncode == 5 else "not published"
    healed.unlink(missing_ok=True)
    flow.with_suffix(".rejected.ad").unlink(missing_ok=True)
    return d


def bench_deletion(apps: list[str] | None = None) -> tuple[list[Deleted], dict[str, int]]:
    """Every deletion case of the widget flows (of ``apps``); and the steps not measured, by why."""
    from playwright.sync_api import sync_playwright
    from serve import gone_prefix, serve

    from replay.drivers.web.browser import LAUNCH_ARGS, find_chromium

    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rd-", dir="/tmp")
    out: list[Deleted] = []
    skipped = {"in a shadow root or not found": 0, "own version does not replay": 0}
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work, sync_playwright() as pw:
            cli = Cli(replay, home, Path(work))
            browser = pw.chromium.launch(executable_path=find_chromium(headless=True), args=LAUNCH_ARGS)
            for rec in FLOWS:
                app = rec.name.split("-")[0]
                if apps and app not in apps:
                    continue
                script = Path(work) / f"{rec.name}.ad"
                record(cli, url, rec, script)
                steps = _element_lines(script)
                if cli("run", str(script), "--timeout", "1500").returncode != 0:
                    skipped["own version does not replay"] += len(steps)
                    continue
                places = targets(browser, url, rec, script)
                page = rec.url
                for k, step in enumerate(steps):
                    css = places[k] if k < len(places) else None
                    if css is None:
                        skipped["in a shadow root or not found"] += 1
                        continue
                    text = script.read_text().replace(f"{url}/", f"{url}/{gone_prefix(page, css)}/")
                    for variant, body in (("with assertions", text), ("without", _without_assertions(text))):
                        flow = Path(work) / f"{rec.name}-gone{step}-{'a' if variant.startswith('with ') else 'n'}.ad"
                        flow.write_text(body)
                        d = run_case(cli, flow, step)
                        d.flow, d.variant, d.held_back = rec.name, variant, app in HELD_BACK
                        d.notes.append(css)
                        out.append(d)
                        mark = f"{d.run}; built-in {d.builtin}; agent {d.agent}"
                        print(f"  {rec.name} step {step} ({variant}): {mark}", file=sys.stderr, flush=True)
            browser.close()
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    return out, skipped


def print_deletion(cases: list[Deleted], skipped: dict[str, int]) -> None:
    """The tier's table: per variant and side (tuned / held back), what passed a deleted target."""
    print(f"## The deletion tier: {len({(c.flow, c.step) for c in cases})} deleted targets, {len(cases)} cases\n")
    print("| libraries | variant | cases | replay went past | built-in acted | built-in published | agent published |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for side, held in (("tuned", False), ("held back", True)):
        for variant in ("with assertions", "without"):
            part = [c for c in cases if c.held_back == held and c.variant == variant]
            if not part:
                continue
            past = sum(not c.run.startswith("stopped") for c in part)
            acted = sum(c.builtin != "abstained" for c in part)
            published = sum(c.builtin.startswith("published") for c in part)
            agent = sum(c.agent == "published" for c in part)
            print(f"| {side} | {variant} | {len(part)} | {past} | {acted} | {published} | {agent} |")
    print(f"\nnot measured: {', '.join(f'{n} {why}' for why, n in skipped.items() if n) or 'none'}\n")
    for c in cases:
        if c.false:
            print(f"- {c.flow} step {c.step} ({c.variant}): {'; '.join(c.false)} — hidden: `{c.notes[0]}`")
    print()


if __name__ == "__main__":
    found, left = bench_deletion(sys.argv[1:] or None)
    print_deletion(found, left)
