"""The widget corpus (fixtures/drift/widgets.py) for ``scripts/bench drift``: replay's outcome on every
case, and with ``--peer`` the same flows with Playwright's own selector generator beside it.

The peer records as codegen would: each step acts on the element the person chose (the one replay
recorded, found again at its recorded rectangle on the recorded version), and the locator kept is
``Locator.normalize()`` of it — Playwright's generator (test id, role and name, text, … CSS). Those
locators are then run with Playwright on every version, each action with the same 1.5 s timeout, and
the flow's assertions as ``get_by_text(...).wait_for()``. A flow passes when every step does.
"""

from __future__ import annotations

import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from fixtures.drift.corpus import Case, Outcome, Recording, ranking, run
from fixtures.drift.widgets import FLOWS, HELD_BACK, widget_cases

ELEMENT_COMMANDS = ("click", "dblclick", "fill", "check", "uncheck", "hover", "select")
TIMEOUT_MS = 1500


@dataclass
class PeerFlow:
    """Playwright's generated locators for one recording, one per element step (None: none generated)."""

    recording: Recording
    locators: list[str | None]
    error: str | None = None


def _element_steps(script: Path) -> list[Any]:
    """The recorded evidence of every element step, in order (replay's recording)."""
    from replay.script.parser import parse

    out = []
    for item in parse(script.read_text(), str(script)).items:
        command, ev = getattr(item, "command", None), getattr(item, "annotation", None)
        if command in ELEMENT_COMMANDS and ev is not None and ev.rect is not None:
            out.append(ev)
    return out


def _pick(page: Any, ev: Any) -> Any | None:
    """The element replay recorded, as Playwright finds it: by its role and name (or its text) where it
    has one — the one nearest the recorded rectangle — else what lies at the rectangle's centre."""
    cx, cy = ev.rect.x + ev.rect.width / 2, ev.rect.y + ev.rect.height / 2
    if ev.label and ev.role not in (None, "generic"):
        found = page.get_by_role(ev.role, name=ev.label, exact=True)
    elif ev.label:
        found = page.get_by_label(ev.label, exact=True)
    elif ev.text or ev.key_text:
        found = page.get_by_text(ev.text or ev.key_text, exact=True)
    else:
        found = None
    if found is not None:
        boxes = [(i, b) for i, b in enumerate(found.evaluate_all(BOXES)) if b is not None]
        if boxes:
            i = min(boxes, key=lambda ib: (ib[1][0] + ib[1][2] / 2 - cx) ** 2 + (ib[1][1] + ib[1][3] / 2 - cy) ** 2)[0]
            return found.nth(i)
    element = page.evaluate_handle(PICK, [cx, cy]).as_element()
    index = page.locator("*").evaluate_all("(els, t) => els.indexOf(t)", element) if element else -1
    return page.locator("*").nth(index) if index >= 0 else None


# each element's box; None for one a person cannot see (a closed dropdown's option saying the same)
BOXES = """(els) => els.map((e) => {
  if (!e.checkVisibility({ visibilityProperty: true, opacityProperty: true })) return null;
  const r = e.getBoundingClientRect();
  return [r.x, r.y, r.width, r.height];
})"""


PICK = """([x, y]) => {
  let el = document.elementFromPoint(x, y);
  while (el && el.shadowRoot) {
    const inner = el.shadowRoot.elementFromPoint(x, y);
    if (!inner || inner === el) break;
    el = inner;
  }
  return el;
}"""


SETTLED = "() => document.getAnimations().every((a) => a.playState !== 'running')"


def _settle(page: Any) -> None:
    """Until no animation runs (a popup fading in or out), at most 2 s, then one more frame."""
    try:
        page.wait_for_function(SETTLED, timeout=2000, polling=50)
    except Exception:  # noqa: BLE001 - an endless animation (a spinner): pick what is there
        pass
    page.wait_for_timeout(100)


def _act(page: Any, command: str, args: list[str], locator: Any | None) -> None:
    if command == "press":
        page.keyboard.press(args[0])
    elif command == "type":
        page.keyboard.type(args[0])
    elif command == "wait":
        page.get_by_text(args[1]).first.wait_for(timeout=TIMEOUT_MS)
    elif command == "is":
        page.get_by_text(args[1], exact=True).wait_for(timeout=TIMEOUT_MS)
    elif locator is None:
        raise RuntimeError(f"no locator for {command}")
    elif command == "fill":
        locator.fill(args[1], timeout=TIMEOUT_MS)
    elif command == "select":
        locator.select_option(args[1], timeout=TIMEOUT_MS)
    else:
        getattr(locator, command)(timeout=TIMEOUT_MS)


def peer_record(browser: Any, url: str, rec: Recording, script: Path) -> PeerFlow:
    """Codegen's locators for ``rec`` on its recorded version (the elements replay recorded)."""
    steps = iter(_element_steps(script))
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    locators: list[str | None] = []
    try:
        page.goto(f"{url}/{rec.url}", wait_until="load")
        for command, *args in rec.steps:
            locator = None
            if command in ELEMENT_COMMANDS:
                _settle(page)  # a person clicks what the settled page shows
                chosen = _pick(page, next(steps))
                if chosen is None:
                    locators.append(None)
                    raise RuntimeError(f"{command}: nothing at the recorded point")
                normalized = chosen.normalize()
                selector = normalized._impl_obj._selector  # the generator's selector, as codegen writes it
                locators.append(selector)
                locator = page.locator(selector)
            _act(page, command, args, locator)
        return PeerFlow(rec, locators)
    except Exception as exc:  # noqa: BLE001 - a flow the peer cannot record is reported, not raised
        return PeerFlow(rec, locators, f"{type(exc).__name__}: {str(exc).splitlines()[0][:120]}")
    finally:
        page.close()


def peer_replay(browser: Any, url: str, flow: PeerFlow, case: Case) -> str:
    """``clean`` or where the peer's run stopped, on the case's version."""
    if flow.error is not None:
        return f"not recorded: {flow.error}"
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    locators = iter(flow.locators)
    try:
        page.goto(case.edit(f"{url}/{flow.recording.url}"), wait_until="load")
        for i, (command, *args) in enumerate(flow.recording.steps, 1):
            selector = next(locators) if command in ELEMENT_COMMANDS else None
            try:
                _act(page, command, args, page.locator(selector) if selector else None)
            except Exception as exc:  # noqa: BLE001
                return f"failed at step {i} ({command}): {str(exc).splitlines()[0][:80]}"
        return "clean"
    finally:
        page.close()


def bench_widget_drift(
    peer: bool, rank: bool = True, apps: set[str] | None = None
) -> tuple[list[Outcome], dict[str, str]]:
    """replay on every widget case through the CLI (``apps``: those apps' only); with ``peer``, Playwright's
    generator beside it."""
    from serve import serve

    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rw-", dir="/tmp")
    peers: dict[str, str] = {}
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work:
            cases = [c for c in widget_cases() if apps is None or c.recording.name.split("-")[0] in apps]
            outcomes = run(replay, url, home, Path(work), cases, rank=rank)
            if peer:
                from playwright.sync_api import sync_playwright

                from replay.drivers.web.browser import LAUNCH_ARGS, find_chromium

                with sync_playwright() as pw:
                    browser = pw.chromium.launch(executable_path=find_chromium(headless=True), args=LAUNCH_ARGS)
                    flows = {r.name: peer_record(browser, url, r, Path(work) / f"{r.name}.ad") for r in FLOWS}
                    for case in widget_cases():
                        peers[case.name] = peer_replay(browser, url, flows[case.recording.name], case)
                    browser.close()
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    return outcomes, peers


def _fractions(outcomes: list[Outcome], peers: dict[str, str]) -> list[tuple[str, str, str]]:
    """The summary rows: replay's figure and the generator's, each over the cases where it applies."""
    own = [o for o in outcomes if o.case.kind == "same version"]
    go = [o for o in outcomes if o.case.kind != "same version" and not _stop_right(o)]
    stop = [o for o in outcomes if _stop_right(o)]

    def peer(cases: list[Outcome], want: bool = True) -> str:
        return f"{sum((peers.get(o.case.name) == 'clean') == want for o in cases)}/{len(cases)}" if peers else "—"

    clean = sum(o.result == "clean" for o in go)
    healed = sum(o.heal == "healed" and o.correct for o in go)
    return [
        ("flows recorded with every step verified", f"{sum(o.verified for o in own)}/{len(own)}", "—"),
        ("replay clean on their own version", f"{sum(o.result == 'clean' for o in own)}/{len(own)}", peer(own)),
        (
            "later versions and changed data: clean + correctly healed",
            f"{clean} + {healed} = {clean + healed}/{len(go)} ({100 * (clean + healed) / max(len(go), 1):.0f} %)",
            peer(go),
        ),
        (
            "the recorded row removed: stopped before acting, right repairHint",
            f"{sum(o.correct for o in stop)}/{len(stop)}",
            f"{peer(stop, want=False)} failed (none can say where)",
        ),
        ("the element healed to is the top suggestion (heal: cases that stop)", ranking(outcomes), "—"),
        ("false heals", str(sum(o.false_heal for o in outcomes)), "— (no healing)"),
        ("outcome as expected", f"{sum(o.correct for o in outcomes)}/{len(outcomes)}", "—"),
    ]


def _stop_right(o: Outcome) -> bool:
    return o.case.expect.startswith("escalate:") or o.case.expect == "state-repair"


def print_widget_drift(outcomes: list[Outcome], peers: dict[str, str]) -> None:
    """The widget corpus's table: replay beside Playwright's generator, the held-back libraries apart."""
    libraries = sorted({o.case.recording.name.split("-")[0] for o in outcomes})
    flows = {o.case.recording.name for o in outcomes}
    print(f"## The widget corpus: {len(flows)} flows on {len(libraries)} libraries, {len(outcomes)} cases\n")
    for title, keep in (
        ("libraries the rules were written on", lambda o: o.case.recording.name.split("-")[0] not in HELD_BACK),
        (
            f"held back ({', '.join(sorted(HELD_BACK))}): checked last",
            lambda o: o.case.recording.name.split("-")[0] in HELD_BACK,
        ),
    ):
        part = [o for o in outcomes if keep(o)]
        if not part:
            continue
        print(f"### {title}\n\n| figure | replay | Playwright's generator |\n|---|---|---|")
        for row in _fractions(part, peers):
            print(f"| {' | '.join(row)} |")
        print()
    heal_ms = [o.heal_ms for o in outcomes if o.heal_ms is not None]
    if heal_ms:
        print(f"time per `replay heal` (median): {statistics.median(heal_ms):.0f} ms\n")
    print("| case | expected | replay | healer | verdict | rank | Playwright's generator |")
    print("|---|---|---|---|---|---|---|")
    for o in outcomes:
        verdict = "correct" if o.correct else ("**false heal**" if o.false_heal else "wrong")
        peer, rank = peers.get(o.case.name, "—"), "—" if o.rank is None else (o.rank or "> 3")
        print(f"| {o.case.name} | {o.case.expect} | {o.result} | {o.heal or '—'} | {verdict} | {rank} | {peer} |")
    print()
