"""The error family: one class per error code, each with the exit code of design §6.

Every expected failure reaching a user is a ``ReplayError``; surfaces (CLI, JSON,
client, MCP) only project it. OS errors are mapped here; a backend maps its own library's errors
(Playwright's: ``replay.drivers.web.errors``), nowhere else.
"""

from __future__ import annotations

from collections import namedtuple

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from collections.abc import Sequence
    from typing import Any, NamedTuple

    class _Where(NamedTuple):
        path: str | None = None
        line: int | None = None
        column: int | None = None

else:
    _Where = namedtuple("_Where", "path line column", defaults=(None, None, None))

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_DIVERGENCE = 3
EXIT_WRITE = 4
EXIT_HEALED_PENDING = 5
EXIT_ESCALATED = 6


class Location(_Where):
    """Where in a script an error points: path, 1-based line and column (a tuple: cheap to import)."""

    __slots__ = ()

    def __str__(self) -> str:
        parts = [self.path or "<input>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)


class ReplayError(Exception):
    """Base of every expected error; carries a code, a hint, a location and an exit code."""

    code = "ERROR"
    exit_code = EXIT_FAILURE

    def __init__(
        self,
        message: str,
        *,
        hint: str | None = None,
        location: Location | None = None,
        details: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.location = location
        self.details = details or {}

    def at(self, location: Location) -> ReplayError:
        """Attach a location if none is set yet; returns self for chaining."""
        if self.location is None:
            self.location = location
        return self

    def redacted(self, secrets: Sequence[tuple[str, str]]) -> ReplayError:
        """This error with each secret (a value, what to show instead) replaced in its message, hint
        and details: a variable's value or typed text never reaches a report (design §6)."""

        from replay.scrubbing import scrub as scrub_text

        def scrub(value: Any) -> Any:
            if isinstance(value, str):
                return scrub_text(value, secrets)
            if isinstance(value, dict):
                return {k: scrub(v) for k, v in value.items()}
            if isinstance(value, list):
                return [scrub(v) for v in value]
            return value

        if secrets:
            self.message, self.hint, self.details = scrub(self.message), scrub(self.hint), scrub(self.details)
            self.args = (self.message,)
        return self

    def to_dict(self) -> dict[str, Any]:
        """The JSON projection of this error."""
        out: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.hint:
            out["hint"] = self.hint
        if self.location is not None:
            loc = {"path": self.location.path, "line": self.location.line}
            if self.location.column is not None:
                loc["column"] = self.location.column
            out["location"] = loc
        if self.details:
            out["details"] = self.details
        out["exitCode"] = self.exit_code
        return out

    def __str__(self) -> str:
        prefix = f"{self.location}: " if self.location is not None else ""
        return f"{prefix}{self.code}: {self.message}"


class InvalidArgs(ReplayError):
    """Malformed input: script syntax, annotation, selector, variable or CLI usage."""

    code = "INVALID_ARGS"
    exit_code = EXIT_USAGE


class UnsupportedCommand(ReplayError):
    """A known command the selected platform cannot perform (rejected at plan time)."""

    code = "UNSUPPORTED_COMMAND"
    exit_code = EXIT_USAGE


class UnsupportedPlatform(ReplayError):
    """A script asks for a platform this tool has no backend for."""

    code = "UNSUPPORTED_PLATFORM"
    exit_code = EXIT_USAGE


class UnresolvedVariable(ReplayError):
    """A ``${VAR}`` with no value and no default."""

    code = "UNRESOLVED_VARIABLE"
    exit_code = EXIT_USAGE


class FileNotFound(ReplayError):
    """A script or input file that does not exist or cannot be read."""

    code = "FILE_NOT_FOUND"
    exit_code = EXIT_USAGE


class StaleRef(ReplayError):
    """A ref from an older snapshot generation; refs are never silently rebound."""

    code = "STALE_REF"
    exit_code = EXIT_USAGE


class AmbiguousMatch(ReplayError):
    """A selector matched nodes in distinct subtrees; geometry never chooses among them."""

    code = "AMBIGUOUS_MATCH"
    exit_code = EXIT_FAILURE


class ElementNotFound(ReplayError):
    """No node matched the selector within the timeout."""

    code = "ELEMENT_NOT_FOUND"
    exit_code = EXIT_FAILURE


class ActionFailed(ReplayError):
    """The backend could not perform an action (actionability timeout, detached node…)."""

    code = "ACTION_FAILED"
    exit_code = EXIT_FAILURE


class DialogOpen(ActionFailed):
    """A JavaScript dialog (alert, confirm, prompt) is open: the page cannot be looked at or acted on
    until a step answers it (``alert accept`` / ``alert dismiss``)."""

    code = "DIALOG_OPEN"


class AssertionFailed(ReplayError):
    """An ``is`` check did not hold."""

    code = "ASSERTION_FAILED"
    exit_code = EXIT_FAILURE


class BrowserUnavailable(ReplayError):
    """No usable browser could be launched."""

    code = "BROWSER_UNAVAILABLE"
    exit_code = EXIT_FAILURE


class DeviceUnavailable(BrowserUnavailable):
    """No usable device: none (or not the one named) attached, or no ``adb`` to reach one. A kind of
    ``BrowserUnavailable`` — what a session's screen is not there — so a handler of one takes both."""

    code = "DEVICE_UNAVAILABLE"


class SessionNotFound(ReplayError):
    """The named session does not exist (or was closed)."""

    code = "SESSION_NOT_FOUND"
    exit_code = EXIT_USAGE


class DaemonUnavailable(ReplayError):
    """The session daemon could not be started or reached."""

    code = "DAEMON_UNAVAILABLE"
    exit_code = EXIT_FAILURE


class RepairSessionExpired(ReplayError):
    """An incomplete repair transaction on this session was reaped or crashed."""

    code = "REPAIR_SESSION_EXPIRED"
    exit_code = EXIT_USAGE


class TargetExists(ReplayError):
    """The file to publish already exists; it is left byte-for-byte unchanged."""

    code = "TARGET_EXISTS"
    exit_code = EXIT_WRITE


class Unmaterialized(ReplayError):
    """An action could not be written as a portable selector (R4)."""

    code = "UNMATERIALIZED_ACTION"
    exit_code = EXIT_WRITE


class DivergenceError(ReplayError):
    """Replay stopped because reality differs from the recording; ``divergence`` says how.

    ``divergence`` is the canonical JSON every surface projects; daemon-side, ``source`` is the
    typed ``replay.engine.divergence.Divergence`` it was projected from (None once it crossed the wire).
    """

    code = "DIVERGENCE"
    exit_code = EXIT_DIVERGENCE

    def __init__(self, message: str, divergence: dict[str, Any], *, source: Any = None, **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.divergence = divergence
        self.source = source

    def to_dict(self) -> dict[str, Any]:
        """The error JSON, carrying the complete divergence object."""
        out = super().to_dict()
        out["divergence"] = self.divergence
        return out


class FormatCheckFailed(ReplayError):
    """``replay fmt --check`` found a file that is not in canonical form."""

    code = "NOT_FORMATTED"
    exit_code = EXIT_FAILURE


class CannotWrite(ReplayError):
    """A file replay was asked to write could not be written (a missing or read-only directory)."""

    code = "IO_ERROR"
    exit_code = EXIT_FAILURE


class Timeout(ReplayError):
    """A whole run went past its deadline (``replay test --timeout``): stopped where it was."""

    code = "TIMEOUT"
    exit_code = EXIT_FAILURE


class PermissionDenied(ReplayError):
    """A connection from another user reached the daemon's socket."""

    code = "PERMISSION_DENIED"
    exit_code = EXIT_FAILURE


class Cancelled(ReplayError):
    """The caller withdrew the request (an MCP client's ``notifications/cancelled``, or it went away)."""

    code = "CANCELLED"
    exit_code = EXIT_FAILURE


class Internal(ReplayError):
    """A bug: an unexpected exception, reported instead of a traceback (the daemon logs it)."""

    code = "INTERNAL"
    exit_code = EXIT_FAILURE


class ScriptErrors(ReplayError):
    """Several problems found at once (a script, or the files of one `lint`); ``errors`` holds each in order.

    It reports as its first problem, with the highest exit code among them.
    """

    def __init__(self, errors: list[ReplayError]) -> None:
        first = errors[0]
        super().__init__(first.message, hint=first.hint, location=first.location, details=first.details)
        self.code = first.code
        self.exit_code = max(e.exit_code for e in errors)
        self.errors = list(errors)


ALL_ERRORS: tuple[type[ReplayError], ...] = (
    Cancelled,
    InvalidArgs,
    UnsupportedCommand,
    UnsupportedPlatform,
    UnresolvedVariable,
    FileNotFound,
    StaleRef,
    AmbiguousMatch,
    ElementNotFound,
    ActionFailed,
    DialogOpen,
    AssertionFailed,
    BrowserUnavailable,
    DeviceUnavailable,
    SessionNotFound,
    DaemonUnavailable,
    RepairSessionExpired,
    TargetExists,
    Unmaterialized,
    DivergenceError,
    FormatCheckFailed,
    CannotWrite,
    Timeout,
    PermissionDenied,
    Internal,
)

_BY_CODE = {cls.code: cls for cls in ALL_ERRORS}


def from_dict(data: dict[str, Any]) -> ReplayError:
    """Rebuild an error from its JSON projection (the client side of the daemon wire)."""
    cls = _BY_CODE.get(str(data.get("code")), ReplayError)
    loc = data.get("location")
    if cls is DivergenceError:
        divergence = dict(data.get("divergence") or {})
        return DivergenceError(
            str(data.get("message", "")), divergence, hint=data.get("hint"), details=data.get("details") or None
        )
    location = Location(loc.get("path"), loc.get("line"), loc.get("column")) if isinstance(loc, dict) else None
    return cls(
        str(data.get("message", "")),
        hint=data.get("hint"),
        location=location,
        details=data.get("details") or None,
    )


def from_os_error(exc: OSError) -> ReplayError:
    """A file-system failure nothing more specific caught (a path that is a file where a folder is
    needed, a full disk, a read-only place) as ``IO_ERROR``: said plainly, never a traceback."""
    where = f"{exc.filename}: " if exc.filename else ""
    if isinstance(exc, (FileExistsError, NotADirectoryError)):
        why = "a file is in the way where a folder is needed"
    elif isinstance(exc, IsADirectoryError):
        why = "a folder is in the way where a file is needed"
    else:
        why = exc.strerror or type(exc).__name__
    return CannotWrite(f"{where}{why}", hint="check the path: a folder you can write, on a disk with space")
