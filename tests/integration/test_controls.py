"""Controls a person presses through another part of them (SPEC §5 "Composed controls"), on real
Chromium: a switch whose role sits on a hidden input (Element Plus), and toggles whose native input
lies under a wrapper of its own with a visible ``<label for>`` (fixtures/web/toggles/)."""

from __future__ import annotations

import pytest

from replay.drivers.base import DoubleClick

from .conftest import Chromium, Cli


def test_a_switch_whose_role_moved_to_its_hidden_input_is_pressed_through_its_track(cli: Cli, web: str) -> None:
    cli("open", f"{web}/element/parts3/index.html", "--session", "switch")
    cli("click", "role=switch", "--session", "switch", "--timeout", "1500")  # a 0×0 input: its track is pressed
    assert cli("get", "text", "role=status", "--session", "switch").stdout.strip().endswith("\nWrapped")
    cli("close", "--session", "switch")


@pytest.mark.parametrize("label", ["Dark mode", "Email me"], ids=["bootstrap 4 custom switch", "css slider switch"])
def test_check_on_an_input_under_its_own_wrapper_presses_its_label(cli: Cli, web: str, label: str) -> None:
    session = f"toggle-{label.split()[0].lower()}"
    cli("open", f"{web}/toggles/index.html", "--session", session)
    cli("check", f'role=checkbox label="{label}"', "--session", session, "--timeout", "1500")
    assert cli("get", "text", "role=status", "--session", session).stdout.strip().endswith(f"\n{label} on")
    cli("close", "--session", session)


def test_a_switch_inside_the_label_that_draws_it_is_clicked_through_that_label(cli: Cli, web: str) -> None:
    # Shoelace 2's sl-switch: its input sits in its shadow root's label, which takes the pointer
    cli("open", f"{web}/widgets/desk/sl2/index.html", "--session", "shoelace")
    assert cli("wait", 'role=switch label="Notifications"', "--session", "shoelace").returncode == 0
    clicked = cli("click", 'role=switch label="Notifications"', "--session", "shoelace", "--timeout", "1500")
    assert clicked.returncode == 0, clicked.stderr
    assert cli("get", "text", "role=status", "--session", "shoelace").stdout.strip().endswith("\nNotifications on")
    cli("close", "--session", "shoelace")


def test_a_tab_whose_own_host_takes_the_pointer_is_hittable_and_clicked_through_it(cli: Cli, web: str) -> None:
    # Ionic's segment button: the host takes the pointer, the tab inside its shadow root has none of its own
    cli("open", f"{web}/widgets/order/i6/index.html", "--session", "segment")
    shown = cli("wait", 'role=tab label="Reviews"', "--session", "segment")  # (the kit hydrates after load)
    assert shown.returncode == 0
    line = next(x for x in cli("snapshot", "-i", "--session", "segment").stdout.splitlines() if 'tab "Reviews"' in x)
    assert "not hittable" not in line
    cli("click", 'role=tab label="Reviews"', "--session", "segment", "--timeout", "1500")
    assert cli("get", "text", "role=status", "--session", "segment").stdout.strip().endswith("\nReviews pane")
    cli("close", "--session", "segment")


def test_a_double_clicks_two_clicks_are_apart_in_time_as_a_persons(chromium: Chromium) -> None:
    # an app that times the clicks itself (TodoMVC's web components: > 0 ms apart) must see a double click
    page = """<button ondblclick="this.dataset.dbl = 1"
        onclick="(window.at = window.at || []).push(performance.now())">Edit</button>"""

    async def go() -> tuple[float, str | None]:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(page)
            cap = await d.capture(1)
            button = next(n for n in cap.nodes if n.label == "Edit")
            await d.act(1, button.position, DoubleClick(), 5000)
            at = await d.page.evaluate("window.at")
            return at[1] - at[0], await d.page.get_attribute("button", "data-dbl")

    apart, double = chromium.run(go)
    assert apart >= 20 and double == "1"
