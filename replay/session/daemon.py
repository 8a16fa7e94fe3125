"""The per-user session daemon: a Unix socket in $REPLAY_HOME speaking line-delimited JSON.

    python -m replay.session.daemon --home ~/.replay [--idle-timeout 1800] [--linger 5]

The socket directory is 0700, the socket 0600, and every connection's peer uid is checked.
Nothing listens on TCP.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import fcntl
import json
import logging
import os
import secrets
import shutil
import signal
import sys
import time
from collections.abc import Coroutine
from typing import TYPE_CHECKING, Any

from replay.drivers.base import BackendOptions
from replay.engine import step
from replay.engine.poll import SYSTEM_CLOCK, Clock
from replay.errors import (
    BrowserUnavailable,
    DaemonUnavailable,
    DivergenceError,
    Internal,
    InvalidArgs,
    Location,
    PermissionDenied,
    ReplayError,
    SessionNotFound,
    Timeout,
)
from replay.limits import check_level, check_ms
from replay.script.ast import Action
from replay.script.parser import parse_action, parse_argv
from replay.session import orphans, repair, runs
from replay.session.pool import BackendPool
from replay.session.protocol import (
    HEARTBEAT_S,
    MAX_MESSAGE,
    check_home,
    check_session_name,
    peer_uid,
    shown_name,
    socket_path,
)
from replay.session.publish import clear_staging
from replay.session.session import Session

if TYPE_CHECKING:
    from replay.engine.runner import RunResult

log = logging.getLogger("replay.daemon")


class Daemon:
    """Holds the sessions and routes requests: steps to the engine, repair ends to ``repair``."""

    def __init__(self, home: str, *, idle_timeout: float, linger: float, clock: Clock = SYSTEM_CLOCK) -> None:
        self.home = home
        self.idle_timeout = idle_timeout
        self.linger = linger
        self.clock = clock
        self.sessions: dict[str, Session] = {}
        self.pool = BackendPool()
        self.stop = asyncio.Event()
        self.empty_since: float | None = clock.now()
        self.in_flight = 0  # requests being served: the daemon is not idle while one is (a browser launch takes time)
        self._create_lock = asyncio.Lock()
        self.recovered: dict[str, repair.Ending] = {}  # repairs a stopped daemon left, ended at start
        self.requests: set[asyncio.Future[dict[str, Any]]] = set()  # being handled (cancelled at shutdown)

    # requests -----------------------------------------------------------------------------

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """Dispatch one request; errors become ``{"ok": false, "error": …}``."""
        if self.stop.is_set():  # exiting: nothing was done, the client may start a new daemon and retry
            exiting = DaemonUnavailable("the session daemon is exiting", details={"retry": True})
            return {"ok": False, "error": exiting.to_dict()}
        self.in_flight += 1
        try:
            result = await self._dispatch(request)
            return {"ok": True, "result": result}
        except ReplayError as err:
            return {"ok": False, "error": err.to_dict()}
        except Exception as exc:  # noqa: BLE001 - never let one request kill the daemon
            log.exception("internal error")
            return {"ok": False, "error": Internal(f"internal error: {exc}").to_dict()}
        finally:
            self.in_flight -= 1
            if not self.sessions:
                self.empty_since = self.clock.now()  # the linger counts from the last request

    async def _dispatch(self, request: dict[str, Any]) -> Any:
        op = request.get("op")
        if op == "ping":
            # in flight: the requests being served besides this ping
            return {"pid": os.getpid(), "sessions": len(self.sessions), "inFlight": self.in_flight - 1}
        if op == "sessions":
            live = [self._describe(s) for s in self.sessions.values()]
            left = [
                {"name": o.name, "recording": True, "orphaned": True, "actions": o.actions, "target": o.target}
                for o in orphans.find(self.home, set(self.sessions))
            ]
            return {"sessions": live + left}
        if op == "shutdown":
            self.stop.set()
            return {"stopping": True}
        if op == "run":
            return await self._run(request)
        if op not in ("divergence", "heal_builtin", "close", "command"):
            raise InvalidArgs(f"unknown request {op!r}", hint="see replay.client.Client for the requests")
        name = check_session_name(str(request.get("session") or ""))
        if op == "divergence":
            level = check_level(request.get("level") or "default")
            session = await self._session(name, {}, create=False)
            if session.last_divergence is None:
                raise InvalidArgs("this session has no divergence", hint="`replay run FLOW.ad --session NAME` first")
            return {"divergence": session.last_divergence.to_dict(level)}
        if op == "heal_builtin":
            from replay.session.heal_step import perform

            session = await self._session(name, {}, create=False)
            async with session.lock:
                return await perform(session)
        if op == "close":
            return await self._close(
                name, request.get("save_script"), bool(request.get("discard")), bool(request.get("verify"))
            )
        if op == "command":
            if "line" in request:  # a script line: script semantics (${VAR} references are references)
                action = parse_action(str(request["line"]), Location("<line>", 1))
            else:  # shell words typed interactively: literal text
                action = parse_argv(list(request.get("argv") or []))
            return await self._command(name, action, _object(request, "options"))
        raise AssertionError(op)  # every known op is served above

    async def _session(
        self, name: str, options: dict[str, Any], *, create: bool, ephemeral: bool = False, arming: bool = False
    ) -> Session:
        session = self.sessions.get(name)
        if session is not None and not session.driver.alive():
            await self._crashed(name, session, reopen=create)
            session = None
        if session is not None:
            return session
        if not arming:
            repair.check_tombstone(self.home, name)
        if not create:
            shown = shown_name(name)
            raise SessionNotFound(
                f"no session {shown!r} is open",
                hint="start one with `replay open URL` (add --session NAME to name it)",
            )
        async with self._create_lock:
            session = self.sessions.get(name)
            if session is None:
                self._claim(name)
                backend = BackendOptions(
                    platform=str(options.get("platform") or "web"),
                    browser=str(options.get("browser") or "chromium"),
                    headed=bool(options.get("headed")),
                    connect=options.get("connect") or None,
                )
                driver = await self.pool.new_driver(backend)
                session = Session(name, self.home, driver, platform=backend.platform, clock=self.clock)
                session.ephemeral = ephemeral
                self.sessions[name] = session
                self.empty_since = None
        return session

    async def _crashed(self, name: str, session: Session, *, reopen: bool) -> None:
        """A session whose page or browser died: end it as a teardown would (a recording is written
        or kept for `replay close`); an `open` then starts it afresh, any other command says so."""
        shown = shown_name(name)
        log.warning("session %s: its browser page crashed; closing it", name)
        await self._teardown(name, session, "its browser crashed")
        if reopen:
            return
        raise BrowserUnavailable(
            f"the browser page of session {shown!r} crashed; the session was closed",
            hint="`replay open URL` starts it again (a recording it held was written, or is listed by "
            "`replay session list`)",
        )

    def _claim(self, name: str) -> None:
        """Before a new session takes ``name``: refuse over an orphaned recording, drop a stale journal."""
        left = orphans.load(self.home, name)
        if left is not None:
            shown = shown_name(name)
            flag = "" if shown == "default" else f" --session {shown}"
            raise InvalidArgs(
                f"session {shown!r} holds a recording of {left.actions} action(s) that a stopped daemon left",
                hint=f"`replay close{flag}` publishes it, `replay close{flag} --discard` drops it; "
                "or use another session name",
            )
        if os.path.exists(repair.repair_path(self.home, name)):
            return  # a repair's record: repair.recover and the tombstone rules own it
        orphans.forget(self.home, name)  # a crashed session that recorded nothing: its typed text goes

    async def _run(self, request: dict[str, Any]) -> Any:
        """``replay run``: plan, preflight (values, R2, resume, arming), then the runner on the session."""
        from replay.engine.runner import Runner, RunOptions
        from replay.script.resolve import unresolved, variables_for

        script, plan, display = runs.load_plan(request)
        requested = request.get("session")
        name = check_session_name(str(requested) if requested else f"run-{secrets.token_hex(3)}")
        artifacts = str(request.get("artifacts_dir") or os.path.join(self.home, "artifacts", name))
        shown = shown_name(name)
        from_step = request.get("from")
        if from_step is not None and (isinstance(from_step, bool) or not isinstance(from_step, int)):
            raise InvalidArgs(f"--from must be a step number, got {from_step!r}", hint="--from 7")
        if from_step is None and request.get("plan_digest"):
            raise InvalidArgs("--plan-digest checks a resume: it needs --from", hint="--from N --plan-digest D")
        session = self.sessions.get(name)
        given = runs.given_values(request, session if from_step is not None else None)
        values = variables_for(
            script, platform=plan.platform, session=shown, artifacts=artifacts, cli=given["cli"], shell=given["shell"]
        )
        problems = unresolved(script, values)
        if problems:
            raise problems[0]
        save_script = request.get("save_script")
        arming = save_script is not None and from_step is None
        if session is None and not arming:
            repair.check_tombstone(self.home, name)
        runs.check_continuation(session, shown, plan, from_step, request.get("plan_digest"))
        target = repair.check_arming(plan, display, str(request["path"]), str(save_script)) if arming else None
        session = await self._session(name, request, create=True, ephemeral=not requested, arming=arming)
        if target is not None:
            repair.arm(session, runs.new_transaction(script, plan, display, str(request["path"]), target, session))
        armed = session.repair is not None and session.repair.state == repair.ARMED
        options = RunOptions(
            start=int(from_step or 1),
            values=values,
            timeout_ms=check_ms("timeout", request.get("timeout")) or plan.timeout_ms,
            level=check_level(request.get("level") or "default"),
            artifacts_dir=artifacts,
            held=True if armed else None,
        )
        trace = request.get("trace_path")
        hidden = runs.secrets(plan, values) if trace else []
        deadline = check_ms("deadline_ms", request.get("deadline_ms"))
        async with session.lock:
            session.last_used = self.clock.now()
            session.cwd = str(request.get("cwd") or "") or None
            session.run_values = given
            session.plan, session.values = plan, values
            if trace:
                await session.driver.trace_start()
            runner = Runner(session, plan, options)
            try:
                result = await _within(runner.run(), deadline)
            except DivergenceError as err:
                err.details.setdefault("timings", [t.to_dict() for t in runner.timings])  # the steps before it
                await _evidence(session, request.get("screenshot_path"))
                session.diverged(err.source)
                if trace:
                    await session.driver.trace_stop(str(trace), hidden)
                raise
            except ReplayError as err:
                err.details.setdefault("timings", [t.to_dict() for t in runner.timings])
                await _evidence(session, request.get("screenshot_path"))
                if trace:
                    await session.driver.trace_stop(str(trace), hidden)
                if session.ephemeral and session.repair is None:  # a failed run keeps no session (a divergence does)
                    await self._forget(name, session)
                raise
            if trace:  # a passing run keeps its trace only when asked to
                await session.driver.trace_stop(str(trace) if request.get("trace_always") else None, hidden)
            session.outstanding = False
            if armed:
                repair.complete(session)  # R7: the plan ran through; a terminal close is skipped
        out = result.to_dict()
        out["session"] = shown
        if session.repair is not None:
            out["repair"] = {"state": session.repair.state, "target": session.repair.target}
        if session.ephemeral:
            closed = await self._close(name, None, discard=session.repair is None)
            if closed.get("healed"):
                out["healed"] = closed["healed"]
        return out

    async def _command(self, name: str, action: Action, options: dict[str, Any]) -> Any:
        session = await self._session(name, options, create=action.command == "open")
        async with session.lock:
            self._still_open(name, session)
            session.cwd = str(options.get("cwd") or "") or None
            if action.command == "open" and options.get("save_script") is not None:
                path = options["save_script"] or None
                session.start_recording(os.path.abspath(path) if path else None)
            timeout = check_ms("timeout", options.get("timeout"))
            values = {str(k): str(v) for k, v in _object(options, "values").items()}
            try:
                result = await step.execute(
                    session,
                    action,
                    timeout_ms=int(timeout) if timeout else None,
                    values=values,
                    text_only=options.get("textOnly") is True,
                )
            except step.StepStopped as stop:
                raise stop.error from None
            result["session"] = name
            result["recording"] = session.recording is not None
            return result

    async def _close(self, name: str, save_script: str | None, discard: bool, verify: bool = False) -> dict[str, Any]:
        session = self.sessions.get(name)
        if session is None:
            return self._close_left(name, save_script, discard)
        out: dict[str, Any] = {"closed": name, "script": None}
        async with session.lock:
            self._still_open(name, session)
            tx = session.repair
            if save_script and tx is None and session.recording is None:
                shown = shown_name(name)
                raise InvalidArgs(
                    f"session {shown!r} is not recording: --save-script has nothing to write (the session stays open)",
                    hint="record with `replay open URL --save-script=FILE`; close without --save-script",
                )
            if tx is not None:
                target = tx.target
                if save_script and tx.state == repair.COMPLETE:
                    tx.target = os.path.abspath(save_script)
                # reason None: the user closes it, so a failed commit fails loudly and the session stays
                try:
                    ending = repair.end(
                        self.home, name, tx, session.journal.since(tx.watermark), reason=None, discard=discard
                    )
                except ReplayError:
                    tx.target = target  # a failed close changes nothing, the target included
                    raise
                if ending.healed:
                    out["healed"] = ending.healed
                elif ending.aborted:
                    out["aborted"] = "the repair was incomplete: nothing was published (never a prefix)"
            elif session.recording is not None and not discard:
                out["script"] = session.write_recording(os.path.abspath(save_script) if save_script else None)
            run_values = session.run_values
            await self._forget(name, session)
            shutil.rmtree(os.path.join(self.home, "sessions", name), ignore_errors=True)
        if verify and out.get("healed"):
            out["verify"] = await self._verify(str(out["healed"]), run_values)
        return out

    def _still_open(self, name: str, session: Session) -> None:
        """A request that waited for a session's lock while another ended it: say so."""
        if self.sessions.get(name) is not session:
            raise SessionNotFound(
                f"session {shown_name(name)!r} was closed by another request meanwhile",
                hint="open it again with `replay open URL`",
            )

    def _close_left(self, name: str, save_script: str | None, discard: bool) -> dict[str, Any]:
        """``close`` of a session a stopped daemon left: its recovered repair, or its orphaned recording."""
        ended = self.recovered.pop(name, None)
        if ended is not None and ended.healed:
            shutil.rmtree(os.path.join(self.home, "sessions", name), ignore_errors=True)
            return {"closed": name, "script": None, "healed": ended.healed, "recovered": True}
        repair.check_tombstone(self.home, name)
        left = orphans.load(self.home, name)
        if left is None:
            raise SessionNotFound(f"no session {name!r} is open", hint="`replay session list` shows the open sessions")
        if discard:
            orphans.forget(self.home, name)
            return {"closed": name, "script": None, "recovered": True}
        written = left.publish(self.home, os.path.abspath(save_script) if save_script else None)
        out: dict[str, Any] = {"closed": name, "script": written, "recovered": True}
        if left.torn:
            out["warning"] = (
                f"{left.torn} journal line(s) were torn (a write cut short by a crash or a full disk) and skipped"
            )
        return out

    async def _verify(self, path: str, values: dict[str, dict[str, str]]) -> dict[str, Any]:
        """The acceptance gate: replay a script end to end in a fresh session."""
        request = {"path": path, "display": path, "values": values.get("cli", {}), "shell": values.get("shell", {})}
        try:
            result = await self._run(request)
        except DivergenceError as err:
            return {"passed": False, "divergence": err.divergence}
        return {"passed": True, "steps": result["ran"]}

    def _describe(self, session: Session) -> dict[str, Any]:
        return {
            "name": session.name,
            "url": session.driver.location(),
            "recording": session.recording is not None,
            "actions": session.journal.count,
            "idleSeconds": round(self.clock.now() - session.last_used, 1),
        }

    # lifecycle ----------------------------------------------------------------------------

    async def reap(self) -> None:
        """Every so often: close idle sessions, and stop once there have been none for ``linger`` seconds."""
        interval = max(0.2, min(5.0, self.idle_timeout / 4, self.linger / 2 if self.linger else 5.0))
        while not self.stop.is_set():
            await self.clock.sleep(interval)
            await self.reap_once()

    async def reap_once(self) -> None:
        """One look at the clock: tear down sessions idle past ``idle_timeout``; stop when empty long enough."""
        now = self.clock.now()
        for name, session in list(self.sessions.items()):
            if now - session.last_used > self.idle_timeout and not session.lock.locked():
                log.info("reaping idle session %s", name)
                await self._teardown(name, session, "reaped after being idle")
        if not self.sessions and not self.in_flight:
            if self.empty_since is None:
                self.empty_since = now
            elif now - self.empty_since >= self.linger:
                log.info("no sessions for %.1fs: exiting", self.linger)
                self.stop.set()

    async def _teardown(self, name: str, session: Session, reason: str) -> None:
        """An implicit end (reaped, shut down): a repair ends by R7; a plain recording is written."""
        async with session.lock:
            keep = False  # the journal stays for a repair's record, and for a recording not written
            if session.repair is not None:
                repair.end(
                    self.home, name, session.repair, session.journal.since(session.repair.watermark), reason=reason
                )
                keep = True
            elif session.recording is not None:
                try:
                    log.info("session %s: recording written to %s", name, session.write_recording())
                except ReplayError as err:
                    log.warning("session %s: recording not written (%s); kept for `replay close`", name, err.code)
                    keep = True  # an orphaned recording, for `replay close` to publish later
            await self._forget(name, session, keep_journal=keep)

    async def _forget(self, name: str, session: Session, *, keep_journal: bool = False) -> None:
        """The session is gone: its browser context closes, and its journal (typed text) goes unless kept."""
        await session.close()
        if not keep_journal:
            orphans.forget(self.home, name)
        self.sessions.pop(name, None)
        if not self.sessions:
            self.empty_since = self.clock.now()

    async def shutdown(self) -> None:
        """Cancel the requests still running, tear every session down and stop the browsers."""
        for task in list(self.requests):
            task.cancel()
        if self.requests:
            await asyncio.wait(list(self.requests), timeout=10)
        for name, session in list(self.sessions.items()):
            await self._teardown(name, session, "daemon shut down")
        await self.pool.stop()


def _object(request: dict[str, Any], key: str) -> dict[str, Any]:
    """A request's field that must be a JSON object (absent: empty)."""
    value = request.get(key)
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidArgs(f"bad request: {key!r} must be a JSON object", hint="a JSON object per line")
    return value


def _bad_request() -> dict[str, Any]:
    return {"ok": False, "error": InvalidArgs("bad request: a JSON object per line").to_dict()}


async def _evidence(session: Session, screenshot: Any) -> None:
    """The screen where a run stopped, for a suite's artifacts (best effort: evidence, not the outcome)."""
    if not screenshot:
        return
    try:
        await asyncio.wait_for(session.driver.screenshot(str(screenshot), False), 10)
    except Exception:  # noqa: BLE001 - e.g. a crashed page; the run's own error says what happened
        log.warning("no screenshot of %s where its run stopped", session.name)


async def _within(run: Coroutine[Any, Any, RunResult], deadline_ms: int | None) -> RunResult:
    """Await a run, stopped where it is once ``deadline_ms`` has passed (``replay test --timeout``)."""
    if deadline_ms is None:
        return await run
    try:
        return await asyncio.wait_for(run, deadline_ms / 1000)
    except TimeoutError:
        raise Timeout(
            f"the script did not finish within its {deadline_ms} ms timeout",
            hint="raise --timeout, or find the slow steps in the attempt's timing.ndjson",
        ) from None


async def _unless_abandoned(
    daemon: Daemon,
    handling: Coroutine[Any, Any, dict[str, Any]],
    reader: asyncio.StreamReader,
    writer: asyncio.StreamWriter,
) -> tuple[dict[str, Any] | None, bytes]:
    """Handle a request, cancelled if its client disconnects first (an interrupted `replay wait`):
    a client that went away must not keep its session locked (SPEC §12). A client sends nothing
    while it waits, so end-of-file on its connection means it is gone.

    Returns the answer (None: the client went away) and the first byte of a next request the
    client sent while waiting (b"" if none), which begins the next line read.
    """
    task = asyncio.ensure_future(handling)
    daemon.requests.add(task)
    task.add_done_callback(daemon.requests.discard)
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


async def _serve_connection(daemon: Daemon, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
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
                    response = _bad_request()
                else:
                    try:
                        answered, early = await _unless_abandoned(daemon, daemon.handle(request), reader, writer)
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
    """Create $REPLAY_HOME private to the user (0700); a home another user owns is refused."""
    check_home(home)
    os.makedirs(home, mode=0o700, exist_ok=True)
    check_home(home)  # made by someone else between the look and the make
    os.chmod(home, 0o700)


async def run(home: str, idle_timeout: float, linger: float) -> int:
    """Serve until stopped; returns the exit status."""
    prepare_home(home)
    lock_fd = os.open(os.path.join(home, "daemon.lock"), os.O_RDWR | os.O_CREAT, 0o600)
    if not await _take_lock(lock_fd, home):
        return 0  # another daemon owns this home and serves it
    path = socket_path(home)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(path)  # stale socket of a crashed daemon: we hold the lock, so nobody serves it
    daemon = Daemon(home, idle_timeout=idle_timeout, linger=linger)
    clear_staging(home)  # what a killed daemon was publishing: its journal still holds it
    daemon.recovered = repair.recover(home)
    with open(os.path.join(home, "daemon.pid"), "w") as fh:  # before the socket: a full disk fails here
        fh.write(str(os.getpid()))
    old_umask = os.umask(0o177)
    try:
        server = await asyncio.start_unix_server(
            lambda r, w: _serve_connection(daemon, r, w), path=path, limit=MAX_MESSAGE + 1
        )
    finally:
        os.umask(old_umask)
    os.chmod(path, 0o600)
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, daemon.stop.set)
    reaper = asyncio.create_task(daemon.reap())
    log.info("daemon %s serving %s", os.getpid(), path)
    try:
        await daemon.stop.wait()
    finally:
        # first the socket: a client from now on starts a new daemon, which waits for our lock
        with contextlib.suppress(FileNotFoundError):
            os.unlink(path)
        server.close()
        reaper.cancel()
        await daemon.shutdown()
        with contextlib.suppress(FileNotFoundError):
            os.unlink(os.path.join(home, "daemon.pid"))
        os.close(lock_fd)
    return 0


def main(argv: list[str] | None = None) -> None:
    """Entry point of the daemon process."""
    parser = argparse.ArgumentParser(prog="replay-daemon")
    parser.add_argument("--home", required=True)
    parser.add_argument("--idle-timeout", type=float, default=float(os.environ.get("REPLAY_IDLE_TIMEOUT", 1800)))
    parser.add_argument("--linger", type=float, default=float(os.environ.get("REPLAY_DAEMON_LINGER", 5)))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    try:
        sys.exit(asyncio.run(run(os.path.abspath(args.home), args.idle_timeout, args.linger)))
    except ReplayError as err:  # e.g. a home another user owns: refused, said once
        log.error("%s: %s (%s)", err.code, err.message, err.hint)
        sys.exit(1)
    except OSError as exc:  # a full disk, a read-only home: nothing served, said once
        log.error("IO_ERROR: cannot serve %s: %s", args.home, exc.strerror or exc)
        sys.exit(1)


if __name__ == "__main__":
    main()
