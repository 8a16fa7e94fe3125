"""The error family: one class per error code, each with the exit code of SPEC §6.

Every expected failure reaching a user is a ``ReplayError``; surfaces (CLI, JSON,
client, MCP) only project it. Foreign exceptions are mapped here and nowhere else.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

EXIT_OK = 0
EXIT_FAILURE = 1
EXIT_USAGE = 2
EXIT_DIVERGENCE = 3
EXIT_WRITE = 4
EXIT_HEALED_PENDING = 5
EXIT_ESCALATED = 6


@dataclass(frozen=True)
class Location:
    """Where in a script an error points: path, 1-based line and column."""

    path: str | None = None
    line: int | None = None
    column: int | None = None

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


class AssertionFailed(ReplayError):
    """An ``is`` check did not hold."""

    code = "ASSERTION_FAILED"
    exit_code = EXIT_FAILURE


class BrowserUnavailable(ReplayError):
    """No usable browser could be launched."""

    code = "BROWSER_UNAVAILABLE"
    exit_code = EXIT_FAILURE


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
    """Replay stopped because reality differs from the recording; ``divergence`` says how."""

    code = "DIVERGENCE"
    exit_code = EXIT_DIVERGENCE

    def __init__(self, message: str, divergence: dict[str, Any], **kwargs: Any) -> None:
        super().__init__(message, **kwargs)
        self.divergence = divergence

    def to_dict(self) -> dict[str, Any]:
        """The error JSON, carrying the complete divergence object."""
        out = super().to_dict()
        out["divergence"] = self.divergence
        return out


class FormatCheckFailed(ReplayError):
    """``replay fmt --check`` found a file that is not in canonical form."""

    code = "NOT_FORMATTED"
    exit_code = EXIT_FAILURE


ALL_ERRORS: tuple[type[ReplayError], ...] = (
    InvalidArgs,
    UnsupportedCommand,
    UnsupportedPlatform,
    UnresolvedVariable,
    FileNotFound,
    StaleRef,
    AmbiguousMatch,
    ElementNotFound,
    ActionFailed,
    AssertionFailed,
    BrowserUnavailable,
    SessionNotFound,
    DaemonUnavailable,
    RepairSessionExpired,
    TargetExists,
    Unmaterialized,
    DivergenceError,
    FormatCheckFailed,
)

_BY_CODE = {cls.code: cls for cls in ALL_ERRORS}


def from_dict(data: dict[str, Any]) -> ReplayError:
    """Rebuild an error from its JSON projection (the client side of the daemon wire)."""
    cls = _BY_CODE.get(str(data.get("code")), ReplayError)
    loc = data.get("location")
    if cls is DivergenceError:
        return DivergenceError(str(data.get("message", "")), dict(data.get("divergence") or {}), hint=data.get("hint"))
    location = Location(loc.get("path"), loc.get("line"), loc.get("column")) if isinstance(loc, dict) else None
    return cls(
        str(data.get("message", "")),
        hint=data.get("hint"),
        location=location,
        details=data.get("details") or None,
    )


def from_playwright(exc: BaseException, *, action: str, timeout_ms: int | None = None) -> ReplayError:
    """Map a Playwright exception (by name: this module never imports Playwright) into our family."""
    name = type(exc).__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else name
    if name == "TimeoutError":
        why = "it never became actionable"
        full = str(exc)
        if "intercepts pointer events" in full:
            why = "another element covers it (an overlay or dialog intercepts pointer events)"
        elif "not enabled" in full or "disabled" in full:
            why = "it stayed disabled"
        elif "not visible" in full:
            why = "it stayed invisible"
        elif "not stable" in full:
            why = "it kept moving"
        return ActionFailed(
            f"{action}: timed out after {timeout_ms} ms — {why}",
            hint="take a snapshot to see what is on screen; raise the timeout with --timeout if the app is slow",
            details={"playwright": text},
        )
    if "detached" in text.lower() or "not attached" in text.lower():
        return ActionFailed(
            f"{action}: the element was detached from the page before the action",
            hint="the page re-rendered; take a new snapshot and retry",
            details={"playwright": text},
        )
    if "net::" in text or "NS_ERROR" in text:
        return ActionFailed(
            f"{action}: navigation failed ({text})",
            hint="check that the URL is reachable",
            details={"playwright": text},
        )
    if "Target" in text and "closed" in text:
        return BrowserUnavailable(
            f"{action}: the browser or page was closed", hint="open the session again", details={"playwright": text}
        )
    return ActionFailed(
        f"{action}: {text}", hint="take a snapshot to see what is on screen", details={"playwright": text}
    )
