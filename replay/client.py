"""The thin client: talks to the session daemon over its Unix socket, starting it on demand.

Imports only the standard library and our light modules, so ``replay click @e3`` stays fast.
"""

from __future__ import annotations

import _socket  # the C socket type: socket.py's enum conversions cost ~5 ms of every command
import contextlib
import contextvars
import json
import os
import sys
import time

from replay import processes
from replay.errors import Cancelled, DaemonUnavailable, InvalidArgs, ReplayError, SessionNotFound, from_dict
from replay.results import Closed, RecordEvents, RunResult, SessionEntry, StepResult
from replay.session.protocol import (
    LEFT_BEHIND,
    MAX_MESSAGE,
    SILENCE_S,
    check_daemon_env,
    check_home,
    check_peer,
    check_session_name,
    replay_home,
    session_dir,
    session_dirs,
    session_key,
    socket_path,
)

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from typing import Any

START_TIMEOUT_S = 20.0


class Cancel:
    """A caller's way to withdraw the requests made on its behalf from another thread (MCP's
    ``notifications/cancelled``, an MCP client gone): ``cancel()`` shuts the connections of the
    requests under way, so the daemon sees its client go and cancels them (design §12), and every
    later request raises ``CANCELLED`` before it is sent. Set with ``CANCELLING`` (a context
    variable: ``asyncio.to_thread`` and ``contextvars.copy_context`` carry it into a thread)."""

    def __init__(self) -> None:
        self.cancelled = False
        self.open: set[_socket.socket] = set()

    def cancel(self) -> None:
        self.cancelled = True
        for sock in list(self.open):
            with contextlib.suppress(OSError):
                sock.shutdown(_socket.SHUT_RDWR)

    def check(self) -> None:
        if self.cancelled:
            raise Cancelled("the request was cancelled by its caller", hint="nothing more was sent to the daemon")


NEVER = Cancel()  # the requests of a caller that never withdraws them (the CLI)
CANCELLING: contextvars.ContextVar[Cancel] = contextvars.ContextVar("replay_cancelling", default=NEVER)
RETRIES_WHILE_EXITING = 100  # × 50 ms: a daemon that is exiting takes a moment to go
_FAST_OPTIONS = frozenset({"timeout", "textOnly", "values"})  # a command's options the fast path sends


class Client:
    """Operations on one session of the per-user daemon; errors raise our ``ReplayError`` family."""

    def __init__(
        self,
        session: str | None = None,
        *,
        home: str | None = None,
        cwd: str | None = None,
        fresh: bool = False,
        backend: dict[str, Any] | None = None,
    ) -> None:
        """``fresh``: `run` always gets a new ephemeral session, whatever REPLAY_SESSION says (a verification,
        a suite attempt, a heal's acceptance). ``backend``: the backends' options its sessions are made
        with where a call gives none (``{"serial": "emulator-5554"}``; else each option's environment
        variable, e.g. ``ANDROID_SERIAL``)."""
        self.backend = dict(backend or {})
        self.home = os.path.abspath(home or replay_home())
        name = session or os.environ.get("REPLAY_SESSION")
        if name is not None:
            check_session_name(name)
        self.session = session_key(name, cwd or os.getcwd())
        self.explicit = name is not None and not fresh  # `run` uses an ephemeral session unless one is named
        self.cwd = cwd or os.getcwd()

    # transport ----------------------------------------------------------------------------

    def _connect(self) -> _socket.socket:
        check_home(self.home)  # never talk to a socket in another user's home
        path = socket_path(self.home)
        sock = _socket.socket(_socket.AF_UNIX, _socket.SOCK_STREAM)
        sock.settimeout(SILENCE_S)  # a daemon at work says so every HEARTBEAT_S
        try:
            sock.connect(path)
            check_peer(sock, self.home)
        except BaseException:
            sock.close()
            raise
        return sock

    def _spawn(self) -> Any:
        """Start a daemon for this home; returns its process."""
        import subprocess  # only to start a daemon: kept off the import path of every command

        check_daemon_env(os.environ)
        try:
            os.makedirs(self.home, mode=0o700, exist_ok=True)
            check_home(self.home)
            log = open(os.path.join(self.home, "daemon.log"), "ab")  # noqa: SIM115 - handed to the child
        except OSError as exc:
            raise DaemonUnavailable(
                f"cannot start the session daemon in {self.home}: {exc.strerror}",
                hint="REPLAY_HOME must be a directory you can write (or unset it for ~/.replay)",
            ) from None
        with log:
            return subprocess.Popen(
                [sys.executable, "-m", "replay.session.daemon", "--home", self.home],
                stdin=subprocess.DEVNULL,
                stdout=log,
                stderr=log,
                start_new_session=True,
                close_fds=True,
            )

    def _connect_or_start(self) -> _socket.socket:
        try:
            return self._connect()
        except (FileNotFoundError, ConnectionRefusedError):
            pass  # no daemon, or the stale socket of a crashed one: the new daemon replaces it
        child = self._spawn()
        deadline = time.monotonic() + START_TIMEOUT_S
        while True:
            try:
                return self._connect()
            except (FileNotFoundError, ConnectionRefusedError):
                if child.poll() not in (None, 0):  # it failed to start: say why now, not after the wait
                    raise DaemonUnavailable(
                        f"the session daemon did not start: {_last_line(os.path.join(self.home, 'daemon.log'))}",
                        hint=f"see {os.path.join(self.home, 'daemon.log')}",
                    ) from None
                if time.monotonic() > deadline:
                    raise DaemonUnavailable(
                        "the session daemon did not start",
                        hint=f"see {os.path.join(self.home, 'daemon.log')}",
                    ) from None
                time.sleep(0.05)

    def request(self, payload: dict[str, Any], *, start: bool = True, attempt: int = 0) -> Any:
        """Send one request; return its result or raise its error."""
        line = json.dumps(payload).encode("utf-8") + b"\n"
        if len(line) > MAX_MESSAGE:
            raise InvalidArgs(
                f"the request is {len(line) // (1024 * 1024)} MiB; the limit is {MAX_MESSAGE // (1024 * 1024)} MiB",
                hint="pass less text (a script's values and typed text go in one request)",
            )
        if start:
            sock = self._connect_or_start()
        else:
            try:
                sock = self._connect()
            except (FileNotFoundError, ConnectionRefusedError):
                raise DaemonUnavailable(
                    "no session daemon is running",
                    hint="open a session with `replay open URL`",
                    details={"absent": True},
                ) from None
        data = b""
        cancel = CANCELLING.get()
        cancel.open.add(sock)
        try:
            cancel.check()
            sock.sendall(line)
            while not data.endswith(b"\n"):
                chunk = sock.recv(1 << 16)
                if not chunk:
                    break
                data = (data + chunk).lstrip(b"\n")  # heartbeats: the daemon is still at work
        except OSError as exc:  # a timeout, a reset: the daemon died or hangs
            cancel.check()
            raise DaemonUnavailable(
                f"no answer from the session daemon ({exc.__class__.__name__})",
                hint=f"see {os.path.join(self.home, 'daemon.log')}",
            ) from None
        finally:
            cancel.open.discard(sock)
            sock.close()
        if not data.endswith(b"\n"):
            cancel.check()  # shut by cancel(): the daemon has cancelled the request
        if not data:
            raise DaemonUnavailable("the session daemon closed the connection", hint="retry; see daemon.log")
        response = json.loads(data)  # the daemon's envelope: {"ok": true, "result": …} or {"ok": false, "error": …}
        if response["ok"]:
            return response["result"]
        error = from_dict(response["error"])
        if error.details and error.details.get("retry") and start and attempt < RETRIES_WHILE_EXITING:
            # it was exiting (idle) and did nothing: the next connection starts a new daemon
            time.sleep(0.05)
            return self.request(payload, start=start, attempt=attempt + 1)
        raise error

    # operations ---------------------------------------------------------------------------

    def command(self, *argv: str, **options: Any) -> StepResult:
        """Run one command (``client.command("click", "@e3")``); ``options``: a command's (``timeout``,
        ``values``, ``platform``, ``save_script`` …: ``session.contract.COMMAND_OPTIONS``) and, for
        ``open``, the backends' (``headed=True``, ``serial="emulator-5554"`` …)."""
        opening = argv[:1] == ("open",)
        payload = {
            "op": "command",
            "session": self.session,
            "argv": list(argv),
            "options": self._command_options(options, opening),
        }
        return StepResult(self._session_request(payload, start=opening))

    def _command_options(self, options: dict[str, Any], opening: bool) -> dict[str, Any]:
        """A command's ``options`` on the wire: the caller's directory, its backend's options when it opens."""
        if not opening and _FAST_OPTIONS.issuperset(options):
            return {"cwd": self.cwd, **options}  # (the fast path's: the contract is not even imported)
        from replay.session.contract import COMMAND_OPTIONS

        return {"cwd": self.cwd, **self._given("command", COMMAND_OPTIONS, options, opening)}

    def _payload(self, op: str, **options: Any) -> dict[str, Any]:
        """The request ``op`` on this session with ``options`` (its declared ones: ``session.contract``)."""
        from replay.session.contract import OPERATIONS

        given = self._given(op, OPERATIONS[op], options, backend=False)
        return {"op": op, "session": self.session, **given}

    def _given(self, op: str, declared: Any, options: dict[str, Any], backend: bool = True) -> dict[str, Any]:
        """``options`` (Python names) as ``op``'s wire keys, the caller's paths made absolute, and — for an
        op that makes a session (``backend``) — the backends' options in ``backend`` (each defaulting to its
        environment variable); an option nobody declares is refused."""
        by_name = {key: o for o in declared if o.caller and o.name != "backend" for key in (o.name, o.wire)}
        out: dict[str, Any] = {}
        rest: dict[str, Any] = {}
        for name, value in options.items():
            option = by_name.get(name)
            if option is None:
                rest[name] = value
            else:
                out[option.wire] = self._abspath(value) if option.path and value else value
        if not backend:
            if rest:
                raise InvalidArgs(f"{op}: no option {next(iter(rest))!r}", hint=f"see `replay {op} --help`")
            return out
        from replay.options import backend_options  # (only where a session is made: the backends' packages)

        backends = {o.name: o for o in backend_options()}
        chosen = {**self.backend, **(rest.pop("backend", None) or {})}
        for name, value in rest.items():
            if name not in backends:
                raise InvalidArgs(f"{op}: no option {name!r}", hint=f"see `replay {op} --help`")
            if value is not None:
                chosen[name] = value
        for option in backends.values():
            if chosen.get(option.name) is None and option.env and os.environ.get(option.env):
                chosen[option.name] = os.environ[option.env]
        out["backend"] = {k: v for k, v in chosen.items() if v is not None}
        return out

    def _session_request(self, payload: dict[str, Any], *, start: bool) -> dict[str, Any]:
        try:
            return dict(self.request(payload, start=start))
        except DaemonUnavailable as err:
            if start or not (err.details or {}).get("absent"):
                raise  # a daemon that is there but does not answer is not "no session"
            if self._left_behind(self.session):
                # a repair or a recording outlived its daemon: start one, which recovers it and answers for it
                return dict(self.request(payload, start=True))
            # no daemon means no session: say so in the user's terms
            raise SessionNotFound(
                "no session is open", hint="start one with `replay open URL` (add --session NAME to name it)"
            ) from None

    def run(self, path: str, **options: Any) -> RunResult:
        """Replay a script; raises ``DivergenceError`` (with ``.divergence``) when the app drifted.

        ``options``: ``replay run``'s, by their Python names (``session.contract.RUN``, each with its
        help: ``timeout``, ``values``, ``level``, ``save_script`` — ``""`` for ``<stem>.healed.ad``, arming
        a repair —, ``trace_path`` and ``trace_always``, ``deadline_ms``, ``screenshot_path``,
        ``artifacts_dir``, ``effects`` …), and the backends' (``headed=True``, ``serial=…``)."""
        from replay.session.contract import RUN

        payload = {
            "op": "run",
            "path": self._abspath(path),
            "display": path,
            "cwd": self.cwd,
            "session": self.session if self.explicit else None,
            "shell": {k: v for k, v in os.environ.items() if k.startswith("REPLAY_VAR_")},
            **self._given("run", RUN, options),
        }
        return RunResult(self.request(payload, start=True))

    def heal_builtin(self, *, trial: bool = False) -> StepResult:
        """The built-in healer performs the diverged step in this session, or abstains (``acted``); with
        ``trial`` a candidate named otherwise than the recorded element is left to a trial."""
        return StepResult(self._session_request(self._payload("heal_builtin", trial=trial), start=False))

    def divergence(self, level: str = "default") -> dict[str, Any]:
        """The session's latest divergence, projected at ``level`` (the same object `run` raised)."""
        payload = self._payload("divergence", level=level)
        return dict(self._session_request(payload, start=False)["divergence"])

    def _abspath(self, path: str) -> str:
        return os.path.abspath(os.path.join(self.cwd, path))

    def run_line(self, line: str, **options: Any) -> StepResult:
        """Run one `.ad` script line (``${VAR}`` resolved from ``options["values"]``)."""
        payload = {"op": "command", "session": self.session, "line": line, "options": {"cwd": self.cwd, **options}}
        return StepResult(self._session_request(payload, start=line.lstrip().startswith("open")))

    def open(self, url: str, *, save_script: str | None = None, relaunch: bool = False, **options: Any) -> StepResult:
        """Open URL in the session (creating it); ``save_script=""`` records to the default path."""
        argv = ["open", url] + (["--relaunch"] if relaunch else [])
        if save_script is not None:
            options["save_script"] = save_script
        return self.command(*argv, **options)

    def record(
        self,
        url: str | None,
        *,
        save_script: str | None = None,
        headless: bool = False,
        flow: str | None = None,
        start: int | None = None,
        values: dict[str, str] | None = None,
        **backend: Any,
    ) -> StepResult:
        """Start recording by hand (design §16) on ``url``, or after replaying ``flow``'s steps before
        ``start``: the answer carries the browser's ``devtools`` endpoint. ``headless``: no window (a
        program drives it over DevTools: tests); ``backend``: the backend's options."""
        from replay.session.contract import COMMAND_OPTIONS

        given = {"save_script": save_script or "", "values": values or {}, **backend}
        options = {"cwd": self.cwd, **self._given("record", COMMAND_OPTIONS, given)}
        payload: dict[str, Any] = {
            "op": "record",
            "session": self.session,
            "url": url,
            "options": options,
            "headless": headless,
            # the shell's REPLAY_VAR_* values: a flow's steps use them, and a secret is never named as one
            "shell": {k: v for k, v in os.environ.items() if k.startswith("REPLAY_VAR_")},
        }
        if flow is not None:
            payload.update({"flow": self._abspath(flow), "from": start})
        return StepResult(self._session_request(payload, start=True))

    def record_events(self, since: int = 0, *, wait_ms: int = 1000) -> RecordEvents:
        """A recording by hand's events from number ``since`` on: ``{"events", "next", "ended"}``."""
        payload = self._payload("record_events", since=since, wait_ms=wait_ms)
        return RecordEvents(self._session_request(payload, start=False))

    def snapshot(self, *, interactive: bool = False, scope: str | None = None) -> StepResult:
        """Capture and issue refs."""
        argv = ["snapshot"] + (["-i"] if interactive else []) + (["-s", scope] if scope else [])
        return self.command(*argv)

    def click(self, target: str) -> StepResult:
        """Click a ref or selector."""
        return self.command("click", target)

    def fill(self, target: str, text: str) -> StepResult:
        """Clear and type into a field."""
        return self.command("fill", target, text)

    def press(self, key: str) -> StepResult:
        """Press a key or chord."""
        return self.command("press", key)

    def close(self, **options: Any) -> Closed:
        """Close the session: a complete repair publishes its healed script, a recording its script.
        ``options``: ``save_script`` (a path: the script goes there instead), ``discard``, ``verify``."""
        return Closed(self._session_request(self._payload("close", **options), start=False))

    def sessions(self) -> list[SessionEntry]:
        """The open sessions, and the recordings a stopped daemon left (``orphaned``)."""
        try:
            return [SessionEntry(s) for s in self.request({"op": "sessions"}, start=False)["sessions"]]
        except ReplayError as err:
            if err.code != "DAEMON_UNAVAILABLE":
                raise
        if any(self._left_behind(n) for n in session_dirs(self.home)):
            return [SessionEntry(s) for s in self.request({"op": "sessions"}, start=True)["sessions"]]
        return []

    def _left_behind(self, session: str) -> bool:
        """Whether a stopped daemon left this session a repair, its tombstone or a recording."""
        left = session_dir(self.home, session)
        return any(os.path.exists(os.path.join(left, f)) for f in LEFT_BEHIND)

    def shutdown(self, timeout: float = 15.0) -> bool:
        """Stop the daemon (its sessions are torn down) and wait until its process has exited; False when
        none was running. A daemon whose process runs but does not answer (wedged) is not said stopped:
        ``DaemonUnavailable`` names its pid."""
        try:
            pid = int(self.request({"op": "ping"}, start=False)["pid"])
        except DaemonUnavailable as exc:
            wedged = None if exc.details.get("absent") else self._pid()
            if wedged is None or not processes.running(wedged):
                return False  # no daemon is running (a crashed one's socket at most)
            raise DaemonUnavailable(
                f"the session daemon (pid {wedged}) runs but does not answer: it was not stopped",
                hint=f"`kill {wedged}` stops it (what its sessions did not write is lost); see "
                f"{os.path.join(self.home, 'daemon.log')}",
            ) from None
        with contextlib.suppress(DaemonUnavailable):  # (it may close the connection as it goes)
            self.request({"op": "shutdown"}, start=False)
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline and processes.running(pid):
            time.sleep(0.05)
        if processes.running(pid):
            raise DaemonUnavailable(
                f"the session daemon (pid {pid}) did not stop within {timeout:.0f} s",
                hint=f"see {os.path.join(self.home, 'daemon.log')}; `kill {pid}` stops it",
            )
        return True

    def _pid(self) -> int | None:
        """The pid the daemon of this home wrote, if it wrote one."""
        try:
            with open(os.path.join(self.home, "daemon.pid")) as fh:
                return int(fh.read().strip())
        except (OSError, ValueError):
            return None


def _last_line(path: str) -> str:
    """The last line of a log (what a daemon that exited said last)."""
    try:
        with open(path, "rb") as fh:
            fh.seek(0, os.SEEK_END)
            fh.seek(max(0, fh.tell() - 4096))
            lines = fh.read().decode("utf-8", "replace").strip().splitlines()
    except OSError:
        return "it left no log (is the disk full or read-only?)"
    return lines[-1] if lines else "it left no log (is the disk full or read-only?)"
