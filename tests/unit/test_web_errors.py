"""Playwright's timeouts in our words: the call logs are stored from Chromium (Playwright 1.5x), one
per way a step can run out of time."""

from __future__ import annotations

import pytest

from replay.drivers.web.errors import from_playwright


class TimeoutError(Exception):  # noqa: A001 - matched by name, as from_playwright matches Playwright's
    pass


FILL_ON_A_BUSY_PAGE = """Locator.fill: Timeout 1000ms exceeded.
Call log:
  - waiting for locator("#a")
    - locator resolved to <input id="a"/>
    - fill("hello world")
  - attempting fill action
    - waiting for element to be visible, enabled and editable
"""
KEYS_ON_A_BUSY_PAGE = """Locator.press_sequentially: Timeout 1000ms exceeded.
Call log:
  - waiting for locator("#a")
    - locator resolved to <input id="a"/>
  - elementHandle.type("hello")
"""
OPEN_THAT_NEVER_LOADS = """Page.goto: Timeout 1000ms exceeded.
Call log:
  - navigating to "http://127.0.0.1:55223/", waiting until "load"
"""
CLICK_UNDER_A_DIALOG = """Locator.click: Timeout 1000ms exceeded.
Call log:
  - attempting click action
    - waiting for element to be visible, enabled and stable
    - element is visible, enabled and stable
    - <div class="backdrop"></div> intercepts pointer events
"""


@pytest.mark.parametrize(
    ("log", "said"),
    [
        (FILL_ON_A_BUSY_PAGE, "the page did not answer whether it can be acted on (its JavaScript may be busy)"),
        (KEYS_ON_A_BUSY_PAGE, "the page did not take the keys (its JavaScript may be busy)"),
        (OPEN_THAT_NEVER_LOADS, "the page did not finish loading"),
        (CLICK_UNDER_A_DIALOG, "another element covers it (an overlay or dialog intercepts pointer events)"),
    ],
)
def test_a_timeout_says_what_was_under_way_never_only_that_it_never_became_actionable(log: str, said: str) -> None:
    err = from_playwright(TimeoutError(log), action="fill", timeout_ms=1000)
    assert err.code == "ACTION_FAILED" and err.message == f"fill: timed out after 1000 ms — {said}"
