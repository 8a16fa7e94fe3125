"""The per-user session daemon: it holds the sessions and routes each typed request (``replay.session.requests``)
to its handler; the socket is ``replay.session.server``'s, the backends ``replay.session.pool``'s.

    python -m replay.session.daemon --home ~/.replay [--idle-timeout 1800] [--linger 5]
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import logging
import os
import shutil
import sys
from collections.abc import Awaitable, Callable
from typing import Any

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
    ReplayError,
    SessionNotFound,
)
from replay.platforms import DEFAULT_PLATFORM
from replay.script import apps
from replay.script.ast import Action
from replay.script.parser import parse_action, parse_argv
from replay.script.plan import open_problem
from replay.session import by_hand, gate, orphans, publish, repair, requests, run_request
from replay.session.heal_builtin import perform
from replay.session.pool import BackendPool
from replay.session.protocol import session_dir, shown_name
from replay.session.publish import clear_staging
from replay.session.server import serve
from replay.session.session import Session

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
        # one handler per operation (``replay.session.contract``)
        self._handlers: dict[str, Callable[[Any], Awaitable[Any]]] = {
            "ping": self._ping,
            "sessions": self._list,
            "shutdown": self._shutdown,
            "run": self._run,
            "divergence": self._divergence,
            "heal_builtin": self._heal_builtin,
            "close": self._close_request,
            "command": self._command_request,
            "record": self._record,
            "record_events": self._record_events,
        }
        self.by_hand: dict[str, by_hand.ByHand] = {}  # recordings by hand, kept for their events after they end

    def recover(self) -> None:
        """What a killed daemon left: its publishing staging (its journal still holds it) cleared, its
        repairs ended (a complete one committed, an incomplete one tombstoned)."""
        clear_staging(self.home)
        self.recovered = repair.recover(self.home)

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

    async def _dispatch(self, obj: dict[str, Any]) -> Any:
        request = requests.parse(obj)
        return await self._handlers[request.op](request)

    async def _ping(self, _: requests.Request) -> Any:
        # in flight: the requests being served besides this ping
        return {"pid": os.getpid(), "sessions": len(self.sessions), "inFlight": self.in_flight - 1}

    async def _list(self, _: requests.Request) -> Any:
        live = [s.describe(self.clock.now()) for s in self.sessions.values()]
        left = [
            {"name": o.name, "recording": True, "orphaned": True, "actions": o.actions, "target": o.target}
            for o in orphans.find(self.home, set(self.sessions))
        ]
        return {"sessions": live + left}

    async def _shutdown(self, _: requests.Request) -> Any:
        self.stop.set()
        return {"stopping": True}

    async def _divergence(self, request: requests.ShowDivergence) -> Any:
        session = await self._session(request.session, create=False)
        if session.last_divergence is None:
            raise InvalidArgs("this session has no divergence", hint="`replay run FLOW.ad --session NAME` first")
        return {"divergence": session.last_divergence.to_dict(request.level)}

    async def _heal_builtin(self, request: requests.HealBuiltin) -> Any:
        session = await self._session(request.session, create=False)
        async with session.lock:
            return await perform(session, trial=bool(request.trial))

    async def _close_request(self, request: requests.Close) -> Any:
        return await self._close(request.session, request.save_script, request.discard, request.verify)

    async def _command_request(self, request: requests.Command) -> Any:
        if request.line is not None:  # a script line: script semantics (${VAR} references are references)
            action = parse_action(request.line, Location("<line>", 1))
        else:  # shell words typed interactively: literal text
            action = parse_argv(list(request.argv or []))
        return await self._command(request.session, action, request.options)

    async def _record(self, request: requests.Record) -> Any:
        """`replay record URL` (design §16): a recording session whose browser a person drives."""
        if request.session in self.sessions:
            shown = shown_name(request.session)
            raise InvalidArgs(f"session {shown!r} is open already", hint="close it, or record with --session NAME")
        if (request.url is None) == (request.flow is None):
            raise InvalidArgs("record starts at a URL or continues a flow: give one of them", hint="replay record URL")
        if request.options.save_script:  # checked before the browser opens: one that can't be written never starts
            publish.check_target(request.options.save_script, hint="-o another path, or move the existing file away")
        options = request.options.replace(save_script=request.options.save_script or "")
        recording = "hidden" if request.headless else "shown"
        try:
            if request.flow is None:
                opened = await self._command(
                    request.session, parse_argv(["open", str(request.url)]), options, recording=recording
                )
            else:  # its first steps replay, verified, in the recording session: the script's first steps
                ready = by_hand.prefix(self.home, self.sessions, request)
                opened = await self._command(
                    request.session, parse_argv(["open", "about:blank"]), options, recording=recording
                )
                await by_hand.replay_prefix(self.sessions[request.session], ready, request, self._forget)
            closed = functools.partial(self._close, request.session, None, False)
            recorder = await by_hand.attach(self.sessions[request.session], closed, by_hand.names_in_use(request))
        except ReplayError:  # a recording that could not start leaves nothing behind
            if request.session in self.sessions:
                await self._close(request.session, None, discard=True)
            raise
        self.by_hand[request.session] = self.sessions[request.session].by_hand = recorder
        return {**opened, "session": shown_name(request.session), "devtools": recorder.hands.devtools()}

    async def _record_events(self, request: requests.RecordEvents) -> Any:
        recorder = self.by_hand.get(request.session)
        if recorder is None:
            raise SessionNotFound(f"session {shown_name(request.session)!r} records nothing by hand")
        return await recorder.read(request.since, request.wait_ms / 1000)

    async def _session(
        self,
        name: str,
        backend: BackendOptions | None = None,
        *,
        create: bool,
        ephemeral: bool = False,
        arming: bool = False,
    ) -> Session:
        """The open session ``name``; with ``create``, made on ``backend`` when there is none."""
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
                backend = backend or BackendOptions.of(DEFAULT_PLATFORM)
                driver = await self.pool.new_driver(backend)
                session = Session(name, self.home, driver, platform=backend.platform, clock=self.clock)
                session.ephemeral = ephemeral
                self.sessions[name] = session
                self.empty_since = None
        return session

    async def _crashed(self, name: str, session: Session, *, reopen: bool) -> None:
        """A dead page or browser: the session ends as in a teardown; `open` starts it afresh, else said."""
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

    async def _run(self, request: requests.Run) -> Any:
        """``replay run``: the preflight (``run_request.prepare``), then the runner on its session."""
        ready = run_request.prepare(self.home, self.sessions, request)
        backend = BackendOptions.of(ready.plan.platform, request.backend)
        session = await self._session(
            ready.name, backend, create=True, ephemeral=not request.session, arming=ready.target is not None
        )
        if ready.target is not None:
            tx = run_request.new_transaction(
                ready.script, ready.plan, ready.display, request.path, ready.target, session
            )
            repair.arm(session, tx)
        armed = session.repair is not None and session.repair.state == repair.ARMED
        async with session.lock:
            result = await run_request.run_locked(session, request, ready, armed, self.clock, self._forget)
        out = result.to_dict()
        out["session"] = ready.shown
        if session.repair is not None:
            out["repair"] = {"state": session.repair.state, "target": session.repair.target}
        if session.ephemeral:
            closed = await self._close(ready.name, None, discard=session.repair is None)
            if closed.get("healed"):
                out["healed"] = closed["healed"]
        return out

    async def _command(
        self, name: str, action: Action, options: requests.CommandOptions, *, recording: str = ""
    ) -> Any:
        backend = BackendOptions.of(options.platform, options.backend, recording=recording)
        if (problem := open_problem(action, options.platform)) is not None:  # before any device is asked
            raise InvalidArgs(f"open: {problem}", hint=apps.HINT)
        session = await self._session(name, backend, create=action.command == "open")
        try:
            async with session.lock:
                self._still_open(name, session)
                session.cwd = options.cwd or None
                if action.command == "open" and options.save_script is not None:
                    path = options.save_script or None
                    session.start_recording(os.path.abspath(path) if path else None, self.sessions.values())
                try:
                    result = await step.execute(
                        session, action, timeout_ms=options.timeout, values=options.values, text_only=options.text_only
                    )
                except step.StepStopped as stop:
                    raise stop.error from None
                result["session"] = name
                result["recording"] = session.recording is not None
                return result
        except BrowserUnavailable:  # the browser died under the step: the session ends, as a crash does
            if session.driver.alive() or self.sessions.get(name) is not session:
                raise
            await self._crashed(name, session, reopen=False)
            raise

    async def _close(self, name: str, save_script: str | None, discard: bool, verify: bool = False) -> dict[str, Any]:
        session = self.sessions.get(name)
        if session is None:
            return orphans.close_left(self.home, self.recovered.pop(name, None), name, save_script, discard)
        out: dict[str, Any] = {"closed": name, "script": None}
        final = ""
        if session.by_hand is not None and not discard:  # the text typed last, and gestures on their way
            await session.by_hand.finish()
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
                final = os.path.abspath(save_script) if save_script and tx.state == repair.COMPLETE else target
                gated = verify and tx.state == repair.COMPLETE and not discard
                tx.target = gate.check_free(final) if gated else final  # a gated heal: staged until it passes
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
                out["script"] = await session.write_recording(os.path.abspath(save_script) if save_script else None)
                out["unwritten"] = session.unwritten  # (steps kept only as comments: none, mostly)
            run_values = session.run_values
            await self._forget(name, session)
            shutil.rmtree(session_dir(self.home, name), ignore_errors=True)
        if verify and out.get("healed"):
            replay = functools.partial(self._verify, values=run_values)
            out.update(await gate.judge(str(out.pop("healed")), final, self.home, replay, tx.script if tx else None))
        return out

    def _still_open(self, name: str, session: Session) -> None:
        """A request that waited for a session's lock while another ended it: say so."""
        if self.sessions.get(name) is not session:
            raise SessionNotFound(
                f"session {shown_name(name)!r} was closed by another request meanwhile",
                hint="open it again with `replay open URL`",
            )

    async def _verify(self, path: str, values: dict[str, dict[str, str]]) -> dict[str, Any]:
        """The acceptance gate: replay a script end to end in a fresh session."""
        given = {"path": path, "display": path, "values": values.get("cli", {}), "shell": values.get("shell", {})}
        request = requests.make("run", given)
        try:
            result = await self._run(request)
        except DivergenceError as err:
            return {"passed": False, "divergence": err.divergence}
        return {"passed": True, "steps": result["ran"], "planDigest": result["planDigest"]}

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
                    log.info("session %s: recording written to %s", name, await session.write_recording())
                    for said in session.unwritten:
                        log.warning("session %s: %s", name, said)
                except ReplayError as err:
                    log.warning("session %s: recording not written (%s); kept for `replay close`", name, err.code)
                    keep = True  # an orphaned recording, for `replay close` to publish later
            await self._forget(name, session, keep_journal=keep)

    async def _forget(self, name: str, session: Session, *, keep_journal: bool = False) -> None:
        """The session is gone: its browser context closes, and its journal (typed text) goes unless kept."""
        if session.by_hand is not None:
            session.by_hand.end(session.published, session.unwritten)
        await session.close()
        await self.pool.release(session.driver)
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


def main(argv: list[str] | None = None) -> None:
    """Entry point of the daemon process."""
    parser = argparse.ArgumentParser(prog="replay-daemon")
    parser.add_argument("--home", required=True)
    parser.add_argument("--idle-timeout", type=float, default=float(os.environ.get("REPLAY_IDLE_TIMEOUT", 1800)))
    parser.add_argument("--linger", type=float, default=float(os.environ.get("REPLAY_DAEMON_LINGER", 5)))
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(levelname)s %(message)s", stream=sys.stderr)
    try:
        home = os.path.abspath(args.home)
        sys.exit(asyncio.run(serve(home, lambda: Daemon(home, idle_timeout=args.idle_timeout, linger=args.linger))))
    except ReplayError as err:  # e.g. a home another user owns: refused, said once
        log.error("%s: %s (%s)", err.code, err.message, err.hint)
        sys.exit(1)
    except OSError as exc:  # a full disk, a read-only home: nothing served, said once
        log.error("IO_ERROR: cannot serve %s: %s", args.home, exc.strerror or exc)
        sys.exit(1)


if __name__ == "__main__":
    main()
