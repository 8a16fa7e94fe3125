"""`replay record` in ``scripts/bench`` (SPEC §16): what a step recorded by hand costs beside the same
step through `replay click @ref` in a recording session — a person's click on the shop's "Add to
cart", from its dispatch (over the recorder's DevTools endpoint) to its step event, against the same
click asked of a recording session by ref (its snapshot taken before, untimed). Both warm, paired
rounds alternating, on the small page and on the same page with 800 rows.
"""

from __future__ import annotations

import functools
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from serve import serve

from benchmarks.kit import alternate, paired

PAIRS = 9
BUDGET = 1.5


def _by_hand(client: Any, page: Any) -> float:
    """One person's click on the teapot's "Add to cart", until the recorder says it recorded it."""
    box = page.locator("[data-testid=add-teapot]").bounding_box()
    since = int(client.record_events(10**9, wait_ms=0)["next"])
    t = time.perf_counter()
    page.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    while True:
        got = client.record_events(since, wait_ms=10_000)
        since = int(got["next"])
        if any(e["event"] == "step" for e in got["events"]):
            return time.perf_counter() - t
        if any(e["event"] == "refused" for e in got["events"]) or got["ended"]:
            raise RuntimeError(f"not recorded: {got['events']}")


def _by_ref(client: Any, ref: str) -> float:
    t = time.perf_counter()
    client.command("click", ref)
    return time.perf_counter() - t


def bench_record(pairs: int = PAIRS) -> dict[str, dict[str, list[float]]]:
    from playwright.sync_api import sync_playwright

    from replay.client import Client

    out: dict[str, dict[str, list[float]]] = {}
    home = tempfile.mkdtemp(prefix="rbr-", dir="/tmp")
    try:
        with serve() as url, sync_playwright() as pw:
            for size, query in (("small", ""), ("big (800 rows)", "?rows=800")):
                page_url = f"{url}/shop/index.html{query}"
                hand = Client(f"hand{len(out)}", home=home, cwd=home)
                ready = hand.record(page_url, save_script=f"{home}/hand{len(out)}.ad", headless=True)
                browser = pw.chromium.connect_over_cdp(ready["devtools"])
                page = next(p for c in browser.contexts for p in c.pages if p.url == page_url)
                typed = Client(f"ref{len(out)}", home=home, cwd=home)
                typed.open(page_url, save_script=f"{home}/ref{len(out)}.ad")
                seen = typed.snapshot(interactive=True)["text"]
                ref = next(line.split()[0] for line in seen.splitlines() if 'button "Add to cart"' in line)
                sides = {
                    "by hand": functools.partial(_by_hand, hand, page),
                    "replay click @ref": functools.partial(_by_ref, typed, ref),
                }
                out[size] = alternate(sides, pairs)
                browser.close()
                hand.close()
                typed.close()
                print(f"  {size}: done", file=sys.stderr, flush=True)
    finally:
        Client(home=home).shutdown()
        shutil.rmtree(home, ignore_errors=True)
    return out


def print_record(times: dict[str, dict[str, list[float]]]) -> None:
    print("## Recording by hand: a person's click beside `replay click @ref`, both recording (SPEC §16)\n")
    print("| page | by hand (ms) | replay click @ref (ms) | ratio (median of per-round ratios, min–max) | ≤ 1.5× |")
    print("|---|---:|---:|---|---|")
    for size, t in times.items():
        mid, lo, hi = paired(t["by hand"], t["replay click @ref"])
        hand, ref = statistics.median(t["by hand"]) * 1000, statistics.median(t["replay click @ref"]) * 1000
        print(
            f"| {size} | {hand:.0f} | {ref:.0f} | {mid:.2f}× ({lo:.2f}–{hi:.2f}) "
            f"| {'met' if mid <= BUDGET else 'not met'} |"
        )
    print()


def bench_record_corpus(widgets: bool = False, apps: set[str] | None = None) -> list[tuple[Any, Any, Any]]:
    """The drift corpus's recordings made by hand (``fixtures/drift/by_hand.py``) and through the CLI in
    the same run, each through every case of the corpus: (case, the CLI's outcome, by hand's).
    ``widgets``: the widget corpus's flows instead, done by hand from their CLI steps (``by_steps``:
    the same snapshot patterns, pressed where they show); a flow no hand can do (a native select's
    list) is left out. ``apps``: only those apps' flows (``--only books,slides``)."""
    import os
    import subprocess

    from playwright.sync_api import sync_playwright

    from fixtures.drift.by_hand import SECRETS, by_steps, doable, record_by_hand
    from fixtures.drift.corpus import Cli, cases, record, run_case
    from fixtures.drift.widgets import widget_cases

    os.environ.update(SECRETS)  # (the Cli's environment: a by-hand password is ${PASSWORD})
    replay = str(Path(sys.executable).with_name("replay"))
    home = tempfile.mkdtemp(prefix="rbc-", dir="/tmp")
    rows: list[tuple[Any, Any, Any]] = []
    try:
        with serve() as url, tempfile.TemporaryDirectory() as work, sync_playwright() as pw:
            root = Path(work)
            for side in ("cli", "hand"):
                (root / side).mkdir()
            cli = Cli(replay, home, root)
            made: dict[str, tuple[Path, Path, bool, bool]] = {}
            for case in widget_cases() if widgets else cases():
                rec = case.recording
                if (widgets and not doable(rec)) or (apps is not None and rec.name.split("-")[0] not in apps):
                    continue
                if rec.name not in made:
                    by_cli, by_hand = root / f"cli-{rec.name}.ad", root / f"hand-{rec.name}.ad"
                    verified_cli = record(cli, url, rec, by_cli)
                    how = by_steps(cli, rec) if widgets else None
                    try:
                        verified_hand = record_by_hand(cli, pw, f"{url}/{rec.url}", rec.name, by_hand, how)
                    except AssertionError as err:  # not recorded by hand: its cases fail on that side
                        print(f"  {rec.name}: by hand: {err}", file=sys.stderr, flush=True)
                        by_hand.write_text("context platform=web\nclose\n")
                        verified_hand = False
                    made[rec.name] = (by_cli, by_hand, verified_cli, verified_hand)
                    print(f"  {rec.name}: recorded both ways", file=sys.stderr, flush=True)
                by_cli, by_hand, verified_cli, verified_hand = made[rec.name]
                rows.append(
                    (case, run_case(cli, case, by_cli, root / "cli"), run_case(cli, case, by_hand, root / "hand"))
                )
    finally:
        subprocess.run([replay, "daemon", "stop"], env={**os.environ, "REPLAY_HOME": home}, capture_output=True)
        shutil.rmtree(home, ignore_errors=True)
    return rows


def print_record_corpus(rows: list[tuple[Any, Any, Any]], corpus: str = "drift") -> None:
    from fixtures.drift.widgets import HELD_BACK

    print(f"## The {corpus} corpus recorded by hand beside the same flows recorded through the CLI\n")
    print("| case | expected | CLI-recorded | recorded by hand |")
    print("|---|---|---|---|")
    for case, by_cli, by_hand in rows:
        said = [f"{'✓' if o.correct else '✗'} {o.result}" for o in (by_cli, by_hand)]
        print(f"| {case.name} | {case.expect} | {said[0]} | {said[1]} |")
    held = (lambda row: row[0].recording.name.split("-")[0] in HELD_BACK) if corpus == "widget" else (lambda row: False)
    for title, part in (("", [r for r in rows if not held(r)]), (" (held back)", [r for r in rows if held(r)])):
        if not part:
            continue
        right = [sum(1 for row in part if row[k].correct) for k in (1, 2)]
        own = [r for r in part if r[0].kind == "same version"]
        own_right = [sum(1 for row in own if row[k].correct) for k in (1, 2)]
        print(
            f"\n**{title.strip() or 'the libraries the rules were written on'}: "
            f"{right[0]}/{len(part)} correct recorded through the CLI, "
            f"{right[1]}/{len(part)} recorded by hand; on their own version {own_right[0]}/{len(own)} and "
            f"{own_right[1]}/{len(own)}.**"
        )
    print()


if __name__ == "__main__":
    if sys.argv[1:] == ["corpus"]:
        print_record_corpus(bench_record_corpus())
    elif sys.argv[1:] == ["widgets"]:
        print_record_corpus(bench_record_corpus(widgets=True), "widget")
    else:
        print_record(bench_record())
