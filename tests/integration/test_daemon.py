"""The daemon as a real process on a real Unix socket: permissions, peer check, lifecycle."""

from __future__ import annotations

import json
import os
import pwd
import signal
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from .conftest import Cli, pid_alive, wait_until

pytestmark = pytest.mark.own_daemon  # these tests start, stop, kill and idle their daemon


def daemon_pid(home: str) -> int:
    return int((Path(home) / "daemon.pid").read_text())


def test_home_is_0700_and_socket_is_0600(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    assert stat.S_IMODE(os.stat(home).st_mode) == 0o700
    sock = Path(home) / "daemon.sock"
    assert stat.S_ISSOCK(sock.stat().st_mode) and stat.S_IMODE(sock.stat().st_mode) == 0o600


def _connect_as(uid: int, path: str) -> str:
    code = (
        "import os, socket, sys\n"
        f"os.setgid({uid}); os.setuid({uid})\n"
        "s = socket.socket(socket.AF_UNIX); s.settimeout(10)\n"
        "try:\n"
        # the daemon answers a foreign peer at once, before any request, then hangs up
        f"    s.connect({path!r}); print(s.recv(4096).decode())\n"
        "except OSError as e:\n"
        "    print('OSError', e.errno)\n"
    )
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30).stdout


@pytest.mark.skipif(os.getuid() != 0, reason="switching to another uid needs root")
def test_another_uid_cannot_reach_the_socket(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    nobody = pwd.getpwnam("nobody").pw_uid
    assert _connect_as(nobody, str(Path(home) / "daemon.sock")).startswith("OSError 13")  # EACCES


@pytest.mark.skipif(os.getuid() != 0, reason="switching to another uid needs root")
def test_daemon_refuses_a_peer_with_another_uid_even_if_permissions_are_loosened(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    sock = Path(home) / "daemon.sock"
    os.chmod(home, 0o755)
    os.chmod(sock, 0o666)
    try:
        reply = _connect_as(pwd.getpwnam("nobody").pw_uid, str(sock))
    finally:
        os.chmod(home, 0o700)
        os.chmod(sock, 0o600)
    assert json.loads(reply)["error"]["code"] == "PERMISSION_DENIED"
    assert cli("session", "list").returncode == 0  # still serving its own user


def _listening_inodes() -> set[str]:
    inodes = set()
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            lines = Path(table).read_text().splitlines()[1:]
        except FileNotFoundError:
            continue
        for line in lines:
            fields = line.split()
            if fields[3] == "0A":  # LISTEN
                inodes.add(fields[9])
    return inodes


def _descendants(pid: int) -> list[int]:
    out = [pid]
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                ppid = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError, ValueError):
                continue
            if ppid == pid:
                out.extend(_descendants(int(entry.name)))
    return out


def test_nothing_listens_on_tcp(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    listening = _listening_inodes()
    for pid in _descendants(daemon_pid(home)):
        try:
            fds = list(Path(f"/proc/{pid}/fd").iterdir())
        except OSError:
            continue
        for fd in fds:
            try:
                target = os.readlink(fd)
            except OSError:
                continue
            if target.startswith("socket:["):
                assert target[8:-1] not in listening, f"pid {pid} listens on TCP"


def test_stale_socket_of_a_killed_daemon_is_detected_and_replaced(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    pid = daemon_pid(home)
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not pid_alive(pid))
    assert (Path(home) / "daemon.sock").exists()  # left behind
    cli("open", f"{web}/shop/index.html")
    assert daemon_pid(home) != pid
    assert cli("snapshot").returncode == 0


def test_idle_sessions_are_reaped_and_the_daemon_exits_when_it_has_none(home: str, web: str, tmp_path: Path) -> None:
    cli = Cli(home, str(tmp_path), env={"REPLAY_IDLE_TIMEOUT": "1", "REPLAY_DAEMON_LINGER": "1"})
    cli("open", f"{web}/shop/index.html")
    pid = daemon_pid(home)
    assert wait_until(lambda: not pid_alive(pid), timeout=20)
    assert not (Path(home) / "daemon.sock").exists()


def test_sigterm_tears_sessions_down_and_removes_the_socket(cli: Cli, home: str, web: str, tmp_path: Path) -> None:
    out = tmp_path / "term.ad"
    cli("open", f"{web}/shop/index.html", f"--save-script={out}")
    cli("click", "id=add-mug")
    pid = daemon_pid(home)
    os.kill(pid, signal.SIGTERM)
    assert wait_until(lambda: not pid_alive(pid))
    assert not (Path(home) / "daemon.sock").exists()
    assert 'click id="add-mug"' in out.read_text()


def test_the_client_path_imports_neither_playwright_nor_lxml(home: str) -> None:
    code = (
        "import sys\n"
        "from replay.cli import main\n"
        "sys.argv = ['replay', 'session', 'list']\n"
        "try:\n    main()\nexcept SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('playwright', 'lxml'))\n"
        "print('HEAVY', heavy)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, "REPLAY_HOME": home},
        timeout=60,
    )
    assert "HEAVY []" in out.stdout, out.stdout + out.stderr


def test_daemon_stop_returns_once_the_daemon_has_exited(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    pid = daemon_pid(home)
    assert cli("daemon", "stop").returncode == 0
    assert not pid_alive(pid)


def test_a_daemon_stopped_while_a_client_stays_connected_logs_no_traceback(cli: Cli, home: str, web: str) -> None:
    import socket

    cli("open", f"{web}/shop/index.html")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as idle:  # connected, asking nothing
        idle.connect(str(Path(home) / "daemon.sock"))
        idle.sendall(json.dumps({"op": "ping"}).encode("utf-8") + b"\n")
        assert json.loads(idle.makefile("rb").readline())["ok"] is True
        pid = daemon_pid(home)
        assert cli("daemon", "stop").returncode == 0
        assert wait_until(lambda: not pid_alive(pid), timeout=10)
    assert "Traceback" not in (Path(home) / "daemon.log").read_text()


def test_one_connection_carries_several_requests_each_answered(cli: Cli, home: str, web: str) -> None:
    import socket

    cli("open", f"{web}/shop/index.html")
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as s:
        s.settimeout(10)
        s.connect(str(Path(home) / "daemon.sock"))
        reader = s.makefile("rb")
        ping = json.dumps({"op": "ping"}).encode("utf-8") + b"\n"
        for _ in range(3):
            s.sendall(ping)
            assert json.loads(reader.readline())["ok"] is True
        s.sendall(ping * 3)  # pipelined: sent before any answer
        assert [json.loads(reader.readline())["ok"] for _ in range(3)] == [True, True, True]
    assert "Traceback" not in (Path(home) / "daemon.log").read_text()
