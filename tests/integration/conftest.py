"""Real parts: a real HTTP server for the fixture apps, a real daemon on a real socket, real Chromium."""

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
import time
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import Any, TypeVar

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "fixtures"))

from serve import serve  # noqa: E402

REPLAY = shutil.which("replay", path=os.path.dirname(sys.executable)) or "replay"
T = TypeVar("T")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if "tests/integration" in str(item.fspath):
            item.add_marker(pytest.mark.integration)


@pytest.fixture(scope="session")
def web() -> Iterator[str]:
    """Base URL of the fixture web apps (``{web}/shop/index.html``)."""
    with serve() as url:
        yield url


def pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    # a zombie child counts as gone
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().split()[2] != "Z"
    except (FileNotFoundError, ProcessLookupError):  # reaped between the two looks (the read says ESRCH)
        return False


def wait_until(predicate: Callable[[], bool], timeout: float = 20.0) -> bool:
    """Poll ``predicate`` until it holds or ``timeout`` seconds pass."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if predicate():
            return True
        time.sleep(0.1)
    return bool(predicate())


def stop_daemon(home: str) -> None:
    """Shut the daemon of ``home`` down; kill it (by its own PID) if it does not go."""
    pid_file = Path(home) / "daemon.pid"
    pid = int(pid_file.read_text()) if pid_file.exists() else None
    from replay.client import Client
    from replay.errors import DaemonUnavailable

    with contextlib.suppress(DaemonUnavailable):  # one that would not stop is killed below
        Client(home=home).shutdown()
    if pid is None:
        return
    deadline = time.monotonic() + 15
    while pid_alive(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    if pid_alive(pid):
        os.kill(pid, signal.SIGKILL)


@contextlib.contextmanager
def private_home() -> Iterator[str]:
    """A fresh $REPLAY_HOME, its daemon stopped and the folder removed afterwards."""
    path = tempfile.mkdtemp(prefix="rh-", dir="/tmp")  # short: Unix socket paths are limited to 108 bytes
    try:
        yield path
    finally:
        stop_daemon(path)
        shutil.rmtree(path, ignore_errors=True)


@pytest.fixture(scope="module")
def shared_home() -> Iterator[str]:
    """One $REPLAY_HOME, and so one daemon and one browser, for the tests of a module."""
    with private_home() as path:
        yield path


@pytest.fixture
def home(request: pytest.FixtureRequest) -> Iterator[str]:
    """The test's $REPLAY_HOME: the module's shared one, or its own for a test marked ``own_daemon``.

    Tests on a shared daemon use session names of their own (the default session is scoped to the
    test's own working directory); a test that kills the daemon, needs it idle, or counts its
    sessions is marked ``own_daemon``.
    """
    if request.node.get_closest_marker("own_daemon") is None:
        yield request.getfixturevalue("shared_home")
        return
    with private_home() as path:
        yield path


class Cli:
    """Runs the real `replay` console script against one home and working directory."""

    def __init__(self, home: str, cwd: str, env: dict[str, str] | None = None) -> None:
        self.home = home
        self.cwd = cwd
        self.env = {**os.environ, "REPLAY_HOME": home, "REPLAY_DAEMON_LINGER": "60", **(env or {})}
        self.env.pop("REPLAY_SESSION", None)

    def __call__(self, *args: str, ok: bool | None = True, timeout: float = 120) -> subprocess.CompletedProcess[str]:
        proc = subprocess.run(
            [REPLAY, *args], capture_output=True, text=True, cwd=self.cwd, env=self.env, timeout=timeout
        )
        if ok is True and proc.returncode != 0:
            raise AssertionError(f"replay {' '.join(args)} failed ({proc.returncode}):\n{proc.stdout}\n{proc.stderr}")
        return proc

    def json(self, *args: str, ok: bool | None = True) -> dict[str, Any]:
        proc = self(*args, "--json", ok=ok)
        return dict(json.loads(proc.stdout.strip().splitlines()[-1]))


# the JSON-RPC request that opens an MCP session, for tests that speak to `replay mcp` over raw stdio
MCP_INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
}

FAST = ("--timeout", "1000")  # a divergence waits out its step timeout: keep it short in tests


def diverge(cli: Cli, *args: str) -> dict[str, Any]:
    """Run ``replay ARGS --json``, expect exit 3, and return the divergence object."""
    proc = cli(*args, "--json", ok=None)
    assert proc.returncode == 3, proc.stdout + proc.stderr
    return dict(json.loads(proc.stdout.strip().splitlines()[-1])["error"]["divergence"])


@pytest.fixture
def cli(home: str, tmp_path: Path) -> Cli:
    return Cli(home, str(tmp_path))


class Chromium:
    """One real Chromium for a whole test session, on its own event loop; a fresh context per page."""

    def __init__(self) -> None:
        from replay.drivers.web.browser import WebBrowser

        self.loop = asyncio.new_event_loop()
        self.browser = WebBrowser()
        self.loop.run_until_complete(self.browser.start())

    def run(self, factory: Callable[[], Awaitable[T]]) -> T:
        """Run a coroutine on the browser's loop."""
        return self.loop.run_until_complete(factory())  # type: ignore[arg-type]

    @contextlib.asynccontextmanager
    async def page(self, url: str) -> Any:
        """A real Chromium page through our web driver (no daemon), in a context of its own."""
        driver = await self.browser.new_driver()
        try:
            from replay.drivers.base import OpenRequest

            await driver.navigate(OpenRequest(target=url), 30000)
            yield driver
        finally:
            await driver.close()

    def close(self) -> None:
        self.loop.run_until_complete(self.browser.stop())
        self.loop.close()


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """The shared browser of the capture tests (launched once, not once per test)."""
    shared = Chromium()
    try:
        yield shared
    finally:
        shared.close()


@pytest.fixture
def recorder(cli: Cli, tmp_path: Path) -> Any:
    """Start `replay record` with a person's hands on its page: ``recorder(URL, SESSION, …)``."""
    from .recording import Recording

    started: list[Recording] = []

    def start(target: str, session: str, *extra: str, url: str | None = None, pw: Any = None) -> tuple[Recording, Path]:
        out = tmp_path / f"{session}.ad"
        started.append(Recording(cli, target, out, session, *extra, url=url, pw=pw))
        return started[-1], out

    yield start
    for rec in reversed(started):  # (one that shares another's Playwright lets go first)
        rec.kill()
        cli("close", "--session", rec.session, "--discard", ok=None)
