"""Fault tests: a killed daemon, a killed browser, an abandoned client — nothing journaled is lost,
no partial file appears, and the daemon stays available (SPEC §12)."""

from __future__ import annotations

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest

from replay.client import Client

from .conftest import MCP_INITIALIZE, REPLAY, Cli, pid_alive, wait_until

pytestmark = pytest.mark.own_daemon  # these tests kill daemons, browsers and clients


def _daemon_pid(home: str) -> int:
    return int((Path(home) / "daemon.pid").read_text())


def _record_three(cli: Cli, web: str, out: Path, session: str = "rec") -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", session, f"--save-script={out}")
    cli("fill", "id=name", "Ada Lovelace", "--session", session)
    cli("fill", "id=password", "hunter2-secret", "--session", session)
    cli("check", "id=terms", "--session", session)


def _kill_daemon(home: str) -> None:
    pid = _daemon_pid(home)
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not pid_alive(pid))


def test_a_recording_outlives_a_killed_daemon_and_close_publishes_it(
    cli: Cli, home: str, web: str, tmp_path: Path
) -> None:
    out = tmp_path / "k.ad"
    _record_three(cli, web, out)
    _kill_daemon(home)
    listed = cli("session", "list").stdout
    assert "rec\torphaned recording of 4 action(s)" in listed
    closed = cli("close", "--session", "rec")
    assert f"script written to {out}" in closed.stdout
    script = out.read_text()
    assert script.count("\nfill ") == 2 and "\ncheck " in script and "hunter2-secret" in script
    assert not (Path(home) / "sessions" / "rec" / "journal.ndjson").exists()  # its typed text is gone


def test_an_orphaned_recording_is_never_silently_replaced(cli: Cli, home: str, web: str, tmp_path: Path) -> None:
    out = tmp_path / "k.ad"
    _record_three(cli, web, out)
    _kill_daemon(home)
    reopened = cli("open", f"{web}/shop/index.html", "--session", "rec", ok=None)
    assert reopened.returncode == 2 and "holds a recording of 4 action(s)" in reopened.stderr
    cli("close", "--session", "rec", "--discard")
    assert not out.exists() and not (Path(home) / "sessions" / "rec" / "recording.json").exists()
    cli("open", f"{web}/shop/index.html", "--session", "rec")  # free again


def test_daemon_stop_leaves_no_journal_after_publishing(cli: Cli, home: str, web: str, tmp_path: Path) -> None:
    _record_three(cli, web, tmp_path / "k.ad")
    cli("open", f"{web}/shop/index.html", "--session", "plain")
    cli("fill", "id=search", "secret-query", "--session", "plain", ok=None)
    cli("daemon", "stop")
    assert (tmp_path / "k.ad").exists()
    left = sorted(str(p.relative_to(home)) for p in (Path(home) / "sessions").rglob("*") if p.is_file())
    assert left == []


def test_close_after_a_killed_daemon_reports_the_recovered_repair(
    cli: Cli, home: str, web: str, tmp_path: Path
) -> None:
    from ..integration.test_heal import copy_flow  # the checkout flow, copied

    flow = copy_flow(tmp_path)
    cli("run", str(flow), "--session", "fixed", "-e", f"SHOP={web}/shop", "--save-script")  # ran through: COMPLETE
    _kill_daemon(home)
    closed = cli("close", "--session", "fixed", ok=None)
    assert closed.returncode == 0, closed.stderr
    assert f"healed script written to {tmp_path / 'checkout.healed.ad'}" in closed.stdout


def test_a_killed_browser_is_relaunched_on_the_next_request(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "a")
    browsers = _browser_pids(_daemon_pid(home))
    assert browsers
    for pid in browsers:
        os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not any(pid_alive(p) for p in browsers))
    dead = cli("snapshot", "--session", "a", ok=None)
    assert dead.returncode == 1 and "BROWSER_UNAVAILABLE" in dead.stderr and "crashed" in dead.stderr
    cli("open", f"{web}/shop/index.html", "--session", "b")
    assert "Mug" in cli("snapshot", "--session", "b").stdout
    cli("open", f"{web}/shop/index.html", "--session", "a")  # the crashed session opens afresh


def _browser_pids(daemon: int) -> list[int]:
    """The daemon's Chromium browser processes (its grandchildren, under Playwright's driver)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
            cmd = Path(f"/proc/{entry}/cmdline").read_bytes().split(b"\0")[0].decode()
        except OSError:
            continue
        parent = int(stat[stat.rindex(")") + 2 :].split()[1])
        if "chrom" in os.path.basename(cmd) and "--type=" not in Path(f"/proc/{entry}/cmdline").read_text():
            if _ancestor(parent, daemon):
                found.append(int(entry))
    return found


def _ancestor(pid: int, of: int) -> bool:
    while pid > 1:
        if pid == of:
            return True
        try:
            stat = Path(f"/proc/{pid}/stat").read_text()
        except OSError:
            return False
        pid = int(stat[stat.rindex(")") + 2 :].split()[1])
    return False


def test_an_abandoned_client_releases_its_session(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "w")
    waiting = subprocess.Popen(
        [REPLAY, "wait", "3600000", "--session", "w"], cwd=cli.cwd, env=cli.env, start_new_session=True
    )
    client = Client(home=home)
    assert wait_until(lambda: client.request({"op": "ping"}, start=False)["inFlight"] == 1)
    waiting.kill()
    waiting.wait()
    assert wait_until(lambda: client.request({"op": "ping"}, start=False)["inFlight"] == 0, timeout=10)
    assert cli("snapshot", "--session", "w", timeout=30).returncode == 0
    cli("daemon", "stop", timeout=30)


def test_daemon_stop_cancels_a_waiting_command_and_really_stops(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "w")
    pid = _daemon_pid(home)
    waiting = subprocess.Popen(
        [REPLAY, "wait", "3600000", "--session", "w"],
        cwd=cli.cwd,
        env=cli.env,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    client = Client(home=home)
    assert wait_until(lambda: client.request({"op": "ping"}, start=False)["inFlight"] == 1)
    cli("daemon", "stop", timeout=30)
    assert not pid_alive(pid)
    assert waiting.wait(timeout=30) != 0


def test_a_command_during_idle_exit_is_served_by_a_new_daemon(home: str, web: str, tmp_path: Path) -> None:
    cli = Cli(home, str(tmp_path), env={"REPLAY_DAEMON_LINGER": "0.3"})
    for _ in range(5):
        cli("open", f"{web}/shop/index.html")
        cli("close")
        log = Path(home) / "daemon.log"
        seen = log.read_text().count("exiting")
        assert wait_until(lambda s=seen: log.read_text().count("exiting") > s, timeout=20)  # noqa: B023
        proc = cli("open", f"{web}/shop/index.html", ok=None)  # right as it exits
        assert proc.returncode == 0, proc.stderr
        cli("close")


def test_the_mcp_server_answers_malformed_json_with_a_parse_error(cli: Cli) -> None:
    server = subprocess.Popen(
        [REPLAY, "mcp"],
        cwd=cli.cwd,
        env=cli.env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    assert server.stdin is not None and server.stdout is not None
    server.stdin.write(json.dumps(MCP_INITIALIZE) + "\n{not json\n")
    server.stdin.flush()
    answers = [json.loads(server.stdout.readline()) for _ in range(2)]
    server.stdin.close()
    server.wait(timeout=30)
    errors = [a for a in answers if "error" in a]
    assert errors and errors[0]["error"]["code"] == -32700 and errors[0]["id"] is None


def test_a_failed_close_changes_nothing_not_even_the_target(cli: Cli, home: str, web: str, tmp_path: Path) -> None:
    from ..integration.test_heal import copy_flow

    flow = copy_flow(tmp_path)
    cli("run", str(flow), "--session", "t", "-e", f"SHOP={web}/shop", "--save-script")  # COMPLETE
    taken = tmp_path / "taken.ad"
    taken.write_text("mine\n")
    refused = cli("close", "--session", "t", "--save-script", str(taken), ok=None)
    assert refused.returncode == 4 and taken.read_text() == "mine\n"
    assert f"healed script written to {tmp_path / 'checkout.healed.ad'}" in cli("close", "--session", "t").stdout


def test_a_browser_killed_mid_run_fails_the_run_and_the_next_run_passes(
    cli: Cli, home: str, web: str, tmp_path: Path
) -> None:
    slow = tmp_path / "slow.ad"
    slow.write_text(f"open {web}/shop/index.html\nwait 20000\n")
    ok = tmp_path / "ok.ad"
    ok.write_text(f'open {web}/shop/index.html\nis visible "Mug"\n')
    cli("open", f"{web}/shop/index.html", "--session", "warm")  # the daemon and its browser are up
    running = subprocess.Popen([REPLAY, "run", str(slow)], cwd=cli.cwd, env=cli.env, stderr=subprocess.PIPE, text=True)
    assert wait_until(lambda: _waiting_in_a_run(home))  # the `wait` is journaled before it starts
    browsers = _browser_pids(_daemon_pid(home))
    for pid in browsers:
        os.kill(pid, signal.SIGKILL)
    assert running.wait(timeout=60) == 1
    assert running.stderr is not None and "BROWSER_UNAVAILABLE" in running.stderr.read()
    assert cli("run", str(ok)).returncode == 0


def _waiting_in_a_run(home: str) -> bool:
    """Whether a `replay run` session has journaled its `wait` step (so it is waiting now)."""
    return any('"command": "wait"' in j.read_text() for j in Path(home, "sessions").glob("run-*/journal.ndjson"))


def test_a_failed_run_leaves_no_journal_behind(cli: Cli, home: str, web: str, tmp_path: Path) -> None:
    failing = tmp_path / "fails.ad"
    failing.write_text(f'open {web}/shop/checkout.html\nfill id=password "hunter2-secret"\nis checked id=terms\n')
    assert cli("run", str(failing), "--timeout", "300", ok=None).returncode == 1
    assert not any("hunter2-secret" in p.read_text() for p in Path(home).rglob("*.ndjson"))
