"""The web driver's element ops, one Playwright call each (``Driver.act``)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.async_api import Locator

from replay.drivers.base import (
    Check,
    Click,
    DoubleClick,
    Drag,
    Drop,
    Fill,
    Gesture,
    Hover,
    Read,
    ScrollTo,
    Select,
    Upload,
)
from replay.drivers.web.errors import STALE
from replay.drivers.web.page_scripts import COVERED_BY_ITS_OWN_JS, PRESSED_BY_ITS_LABEL_JS, PRESSED_THROUGH_JS
from replay.errors import ActionFailed, ReplayError, StaleRef

# a double click as a person's: each button held a moment, so its two clicks are apart in time (an app
# that times them itself, TodoMVC's web components, takes two clicks in one millisecond for one)
PRESS_MS = 30
DRAG_START_PX = 6  # how far ``drag`` moves off the pressed point (past the usual drag thresholds)


async def _press_through(el: Locator, timeout_ms: int) -> None:
    """Click the shown part of ``el``'s control that presses it: its own label (``<label for>`` first,
    else the one around it), else the component around it that takes the pointer (design §5 composed
    controls: a switch's hidden input and its track are one control)."""
    found = await el.evaluate_handle(PRESSED_THROUGH_JS)
    try:
        shown = found.as_element()
        if shown is None:  # nothing of its control shows yet: the element itself, once it is actionable
            await el.click(timeout=timeout_ms)
        else:
            await shown.click(timeout=timeout_ms)
    finally:
        await found.dispose()


ATTRIBUTES_JS = "e => Object.fromEntries(Array.from(e.attributes).map(a => [a.name, a.value]))"


async def act_on(el: Locator, gesture: Gesture, timeout_ms: int, failed: Callable[..., ReplayError]) -> Any:
    """One gesture through Playwright's actionability checks (``Driver.act``); ``failed`` maps
    Playwright's failure to ours."""
    try:
        match gesture:
            case Click(button=button, through=True) if button == "left":
                await _press_through(el, timeout_ms)  # it has no box of its own (captured hidden)
            case Click(button=button):
                await el.click(timeout=timeout_ms, button=button)  # type: ignore[arg-type]
            case DoubleClick():
                await el.dblclick(timeout=timeout_ms, delay=PRESS_MS)
            case Hover():
                await el.hover(timeout=timeout_ms)
            case Drag() | Drop():
                await _drag(el, gesture.op, timeout_ms)
            case Upload(path=path):
                await _upload(el, path, timeout_ms)
            case Fill(text=text):
                await el.fill(text, timeout=timeout_ms)
            case Check(on=on):
                # a click when the state differs: Playwright's own check() then re-reads the state from
                # the same element, which an app that re-renders the row on change has just replaced
                if await el.is_checked(timeout=timeout_ms) != on:
                    # a styled box over the native input, that belongs to the same control (its label,
                    # its component's host), takes the click as a person's would: click through it
                    if await el.evaluate(PRESSED_BY_ITS_LABEL_JS):  # a hidden input: its label, as a person
                        await _press_through(el, timeout_ms)
                    else:
                        covered = await el.evaluate(COVERED_BY_ITS_OWN_JS)
                        if covered == "label":  # under a wrapper of its own: its <label for>, as a person
                            await _press_through(el, timeout_ms)
                        else:
                            await el.click(timeout=timeout_ms, force=covered == "own")
            case Select(value=value):
                try:
                    await el.select_option(value=value, timeout=timeout_ms)
                except Exception:  # noqa: BLE001 - fall back to the option's label
                    await el.select_option(label=value, timeout=timeout_ms)
            case ScrollTo():
                await el.scroll_into_view_if_needed(timeout=timeout_ms)
            case Read(what="text"):
                return await el.inner_text()
            case Read(what="value"):
                return await el.input_value()
            case Read(what="attrs"):
                return await el.evaluate(
                    "e => Object.fromEntries(Array.from(e.attributes).map(a => [a.name, a.value]))"
                )
            case _:
                raise ActionFailed(f"{gesture.op} is not an element action", hint="see docs/ad-format.md")
    except (ActionFailed, StaleRef):
        raise
    except Exception as exc:  # noqa: BLE001 - mapped in one place
        if STALE in str(exc):
            raise
        raise failed(exc, action=gesture.op, timeout_ms=timeout_ms) from None
    return None


async def _drag(el: Locator, command: str, timeout_ms: int) -> None:
    """``drag``: the button goes down on the element's centre and the pointer moves off it a little
    (what starts a drag: HTML5 drag and drop, and the libraries that follow mouse moves); ``drop``:
    the pointer moves to the element's centre, nudges, and the button comes up there."""
    await el.hover(timeout=timeout_ms)  # (actionable, scrolled into view, the pointer on its centre)
    box = await el.bounding_box()
    if box is None:
        raise ActionFailed(f"{command}: the element has no box on the screen", hint="take a new snapshot")
    x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    mouse = el.page.mouse
    if command == "drag":
        await mouse.down()
        await mouse.move(x + DRAG_START_PX, y + DRAG_START_PX, steps=2)
    else:
        await mouse.move(x + 1, y + 1)
        await mouse.up()


async def _upload(el: Locator, path: str, timeout_ms: int) -> None:
    """A file input takes the file; any other element is clicked, and the chooser it opens takes it."""
    # (emptied first, silently: the browser tells the app of a choice only when it differs from the last)
    if await el.evaluate("e => e.tagName === 'INPUT' && e.type === 'file' && ((e.value = ''), true)"):
        await el.set_input_files(path, timeout=timeout_ms)
        return
    async with el.page.expect_file_chooser(timeout=timeout_ms) as chooser:
        await el.click(timeout=timeout_ms)
    await (await chooser.value).set_files(path, timeout=timeout_ms)
