"""`replay test` on real Chromium: a suite with a passing, a flaky and a diverged flow."""

from __future__ import annotations

import contextlib
import json
import secrets
import shutil
from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from .conftest import ROOT, Chromium, Cli, wait_until

FLOW = ROOT / "fixtures" / "flows" / "checkout.ad"
FAST = ("--step-timeout", "1000")  # a missing element gives up after 1 s, not the default 5


def suite(web: str, root: Path) -> Path:
    """passing.ad (the checkout on v1), flaky.ad (its page fails its first load), diverged.ad (renamed)."""
    flows = root / "flows"
    flows.mkdir()
    text = FLOW.read_text()
    (flows / "passing.ad").write_text(text.replace("${SHOP}", f"{web}/shop"))
    (flows / "diverged.ad").write_text(text.replace("${SHOP}", f"{web}/drift/renamed"))
    (flows / "flaky.ad").write_text(f'open {web}/flaky/{secrets.token_hex(4)}\nis visible "Bob"\n')
    return flows


@pytest.fixture(scope="module")
def ran(shared_home: str, web: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """The suite, run once for the module: 2 workers, 1 retry, JUnit and HTML reports."""
    root = tmp_path_factory.mktemp("suite")
    flows = suite(web, root)
    args = ("test", str(flows), "--workers", "2", "--retries", "1", *FAST, "--junit", "out.xml", "--html", "report")
    return Cli(shared_home, str(root))(*args, ok=None), root


def test_a_suite_reports_each_script_live_then_a_summary_and_exits_1(ran: tuple[Any, Path]) -> None:
    proc, _ = ran
    lines = proc.stdout.splitlines()
    assert proc.returncode == 1
    assert {line.split()[0] for line in lines[:3]} == {"PASS", "FLAKY", "DIVERGED"}
    assert any(line.startswith("DIVERGED") and "selector-miss at step 6" in line for line in lines)
    assert "slowest: " in proc.stdout
    assert lines[-1].startswith("1 passed, 1 flaky, 0 regressions, 1 drifted (0 healed), 0 broken, 0 failed in ")


def test_the_night_is_written_to_results_json_drift_said_as_drift(ran: tuple[Any, Path]) -> None:
    proc, root = ran
    written = json.loads((root / "replay-results" / "results.json").read_text())
    by_name = {Path(r["path"]).name: r for r in written["results"]}
    assert by_name["diverged.ad"]["class"] == "drift" and by_name["diverged.ad"]["divergence"]["step"] == 6
    assert by_name["flaky.ad"]["class"] is None and by_name["flaky.ad"]["attempts"] == 2
    assert written["run"]["summary"] in proc.stdout and "drift: " in proc.stdout


def test_a_pass_on_a_retry_is_flaky_not_passed(ran: tuple[Any, Path]) -> None:
    proc, _ = ran
    assert any(
        line.startswith("FLAKY") and "flaky.ad" in line and "2 attempts" in line for line in proc.stdout.splitlines()
    )
    assert "flaky (passed on a retry): " in proc.stdout


def test_junit_has_one_testcase_per_script_and_the_divergence_as_failure(ran: tuple[Any, Path]) -> None:
    tmp_path = ran[1]
    tree = etree.parse(str(tmp_path / "out.xml"))
    suite_el = tree.find("testsuite")
    assert suite_el is not None and (suite_el.get("tests"), suite_el.get("failures")) == ("3", "1")
    failure = tree.find(".//testcase[@name='" + str(tmp_path / "flows" / "diverged.ad") + "']/failure")
    assert failure is not None and failure.get("type") == "drift" and "selector-miss" in failure.get("message")
    assert "DIVERGENCE selector-miss at step 6" in (failure.text or "")
    assert tree.find(".//property[@name='flaky']") is not None


def test_every_attempt_leaves_its_artifacts_and_a_failure_its_screenshot(ran: tuple[Any, Path]) -> None:
    results = ran[1] / "replay-results"
    diverged = next(results.glob("*diverged/attempt-2"))
    assert {p.name for p in diverged.iterdir()} >= {
        "diverged.ad",
        "result.json",
        "timing.ndjson",
        "divergence.json",
        "screenshot.png",
    }
    flaky = sorted(results.glob("*flaky/attempt-*"))
    assert [json.loads((a / "result.json").read_text())["status"] for a in flaky] == ["failed", "passed"]
    assert (flaky[0] / "screenshot.png").stat().st_size > 0  # a failure without a divergence too


def test_a_stopped_attempt_keeps_the_timings_of_the_steps_before_it(ran: tuple[Any, Path]) -> None:
    result = json.loads((next((ran[1] / "replay-results").glob("*diverged/attempt-1")) / "result.json").read_text())
    assert [t["command"] for t in result["timings"]] == ["open", "fill", "fill", "fill", "check"]


def test_a_suite_report_names_no_session_that_is_gone(ran: tuple[Any, Path]) -> None:
    report = (ran[1] / "out.xml").read_text()
    assert "DIVERGENCE selector-miss" in report and "resume:" not in report and "--session run-" not in report


def test_a_trace_is_kept_for_failed_attempts_only(ran: tuple[Any, Path]) -> None:
    results = ran[1] / "replay-results"
    assert (next(results.glob("*diverged/attempt-1")) / "trace.zip").stat().st_size > 0
    assert [(a.name, (a / "trace.zip").exists()) for a in sorted(results.glob("*flaky/attempt-*"))] == [
        ("attempt-1", True),
        ("attempt-2", False),
    ]
    assert not (next(results.glob("*passing/attempt-1")) / "trace.zip").exists()


def test_the_html_report_opens_without_errors_and_shows_all_three(ran: tuple[Any, Path], chromium: Chromium) -> None:
    async def go() -> tuple[str, list[str]]:
        async with chromium.page((ran[1] / "report" / "index.html").as_uri()) as d:
            errors: list[str] = []
            d.page.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
            d.page.on("pageerror", lambda e: errors.append(str(e)))
            await d.page.reload()
            return str(await d.page.inner_text("body")), errors

    text, errors = chromium.run(go)
    assert errors == []
    assert all(s in text for s in ("passing.ad", "flaky.ad", "diverged.ad", "DIVERGENCE selector-miss"))
    assert "trace.zip" in text  # the trace of the failure is one click away


def test_the_html_report_filters_scripts_by_status(ran: tuple[Any, Path], chromium: Chromium) -> None:
    async def go() -> dict[str, list[str]]:
        shown: dict[str, list[str]] = {}
        async with chromium.page((ran[1] / "report" / "index.html").as_uri()) as d:
            for status in ("flaky", "diverged", "failed", "all"):
                await d.page.click(f"button[data-filter={status}]")
                shown[status] = await d.page.eval_on_selector_all(
                    "section.script:not([hidden])", "els => els.map(e => e.dataset.status)"
                )
        return shown

    shown = chromium.run(go)
    assert (shown["flaky"], shown["diverged"], shown["failed"]) == (["flaky"], ["diverged"], [])
    assert sorted(shown["all"]) == ["diverged", "flaky", "passed"]


def test_fail_fast_starts_no_script_after_the_first_failure(cli: Cli, web: str, tmp_path: Path) -> None:
    flows = suite(web, tmp_path)
    shutil.move(flows / "diverged.ad", flows / "a-diverged.ad")  # first in order
    proc = cli("test", str(flows), "--fail-fast", *FAST, "--json", ok=None)
    results = json.loads(proc.stdout.strip().splitlines()[-1])["result"]["results"]
    assert proc.returncode == 1 and [Path(r["path"]).name for r in results] == ["a-diverged.ad"]


def test_from_is_refused_by_replay_test(cli: Cli, tmp_path: Path) -> None:
    proc = cli("test", str(tmp_path), "--from", "2", ok=None)
    assert proc.returncode == 2 and "--from" in proc.stderr


def test_heal_runs_replay_heal_on_a_divergence_and_lists_the_healed_script(cli: Cli, web: str, tmp_path: Path) -> None:
    flows = tmp_path / "flows"
    flows.mkdir()
    flow = flows / "renamed.ad"
    flow.write_text(FLOW.read_text().replace("${SHOP}", f"{web}/drift/renamed"))
    original = flow.read_bytes()
    proc = cli("test", str(flows), "--heal", "builtin", *FAST, "--junit", "out.xml", ok=None)
    healed = flows / "renamed.healed.ad"
    assert proc.returncode == 1 and f"healed scripts pending review: {healed} (healed)" in proc.stdout
    assert healed.exists() and flow.read_bytes() == original  # never over the original
    assert etree.parse(str(tmp_path / "out.xml")).find(".//property[@name='heal']") is not None
    assert proc.stdout.splitlines()[-1].startswith("0 passed, 0 flaky, 0 regressions, 1 drifted (1 healed), ")
    patch = (tmp_path / "replay-results" / "heals.diff").read_text()  # the heal PR's patch, from where it ran
    assert f"--- a/{flow.relative_to(tmp_path)}" in patch and '+click id="submit-order"' in patch


def test_the_html_report_shows_the_healed_scripts_diff(cli: Cli, web: str, tmp_path: Path) -> None:
    flows = tmp_path / "flows"
    flows.mkdir()
    (flows / "renamed.ad").write_text(FLOW.read_text().replace("${SHOP}", f"{web}/drift/renamed"))
    cli("test", str(flows), "--heal", "builtin", *FAST, "--html", "report", ok=None)
    page = (tmp_path / "report" / "index.html").read_text()
    assert '<span class="del">-click id=&quot;place-order&quot;' in page
    assert '<span class="add">+click id=&quot;submit-order&quot;' in page


def test_timeout_is_each_scripts_deadline(cli: Cli, web: str, tmp_path: Path) -> None:
    flows = tmp_path / "flows"
    flows.mkdir()
    (flows / "slow.ad").write_text(f"open {web}/shop/checkout.html\nwait 60000\n")
    proc = cli("test", str(flows), "--timeout", "1500", "--json", ok=None)
    result = json.loads(proc.stdout.strip().splitlines()[-1])["result"]["results"][0]
    assert proc.returncode == 1 and result["status"] == "failed" and result["why"].startswith("TIMEOUT: ")


@pytest.mark.parametrize(("mode", "kept"), [("on", True), ("off", False), ("on-first-retry", False)])
def test_trace_modes_decide_which_passing_attempts_keep_a_trace(
    cli: Cli, web: str, tmp_path: Path, mode: str, kept: bool
) -> None:
    flows = tmp_path / "flows"
    flows.mkdir()
    (flows / "passing.ad").write_text(FLOW.read_text().replace("${SHOP}", f"{web}/shop"))
    cli("test", str(flows), "--trace", mode)
    assert (next((tmp_path / "replay-results").glob("*passing/attempt-1")) / "trace.zip").exists() is kept


def _browser_layout(root: Path) -> Path:
    """A PLAYWRIGHT_BROWSERS_PATH whose Chromium builds are this machine's system Chromium."""
    import os

    import playwright

    from replay.drivers.web.browser import find_chromium

    chromium = find_chromium()
    assert chromium is not None
    manifest = Path(playwright.__file__).parent / "driver" / "package" / "browsers.json"
    dirs = {
        "chromium": "chrome-linux64/chrome",
        "chromium-headless-shell": "chrome-headless-shell-linux64/chrome-headless-shell",
    }
    for b in json.loads(manifest.read_text())["browsers"]:
        if b["name"] in dirs:
            folder = root / f"{b['name'].replace('-', '_')}-{b['revision']}"
            exe = folder / dirs[b["name"]]
            exe.parent.mkdir(parents=True, exist_ok=True)
            os.symlink(chromium, exe)
            (folder / "INSTALLATION_COMPLETE").touch()
    return root


def test_connect_attaches_every_session_to_a_remote_playwright_server(cli: Cli, web: str, tmp_path: Path) -> None:
    import os
    import signal
    import socket
    import subprocess
    import sys

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PLAYWRIGHT_BROWSERS_PATH": str(_browser_layout(tmp_path / "browsers"))}
    server = subprocess.Popen(
        [sys.executable, "-m", "playwright", "run-server", "--port", str(port), "--host", "127.0.0.1"],
        stdout=subprocess.PIPE,
        text=True,
        env=env,
        start_new_session=True,  # its node driver is a child: stop the whole group
    )
    try:
        assert server.stdout is not None and "Listening on" in server.stdout.readline()
        flows = tmp_path / "flows"
        flows.mkdir()
        (flows / "passing.ad").write_text(FLOW.read_text().replace("${SHOP}", f"{web}/shop"))
        proc = cli("test", str(flows), "--connect", f"ws://127.0.0.1:{port}/", ok=None)
        assert proc.returncode == 0 and "1 passed" in proc.stdout, proc.stdout + proc.stderr
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
    # the Python wrapper exits before its node server has let go of the port: wait until nothing
    # listens there, else the next run may still reach the dying server (and pass)
    if not wait_until(lambda: not _listening(port), timeout=10):
        with contextlib.suppress(ProcessLookupError):
            os.killpg(server.pid, signal.SIGKILL)
        assert wait_until(lambda: not _listening(port), timeout=10)
    # the browser really was the server's: with the server gone, the same suite cannot run
    gone = cli("test", str(flows), "--connect", f"ws://127.0.0.1:{port}/", "--json", ok=None)
    result = json.loads(gone.stdout.strip().splitlines()[-1])["result"]["results"][0]
    assert gone.returncode == 1 and "BROWSER_UNAVAILABLE" in result["why"]


def test_each_worker_has_a_daemon_and_a_browser_of_its_own(cli: Cli, web: str, tmp_path: Path) -> None:
    flows = tmp_path / "flows"
    flows.mkdir()
    for k in range(4):
        (flows / f"f{k}.ad").write_text(FLOW.read_text().replace("${SHOP}", f"{web}/shop"))
    proc = cli("test", str(flows), "--workers", "2", ok=None)
    assert proc.returncode == 0 and "4 passed" in proc.stdout
    logs = [Path(cli.home) / "workers" / w / "daemon.log" for w in ("w1", "w2")]
    pids = {line.split()[4] for log in logs for line in log.read_text().splitlines() if " serving " in line}
    assert len(pids) >= 2  # two daemon processes, so two browsers: the workers share nothing


def test_a_trace_shows_the_scripts_actions_not_replays_captures(cli: Cli, web: str, tmp_path: Path) -> None:
    import zipfile

    flows = tmp_path / "flows"
    flows.mkdir()
    (flows / "passing.ad").write_text(FLOW.read_text().replace("${SHOP}", f"{web}/shop"))
    cli("test", str(flows), "--trace", "on")
    trace = next((tmp_path / "replay-results").glob("*passing/attempt-1")) / "trace.zip"
    with zipfile.ZipFile(trace) as z:
        events = [json.loads(line) for line in z.read("trace.trace").decode("utf-8").splitlines() if line.strip()]
    methods = [e.get("method") for e in events if e.get("type") == "before"]
    assert {"click", "fill"} <= set(methods), methods
    assert not [m for m in methods if m and m.startswith("evaluate")], methods


def _listening(port: int) -> bool:
    """Whether something accepts connections on 127.0.0.1:``port``."""
    import socket

    with socket.socket() as s:
        return s.connect_ex(("127.0.0.1", port)) == 0


def test_report_merge_joins_shards_into_the_unsharded_runs_report(cli: Cli, web: str, tmp_path: Path) -> None:
    flows = tmp_path / "flows"
    flows.mkdir()
    text = FLOW.read_text()
    for name, page in (("a.ad", "shop"), ("b.ad", "drift/renamed"), ("c.ad", "shop")):
        (flows / name).write_text(text.replace("${SHOP}", f"{web}/{page}"))
    for i in (1, 2):
        cli("test", str(flows), "--shard", f"{i}/2", *FAST, "--artifacts-dir", f"shard-{i}", ok=None)
    whole = cli("test", str(flows), *FAST, "--artifacts-dir", "whole", ok=None)
    outputs = ("--json", "merged.json", "--html", "report", "--baseline", "whole")
    merged = cli("report", "merge", "shard-1", "shard-2", *outputs, ok=None)
    assert merged.returncode == 1  # one script drifted, as unsharded
    want, got = (json.loads((tmp_path / p).read_text()) for p in ("whole/results.json", "merged.json"))
    assert [(Path(r["path"]).name, r["class"]) for r in got["results"]] == [
        ("a.ad", None),
        ("b.ad", "drift"),
        ("c.ad", None),
    ]
    assert [(r["path"], r["class"], r["order"]) for r in got["results"]] == [
        (r["path"], r["class"], r["order"]) for r in want["results"]
    ]
    counts = lambda out: out.splitlines()[-1].rsplit(" in ", 1)[0]  # noqa: E731 - the counts, not the time
    assert (
        counts(merged.stdout)
        == counts(whole.stdout)
        == "2 passed, 0 flaky, 0 regressions, 1 drifted (0 healed), 0 broken, 0 failed"
    )
    assert merged.stdout.splitlines()[-1].endswith("; since the baseline: 0 new, 0 fixed, 1 still failing")
    page = (tmp_path / "report" / "index.html").read_text()
    assert 'src="../shard-' in page  # the drifted script's screenshot, linked from its shard's folder


def test_baseline_says_still_failing_and_for_how_many_runs(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "b.ad"
    flow.write_text(FLOW.read_text().replace("${SHOP}", f"{web}/drift/renamed"))
    cli("test", str(flow), *FAST, "--artifacts-dir", "night-1", ok=None)
    tonight = cli("test", str(flow), *FAST, "--artifacts-dir", "night-2", "--baseline", "night-1", ok=None)
    assert (
        f"drift: {flow}: selector-miss at step 6" in tonight.stdout and "(still failing for 2 runs)" in tonight.stdout
    )
    assert tonight.stdout.splitlines()[-1].endswith("; since the baseline: 0 new, 0 fixed, 1 still failing")
    record = json.loads((tmp_path / "night-2" / "results.json").read_text())["results"][0]
    assert (record["since"], record["failingRuns"]) == ("still failing", 2)


def test_a_baseline_that_is_not_a_results_folder_is_refused_before_anything_runs(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "a.ad").write_text("open http://127.0.0.1:9/\n")
    refused = cli("test", str(tmp_path / "a.ad"), "--baseline", str(tmp_path), ok=None)
    assert refused.returncode == 2 and "FILE_NOT_FOUND" in refused.stderr and not (tmp_path / "replay-results").exists()


def test_a_passed_scripts_details_are_put_in_when_it_is_opened(ran: tuple[Any, Path], chromium: Chromium) -> None:
    async def go() -> tuple[int, int]:
        async with chromium.page((ran[1] / "report" / "index.html").as_uri()) as d:
            steps = "section.passed table.timeline tr"
            before = await d.page.eval_on_selector_all(steps, "rows => rows.length")
            await d.page.click("section.passed summary")
            await d.page.wait_for_selector(steps)  # the toggle event comes a task after the click
            return before, await d.page.eval_on_selector_all(steps, "rows => rows.length")

    before, after = chromium.run(go)
    assert before == 0 and after > 5  # the checkout's steps, each a row


def test_a_failures_steps_are_put_in_when_they_are_opened_and_why_it_stopped_shows_at_once(
    ran: tuple[Any, Path], chromium: Chromium
) -> None:
    async def go() -> tuple[int, str, int]:
        async with chromium.page((ran[1] / "report" / "index.html").as_uri()) as d:
            steps = "section.diverged table.timeline tr"
            before = await d.page.eval_on_selector_all(steps, "rows => rows.length")
            why = await d.page.inner_text("section.diverged pre")
            await d.page.click("section.diverged details details summary")
            await d.page.wait_for_selector(steps)
            return before, why, await d.page.eval_on_selector_all(steps, "rows => rows.length")

    before, why, after = chromium.run(go)
    assert before == 0 and "DIVERGENCE selector-miss" in why and after == 5  # open, fill, fill, fill, check
