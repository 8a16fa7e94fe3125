"""Dialogs a step opens and the ``alert`` steps that answer them (a driver that ``AnswersDialogs``)."""

from __future__ import annotations

from typing import Any

from replay.drivers.base import AnswersDialogs
from replay.engine.state import Step, StepState
from replay.errors import InvalidArgs


def opened(state: StepState) -> dict[str, Any] | None:
    """The dialog open now (the step just performed opened it), or None."""
    driver = state.driver
    return driver.open_dialog() if isinstance(driver, AnswersDialogs) else None


def said_opened(state: StepState, result: dict[str, Any]) -> bool:
    """Say in ``result`` the dialog the step just performed opened; True when one is open (the page
    waits for its answer: nothing may look at it)."""
    shown = opened(state)
    if shown is not None:
        result.update(dialog=shown, effect=said(shown))
    return shown is not None


def said(dialog: dict[str, Any]) -> str:
    """What a step that opened ``dialog`` did, in a reader's words."""
    return (
        f"a {dialog['type']} dialog opened: {dialog['message']!r} "
        "(answer it: `alert accept` or `alert dismiss`; nothing else runs while it is open)"
    )


async def alert(state: StepState, step: Step) -> dict[str, Any]:
    """``alert [get]``, ``alert wait [MS]``, ``alert accept [TEXT]``, ``alert dismiss``."""
    driver = state.driver
    if not isinstance(driver, AnswersDialogs):
        raise InvalidArgs(f"`alert` cannot be performed on {state.platform}", hint="available on: web")
    verb = step.action.form
    text = step.action.param("text")
    ms = step.action.param("ms")
    timeout = int(str(ms)) if ms is not None else step.timeout_ms
    expect = step.action.flag("--message")
    shown = await driver.dialog(
        verb, None if text is None else str(text), timeout, expect if isinstance(expect, str) else None
    )
    if verb == "get":
        return {"value": shown}
    assert shown is not None
    did = "waited for" if verb == "wait" else f"{verb}ed"
    return {"dialog": shown, "effect": f"{did} a {shown['type']} dialog: {shown['message']!r}"}
