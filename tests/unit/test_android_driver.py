"""The Android driver on the simulated device (fixtures/android): adb's command lines in, the
scripted app's screens out — the same pipeline, verification and divergences as the web."""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from fixtures.android import shop_app
from fixtures.android.device import Device
from replay.drivers.android.adb import Result
from replay.drivers.android.driver import AndroidDriver
from replay.drivers.base import Click, Fill, OpenRequest
from replay.engine import step as pipeline
from replay.errors import ActionFailed, InvalidArgs, StaleRef
from replay.script.parser import parse_argv
from replay.session.session import Session

from ..fakes.driver import FakeClock

T = TypeVar("T")


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def opened(version: int = 1) -> tuple[Device, AndroidDriver]:
    device = Device(shop_app.app(version))
    driver = AndroidDriver(device, FakeClock())
    run(driver.navigate(OpenRequest(target=shop_app.PACKAGE), 5000))
    return device, driver


def labeled(capture: Any, label: str) -> Any:
    return next(n for n in capture.nodes if n.label == label)


def test_open_starts_the_app_and_a_capture_shows_its_first_screen() -> None:
    device, driver = opened()
    taken = run(driver.capture(1))
    assert device.log[0][:4] == ["shell", "am", "start", "-W"] and device.log[-1] == [
        "exec-out",
        "uiautomator",
        "dump",
        "/dev/tty",
    ]
    assert labeled(taken, "Sign in").role == "button" and taken.screen.path == shop_app.PACKAGE
    assert driver.location() == shop_app.PACKAGE


def test_a_tap_goes_to_the_centre_of_the_node_found_again_in_a_fresh_dump() -> None:
    device, driver = opened()
    taken = run(driver.capture(1))
    button = labeled(taken, "Sign in")
    run(driver.act(1, button.position, Click(), 5000))
    x, y = button.center
    assert ["shell", "input", "tap", str(round(x)), str(round(y))] in device.log
    assert labeled(run(driver.capture(2)), "Orders").role == "textview"


def test_fill_replaces_the_fields_text_and_a_password_never_shows() -> None:
    device, driver = opened()
    taken = run(driver.capture(1))
    email = next(n for n in taken.nodes if n.test_id == shop_app.rid("email"))
    password = next(n for n in taken.nodes if n.test_id == shop_app.rid("password"))
    run(driver.act(1, email.position, Fill("ada@example.com"), 5000))
    run(driver.act(1, password.position, Fill("s3cret pass"), 5000))
    again = run(driver.capture(2))
    assert next(n for n in again.nodes if n.test_id == shop_app.rid("email")).value == "ada@example.com"
    shown = next(n for n in again.nodes if n.test_id == shop_app.rid("password"))
    assert shown.value == "•••" and "s3cret" not in str(run(driver.capture(3)).root.attrib)
    assert ["shell", "input", "text", "s3cret%sp"] in device.log  # 8 characters, the space as %s


def test_a_node_whose_screen_is_gone_is_stale() -> None:
    _, driver = opened()
    taken = run(driver.capture(1))
    run(driver.act(1, labeled(taken, "Sign in").position, Click(), 5000))
    with pytest.raises(StaleRef):
        run(driver.act(1, labeled(taken, "Remember me").position, Click(), 5000))


def dumps(device: Device) -> int:
    return sum(1 for args in device.log if args[:2] == ["exec-out", "uiautomator"])


def test_a_node_in_a_capture_just_taken_is_tapped_without_a_second_dump() -> None:
    device, driver = opened()
    taken = run(driver.capture(1))
    before = dumps(device)
    run(driver.act(1, labeled(taken, "Sign in").position, Click(), 5000))
    assert dumps(device) == before and device.log[-1][:3] == ["shell", "input", "tap"]


def test_a_node_in_an_older_capture_is_found_again_in_a_fresh_dump() -> None:
    device, driver = opened()
    taken = run(driver.capture(1))
    driver.clock.advance(0.6)  # type: ignore[attr-defined] - past FRESH_S
    before = dumps(device)
    run(driver.act(1, labeled(taken, "Sign in").position, Click(), 5000))
    assert dumps(device) == before + 1 and device.log[-1][:3] == ["shell", "input", "tap"]


def test_a_node_in_a_capture_taken_before_something_was_sent_is_found_again() -> None:
    device, driver = opened()
    taken = run(driver.capture(1))
    run(driver.keyboard("type", "x"))  # sent since the capture: the screen may have moved
    before = dumps(device)
    run(driver.act(1, labeled(taken, "Sign in").position, Click(), 5000))
    assert dumps(device) == before + 1


def test_swipe_sends_agent_devices_swipes_with_count_pause_and_pattern() -> None:
    device, driver = opened()
    sent = len(device.log)
    run(
        driver.device(
            "swipe",
            {
                "x1": "206",
                "y1": "650",
                "x2": "206",
                "y2": "300",
                "ms": "300",
                "count": "3",
                "pause-ms": "200",
                "pattern": "ping-pong",
            },
        )
    )
    assert device.log[sent:] == [
        ["shell", "input", "swipe", "206", "650", "206", "300", "300"],
        ["shell", "input", "swipe", "206", "300", "206", "650", "300"],
        ["shell", "input", "swipe", "206", "650", "206", "300", "300"],
    ]
    assert driver.clock.slept == pytest.approx(0.4)  # type: ignore[attr-defined] - two pauses of 200 ms


def test_long_press_holds_still_at_the_point_for_its_ms_800_by_default() -> None:
    device, driver = opened()
    sent = len(device.log)
    run(driver.device("long-press", {"x": "100", "y": "200"}))
    run(driver.device("longpress", {"x": "50%", "y": "25%", "ms": "1500"}))  # agent-device's older spelling
    assert device.log[sent:] == [
        ["shell", "input", "swipe", "100", "200", "100", "200", "800"],
        ["shell", "wm", "size"],
        ["shell", "input", "swipe", "540", "600", "540", "600", "1500"],
    ]


def test_keyboard_dismiss_presses_escape_only_while_the_keyboard_shows() -> None:
    device, driver = opened()
    email = next(n for n in run(driver.capture(1)).nodes if n.test_id == shop_app.rid("email"))
    assert run(driver.device("keyboard", {"what": "status"})) == "keyboard: hidden"
    run(driver.device("keyboard", {"what": "dismiss"}))
    assert ["shell", "input", "keyevent", "111"] not in device.log
    run(driver.act(1, email.position, Click(), 5000))
    assert run(driver.device("keyboard", {"what": "status"})) == "keyboard: shown"
    run(driver.device("keyboard", {"what": "dismiss"}))
    assert ["shell", "input", "keyevent", "111"] in device.log and not device.keyboard


def test_appstate_says_the_app_in_front_and_home_leaves_it() -> None:
    _, driver = opened()
    assert run(driver.device("appstate", {})) == f"foreground: {shop_app.PACKAGE}/.LoginActivity"
    run(driver.history("home", 5000))
    assert run(driver.device("appstate", {})) == "foreground: com.android.launcher/.Home"  # the launcher


def settings_session(tmp_path: Path) -> tuple[Session, Device]:
    from fixtures.android import settings_app

    clock = FakeClock()
    device = Device(settings_app.app())
    s = Session("android", str(tmp_path), AndroidDriver(device, clock), platform="android", clock=clock)
    typed(s, "open", "settings")
    return s, device


def test_scroll_until_scrolls_the_list_until_the_target_shows(tmp_path: Path) -> None:
    s, device = settings_session(tmp_path)
    assert "About phone" not in device.dump()
    typed(s, "scroll", "down", "--until", 'label="About phone"')
    assert "About phone" in device.dump() and device.scrolled["main"] > 0


def test_scroll_until_stops_after_max_scrolls_with_element_not_found(tmp_path: Path) -> None:
    from replay.errors import ElementNotFound

    s, device = settings_session(tmp_path)
    with pytest.raises(ElementNotFound, match="not on the screen after 0 scrolls"):
        typed(s, "scroll", "down", "--until", 'label="About phone"', "--max", "0")
    assert device.scrolled.get("main", 0) == 0


def test_open_with_clear_state_clears_the_apps_data_then_starts_it() -> None:
    device, driver = opened()
    run(driver.navigate(OpenRequest(target=shop_app.PACKAGE, relaunch=True, clear_state=True), 5000))
    assert device.log[-3:-1] == [
        ["shell", "pm", "clear", shop_app.PACKAGE],
        ["shell", "am", "force-stop", shop_app.PACKAGE],
    ]
    assert device.stack == ["login"]


def test_back_pops_the_screen() -> None:
    _, driver = opened()
    run(driver.act(1, labeled(run(driver.capture(1)), "Sign in").position, Click(), 5000))
    run(driver.history("back", 5000))
    assert labeled(run(driver.capture(3)), "Sign in").role == "button"


def test_text_the_device_cannot_type_is_refused_before_anything_is_sent() -> None:
    device, driver = opened()
    sent = len(device.log)
    with pytest.raises(InvalidArgs, match="printable ASCII"):
        run(driver.keyboard("type", "Zoë"))
    assert len(device.log) == sent


class Flaky:
    """A device whose first answers to each command are a transport hiccup."""

    def __init__(self, device: Device, failures: int, error: str = "error: device offline") -> None:
        self.device, self.failures, self.error, self.attempts = device, failures, error, 0

    async def run(self, args: list[str], timeout_s: float) -> Result:
        self.attempts += 1
        if self.failures > 0:
            self.failures -= 1
            return Result(1, b"", self.error)
        return await self.device.run(args, timeout_s)


def test_a_transient_adb_failure_is_retried_and_a_busy_screen_is_said() -> None:
    flaky = Flaky(Device(shop_app.app()), failures=2)
    driver = AndroidDriver(flaky, FakeClock())
    run(driver.navigate(OpenRequest(target=shop_app.PACKAGE), 5000))
    assert flaky.attempts == 3
    busy = AndroidDriver(
        Flaky(Device(shop_app.app()), failures=9, error="ERROR: could not get idle state."), FakeClock()
    )
    with pytest.raises(ActionFailed, match="never settled"):
        run(busy.capture(1))


class Lagging:
    """A device whose screen is drawn late: after a tap or a key, its next ``lag`` dumps show the
    screen as it was before (what a dump taken mid-transition shows)."""

    def __init__(self, device: Device, lag: int) -> None:
        self.device, self.lag, self.stale, self.behind = device, lag, "", 0

    async def run(self, args: list[str], timeout_s: float) -> Result:
        if args[:3] == ["exec-out", "uiautomator", "dump"] and self.behind > 0:
            self.behind -= 1
            return Result(0, self.stale.encode(), "")
        if args[:3] in (["shell", "input", "tap"], ["shell", "input", "keyevent"]):
            self.stale, self.behind = self.device.dump(), self.lag
        return await self.device.run(args, timeout_s)


def lagging(lag: int) -> tuple[Lagging, AndroidDriver, FakeClock]:
    clock = FakeClock()
    device = Lagging(Device(shop_app.app()), lag)
    driver = AndroidDriver(device, clock)
    run(driver.navigate(OpenRequest(target=shop_app.PACKAGE), 5000))
    return device, driver, clock


def test_a_dump_taken_before_the_tapped_screen_is_drawn_is_taken_again() -> None:
    _, driver, clock = lagging(2)
    run(driver.act(1, labeled(run(driver.capture(1)), "Sign in").position, Click(), 5000))
    slept = clock.slept
    assert labeled(run(driver.capture(2)), "Orders").role == "textview"
    assert clock.slept - slept == pytest.approx(0.25 + 0.4)  # agent-device's pauses, until it moved


def test_a_tap_that_changes_the_screen_in_place_waits_one_pause_for_it_to_hold_still() -> None:
    from fixtures.android import lab_app

    clock = FakeClock()
    device = Device(lab_app.app())
    driver = AndroidDriver(device, clock)
    run(driver.navigate(OpenRequest(target=lab_app.PACKAGE), 5000))
    run(driver.act(1, labeled(run(driver.capture(1)), "Checkout form").position, Click(), 5000))
    pickup = labeled(run(driver.capture(2)), "Pickup")
    run(driver.act(2, pickup.position, Click(), 5000))
    slept = clock.slept
    assert labeled(run(driver.capture(3)), "Pickup").selected  # one node of more than ten changed
    assert clock.slept - slept == pytest.approx(0.25)


def test_a_tap_that_leaves_the_screen_as_it_was_waits_at_most_the_settle_deadline() -> None:
    _, driver, clock = lagging(0)
    run(driver.act(1, labeled(run(driver.capture(1)), "Welcome").position, Click(), 5000))
    slept = clock.slept
    assert labeled(run(driver.capture(2)), "Welcome").role == "textview"
    assert clock.slept - slept == pytest.approx(0.25 + 0.4 + 0.6)  # agent-device's pauses, all within 1.5 s


def test_a_look_long_after_the_action_or_after_typing_is_not_held() -> None:
    device, driver, clock = lagging(1)
    run(driver.act(1, labeled(run(driver.capture(1)), "Sign in").position, Click(), 5000))
    clock.advance(3.0)  # past agent-device's 2.5 s window: what the dump shows is what is there
    slept = clock.slept
    assert labeled(run(driver.capture(2)), "Sign in").role == "button" and clock.slept == slept
    device.lag = 1
    run(driver.keyboard("type", "abc"))  # typing does not move the screen
    run(driver.capture(3))
    assert clock.slept == slept


def session(tmp_path: Path, version: int = 1) -> Session:
    clock = FakeClock()
    return Session(
        "android", str(tmp_path), AndroidDriver(Device(shop_app.app(version)), clock), platform="android", clock=clock
    )


def typed(s: Session, *argv: str) -> dict[str, Any]:
    return run(pipeline.execute(s, parse_argv(list(argv))))


def test_a_recorded_android_flow_has_verified_evidence_for_every_step(tmp_path: Path) -> None:
    s = session(tmp_path)
    s.start_recording(None)
    typed(s, "open", shop_app.PACKAGE)
    typed(s, "fill", f"id={shop_app.rid('email')}", "ada@example.com")
    typed(s, "click", 'label="Sign in"')
    typed(s, "snapshot", "-i")
    script = s.recorded_script()
    lines = script.splitlines()
    assert lines[:2] == ["context platform=android", f"open {shop_app.PACKAGE}"]
    assert lines[3] == 'fill "id=\\"com.example.shop:id/email\\" || placeholder=\\"Email\\"" "ada@example.com"'
    assert lines[5] == 'click id="com.example.shop:id/sign_in" || role=button label="Sign in"'
    annotations = [line for line in script.splitlines() if line.startswith("# replay:target-v1")]
    assert len(annotations) == 2 and all('"verification":"verified"' in a for a in annotations)


def recorded_flow(tmp_path: Path) -> str:
    """Sign in, open the second of three look-alike rows, change its address: recorded on version 1."""
    s = session(tmp_path / "rec")
    s.start_recording(None)
    typed(s, "open", shop_app.PACKAGE)
    typed(s, "fill", f"id={shop_app.rid('email')}", "ada@example.com")
    typed(s, "click", 'label="Sign in"')
    typed(s, "snapshot", "-i")
    rows = [n for n in s.refs_capture.nodes if n.label == "Open"]  # type: ignore[union-attr]
    typed(s, "click", rows[1].ref)
    typed(s, "click", 'label="Edit address"')
    typed(s, "fill", f"id={shop_app.rid('street')}", "1 Main St")
    typed(s, "click", 'label="Save"')
    return s.recorded_script()


def replayed(tmp_path: Path, script: str, version: int) -> tuple[Any, Session]:
    """The recorded script run on a fresh device with the app's ``version``: its result, its session."""
    from replay.engine.runner import Runner, RunOptions

    s = session(tmp_path / f"v{version}", version)
    return run(Runner(s, plan_of(script), RunOptions(artifacts_dir=str(tmp_path / "artifacts"))).run()), s


def plan_of(script: str) -> Any:
    from replay.script import build_plan, parse

    return build_plan(parse(script, "flow.ad"), None)


def test_a_recorded_android_flow_replays_clean_on_the_app_it_was_recorded_on(tmp_path: Path) -> None:
    script = recorded_flow(tmp_path)
    result, s = replayed(tmp_path, script, 1)
    assert result.ran == result.steps - 1  # every step (the terminal close is the session's)
    device = s.driver.transport  # type: ignore[attr-defined]
    assert device.stack[-1] == "saved" and device.typed[("address", shop_app.rid("street"))] == "1 Main St"
    assert "order A-101" in device.stack  # the row that was recorded, of three look-alikes


def test_a_benign_drift_replays_clean_by_id_and_anchor(tmp_path: Path) -> None:
    result, s = replayed(tmp_path, recorded_flow(tmp_path), 2)
    assert result.ran == result.steps - 1 and "order A-101" in s.driver.transport.stack  # type: ignore[attr-defined]


def test_a_renamed_button_stops_before_acting_with_record_and_heal_and_the_healer_would_tap_its_new_name(
    tmp_path: Path,
) -> None:
    from replay.engine.heal_choice import decide
    from replay.engine.runner import Runner, RunOptions
    from replay.errors import DivergenceError

    script = recorded_flow(tmp_path)
    s = session(tmp_path / "v3", 3)
    with pytest.raises(DivergenceError) as stopped:
        run(Runner(s, plan_of(script), RunOptions(artifacts_dir=str(tmp_path / "artifacts"))).run())
    d = stopped.value.divergence
    assert (d["kind"], d["repairHint"]) == ("selector-miss", "record-and-heal")
    assert "Edit address" in d["action"] and s.driver.transport.stack[-1] == "order A-101"  # type: ignore[attr-defined]
    recorded = plan_of(script).steps[d["step"]["index"] - 1].action.annotation
    decision = decide(d["repairHint"], recorded, s.refs_capture)
    assert decision.node is not None and decision.node.label == "Edit delivery address", decision.reason


def test_get_value_of_a_password_field_reads_the_mask_never_what_was_typed(tmp_path: Path) -> None:
    s = session(tmp_path)
    typed(s, "open", shop_app.PACKAGE)
    typed(s, "fill", f"id={shop_app.rid('password')}", "s3cret pass")
    assert typed(s, "get", "value", f"id={shop_app.rid('password')}")["value"] == "•••"
    assert "s3cret" not in str(typed(s, "get", "attrs", f"id={shop_app.rid('password')}")["value"])


class Hung:
    """A device that stops answering once the app is open (a wedged adbd)."""

    def __init__(self, device: Device) -> None:
        self.device, self.hung = device, False

    async def run(self, args: list[str], timeout_s: float) -> Result:
        if self.hung:
            await asyncio.sleep(3600)
        return await self.device.run(args, timeout_s)


def test_a_step_on_a_device_that_stops_answering_says_the_device_did_not_answer(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from replay.errors import Timeout

    monkeypatch.setattr(pipeline, "BUDGET_GRACE_S", 0.0)  # the step's budget is its timeouts alone
    hung = Hung(Device(shop_app.app()))
    s = Session("android", str(tmp_path), AndroidDriver(hung, FakeClock()), platform="android", clock=FakeClock())
    typed(s, "open", shop_app.PACKAGE)
    hung.hung = True
    with pytest.raises(Timeout) as err:
        run(pipeline.execute(s, parse_argv(["keyboard", "status"]), timeout_ms=50))
    assert "the device did not answer (adb)" in err.value.message and "JavaScript" not in err.value.message


def test_an_element_of_a_capture_no_longer_kept_is_located_nowhere_never_stale() -> None:
    # the driver protocol: locate answers None when it cannot tell (an effect check that looked often)
    _, driver = opened()
    first = run(driver.capture(1))
    for generation in range(2, 12):
        last = run(driver.capture(generation))
    assert run(driver.locate(1, labeled(first, "Sign in").position, last.generation)) is None
