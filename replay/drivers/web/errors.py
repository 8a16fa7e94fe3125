"""Playwright's exceptions as the product's errors: mapped here, and nowhere else; whether its driver lives."""

from __future__ import annotations

import re
from typing import Any

from replay.errors import ActionFailed, BrowserUnavailable, ReplayError, StaleRef

STALE = "replay-stale:"  # how the node engine (driver.py's JS) refuses a node that is gone


def from_playwright(
    exc: BaseException, *, action: str, timeout_ms: int | None = None, hint: str | None = None
) -> ReplayError:
    """Map a Playwright exception into our family by its type (matched by name: no Playwright import).

    ``TimeoutError`` → ``ACTION_FAILED`` (its log line only refines the explanation);
    ``TargetClosedError`` → ``BROWSER_UNAVAILABLE``; any other → ``ACTION_FAILED``.
    """
    kind = type(exc).__name__
    text = str(exc).strip().splitlines()[0] if str(exc).strip() else kind
    details = {"playwright": text}
    if kind == "TargetClosedError":
        return BrowserUnavailable(
            f"{action}: the browser or page was closed", hint="open the session again", details=details
        )
    if kind == "TimeoutError":
        return ActionFailed(
            f"{action}: timed out{f' after {timeout_ms} ms' if timeout_ms is not None else ''} — "
            f"{_timeout_reason(str(exc))}",
            hint=hint
            or "take a snapshot to see what is on screen; raise the timeout with --timeout if the app is slow",
            details=details,
        )
    return ActionFailed(f"{action}: {text}", hint=hint or "take a snapshot to see what is on screen", details=details)


# what Playwright's actionability log says → why the element never became actionable
_TIMEOUT_REASONS = (
    ("performing click action", "the page did not answer the click (its JavaScript may be busy)"),
    ("did not find some options", "no option has that value or label"),
    ("intercepts pointer events", "another element covers it (an overlay or dialog intercepts pointer events)"),
    ("not enabled", "it stayed disabled"),
    ("disabled", "it stayed disabled"),
    ("not visible", "it stayed invisible"),
    ("not stable", "it kept moving"),
)


# the call log's last line, when nothing that refines it came after: what was under way
_UNDER_WAY = (
    ("waiting until", "the page did not finish loading"),  # navigating to "…", waiting until "load"
    ("waiting for element to be", "the page did not answer whether it can be acted on (its JavaScript may be busy)"),
    ("elementHandle.type(", "the page did not take the keys (its JavaScript may be busy)"),
    ("elementHandle.press(", "the page did not take the key (its JavaScript may be busy)"),
)


def _timeout_reason(log: str) -> str:
    found = next((why for needle, why in _TIMEOUT_REASONS if needle in log), None)
    if found is not None:
        return found
    last = log.strip().splitlines()[-1] if log.strip() else ""
    return next((why for needle, why in _UNDER_WAY if needle in last), "it never became actionable")


def raise_if_stale(exc: Exception, index: int) -> None:
    """The node engine's refusal of a node that is gone, as ``StaleRef`` (else nothing)."""
    stale = re.search(STALE + "(gone|detached)", str(exc))
    if stale is not None:
        raise StaleRef(
            f"@e{index} is no longer on the page ({'navigated away' if stale[1] == 'gone' else 'removed'})",
            hint="take a new snapshot (`replay snapshot -i`) and use its refs",
        ) from None


def driver_alive(api: Any) -> bool:
    """Whether Playwright's driver process (node) behind an object still answers: when it dies, the
    browser still reports itself connected, and every call fails with "has been closed"."""
    connection = getattr(getattr(api, "_impl_obj", None), "_connection", None)
    return getattr(connection, "_closed_error", None) is None
