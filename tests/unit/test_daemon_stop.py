"""`replay daemon stop` tells the truth (issue 58): a daemon that runs but does not answer is never said
stopped; no daemon is said to be none. A silent socket stands in for the wedged daemon (no browser)."""

from __future__ import annotations

import os
import socket
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from replay import client as client_module
from replay.client import Client
from replay.errors import DaemonUnavailable
from replay.session.protocol import socket_path


@pytest.fixture
def home() -> Iterator[Path]:
    import shutil
    import tempfile

    path = Path(tempfile.mkdtemp(prefix="rh-", dir="/tmp"))  # (a socket path has 108 bytes at most)
    os.chmod(path, 0o700)
    try:
        yield path
    finally:
        shutil.rmtree(path, ignore_errors=True)


def test_a_daemon_that_runs_but_does_not_answer_is_not_said_stopped(
    home: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(client_module, "SILENCE_S", 0.3)
    silent = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    silent.bind(socket_path(str(home)))
    silent.listen(8)  # connections wait in the backlog: nothing ever answers them
    wedged = subprocess.Popen(["sleep", "60"])
    (home / "daemon.pid").write_text(str(wedged.pid))
    try:
        with pytest.raises(DaemonUnavailable) as raised:
            Client(home=str(home)).shutdown()
        assert f"pid {wedged.pid}" in str(raised.value) and "not stopped" in str(raised.value)
        assert f"kill {wedged.pid}" in (raised.value.hint or "")
    finally:
        silent.close()
        wedged.kill()
        wedged.wait()


def test_with_no_daemon_running_stop_says_so(home: Path) -> None:
    assert Client(home=str(home)).shutdown() is False
    (home / "daemon.pid").write_text("999999999")  # a crashed daemon's pid file: nothing runs
    assert Client(home=str(home)).shutdown() is False
