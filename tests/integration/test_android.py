"""Android end to end: the real `replay` CLI and daemon, Debian's real `adb` client, and the device
simulator's adb server (fixtures/android) serving the shop app — version 1 on emulator-5554, the
drifted version 3 (a renamed button) on emulator-5556."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from fixtures.android.adb_server import serving

from .conftest import ROOT, Cli, diverge, private_home

PACKAGE = "com.example.shop"
IDE = "com.iml1s.termux_flutter_ide"
V1, V3, V4 = "emulator-5554", "emulator-5556", "emulator-5558"


@pytest.fixture(scope="module")
def adb_socket() -> Iterator[str]:
    """The simulator's adb server (its own process, stopped by its PID)."""
    with serving("shop:1,ide:1,settings,lab", "shop:3,ide:2,settings", "shop:4") as socket:
        yield socket


@pytest.fixture(scope="module")
def android_home() -> Iterator[str]:
    with private_home() as home:
        yield home


@pytest.fixture
def device_cli(android_home: str, adb_socket: str, tmp_path: Path) -> Cli:
    return Cli(android_home, str(tmp_path), {"ADB_SERVER_SOCKET": adb_socket})


def open_app(cli: Cli, session: str, app: str, script: str) -> None:
    """``replay open`` the app on version 1's device, restarted, recording into ``script``."""
    cli(
        "open",
        "--platform",
        "android",
        "--serial",
        V1,
        "--session",
        session,
        app,
        "--relaunch",
        "--save-script",
        script,
    )


def record(cli: Cli) -> Path:
    """Sign in, open the second of three look-alike orders, change its street: recorded on version 1."""
    open_app(cli, "rec", PACKAGE, "flow.ad")
    cli("fill", f"id={PACKAGE}:id/email", "ada@example.com", "--session", "rec")
    cli("click", 'label="Sign in"', "--session", "rec")
    refs = [
        line.split()[0] for line in cli("snapshot", "-i", "--session", "rec").stdout.splitlines() if '"Open"' in line
    ]
    cli("click", refs[1], "--session", "rec")
    cli("click", 'label="Edit address"', "--session", "rec")
    cli("fill", f"id={PACKAGE}:id/street", "1 Main St", "--session", "rec")
    cli("click", 'label="Save"', "--session", "rec")
    cli("close", "--session", "rec")
    return Path(cli.cwd) / "flow.ad"


def test_a_flow_recorded_on_a_device_is_verified_and_replays_clean_there(device_cli: Cli) -> None:
    flow = record(device_cli)
    text = flow.read_text()
    assert text.startswith("context platform=android\nopen com.example.shop --relaunch\n")
    steps = [line for line in text.splitlines() if line.split()[0] in ("click", "fill")]
    annotations = [line for line in text.splitlines() if line.startswith("# replay:target-v1")]
    assert len(steps) == 6 and len(annotations) == 6 and all('"verification":"verified"' in a for a in annotations)
    assert device_cli("run", str(flow), "--serial", V1).stdout.startswith("replayed 7 steps")  # open + 6


def test_a_renamed_button_on_the_drifted_app_is_a_divergence_with_record_and_heal(device_cli: Cli) -> None:
    flow = record(device_cli)
    d = diverge(device_cli, "run", str(flow), "--serial", V3, "--timeout", "1000")
    assert (d["kind"], d["repairHint"]) == ("selector-miss", "record-and-heal") and "Edit address" in d["action"]


def test_a_save_that_does_nothing_on_the_device_stops_at_save_with_no_effect(device_cli: Cli) -> None:
    flow = record(device_cli)
    # a dump names the app, not its activity: a screen that moved on shows as the tapped button gone
    assert flow.read_text().count('"effect":[{"target":"gone"}]') == 4  # the four taps
    d = diverge(device_cli, "run", str(flow), "--serial", V4, "--timeout", "1000")
    assert (d["kind"], d["repairHint"], d["step"]["index"]) == ("action-failure", "manual", 7)
    assert d["effect"]["observed"] == "nothing changed" and 'label="Save"' in d["action"]


def record_on_real_screens(cli: Cli) -> Path:
    """On a Flutter app whose screens are real public dumps: its unnamed menu button, "Open Folder",
    "Select This Folder" (fixtures/android/ide_app.py)."""
    open_app(cli, "ide", IDE, "ide.ad")
    menu = next(
        line.split()[0]
        for line in cli("snapshot", "-i", "--session", "ide").stdout.splitlines()
        if "button  in" in line
    )
    cli("click", menu, "--session", "ide")
    cli("click", 'label="Open Folder"', "--session", "ide")
    cli("click", 'label="Select This Folder"', "--session", "ide")
    cli("is", "visible", 'label="verify_app - Termux IDE"', "--session", "ide", "--record")
    cli("close", "--session", "ide")
    return Path(cli.cwd) / "ide.ad"


def test_a_flow_recorded_on_real_screens_is_verified_and_replays_clean_there(device_cli: Cli) -> None:
    flow = record_on_real_screens(device_cli)
    text = flow.read_text()
    assert text.count('"verification":"verified"') == 4, text
    assert device_cli("run", str(flow), "--serial", V1).returncode == 0


def test_on_the_apps_later_version_a_status_labelled_container_that_changed_is_a_different_screen(
    device_cli: Cli,
) -> None:
    # the recorded container of the menu button is the editor's view labelled "No files open …";
    # in the later version it reads "Error loading file: …" — SPEC §6's table says state-repair
    flow = record_on_real_screens(device_cli)
    d = diverge(device_cli, "run", str(flow), "--serial", V3, "--timeout", "1000")
    assert (d["kind"], d["repairHint"], d["step"]["index"]) == ("selector-miss", "state-repair", 2)
    assert "No files open No file selected" in d["cause"]


AGENT_DEVICE = sorted((ROOT / "fixtures" / "android" / "agent-device").glob("*.ad"))


@pytest.mark.parametrize("script", AGENT_DEVICE, ids=[p.stem for p in AGENT_DEVICE])
def test_agent_devices_android_scripts_run_unchanged_on_a_simulated_settings_app(
    device_cli: Cli, android_home: str, adb_socket: str, script: Path
) -> None:
    on_v1 = Cli(android_home, device_cli.cwd, {"ADB_SERVER_SOCKET": adb_socket, "ANDROID_SERIAL": V1})
    ran = on_v1("run", str(script), ok=None)
    assert ran.returncode == 0, ran.stdout + ran.stderr
    from replay.script import build_plan
    from replay.script.loader import load

    assert f"replayed {len(build_plan(load(str(script))).steps)} steps" in ran.stdout  # every step, none skipped


MAESTRO = ROOT / "fixtures" / "maestro" / "agent-device"


def test_agent_devices_maestro_example_flow_imports_and_runs_on_the_simulator(
    device_cli: Cli, android_home: str, adb_socket: str
) -> None:
    import shutil

    flows = Path(device_cli.cwd) / "maestro"
    shutil.copytree(MAESTRO, flows)
    imported = device_cli("import", str(flows / "checkout-form.yaml"))
    assert "checkout-form.ad" in imported.stdout
    on_v1 = Cli(android_home, device_cli.cwd, {"ADB_SERVER_SOCKET": adb_socket, "ANDROID_SERIAL": V1})
    ran = on_v1("run", str(flows / "checkout-form.ad"), ok=None)
    assert ran.returncode == 0 and "replayed 18 steps" in ran.stdout, ran.stdout + ran.stderr
    suite = on_v1("test", str(flows / "checkout-form.yaml"), "--junit", "maestro.xml", "--trace", "off", ok=None)
    assert suite.returncode == 0 and "1 passed" in suite.stdout, suite.stdout + suite.stderr


def test_a_long_press_in_a_script_reaches_the_device_and_opens_what_the_view_holds(device_cli: Cli) -> None:
    script = Path(device_cli.cwd) / "hold.ad"
    script.write_text(
        "context platform=android\n"
        f"open {PACKAGE} --relaunch\n"
        'click label="Sign in"\n'
        'click label="Open" at=1\n'
        'click label="Edit address"\n'
        'click label="Save"\n'
        "long-press 540 160\n"  # "Address saved": held, it offers to copy the address
        'is visible label="Copy address"\n'
    )
    ran = device_cli("run", str(script), "--serial", V1, ok=None)
    assert ran.returncode == 0, ran.stdout + ran.stderr


def test_a_maestro_flow_that_scrolls_until_a_row_shows_imports_and_runs(
    device_cli: Cli, android_home: str, adb_socket: str
) -> None:
    flow = Path(device_cli.cwd) / "about.yaml"
    flow.write_text(
        "appId: com.android.settings\n---\n- launchApp\n- scrollUntilVisible:\n    element: About phone\n"
        "- assertVisible: Simulated Device\n"
    )
    on_v1 = Cli(android_home, device_cli.cwd, {"ADB_SERVER_SOCKET": adb_socket, "ANDROID_SERIAL": V1})
    ran = on_v1("test", str(flow), "--trace", "off", ok=None)
    assert ran.returncode == 0 and "1 passed" in ran.stdout, ran.stdout + ran.stderr


def test_replay_test_and_verify_run_on_the_device_serial_names(device_cli: Cli) -> None:
    flow = record(device_cli)  # no ANDROID_SERIAL: --serial alone says which of three devices
    suite = device_cli("test", str(flow), "--serial", V1, "--trace", "off", ok=None)
    assert suite.returncode == 0 and "1 passed" in suite.stdout, suite.stdout + suite.stderr
    assert device_cli("verify", str(flow), "--serial", V1).returncode == 0
    drifted = device_cli("verify", str(flow), "--serial", V3, ok=None)  # version 3 renamed a button
    assert drifted.returncode == 3, drifted.stdout + drifted.stderr


def test_an_app_on_a_device_that_is_not_attached_is_refused_clearly(device_cli: Cli) -> None:
    proc = device_cli(
        "open", "--platform", "android", "--serial", "emulator-9999", PACKAGE, "--session", "nodev", ok=None
    )
    assert proc.returncode != 0 and "no Android device 'emulator-9999' is attached" in proc.stderr


def test_an_android_script_whose_device_is_not_attached_stops_before_step_one(device_cli: Cli) -> None:
    flow = Path(device_cli.cwd) / "android.ad"
    flow.write_text(f"context platform=android\nopen {PACKAGE}\nclick id=login\n")
    before = {s["name"] for s in device_cli.json("session", "list")["sessions"]}
    proc = device_cli("run", str(flow), "--serial", "emulator-9999", ok=None)
    assert proc.returncode != 0 and "no Android device 'emulator-9999' is attached" in proc.stderr
    assert {s["name"] for s in device_cli.json("session", "list")["sessions"]} == before  # none was kept


def test_devices_lists_what_adb_sees(device_cli: Cli) -> None:
    listed = device_cli.json("devices")["devices"]
    assert [(d["serial"], d["state"]) for d in listed] == [(V1, "device"), (V3, "device"), (V4, "device")]
    assert "model:Simulated_Device" in device_cli("devices").stdout


def test_the_built_in_healer_heals_the_renamed_button_and_publishes_the_healed_script(device_cli: Cli) -> None:
    flow = record(device_cli)  # healed on version 3's device, named by --serial (no ANDROID_SERIAL)
    healed = device_cli("heal", str(flow), "--agent", "builtin", "--timeout", "1000", "--serial", V3, ok=None)
    assert healed.returncode == 5, healed.stdout + healed.stderr  # healed, pending review
    text = (Path(device_cli.cwd) / "flow.healed.ad").read_text()
    assert 'label="Edit delivery address"' in text and 'label="Edit address"' not in text


def test_a_suite_runs_web_and_android_flows_together_with_junit_and_html(
    device_cli: Cli, android_home: str, adb_socket: str, web: str
) -> None:
    flow = record(device_cli)
    suite = Path(device_cli.cwd) / "suite"
    suite.mkdir()
    (suite / "android.ad").write_text(flow.read_text())
    (suite / "web.ad").write_text(f"context platform=web\nopen {web}/shop/index.html\nsnapshot\n")
    on_v1 = Cli(android_home, device_cli.cwd, {"ADB_SERVER_SOCKET": adb_socket, "ANDROID_SERIAL": V1})
    ran = on_v1("test", "suite", "--junit", "junit.xml", "--html", "report", "--trace", "off")
    assert "2 passed" in ran.stdout, ran.stdout
    junit = (Path(device_cli.cwd) / "junit.xml").read_text()
    assert 'tests="2"' in junit and 'failures="0"' in junit
    assert (Path(device_cli.cwd) / "report" / "index.html").exists()


def test_mcp_drives_a_device_session_and_replays_on_the_device_it_names(device_cli: Cli) -> None:
    import asyncio

    from mcp.client.session import ClientSession

    from .test_mcp import mcp_session

    flow = record(device_cli)

    async def go() -> tuple[Any, Any, Any]:
        async with mcp_session(device_cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            opened = await s.call_tool(
                "open", {"url": PACKAGE, "platform": "android", "serial": V1, "relaunch": True, "session": "m"}
            )
            shown = await s.call_tool("snapshot", {"session": "m"})
            await s.call_tool("close", {"session": "m", "discard": True})
            drifted = await s.call_tool("replay_run", {"path": str(flow), "serial": V3, "timeout": 1000})
            return opened, shown, drifted

    opened, shown, drifted = asyncio.run(go())
    assert not opened.is_error and 'button "Sign in"' in shown.content[0].text
    assert drifted.is_error and drifted.structured_content["repairHint"] == "record-and-heal"


def test_the_pytest_plugin_runs_an_android_flow_on_the_device_in_android_serial(
    device_cli: Cli, android_home: str, adb_socket: str
) -> None:
    flow = record(device_cli)
    suite = Path(device_cli.cwd) / "flows"
    suite.mkdir()
    (suite / "shop.ad").write_text(flow.read_text())
    results = {}
    for serial in (V1, V3):
        env = {**device_cli.env, "ANDROID_SERIAL": serial}
        ran = subprocess.run(
            [
                sys.executable,
                "-m",
                "pytest",
                "-p",
                "no:cacheprovider",
                "-m",
                "android",
                "--replay-step-timeout",
                "1000",
                "-q",
                str(suite),
            ],
            capture_output=True,
            text=True,
            cwd=device_cli.cwd,
            env=env,
            timeout=300,
        )
        results[serial] = (ran.returncode, ran.stdout)
    assert results[V1][0] == 0 and "1 passed" in results[V1][1], results[V1][1]
    assert results[V3][0] == 1 and "DIVERGENCE selector-miss" in results[V3][1], results[V3][1]


def test_a_second_session_cannot_record_on_a_device_another_session_drives(device_cli: Cli) -> None:
    device = ("--platform", "android", "--serial", V1)
    device_cli("open", *device, PACKAGE, "--session", "first")
    try:
        second = device_cli("open", *device, PACKAGE, "--session", "second", "--save-script", "two.ad", ok=None)
        assert second.returncode == 2 and "Traceback" not in second.stderr
        assert "cannot record on the Android device emulator-5554: session 'first' drives it too" in second.stderr
        assert not (Path(device_cli.cwd) / "two.ad").exists()
    finally:
        device_cli("close", "--session", "second", ok=None)
        device_cli("close", "--session", "first")
