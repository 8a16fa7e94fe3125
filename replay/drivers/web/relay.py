"""A recording's browser with no open endpoint (design §16): Chromium speaks DevTools over a pipe to
this process only (``--remote-debugging-pipe``: nothing listens on TCP), and replay's own relay admits
WebSocket clients on 127.0.0.1 only on a 128-bit random path, compared in constant time, and serves
nothing else — no ``/json`` listing, no target made from a URL.

Each client (the daemon's Playwright, a test's or an assistive tool's hands) gets a DevTools session
of its own on the browser target (``Target.attachToBrowserTarget``), so it sees the browser as if it
had the browser to itself: the relay renumbers its calls, sends what it says without a session to
its browser session, and hands it back only its own answers and the events of the sessions it made.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import itertools
import json
import logging
import os
import secrets
import shutil
import signal
import tempfile
import time
from dataclasses import dataclass, field
from http import HTTPStatus
from typing import Any

from replay import processes

log = logging.getLogger("replay.daemon")

# Chromium's switches as Playwright launches it (its chromiumSwitches, less those for other platforms)
SWITCHES = [
    "--disable-field-trial-config",
    "--disable-background-networking",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
    "--disable-back-forward-cache",
    "--disable-breakpad",
    "--disable-component-extensions-with-background-pages",
    "--disable-component-update",
    "--no-default-browser-check",
    "--disable-default-apps",
    "--disable-dev-shm-usage",
    "--disable-extensions",
    "--disable-features=AvoidUnnecessaryBeforeUnloadCheckSync,DestroyProfileOnBrowserClose,HttpsUpgrades,"
    "HttpsFirstBalancedModeAutoEnable,LensOverlay,MediaRouter,PaintHolding,ThirdPartyStoragePartitioning,"
    "OptimizationHints,NetworkTimeServiceQuerying,PreconnectToSearch",
    "--allow-pre-commit-input",
    "--disable-hang-monitor",
    "--disable-ipc-flooding-protection",
    "--disable-popup-blocking",
    "--disable-prompt-on-repost",
    "--disable-renderer-backgrounding",
    "--force-color-profile=srgb",
    "--metrics-recording-only",
    "--no-first-run",
    "--password-store=basic",
    "--use-mock-keychain",
    "--no-service-autorun",
    "--disable-search-engine-choice-screen",
    "--disable-sync",
    "--no-startup-window",
]
CLOSE_S = 5.0  # how long the browser has to close when asked, before it is killed
MAX_FRAME = 32 * 1024 * 1024  # a relay client's frame: no larger than a request to the daemon (MAX_MESSAGE)
BACKLOG = 2 * MAX_FRAME  # what the browser may leave unread before a client's message is refused


def _above(fd: int, floor: int) -> int:
    """``fd`` moved to a number above ``floor`` (the old one closed)."""
    import fcntl

    moved = fcntl.fcntl(fd, fcntl.F_DUPFD_CLOEXEC, floor + 1)
    os.close(fd)
    return moved


class _Spawned:
    """The browser's process (``posix_spawn``: its file actions put the pipes on fds 3 and 4)."""

    def __init__(self, argv: list[str], actions: list[tuple[Any, ...]]) -> None:
        self.pid = os.posix_spawn(argv[0], argv, dict(os.environ), file_actions=actions, setsid=True)
        self.returncode: int | None = None

    def poll(self) -> int | None:
        if self.returncode is None:
            with contextlib.suppress(ChildProcessError):
                pid, status = os.waitpid(self.pid, os.WNOHANG)
                if pid:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self) -> int:
        if self.returncode is None:
            try:
                self.returncode = os.waitstatus_to_exitcode(os.waitpid(self.pid, 0)[1])
            except ChildProcessError:
                self.returncode = -1
        return self.returncode

    def kill(self) -> None:
        """The browser and every process it started (its own process group: a wrapper script's child
        too)."""
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.pid, signal.SIGKILL)


PROFILE_PREFIX = "replay-recording-"
FRESH_S = 60.0  # a profile no browser locked yet is another daemon's still starting for this long


def remove_stale_profiles(tmp: str | None = None) -> list[str]:
    """Remove the recording profiles a killed daemon left (``$TMPDIR/replay-recording-*`` of this user
    whose browser's lock names a process that is gone, or that no browser ever locked); the paths."""
    removed = []
    where = tmp or tempfile.gettempdir()
    for name in os.listdir(where) if os.path.isdir(where) else []:
        path = os.path.join(where, name)
        if not name.startswith(PROFILE_PREFIX) or os.path.islink(path) or not os.path.isdir(path):
            continue
        if os.stat(path).st_uid != os.getuid():
            continue
        try:
            pid = int(os.readlink(os.path.join(path, "SingletonLock")).rsplit("-", 1)[1])
        except (OSError, ValueError, IndexError):
            pid = None  # never locked (killed before its browser started), or no lock to read
        if (pid is not None and processes.running(pid)) or (
            pid is None and time.time() - os.stat(path).st_mtime < FRESH_S
        ):
            continue  # (its browser runs; or it was made a moment ago, its browser still starting)
        shutil.rmtree(path, ignore_errors=True)
        log.info("removed a stale recording profile: %s", path)
        removed.append(path)
    return removed


class Pipe:
    """DevTools over the browser's pipe: JSON messages, each ended by a NUL byte. Writes never block the
    daemon's loop: what the browser has not read yet waits in memory, bounded (``BACKLOG``)."""

    def __init__(self, reader: asyncio.StreamReader, writer_fd: int) -> None:
        self._reader = reader
        self._out = writer_fd
        os.set_blocking(writer_fd, False)
        self._loop = asyncio.get_running_loop()
        self._pending = bytearray()  # written, not read by the browser yet

    async def read(self) -> dict[str, Any] | None:
        try:
            raw = await self._reader.readuntil(b"\0")
        except (asyncio.IncompleteReadError, ConnectionError):
            return None
        return dict(json.loads(raw[:-1]))

    @property
    def backed_up(self) -> bool:
        """The browser has left more than ``BACKLOG`` bytes unread: a client's next message is refused."""
        return len(self._pending) > BACKLOG

    def write(self, message: dict[str, Any]) -> None:
        data = json.dumps(message).encode() + b"\0"
        if not self._pending:
            with contextlib.suppress(BlockingIOError):
                data = data[os.write(self._out, data) :]
            if data:
                self._loop.add_writer(self._out, self._flush)
        self._pending += data

    def _flush(self) -> None:
        try:
            done = os.write(self._out, self._pending)
        except BlockingIOError:
            return
        except OSError:  # the browser is gone: nothing more goes to it
            done = len(self._pending)
        del self._pending[:done]
        if not self._pending:
            self._loop.remove_writer(self._out)


@dataclass(eq=False)
class _Client:
    ws: Any
    root: str = ""  # its DevTools session on the browser target
    sessions: set[str] = field(default_factory=set)  # the sessions it attached (its pages, frames, workers)
    outbox: asyncio.Queue[str] = field(default_factory=asyncio.Queue)  # what it is sent, in order

    async def write(self) -> None:
        """Send the outbox in order (DevTools' events come before the answer they precede)."""
        while True:
            await self.ws.send(await self.outbox.get())


class RecordingBrowser:
    """One Chromium for one recording, on a pipe, and its relay. ``endpoint`` is the relay's URL."""

    def __init__(self, executable: str, *, headless: bool, args: list[str]) -> None:
        self.executable = executable
        self.headless = headless
        self.args = args
        self.endpoint = ""
        self.token = secrets.token_hex(16)  # 128 bits
        self._proc: _Spawned | None = None
        self._profile: str | None = None
        self._pipe: Pipe | None = None
        self._server: Any = None
        self._reading: asyncio.Task[None] | None = None
        self._ids = itertools.count(1)
        self._calls: dict[int, tuple[_Client | None, Any, str]] = {}  # relay id → client, its id, method
        self._own: dict[int, asyncio.Future[dict[str, Any]]] = {}
        self._owner: dict[str, _Client] = {}  # a session → the client it belongs to
        self._clients: set[_Client] = set()

    async def start(self) -> None:
        from websockets.asyncio.server import serve

        remove_stale_profiles()  # what a killed daemon's recordings left behind
        self._profile = tempfile.mkdtemp(prefix=PROFILE_PREFIX)
        to_browser_r, to_browser_w = os.pipe()
        from_browser_r, from_browser_w = os.pipe()
        # the browser's ends out of the way of fds 3 and 4, which the spawn points at them
        to_browser_r, from_browser_w = (_above(fd, 4) for fd in (to_browser_r, from_browser_w))
        argv = [
            shutil.which(self.executable) or self.executable,
            *SWITCHES,
            *self.args,
            *(["--headless", "--hide-scrollbars", "--mute-audio"] if self.headless else []),
            f"--user-data-dir={self._profile}",
            "--remote-debugging-pipe",
        ]
        argv = processes.dies_with_this_process(argv)  # a kill -9 of the daemon ends its browser too
        # the browser reads DevTools on fd 3 and writes on fd 4 (a spawn's dup2s put the pipes there)
        self._proc = _Spawned(
            argv,
            [
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_OPEN, 1, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_OPEN, 2, os.devnull, os.O_WRONLY, 0),
                (os.POSIX_SPAWN_DUP2, to_browser_r, 3),
                (os.POSIX_SPAWN_DUP2, from_browser_w, 4),
            ],
        )
        os.close(to_browser_r)
        os.close(from_browser_w)
        loop = asyncio.get_running_loop()
        reader = asyncio.StreamReader(limit=2**31)
        await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), os.fdopen(from_browser_r, "rb", 0))
        self._pipe = Pipe(reader, to_browser_w)
        self._reading = loop.create_task(self._read())
        await asyncio.wait_for(self._call("Browser.getVersion", {}), 30)  # the browser answers: it is up
        self._server = await serve(
            self._serve,
            "127.0.0.1",
            0,
            process_request=self._admit,
            max_size=MAX_FRAME,
            compression=None,
            ping_interval=None,
        )
        port = next(iter(self._server.sockets)).getsockname()[1]
        self.endpoint = f"ws://127.0.0.1:{port}/{self.token}"

    def _admit(self, connection: Any, request: Any) -> Any:
        """Only a WebSocket on the token's path is admitted, and never from a page (a browser always says
        its page's ``Origin``; DevTools clients do not); anything else is 404, said the same way."""
        path = str(request.path)
        given = path[1:].encode() if path.startswith("/") else b""
        if (
            hmac.compare_digest(given, self.token.encode())
            and request.headers.get("Upgrade", "").lower() == "websocket"
            and "Origin" not in request.headers
        ):
            return None
        return connection.respond(HTTPStatus.NOT_FOUND, "not found\n")

    def alive(self) -> bool:
        return self._proc is not None and self._proc.poll() is None and self._reading is not None

    async def _call(self, method: str, params: dict[str, Any], session: str | None = None) -> dict[str, Any]:
        """A call of the relay's own."""
        assert self._pipe is not None
        number = next(self._ids)
        answer: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._own[number] = answer
        self._pipe.write(
            {"id": number, "method": method, "params": params, **({"sessionId": session} if session else {})}
        )
        got = await answer
        if "error" in got:
            raise RuntimeError(str(got["error"].get("message")))
        return dict(got.get("result") or {})

    async def _serve(self, ws: Any) -> None:
        client = _Client(ws)
        try:
            client.root = str((await self._call("Target.attachToBrowserTarget", {}))["sessionId"])
        except Exception:  # noqa: BLE001 - the browser is gone
            return
        self._owner[client.root] = client
        self._clients.add(client)
        writer = asyncio.ensure_future(client.write())
        try:
            async for raw in ws:
                self._from_client(client, raw)
        except Exception:  # noqa: BLE001 - the client went away
            pass
        finally:
            writer.cancel()
            self._clients.discard(client)
            for session in [client.root, *client.sessions]:
                self._owner.pop(session, None)
            if self._pipe is not None and self.alive():
                with contextlib.suppress(Exception):
                    self._pipe.write(
                        {
                            "id": next(self._ids),
                            "method": "Target.detachFromTarget",
                            "params": {"sessionId": client.root},
                        }
                    )

    def _from_client(self, client: _Client, raw: Any) -> None:
        assert self._pipe is not None
        try:
            message = json.loads(raw)
            their_id = message["id"]
            method = str(message["method"])
        except (ValueError, KeyError, TypeError):
            return
        session = message.get("sessionId") or client.root
        if self._pipe.backed_up:  # the browser stopped reading: nothing more is queued for it
            client.outbox.put_nowait(json.dumps({"id": their_id, "error": {"code": -32000, "message": "busy"}}))
            return
        if self._owner.get(session) is not client or method == "Browser.close":
            # another client's session, or the browser itself: this client may not
            reply = {"id": their_id, "error": {"code": -32000, "message": f"{method} is not allowed here"}}
            if message.get("sessionId"):
                reply["sessionId"] = message["sessionId"]
            client.outbox.put_nowait(json.dumps(reply))
            return
        number = next(self._ids)
        self._calls[number] = (client, their_id, method)
        self._pipe.write({**message, "id": number, "sessionId": session})

    async def _read(self) -> None:
        assert self._pipe is not None
        while (message := await self._pipe.read()) is not None:
            with contextlib.suppress(Exception):  # one message that cannot be delivered ends nothing
                self._from_browser(message)
        for answer in self._own.values():
            if not answer.done():
                answer.set_result({"error": {"message": "the browser is gone"}})
        for client in list(self._clients):
            with contextlib.suppress(Exception):
                await client.ws.close()

    def _from_browser(self, message: dict[str, Any]) -> None:
        number = message.get("id")
        if number is not None:
            own = self._own.pop(number, None)
            if own is not None:
                own.set_result(message)
                return
            called = self._calls.pop(number, None)
            if called is None:
                return
            client, their_id, method = called
            assert client is not None
            attached = (message.get("result") or {}).get("sessionId") if method == "Target.attachToTarget" else None
            if attached:
                self._adopt(client, str(attached))
            self._deliver(client, {**message, "id": their_id})
            return
        session = message.get("sessionId")
        client = self._owner.get(str(session)) if session else None
        if client is None:
            return  # the relay's own session, or one whose client left
        params = message.get("params") or {}
        if message.get("method") == "Target.attachedToTarget":
            self._adopt(client, str(params.get("sessionId")))
        elif message.get("method") == "Target.detachedFromTarget":
            gone = str(params.get("sessionId"))
            self._owner.pop(gone, None)
            client.sessions.discard(gone)
        self._deliver(client, message)

    def _adopt(self, client: _Client, session: str) -> None:
        client.sessions.add(session)
        self._owner[session] = client

    def _deliver(self, client: _Client, message: dict[str, Any]) -> None:
        if message.get("sessionId") == client.root:
            message = {k: v for k, v in message.items() if k != "sessionId"}
        client.outbox.put_nowait(json.dumps(message))

    async def stop(self) -> None:
        """Close the relay, then the browser (killed when it does not close in time), then its profile."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), CLOSE_S)
            self._server = None
        proc, self._proc = self._proc, None
        if proc is not None and proc.poll() is None:
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._call("Browser.close", {}), CLOSE_S)
            try:
                await asyncio.wait_for(asyncio.to_thread(proc.wait), CLOSE_S)
            except TimeoutError:
                proc.kill()
                await asyncio.to_thread(proc.wait)
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                os.close(self._pipe._out)
            self._pipe = None
        if self._reading is not None:
            self._reading.cancel()
            self._reading = None
        if self._profile is not None:
            shutil.rmtree(self._profile, ignore_errors=True)
            self._profile = None
