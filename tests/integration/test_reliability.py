"""Nothing recorded is lost and no input hangs or crashes the daemon (SPEC §12), on real Chromium."""

from __future__ import annotations

import json
import os
import socket
from pathlib import Path

from replay.session.protocol import MAX_MESSAGE, socket_path

from .conftest import Cli


def _open(cli: Cli, web: str, *extra: str) -> None:
    cli("open", f"{web}/shop/checkout.html", *extra)


def test_a_request_over_64_kib_is_served(cli: Cli, web: str) -> None:
    _open(cli, web)
    filled = cli("fill", "id=name", "x" * 70_000, ok=None)  # ok=None: a failure must not echo 70 KB
    assert filled.returncode == 0, filled.stderr[:500]
    assert len(cli("get", "value", "id=name", "--json").stdout) > 70_000
    cli("close")


def test_a_request_over_the_limit_gets_invalid_args_from_the_daemon(cli: Cli, web: str) -> None:
    _open(cli, web)  # the daemon is up
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as sock:
        sock.connect(socket_path(cli.home))
        sock.sendall(b'{"op": "ping", "pad": "' + b"x" * (MAX_MESSAGE + 10) + b'"}\n')
        answer = json.loads(sock.makefile("rb").readline())
    assert answer["error"]["code"] == "INVALID_ARGS" and "MiB" in answer["error"]["message"]
    cli("close")


def test_a_screenshot_path_is_relative_to_the_callers_directory(cli: Cli, web: str, tmp_path: Path) -> None:
    _open(cli, web)
    result = json.loads(cli("screenshot", "shots/page.png", "--json").stdout.strip().splitlines()[-1])
    assert result["result"]["path"] == str(tmp_path / "shots" / "page.png")
    assert (tmp_path / "shots" / "page.png").stat().st_mode & 0o777 == 0o600
    cli("close")


def test_a_screenshot_never_overwrites_a_file(cli: Cli, web: str, tmp_path: Path) -> None:
    _open(cli, web)
    (tmp_path / "page.png").write_bytes(b"mine")
    proc = cli("screenshot", "page.png", ok=None)
    assert proc.returncode == 4 and "TARGET_EXISTS" in proc.stderr
    assert (tmp_path / "page.png").read_bytes() == b"mine"
    cli("close")


def test_a_screenshot_where_nothing_can_be_written_is_a_clear_error(cli: Cli, web: str) -> None:
    _open(cli, web)
    bad_type = cli("screenshot", "x.ad", ok=None)
    no_dir = cli("screenshot", "/proc/nope/x.png", ok=None)
    assert (bad_type.returncode, no_dir.returncode) == (2, 1)
    assert "INVALID_ARGS" in bad_type.stderr and "IO_ERROR" in no_dir.stderr
    assert "Traceback" not in bad_type.stderr + no_dir.stderr
    cli("close")


def test_a_recorded_script_is_published_private(cli: Cli, web: str, tmp_path: Path) -> None:
    _open(cli, web, "--save-script", "flow.ad")
    cli("fill", "id=password", "hunter2-secret")
    cli("close")
    assert os.stat(tmp_path / "flow.ad").st_mode & 0o777 == 0o600
