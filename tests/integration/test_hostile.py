"""The audit's hostile probes, each a rule (SPEC §6, §12), on a real daemon and real Chromium."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import zipfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from .conftest import MCP_INITIALIZE, REPLAY, Cli, private_home, stop_daemon, wait_until

SECRET = "PwSecret-7731"
URL_KEY = "UrlKey-5521"
TYPED = "Typed-Literal-991"


def test_a_trace_holds_no_typed_text_and_no_variable_value(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "login.ad"
    flow.write_text(
        f"open {web}/shop/checkout.html?k=${{URLKEY}}\n"
        f'fill id="password" "${{PASSWORD}}"\n'
        f'fill id="name" "{TYPED}"\n'
        'is visible role=heading label="Checkout"\n'
    )
    cli("test", str(flow), "-e", f"PASSWORD={SECRET}", "-e", f"URLKEY={URL_KEY}", "--trace", "on")
    trace = next((tmp_path / "replay-results").glob("*login/attempt-1/trace.zip"))
    with zipfile.ZipFile(trace) as z:
        names = z.namelist()
        text = b"".join(z.read(n) for n in names if not n.endswith((".jpeg", ".png")))
    assert "trace.trace" in names and b"__playwright_value_" in text  # a real trace, with its snapshots
    for value in (SECRET, URL_KEY, TYPED):
        assert value.encode() not in text, value
    assert b"<var:URLKEY>" in text and b"<redacted>" in text
    assert os.stat(trace).st_mode & 0o777 == 0o600


def test_replay_test_never_deletes_a_folder_it_did_not_make(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "keep.txt").write_text("mine")
    (tmp_path / "src.ad").write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    proc = cli("test", "src.ad", "--artifacts-dir", ".", ok=None)
    assert proc.returncode == 4 and "TARGET_EXISTS" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "src" / "keep.txt").read_text() == "mine"


def test_a_folder_replay_test_made_is_replaced_by_its_next_run(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "ok.ad").write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    cli("test", "ok.ad", "--trace", "on")
    stale = tmp_path / "replay-results" / "ok" / "attempt-9"
    stale.mkdir()
    cli("test", "ok.ad", "--trace", "on")
    assert not stale.exists() and (tmp_path / "replay-results" / "ok" / "attempt-1" / "trace.zip").exists()


def test_two_scripts_never_share_an_artifacts_folder(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    for path in ("a/b.ad", "a_b.ad"):
        (tmp_path / path).write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    cli("test", "a/b.ad", "a_b.ad", "--trace", "on")
    folders = sorted(p.name for p in (tmp_path / "replay-results").iterdir() if p.is_dir())
    assert folders == ["a_b", "a_b-2"]
    assert all((tmp_path / "replay-results" / f / "attempt-1" / "trace.zip").exists() for f in folders)


def test_a_second_recording_on_a_recording_session_is_refused(cli: Cli, web: str, tmp_path: Path) -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", "rec2", "--save-script", "r1.ad")
    cli("fill", "id=name", "Ada", "--session", "rec2")
    again = cli("open", f"{web}/shop/index.html", "--session", "rec2", "--save-script", "r2.ad", ok=None)
    assert again.returncode == 2 and "INVALID_ARGS" in again.stderr and "already recording" in again.stderr
    cli("close", "--session", "rec2")
    recorded = [line for line in (tmp_path / "r1.ad").read_text().splitlines() if not line.startswith("#")]
    assert [line.split()[0] for line in recorded if line.strip()][-3:] == ["open", "fill", "close"]
    assert not (tmp_path / "r2.ad").exists()


def test_a_fifo_is_refused_as_a_script_by_every_command(cli: Cli, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "flow.ad")
    for command in (["run"], ["lint"], ["verify"], ["heal", "--agent", "builtin"], ["test"], ["digest"], ["fmt"]):
        proc = cli(*command, "flow.ad", ok=None, timeout=30)
        assert proc.returncode == 2 and "INVALID_ARGS" in proc.stderr and "regular file" in proc.stderr, (command, proc)


def test_a_step_on_a_page_whose_script_never_yields_ends_by_its_deadline(cli: Cli, web: str) -> None:
    cli("open", f"{web}/hostile/busy.html", "--session", "busy")
    clicked = cli("click", "id=freeze", "--session", "busy", "--timeout", "1000", ok=None, timeout=60)
    # which step meets the frozen page is a race of the page's own timer (a busy machine loses it sooner):
    # the click itself, ended by its deadline with the page's script stopped — or the snapshot after it
    if "the page's running script was stopped" in clicked.stderr:
        assert clicked.returncode == 1 and "TIMEOUT" in clicked.stderr and "did not finish within" in clicked.stderr
    else:  # the click returned, or the page froze before Playwright saw it land
        assert clicked.returncode == 0 or "the page did not answer the click" in clicked.stderr, clicked.stderr
        stuck = cli("snapshot", "--session", "busy", "--timeout", "1000", ok=None, timeout=60)
        assert stuck.returncode == 1 and "TIMEOUT" in stuck.stderr and "did not finish within 7000 ms" in stuck.stderr
    # the page's script was stopped: the session answers again
    assert "Busy page" in cli("snapshot", "--session", "busy").stdout
    cli("close", "--session", "busy")


def test_a_client_gives_up_on_a_daemon_that_says_nothing(cli: Cli, web: str, monkeypatch: pytest.MonkeyPatch) -> None:
    import replay.client
    from replay.client import Client
    from replay.errors import DaemonUnavailable

    cli("open", f"{web}/shop/index.html", "--session", "mute")
    pid = int((Path(cli.home) / "daemon.pid").read_text())
    monkeypatch.setattr(replay.client, "SILENCE_S", 1.0)
    os.kill(pid, signal.SIGSTOP)
    try:
        with pytest.raises(DaemonUnavailable, match="no answer"):
            Client("mute", home=cli.home, cwd=cli.cwd).snapshot()
    finally:
        os.kill(pid, signal.SIGCONT)
    cli("close", "--session", "mute")


def test_a_daemon_at_work_keeps_its_client_waiting_past_the_silence(
    cli: Cli, web: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    import replay.client
    from replay.client import Client

    cli("open", f"{web}/shop/index.html", "--session", "slow")
    monkeypatch.setattr(replay.client, "SILENCE_S", 3.0)  # > the daemon's heartbeat, < the wait
    assert Client("slow", home=cli.home, cwd=cli.cwd).command("wait", "4500")["command"] == "wait"
    cli("close", "--session", "slow")


NOBODY = 65534
needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="giving a folder to another user needs root")


@needs_root
def test_the_client_refuses_a_home_another_user_owns(tmp_path: Path) -> None:
    home = tmp_path / "theirs"
    home.mkdir()
    os.chown(home, NOBODY, NOBODY)
    proc = Cli(str(home), str(tmp_path))("fill", "id=password", "TopSecret", ok=None, timeout=30)
    assert proc.returncode == 1 and "PERMISSION_DENIED" in proc.stderr and "owned by uid 65534" in proc.stderr
    assert not (home / "daemon.sock").exists() and not (home / "daemon.log").exists()


@needs_root
def test_the_client_refuses_a_socket_another_user_serves(tmp_path: Path) -> None:
    home = Path(tempfile.mkdtemp(prefix="rh-", dir="/tmp"))  # short: a socket path is limited
    home.chmod(0o777)  # so that the other user can listen in it
    listener = (
        "import socket, sys\n"
        f"s = socket.socket(socket.AF_UNIX); s.bind({str(home / 'daemon.sock')!r}); s.listen(1)\n"
        "print('ready', flush=True)\n"
        "c, _ = s.accept(); c.settimeout(5)\n"
        "sys.stdout.write('GOT ' + c.recv(65536).decode()); sys.stdout.flush()\n"
    )
    python = shutil.which("python3", path="/usr/bin:/bin") or sys.executable  # one the other user may run
    spy = subprocess.Popen([python, "-c", listener], stdout=subprocess.PIPE, text=True, user=NOBODY, group=NOBODY)
    try:
        assert spy.stdout is not None and spy.stdout.readline().strip() == "ready"
        home.chmod(0o700)  # private again (a shared home is refused before its socket is looked at)
        proc = Cli(str(home), str(tmp_path))("fill", "id=password", "TopSecret", ok=None, timeout=30)
        assert proc.returncode == 1 and "PERMISSION_DENIED" in proc.stderr and "served by uid 65534" in proc.stderr
        spy.kill()
        assert "TopSecret" not in spy.communicate(timeout=10)[0]
    finally:
        spy.kill()
        spy.wait()
        shutil.rmtree(home, ignore_errors=True)


@needs_root
def test_a_daemon_refuses_a_home_it_does_not_own(tmp_path: Path) -> None:
    home = tmp_path / "theirs"
    home.mkdir()
    os.chown(home, NOBODY, NOBODY)
    proc = subprocess.run(
        [sys.executable, "-m", "replay.session.daemon", "--home", str(home)], capture_output=True, text=True, timeout=30
    )
    assert proc.returncode == 1 and "PERMISSION_DENIED" in proc.stderr and "Traceback" not in proc.stderr
    assert list(home.iterdir()) == []


@contextlib.contextmanager
def small_disk(size: str) -> Iterator[Path]:
    """A tmpfs of ``size`` mounted for the test, unmounted and removed whatever happens."""
    where = Path(tempfile.mkdtemp(prefix="rd-", dir="/tmp"))
    mounted = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs", str(where)], check=False)
    if mounted.returncode != 0:
        where.rmdir()
        pytest.skip("cannot mount a tmpfs here")
    try:
        yield where
    finally:
        subprocess.run(["umount", "-l", str(where)], check=False)
        where.rmdir()


@needs_root
def test_a_full_disk_never_loses_a_recorded_step(web: str, tmp_path: Path) -> None:
    with small_disk("1m") as disk:
        home = disk / "h"
        cli = Cli(str(home), str(tmp_path))
        try:
            cli("open", f"{web}/shop/checkout.html", "--session", "full", "--save-script", "flow.ad")
            filler = disk / "filler"
            free = os.statvfs(disk).f_bavail * os.statvfs(disk).f_frsize
            filler.write_bytes(b"\0" * (free - 30_000))  # room for a line of 30 KB, not of 60 KB
            big = cli("fill", "id=name", "x" * 60_000, "--session", "full", ok=None)
            assert big.returncode == 1 and "IO_ERROR" in big.stderr and "nothing was sent" in big.stderr
            assert cli.json("get", "value", "id=name", "--session", "full")["result"]["value"] == ""  # not typed
            filler.unlink()
            cli("check", "id=terms", "--session", "full")
            pid = int((home / "daemon.pid").read_text())
            os.kill(pid, signal.SIGKILL)
            closed = cli("close", "--session", "full")
            assert "Traceback" not in closed.stderr and "torn" not in closed.stdout
            lines = [line for line in (tmp_path / "flow.ad").read_text().splitlines() if not line.startswith("#")]
            assert [line.split()[0] for line in lines if line.strip()][-3:] == ["open", "check", "close"]
        finally:
            stop_daemon(str(home))


@pytest.mark.own_daemon
def test_a_killed_playwright_driver_is_started_again_like_a_dead_browser(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "nd")
    daemon = (Path(cli.home) / "daemon.pid").read_text().strip()
    children = subprocess.run(["pgrep", "-P", daemon], capture_output=True, text=True).stdout.split()
    drivers = [pid for pid in children if b"node" in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert drivers, children
    for pid in drivers:
        os.kill(int(pid), signal.SIGKILL)
    gone = cli("snapshot", "--session", "nd", ok=None)
    assert gone.returncode == 1 and "BROWSER_UNAVAILABLE" in gone.stderr and "INTERNAL" not in gone.stderr
    cli("open", f"{web}/shop/index.html", "--session", "nd2")
    assert "Products" in cli("snapshot", "--session", "nd2").stdout
    cli("close", "--session", "nd2")


@pytest.mark.own_daemon
def test_daemon_stop_during_a_wait_says_the_request_was_cancelled_and_logs_no_traceback(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "stopped")
    waiting = subprocess.Popen(
        [REPLAY, "wait", "20000", "--session", "stopped"], cwd=cli.cwd, env=cli.env, stderr=subprocess.PIPE, text=True
    )
    try:
        assert wait_until(lambda: _in_flight(cli) > 0, timeout=10)
        cli("daemon", "stop")
        _, err = waiting.communicate(timeout=30)
    finally:
        waiting.kill()
    assert waiting.returncode == 1 and "stopped while serving this request" in err and "SESSION_NOT_FOUND" not in err
    assert "Traceback" not in (Path(cli.home) / "daemon.log").read_text()


def _in_flight(cli: Cli) -> int:
    from replay.client import Client

    return int(Client(home=cli.home).request({"op": "ping"}, start=False)["inFlight"])


def test_report_places_that_cannot_be_written_are_clear_errors(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "f.ad").write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    (tmp_path / "afile").write_text("mine")
    html = cli("test", "f.ad", "--html", "afile", ok=None)
    junit = cli("test", "f.ad", "--junit", "/dev/full", ok=None)
    heal = cli("heal", "f.ad", "--agent", "builtin", "--artifacts-dir", "afile", ok=None)
    assert (html.returncode, junit.returncode, heal.returncode) == (2, 1, 1)
    assert "INVALID_ARGS: --html afile is a file" in html.stderr
    assert "IO_ERROR: cannot write /dev/full" in junit.stderr and "IO_ERROR" in heal.stderr
    assert "Traceback" not in html.stderr + junit.stderr + heal.stderr
    assert (tmp_path / "afile").read_text() == "mine"


def test_a_replay_home_that_cannot_hold_the_socket_is_a_clear_error(tmp_path: Path) -> None:
    (tmp_path / "file").write_text("")
    as_file = Cli(str(tmp_path / "file"), str(tmp_path))("open", "http://127.0.0.1:9/", ok=None)
    too_long = Cli(str(tmp_path / ("h" * 120)), str(tmp_path))("open", "http://127.0.0.1:9/", ok=None)
    assert as_file.returncode == 2 and "is not a directory" in as_file.stderr
    assert too_long.returncode == 2 and "too long for a Unix socket" in too_long.stderr
    assert "Traceback" not in as_file.stderr + too_long.stderr


def test_mcp_refuses_what_the_cli_refuses_with_invalid_args(cli: Cli, web: str, tmp_path: Path) -> None:
    from mcp.client.session import ClientSession

    from .test_mcp import mcp_session

    flow = tmp_path / "f.ad"
    flow.write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    calls = [
        ("replay_run", {"path": str(flow), "level": "bogus"}),
        ("replay_run", {"path": str(flow), "timeout": -1}),
        ("replay_run", {"path": str(flow), "values": {"1BAD": "x"}}),
        ("replay_run", {"path": "a\0b"}),
        ("replay_run", {"path": "/dev/zero"}),
        ("heal", {"path": str(flow), "deadline_s": -1}),
        ("heal", {"path": str(flow), "repair": 7}),
        ("wait", {"ms": -5, "session": "nobody"}),
    ]

    async def go() -> list[Any]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return [await s.call_tool(tool, args) for tool, args in calls]

    for (tool, args), result in zip(calls, asyncio.run(go()), strict=True):
        assert result.is_error is True, (tool, args)
        assert result.structured_content["error"]["code"] == "INVALID_ARGS", (tool, args, result.structured_content)


def test_an_mcp_request_whose_id_is_an_object_is_answered_invalid_request(cli: Cli) -> None:
    lines = [MCP_INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"}]
    lines += [{"jsonrpc": "2.0", "id": {"a": 1}, "method": "tools/list"}, {"jsonrpc": "2.0", "id": 2, "method": "ping"}]
    server = subprocess.Popen(
        [REPLAY, "mcp"], cwd=cli.cwd, env=cli.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    assert server.stdin is not None and server.stdout is not None
    try:
        server.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        server.stdin.flush()
        answers = [json.loads(server.stdout.readline()) for _ in range(3)]
    finally:
        server.kill()
        server.wait()
    assert answers[1] == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32600, "message": "Invalid Request: tools/list needs a string or integer id"},
    }
    assert answers[2]["id"] == 2 and "result" in answers[2]


def test_raw_daemon_requests_of_the_wrong_shape_are_invalid_args(cli: Cli, web: str) -> None:
    from replay.client import Client
    from replay.errors import ReplayError

    cli("open", f"{web}/shop/index.html", "--session", "raw")
    client = Client(home=cli.home)
    bad = [
        (
            {"op": "command", "session": "raw", "argv": ["snapshot"], "options": ["x"]},
            "'options' must be a JSON object",
        ),
        ({"op": "command", "session": "raw", "argv": ["snapshot"], "options": {"timeout": -1}}, "timeout must be"),
        ({"op": "divergence", "session": "raw", "level": "bogus"}, "level must be one of"),
        ({"op": "nope"}, "unknown request 'nope'"),
    ]
    for request, why in bad:
        with pytest.raises(ReplayError) as err:
            client.request(request, start=False)
        assert err.value.code == "INVALID_ARGS" and why in err.value.message, (request, err.value)
    cli("close", "--session", "raw")


def test_a_failed_step_shows_a_variables_value_as_its_name(cli: Cli, tmp_path: Path) -> None:
    (tmp_path / "f.ad").write_text("open http://127.0.0.1:9/login?k=${URLKEY}\n")  # port 9: refused at once
    run = cli("run", "f.ad", "-e", "URLKEY=SecretKey-88", "--json", ok=None)
    test = cli("test", "f.ad", "-e", "URLKEY=SecretKey-88", "--trace", "off", ok=None)
    assert run.returncode == 3 and "<var:URLKEY>" in json.loads(run.stdout.splitlines()[-1])["error"]["message"]
    results = (tmp_path / "replay-results" / "f" / "attempt-1" / "result.json").read_text()
    assert test.returncode == 1 and "<var:URLKEY>" in results
    for text in (run.stdout, run.stderr, test.stdout, test.stderr, results):
        assert "SecretKey-88" not in text


def test_close_save_script_on_a_session_that_does_not_record_is_refused_and_keeps_it(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "plain")
    refused = cli("close", "--session", "plain", "--save-script", "x.ad", ok=None)
    assert refused.returncode == 2 and "is not recording" in refused.stderr
    assert "Products" in cli("snapshot", "--session", "plain").stdout  # still open
    cli("close", "--session", "plain")


def test_the_second_of_two_concurrent_closes_says_the_session_is_gone(cli: Cli, web: str, tmp_path: Path) -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", "twice", "--save-script", "t.ad")
    cli("fill", "id=name", "Ada", "--session", "twice")
    both = [
        subprocess.Popen(
            [REPLAY, "close", "--session", "twice"], cwd=cli.cwd, env=cli.env, stderr=subprocess.PIPE, text=True
        )
        for _ in range(2)
    ]
    outcomes = sorted((p.wait(timeout=60), p.stderr.read() if p.stderr else "") for p in both)
    assert outcomes[0][0] == 0 and outcomes[1][0] == 2 and "SESSION_NOT_FOUND" in outcomes[1][1]
    assert "TARGET_EXISTS" not in outcomes[1][1] and (tmp_path / "t.ad").exists()


def test_small_misleading_refusals_say_what_is_wrong(cli: Cli, web: str, tmp_path: Path) -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", "small")
    option = cli("select", "id=country", "Atlantis", "--session", "small", "--timeout", "1000", ok=None)
    assert option.returncode == 1 and "no option has that value or label" in option.stderr
    assert cli("snapshot", "--session", "small").stdout.startswith("@e0 document")
    assert "Checkout" in cli("get", "text", "@e0", "--session", "small").stdout  # @e0, the document, is a ref
    empty = cli("snapshot", "-s", "", "--session", "small", ok=None)
    assert empty.returncode == 2 and "needs a value, got an empty one" in empty.stderr
    (tmp_path / "f.ad").write_text(f"open {web}/shop/index.html\n")
    digest_alone = cli("run", "f.ad", "--plan-digest", "abc", ok=None)
    assert digest_alone.returncode == 2 and "needs --from" in digest_alone.stderr
    device = cli("record", "/dev/zero", "--from", "1", "--headless", ok=None)  # a flow that is no file, not a URL
    assert device.returncode == 2 and "not a regular file" in device.stderr and "URL" not in device.stderr
    cli("close", "--session", "small")


def test_a_tab_that_cannot_open_its_url_is_not_left_behind(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", "tabs")
    refused = cli("tab", "new", "javascript:alert(1)", "--session", "tabs", "--json", ok=None)
    assert refused.returncode != 0
    tabs = cli.json("tab", "--session", "tabs")["result"]["value"]
    assert [(t["url"].endswith("checkout.html"), t["current"]) for t in tabs] == [(True, True)]
    cli("close", "--session", "tabs")


def test_a_browser_that_cannot_launch_says_why(tmp_path: Path) -> None:
    with private_home() as home:  # each its own daemon: the daemon reads these as it starts
        headed = Cli(home, str(tmp_path))
        headed.env.pop("DISPLAY", None)
        headed.env.pop("WAYLAND_DISPLAY", None)
        no_display = headed("open", "http://127.0.0.1:9/", "--headed", ok=None)
    with private_home() as home:
        missing = Cli(home, str(tmp_path), env={"REPLAY_CHROMIUM": str(tmp_path / "nope")})
        not_there = missing("open", "http://127.0.0.1:9/", ok=None)
    assert no_display.returncode == 1 and "needs a display" in no_display.stderr
    assert (
        not_there.returncode == 1 and "REPLAY_CHROMIUM=" in not_there.stderr and "not an executable" in not_there.stderr
    )


@needs_root
def test_a_home_on_a_full_or_read_only_disk_is_a_clear_error(tmp_path: Path) -> None:
    with small_disk("200k") as disk:
        (disk / "h").mkdir()
        with contextlib.suppress(OSError):
            (disk / "filler").write_bytes(b"\0" * 400_000)  # the disk is full
        full = Cli(str(disk / "h"), str(tmp_path))("open", "http://127.0.0.1:9/", ok=None)
        subprocess.run(["mount", "-o", "remount,ro", str(disk)], check=True)
        read_only = Cli(str(disk / "ro"), str(tmp_path))("open", "http://127.0.0.1:9/", ok=None)
    assert full.returncode == 1 and "DAEMON_UNAVAILABLE" in full.stderr and "did not start" in full.stderr
    assert read_only.returncode == 1 and "Read-only file system" in read_only.stderr
    assert "Traceback" not in full.stderr + read_only.stderr


FLIP_STEP = (  # recorded on the page at rest (?every=100000) through the CLI: `replay click @e3`
    '# replay:target-v1 {"role":"button","label":"Save","ancestry":[{"role":"paragraph"}],"sibling":0,'
    '"viewportOrder":0,"rect":{"x":8,"y":79.88,"width":46.39,"height":21},"page":{"path":"flip.html",'
    '"title":"Flip"},"verification":"verified"}\n'
    'click role=button label="Save" || id="slot" >> text="Save"\n'
)


def test_a_node_replaced_between_its_check_and_the_action_is_never_acted_on(cli: Cli, web: str, tmp_path: Path) -> None:
    # every 20 ms the page replaces its button with a new element, "Save" and "Delete" in turn, at the same
    # place: the element checked is never the one a later look finds, and a click that reached "Delete"
    # would delete. Each run acts on the element it verified or on nothing
    flow = tmp_path / "flip.ad"
    flow.write_text(f"context platform=web\nopen {web}/hostile/flip.html?every=20\n{FLIP_STEP}")
    for n in range(5):
        session = f"flip-{n}"
        cli("run", str(flow), "--session", session, "--no-effects", "--timeout", "3000", ok=None)
        page = cli("snapshot", "--session", session).stdout
        cli("close", "--session", session, ok=None)
        assert "deleted 1" not in page and ("Nothing yet" in page or "Saved 1, deleted 0" in page), page
