"""The daemon's transport: a Unix socket in $REPLAY_HOME speaking line-delimited JSON.

The socket directory is 0700, the socket 0600, and every connection's peer uid is checked; nothing
listens on TCP. One lock per home: one daemon serves it. While a request is served the client hears
a blank line every HEARTBEAT_S; a client that goes away has its request cancelled (design §12). What the
requests mean is the service's business (``replay.session.daemon.Daemon``).
"""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import json
import logging
import os
import signal
import time
from collections.abc import Callable, Coroutine
from typing import Any, Protocol

from replay.errors import DaemonUnavailable, InvalidArgs, PermissionDenied
from replay.session.protocol import HEARTBEAT_S, MAX_MESSAGE, check_home, peer_uid, socket_path

log = logging.getLogger("replay.daemon")


class Service(Protocol):
    """What the server serves: requests in, answers out, and its own lifecycle."""

    stop: asyncio.Event  # set: the server stops serving
    requests: set[asyncio.Future[dict[str, Any]]]  # being handled (cancelled at shutdown)

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """The answer to one request: ``{"ok": true, "result": …}`` or ``{"ok": false, "error": …}``."""
        ...

    def recover(self) -> None:
        """Take over what a daemon that was killed left in the home (before anything is served)."""
        ...

    async def reap(self) -> None:
        """Run until stopped: end what is idle, and set ``stop`` when there is nothing left."""
        ...

    async def shutdown(self) -> None:
        """End everything (the socket is already gone)."""
        ...


async def _unless_abandoned(
    service: Service,
    handling: Coroutine[Any, Any, dict[str, Any]],
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
) -> tuple[dict[str, Any] | None, bytes]:
    """Handle a request, cancelled if its client disconnects first (an interrupted `replay wait`):
    a client that went away must not keep its session locked (design §12). A client sends nothing
    while it waits, so end-of-file on its connection means it is gone.

    Returns the answer (None: the client went away) and the first byte of a next request the
    client sent while waiting (b"" if none), which begins the next line read.
    """
    task = asyncio.ensure_future(handling)
    service.requests.add(task)
    task.add_done_callback(service.requests.discard)
    gone = asyncio.ensure_future(reader.read(1))
    try:
        while not (await asyncio.wait({task, gone}, timeout=HEARTBEAT_S, return_when=asyncio.FIRST_COMPLETED))[0]:
            writer.write(b"\n")  # still at work: a client that hears nothing knows the daemon is hung
        if _read(gone) == b"":
            log.info("a client went away: its request is cancelled")
            task.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
            return None, b""
        answer = await task  # done, or the client sent more while waiting (answered all the same)
    finally:
        # the reader allows one waiter: the watch must be over before the next line is read
        gone.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await gone
    return answer, _read(gone) or b""


def _read(reading: asyncio.Future[bytes]) -> bytes | None:
    """What a finished read returned (b"": end of file), or None when it did not finish (cancelled, failed)."""
    if reading.done() and not reading.cancelled() and reading.exception() is None:
        return reading.result()
    return None


async def _serve_connection(service: Service, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    sock = writer.get_extra_info("socket")
    uid = peer_uid(sock) if sock is not None else None
    if uid != os.getuid():
        log.warning("refused a connection from uid %s", uid)
        refusal = {"ok": False, "error": PermissionDenied("wrong user").to_dict()}
        writer.write(json.dumps(refusal).encode("utf-8") + b"\n")
        await writer.drain()
        writer.close()
        return
    early = b""  # a next request's first byte, read while the previous one was handled
    try:
        while True:
            try:
                line = early if early == b"\n" else early + await reader.readline()
                early = b""
            except asyncio.CancelledError:
                # the daemon stops while this client sends nothing: end the connection, quietly (a
                # cancelled connection task makes Python 3.11's stream protocol log a traceback, gh-113538)
                return
            except ValueError:  # longer than MAX_MESSAGE: answer, then drop the connection
                too_big = InvalidArgs(f"the request is over {MAX_MESSAGE // (1024 * 1024)} MiB", hint="pass less text")
                writer.write(json.dumps({"ok": False, "error": too_big.to_dict()}).encode("utf-8") + b"\n")
                await writer.drain()
                break
            if not line:
                break
            try:
                request = json.loads(line)
            except (json.JSONDecodeError, UnicodeDecodeError, RecursionError):
                response: dict[str, Any] = {"ok": False, "error": InvalidArgs("bad request").to_dict()}
            else:
                if not isinstance(request, dict):
                    response = {"ok": False, "error": InvalidArgs("bad request: a JSON object per line").to_dict()}
                else:
                    try:
                        answered, early = await _unless_abandoned(service, service.handle(request), reader, writer)
                    except asyncio.CancelledError:  # `daemon stop` while it was served: say so, then end
                        stopped = DaemonUnavailable(
                            "the session daemon was stopped while serving this request: it was cancelled",
                            hint="start again with `replay open URL` (a recording was written or kept)",
                        )
                        writer.write(json.dumps({"ok": False, "error": stopped.to_dict()}).encode("utf-8") + b"\n")
                        with contextlib.suppress(Exception):
                            await asyncio.wait_for(writer.drain(), 1)
                        return
                    if answered is None:
                        break  # the client went away: its request was cancelled, its session released
                    response = answered
            writer.write(json.dumps(response, ensure_ascii=False).encode("utf-8") + b"\n")
            await writer.drain()
    except (ConnectionResetError, BrokenPipeError):
        pass
    finally:
        with contextlib.suppress(Exception):
            writer.close()


async def _take_lock(fd: int, home: str, wait_s: float = 15.0) -> bool:
    """The home's lock. Held by a daemon that is exiting (its socket gone), wait for it: the client
    that started us is waiting for a daemon; held by one that serves, leave it be."""
    deadline = time.monotonic() + wait_s
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if os.path.exists(socket_path(home)) or time.monotonic() > deadline:
                return False
            await asyncio.sleep(0.05)


def prepare_home(home: str) -> None:
    """Create $REPLAY_HOME private to the user (0700, whatever the umask); an existing home keeps its
    mode — one another user owns, or others may write in, is refused (``check_home``)."""
    check_home(home)
    os.makedirs(os.path.dirname(os.path.abspath(home)), exist_ok=True)
    try:
        os.mkdir(home, 0o700)
    except FileExistsError:
        check_home(home)  # made by someone else between the look and the make
        return
    os.chmod(home, 0o700)  # ours: made just now


async def serve(home: str, make: Callable[[], Service]) -> int:
    """Serve the home's socket with the service ``make`` returns, until stopped; the exit status."""
    prepare_home(home)
    lock_fd = os.open(os.path.join(home, "daemon.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    if not await _take_lock(lock_fd, home):
        return 0  # another daemon owns this home and serves it
    path = socket_path(home)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # stale socket of a crashed daemon: we hold the lock, so nobody serves it
    service = make()
    service.recover()  # what a killed daemon left: holding the lock, before anyone is served
    with open(os.path.join(home, "daemon.pid"), "w") as fh:  # before the socket: a full disk fails here
        fh.write(str(os.getpid()))
    old_umask = os.umask(0o177)
    try:
        server = await asyncio.start_unix_server(
            lambda r, w: _serve_connection(service, r, w), path=path, limit=MAX_MESSAGE + 1
        )
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, service.stop.set)
    reaper = asyncio.create_task(service.reap())
    log.info("daemon %s serving %s", os.getpid(), path)
    try:
        await service.stop.wait()
    finally:
        # first the socket: a client from now on starts a new daemon, which waits for our lock
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        server.close()
        reaper.cancel()
        await service.shutdown()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(home, "daemon.pid"))
        os.close(lock_fd)
    return 0
