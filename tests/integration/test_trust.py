"""Issue 32's rules on the real parts: no secret read back; MCP calls that never wait behind others,
stop in the daemon when cancelled, and end with their client (a real daemon, real Chromium)."""

from __future__ import annotations

import json
import select
import stat
import subprocess
import time
from pathlib import Path
from typing import Any

from .conftest import MCP_INITIALIZE, REPLAY, Cli

SECRET = "PwSecret-4410"


def test_get_value_of_a_password_field_reads_the_mask_never_the_typed_secret(cli: Cli, web: str) -> None:
    s = ("--session", "pw")
    cli("open", f"{web}/shop/checkout.html", *s)
    cli("fill", "id=password", SECRET, *s)
    value = cli("get", "value", "id=password", *s, "--json").stdout
    attrs = cli("get", "attrs", "id=password", *s).stdout
    cli("fill", "id=name", "Ada", *s)
    name = cli("get", "value", "id=name", *s, "--json").stdout  # other fields read as they are
    cli("close", *s)
    assert "•••" in value and SECRET not in value + attrs
    assert '"value": "Ada"' in name


class _Mcp:
    """`replay mcp` driven line by line (JSON-RPC over its stdio), answers read as they come."""

    def __init__(self, cli: Cli) -> None:
        self.proc = subprocess.Popen(
            [REPLAY, "mcp"], cwd=cli.cwd, env=cli.env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self.answers: dict[int, dict[str, Any]] = {}
        self.send(MCP_INITIALIZE, {"jsonrpc": "2.0", "method": "notifications/initialized"})
        self.answer(1, 20)

    def send(self, *lines: dict[str, Any]) -> None:
        assert self.proc.stdin is not None
        self.proc.stdin.write("".join(json.dumps(line) + "\n" for line in lines))
        self.proc.stdin.flush()

    def call(self, rid: int, tool: str, **args: Any) -> None:
        self.send({"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": args}})

    def answer(self, rid: int, within_s: float) -> dict[str, Any]:
        assert self.proc.stdout is not None
        end = time.monotonic() + within_s
        while rid not in self.answers:
            ready, _, _ = select.select([self.proc.stdout], [], [], max(0.0, end - time.monotonic()))
            assert ready, f"no answer to {rid} within {within_s} s"
            line = json.loads(self.proc.stdout.readline())
            if "id" in line:
                self.answers[line["id"]] = line
        return self.answers[rid]

    def stop(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait()


def test_an_mcp_call_never_waits_behind_slow_ones_and_a_cancelled_one_stops_in_the_daemon(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "slow")
    mcp = _Mcp(cli)
    try:
        for rid in range(10, 18):  # more than a default thread pool holds (6 on 2 cores)
            mcp.call(rid, "wait", ms=20_000, session="slow")
        mcp.call(30, "list_sessions")
        assert "slow" in json.dumps(mcp.answer(30, 5))
        mcp.send(
            *(
                {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": r}}
                for r in range(10, 18)
            )
        )
        mcp.call(31, "snapshot", session="slow")  # the session's lock is free again
        assert "Products" in json.dumps(mcp.answer(31, 8))
    finally:
        mcp.stop()
        cli("close", "--session", "slow", ok=None)


def test_replay_mcp_exits_when_its_client_goes_and_stops_what_it_asked_for(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "left")
    mcp = _Mcp(cli)
    try:
        mcp.call(10, "wait", ms=30_000, session="left")
        time.sleep(0.5)  # the wait has reached the daemon  # noqa: ASYNC251
        assert mcp.proc.stdin is not None
        mcp.proc.stdin.close()
        assert mcp.proc.wait(timeout=10) == 0
        started = time.monotonic()
        cli("snapshot", "--session", "left")
        assert time.monotonic() - started < 8  # not behind the 30 s wait
    finally:
        mcp.stop()
        cli("close", "--session", "left", ok=None)


def test_a_shared_replay_home_is_refused_with_a_clear_error_and_its_mode_kept(tmp_path: Path) -> None:
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    proc = Cli(str(shared), str(tmp_path))("session", "list", ok=None, timeout=30)
    assert proc.returncode == 1 and "PERMISSION_DENIED" in proc.stderr and "is shared (mode 1777" in proc.stderr
    assert "Traceback" not in proc.stderr and stat.S_IMODE(shared.stat().st_mode) == 0o1777
    assert not (shared / "daemon.sock").exists()


def test_no_control_character_reaches_the_terminal_raw_and_json_still_reads_back(cli: Cli, tmp_path: Path) -> None:
    name = str(tmp_path / "x\x1b]0;owned\x07\u009b2J.ad")
    text = cli("lint", name, ok=None)
    shown = cli("lint", name, "--json", ok=None)
    for out in (text.stdout + text.stderr, shown.stdout + shown.stderr):
        assert not any(c in out for c in "\x1b\x07\u009b") and "FILE_NOT_FOUND" in out
    assert "\\u001b]0;owned\\u0007\\u009b2J" in text.stderr
    assert name in json.loads(shown.stdout)["error"]["message"]  # the escapes are JSON's: it reads back exact


def test_an_android_open_outside_the_app_id_grammar_is_refused_before_any_device_is_asked(tmp_path: Path) -> None:
    home = tmp_path / "h"
    cli = Cli(str(home), str(tmp_path), {"PATH": str(tmp_path / "no-adb-here")})  # no adb: asking would fail
    try:
        for app in ("com.example.shop;touch X", ""):
            done = cli("open", "--platform", "android", app, "--session", "a", ok=None)
            assert done.returncode == 2 and "INVALID_ARGS: open: " in done.stderr and "BROWSER" not in done.stderr
        assert not (tmp_path / "X").exists()
    finally:
        cli("daemon", "stop", ok=None)
