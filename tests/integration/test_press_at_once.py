"""A verified element's plain click sent at once (``drivers/web/press.py``): it reaches that element, as a
trusted click at its centre, or nothing — and what it cannot promise is Playwright's, with its waits."""

from __future__ import annotations

from typing import Any

import pytest

from replay.drivers.base import Click
from replay.drivers.web import press
from replay.tree.model import Capture

from .conftest import Chromium

pytestmark = pytest.mark.integration


def _node(taken: Capture, dom_id: str) -> Any:
    return next(n for n in taken.nodes[1:] if n.get("id") == dom_id)


async def _said(d: Any) -> str:
    return str(await d.page.inner_text("#said"))


def _click_then_said(chromium: Chromium, url: str, dom_id: str, timeout_ms: int = 2000) -> str:
    """Open ``url``, look, click element ``dom_id`` as a step would, and read the status line."""

    async def go() -> str:
        async with chromium.page(url) as d:
            taken = await d.capture(1, ())
            await d.act(1, _node(taken, dom_id).position, Click(), timeout_ms)
            return await _said(d)

    return str(chromium.run(go))


def test_a_click_sent_at_once_is_a_trusted_click_at_the_elements_centre(web: str, chromium: Chromium) -> None:
    async def go() -> tuple[str, tuple[float, float], int]:
        async with chromium.page(f"{web}/hostile/cover.html") as d:
            taken = await d.capture(1, ())
            keep = _node(taken, "keep")
            sent = 0
            original = press.click

            async def counted(cdp: Any, at: dict[str, Any]) -> bool:
                nonlocal sent
                sent += 1
                return await original(cdp, at)

            press.click = counted  # type: ignore[assignment]
            try:
                await d.act(1, keep.position, Click(), 2000)
            finally:
                press.click = original  # type: ignore[assignment]
            return await _said(d), keep.center, sent

    said, (x, y), sent = chromium.run(go)
    who, how, _, at = said.split()
    seen = [float(v) for v in at.split(",")]
    assert sent == 1 and (who, how) == ("keep", "trusted") and abs(seen[0] - x) <= 1 and abs(seen[1] - y) <= 1


def test_a_click_that_would_land_on_something_else_is_cancelled_before_the_page_sees_it(
    web: str, chromium: Chromium
) -> None:
    async def go() -> tuple[bool, str]:
        async with chromium.page(f"{web}/hostile/cover.html") as d:
            taken = await d.capture(1, ())
            keep = _node(taken, "keep")
            ready = await d.in_world_of(1, press.READY_JS, [1, keep.position, list(keep.rect)])
            assert isinstance(ready, dict), ready
            # between the check and the click, the page puts a layer over the element
            await d.page.evaluate("document.getElementById('cover').style.display = 'block'")
            await press.click(d._cdp, ready)
            landed = await d.in_world_of(1, press.LANDED_JS, None)
            return bool(landed), await _said(d)

    landed, said = chromium.run(go)
    assert not landed and said == "Nothing yet"  # neither the layer nor the element took it


@pytest.mark.parametrize(
    ("dom_id", "before", "why"),
    [
        ("keep", "document.getElementById('keep').style.marginLeft = '40px'", "moved"),
        ("down", "", "not in view"),
        ("gone", "", "disabled"),
        ("keep", "document.getElementById('cover').style.display = 'block'", "covered"),
        ("keep", "document.getElementById('keep').remove()", "gone"),
    ],
)
def test_what_a_click_at_once_cannot_promise_is_left_to_playwright(
    web: str, chromium: Chromium, dom_id: str, before: str, why: str
) -> None:
    async def go() -> Any:
        async with chromium.page(f"{web}/hostile/cover.html") as d:
            taken = await d.capture(1, ())
            node = _node(taken, dom_id)
            if before:
                await d.page.evaluate(before)
            return await d.in_world_of(1, press.READY_JS, [1, node.position, list(node.rect)])

    assert chromium.run(go) == why


def test_an_element_out_of_view_is_scrolled_to_and_clicked_by_playwright(web: str, chromium: Chromium) -> None:
    assert _click_then_said(chromium, f"{web}/hostile/cover.html", "down").startswith("down trusted at ")


def test_a_click_sent_at_once_that_navigates_is_done_and_never_sent_again(web: str, chromium: Chromium) -> None:
    async def go() -> tuple[str, str]:
        async with chromium.page(f"{web}/hostile/cover.html") as d:
            taken = await d.capture(1, ())
            await d.act(1, _node(taken, "away").position, Click(), 2000)  # (its page is gone: nothing to ask)
            await d.page.wait_for_load_state("load")
            return d.page.url, await _said(d)

    url, said = chromium.run(go)
    assert url.endswith("/hostile/flip.html?every=100000") and said == "Nothing yet"


def test_what_the_page_does_on_the_clicks_first_event_is_the_clicks_doing(web: str, chromium: Chromium) -> None:
    # a list that picks its option on mousedown and re-renders it: the rest of the click lands on no element
    # of the option any more — it went through, and is not sent again
    assert _click_then_said(chromium, f"{web}/hostile/cover.html", "pick") == "picked 1"


@pytest.mark.parametrize(("dom_id", "said"), [("late", "Wrapped"), ("lazy", "Fast tracked")])
def test_a_kits_control_is_acted_on_once_it_is_wired(web: str, chromium: Chromium, dom_id: str, said: str) -> None:
    # defined late (a module still loading on a busy machine), or hydrated late (Stencil, Ionic): a click
    # before that reaches an element with no listener yet, and does nothing
    assert _click_then_said(chromium, f"{web}/hostile/late.html", dom_id, 5000) == said


def test_a_control_is_acted_on_once_what_moves_it_has_ended(web: str, chromium: Chromium) -> None:
    # a dialog fading in takes no answer until it is shown (AlertifyJS): looked at while it moves, its
    # button is clicked once the transition ended
    async def go() -> tuple[bool, str]:
        async with chromium.page(f"{web}/hostile/fade.html") as d:
            await d.page.click("#open")
            await d.page.wait_for_function("document.getElementById('box').getAnimations().length > 0")
            taken = await d.capture(1, ())
            await d.act(1, _node(taken, "cancel").position, Click(), 5000)
            return taken.moving, await _said(d)

    assert chromium.run(go) == (True, "Kept")


def test_an_animation_that_only_colours_what_holds_the_element_is_not_waited_for(web: str, chromium: Chromium) -> None:
    async def go() -> Any:
        async with chromium.page(f"{web}/hostile/fade.html") as d:  # (a 10 s colour pulse around the button)
            return await d.page.locator("#calm").evaluate(press.STILL_JS, 300)

    assert chromium.run(go) is True  # still at once: no 300 ms wait that ran out (False)
