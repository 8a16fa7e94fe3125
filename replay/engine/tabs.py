"""``tab`` steps, and the tabs a step opened (a driver that ``HasTabs``)."""

from __future__ import annotations

from typing import Any

from replay.drivers.base import HasTabs
from replay.engine.state import Step, StepState
from replay.errors import InvalidArgs


def said_opened(state: StepState, result: dict[str, Any]) -> None:
    """Say in ``result`` the tabs the step just performed opened (in front now: the last of them);
    asked after its effect settled, which is what gives a new tab the moment it takes to appear."""
    driver = state.driver
    popped = driver.opened_tabs() if isinstance(driver, HasTabs) else []
    if popped:
        result["opened"] = popped
        said = f"a tab opened and came to the front: tab {popped[-1]['tab']}, {popped[-1]['url']}"
        result["effect"] = f"{said}; {result['effect']}" if result.get("effect") else said


async def tab(state: StepState, step: Step) -> dict[str, Any]:
    """``tab [list]``, ``tab N``, ``tab new [URL]``, ``tab close [N]``."""
    driver = state.driver
    if not isinstance(driver, HasTabs):
        raise InvalidArgs(f"`tab` cannot be performed on {state.platform}", hint="available on: web")
    number: Any = step.action.param("number")
    url = step.action.param("url")
    number = None if number is None else int(str(number))
    shown = await driver.tab(step.action.form, number, None if url is None else str(url), step.timeout_ms)
    front = next((t for t in shown["tabs"] if t["current"]), None)
    said = {"value": shown["tabs"]} if step.action.form == "list" else {"tabs": shown["tabs"]}
    if front is not None and step.action.form != "list":
        said["effect"] = f"tab {front['tab']} is in front: {front['url']}"
    return said
