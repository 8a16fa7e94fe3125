"""The morning after (design §10): every script that did not pass is exactly one of ``regression``,
``drift`` (``healed`` when ``--heal`` healed it), ``broken`` or ``failed`` — the one question a
nightly run's reader has: did the app break, or which scripts need healing, or was the app down.

Decided from what replay already knows: the step verified its element before acting, so a verified
step whose recorded effect did not happen is the app's behaviour (a regression), while a step that
no longer finds what it recorded is the script's (drift).
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol

from replay.errors import DialogOpen
from replay.tree.verdict import DivergenceKind

if TYPE_CHECKING:
    from replay.engine.report import Reported


class _Attempt(Protocol):  # runner.Attempt, as far as a class needs it (the runner imports this module)
    @property
    def divergence(self) -> Reported | None: ...
    @property
    def error(self) -> dict[str, Any] | None: ...
    @property
    def timings(self) -> list[Any]: ...


class ScriptResult(Protocol):  # runner.ScriptResult, the same way
    @property
    def status(self) -> str: ...
    @property
    def heal_status(self) -> str | None: ...
    @property
    def last(self) -> _Attempt: ...


class Triage(StrEnum):
    """A failing script's class; its value is what the console, JUnit, HTML and JSON say."""

    REGRESSION = "regression"  # the app no longer does what it did
    DRIFT = "drift"  # the script no longer finds what it recorded: a heal is due
    HEALED = "healed"  # drift that `--heal` healed (pending review)
    BROKEN = "broken"  # the run never reached the app
    FAILED = "failed"  # anything else


ORDER = (Triage.REGRESSION, Triage.DRIFT, Triage.HEALED, Triage.BROKEN, Triage.FAILED)  # how reports list them

DRIFT_KINDS = frozenset(
    {DivergenceKind.SELECTOR_MISS, DivergenceKind.IDENTITY_MISMATCH, DivergenceKind.IDENTITY_UNVERIFIABLE}
)
# the run never reached the app: no browser or device, no daemon
UNREACHED_CODES = frozenset({"BROWSER_UNAVAILABLE", "DEVICE_UNAVAILABLE", "DAEMON_UNAVAILABLE"})
PASSING = frozenset({"passed", "flaky"})  # runner.Status values (a StrEnum): no import back into the runner
OPENING = frozenset({"open", "launch"})  # a step that brings the app up: failing it, the app was never there


def triage(result: ScriptResult) -> Triage | None:
    """The class of a script that did not pass (None for a pass or a flaky pass)."""
    if result.status in PASSING:
        return None
    attempt = result.last
    d = attempt.divergence
    if d is not None:
        verb = str(d.json.get("action") or "").split(" ", 1)[0]
        if d.effect is not None:
            return Triage.REGRESSION  # verified, acted on, and the app did not do what it did
        if d.kind in DRIFT_KINDS:
            return Triage.HEALED if result.heal_status == "healed" else Triage.DRIFT
        if verb in OPENING:
            return Triage.BROKEN
        if DialogOpen.code in str((d.json.get("screen") or {}).get("reason") or ""):
            return Triage.REGRESSION  # a dialog the recording did not have stands in front
        return Triage.FAILED
    code = str((attempt.error or {}).get("code") or "")
    if code in UNREACHED_CODES or (code == "TIMEOUT" and not _started(result)):
        return Triage.BROKEN
    if code == "ASSERTION_FAILED":
        return Triage.REGRESSION  # a check the recording passed does not hold
    return Triage.FAILED


def _started(result: ScriptResult) -> bool:
    """Whether its last attempt finished a step (its timings say so)."""
    return bool(result.last.timings)


def expected_observed(result: ScriptResult) -> tuple[str, str] | None:
    """A regression's expected vs observed: the missing effect, or the failed check's words."""
    attempt = result.last
    if attempt.divergence is not None and attempt.divergence.effect is not None:
        return attempt.divergence.effect
    if attempt.divergence is not None:
        return attempt.divergence.json.get("action", ""), attempt.divergence.cause
    if attempt.error is not None and attempt.error.get("code") == "ASSERTION_FAILED":
        check, _, observed = str(attempt.error.get("message") or "").partition(" failed: ")
        return check, observed
    return None
