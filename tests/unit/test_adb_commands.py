"""The adb command lines the Android backend sends are agent-device's (SPEC §9; the argv table in
../shared/research/android.md §1, from agent-device's src/platforms/android/*.ts), golden-tested
word for word, and what it reads back from adb's answers."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import pytest

from replay.drivers.android import adb
from replay.drivers.android.adb import SubprocessAdb
from replay.errors import ActionFailed, DeviceUnavailable, InvalidArgs


@pytest.mark.parametrize(
    ("built", "agent_device"),
    [
        (adb.dump(), "exec-out uiautomator dump /dev/tty"),
        (adb.dump_to_file(), "shell uiautomator dump /sdcard/window_dump.xml"),
        (adb.cat_dump(), "shell cat /sdcard/window_dump.xml"),
        (adb.tap(540.4, 1199.6), "shell input tap 540 1200"),
        (adb.long_press(100, 200), "shell input swipe 100 200 100 200 800"),
        (adb.swipe(540, 1800, 540, 600), "shell input swipe 540 1800 540 600 300"),
        (adb.keyevent("back"), "shell input keyevent 4"),
        (adb.keyevent("home"), "shell input keyevent 3"),
        (adb.keyevent("app_switch"), "shell input keyevent 187"),
        (adb.keyevent("enter"), "shell input keyevent ENTER"),
        (adb.keyevent("hide_keyboard"), "shell input keyevent 111"),
        (adb.keyevent("move_end"), "shell input keyevent KEYCODE_MOVE_END"),
        (adb.keyevent("del"), "shell input keyevent KEYCODE_DEL"),
        (adb.input_method(), "shell dumpsys input_method"),
        (
            adb.start_app("com.example.shop"),
            "shell am start -W -a android.intent.action.MAIN -c android.intent.category.DEFAULT "
            "-c android.intent.category.LAUNCHER -p com.example.shop",
        ),
        (adb.open_link("myapp://cart"), "shell am start -W -a android.intent.action.VIEW -d myapp://cart"),
        (adb.force_stop("com.example.shop"), "shell am force-stop com.example.shop"),
        (adb.ALIASES["settings"], "shell am start -W -a android.settings.SETTINGS"),
        (adb.screen_size(), "shell wm size"),
        (adb.windows(), "shell dumpsys window windows"),
        (adb.screencap(), "exec-out screencap -p"),
        (adb.devices(), "devices -l"),
    ],
)
def test_each_command_line_is_agent_devices(built: list[str], agent_device: str) -> None:
    assert built == agent_device.split(" ")


def test_text_goes_in_chunks_of_eight_with_spaces_as_percent_s() -> None:
    assert adb.text_chunks("Ada Lovelace 1815") == [
        ["shell", "input", "text", "Ada%sLove"],
        ["shell", "input", "text", "lace%s181"],
        ["shell", "input", "text", "5"],
    ]


def test_text_the_device_shell_would_read_as_syntax_is_quoted() -> None:
    assert adb.text_chunks("a;b'c") == [["shell", "input", "text", "'a;b'\"'\"'c'"]]


def test_text_input_cannot_type_is_refused_with_a_clear_error() -> None:
    with pytest.raises(InvalidArgs, match="printable ASCII only"):
        adb.text_chunks("Zoë")


def test_the_focused_app_is_read_from_dumpsys_window() -> None:
    out = "  mCurrentFocus=Window{a1b2 u0 com.example.shop/.LoginActivity}\n  mFocusedApp=ActivityRecord{x}\n"
    assert adb.focused_app(out) == "com.example.shop/.LoginActivity"
    assert adb.focused_app("nothing here") is None


def test_the_screen_size_is_read_from_wm_size_an_override_winning() -> None:
    assert adb.physical_size("Physical size: 1080x2400\n") == (1080, 2400)
    assert adb.physical_size("Physical size: 1080x2400\nOverride size: 720x1600\n") == (720, 1600)


def test_a_busy_screen_is_reported_as_such_not_as_a_generic_failure() -> None:
    with pytest.raises(ActionFailed, match="never settled"):
        adb.check(adb.Result(1, b"", "ERROR: could not get idle state."), "snapshot")


def test_only_transport_hiccups_are_worth_a_retry() -> None:
    assert adb.transient(adb.Result(1, b"", "error: device offline"))
    assert not adb.transient(adb.Result(1, b"", "Exception occurred while executing 'text'"))
    assert not adb.transient(adb.Result(0, b"ok", ""))


@pytest.fixture(params=["pidfd", "thread"])
def watcher(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """The transport's two ways of running a command: spawned, its output in memory files and its end
    watched by the event loop (a pidfd: Linux), and ``subprocess.run`` in a worker thread (macOS)."""
    if request.param == "thread":
        monkeypatch.delattr(os, "pidfd_open", raising=False)
    return str(request.param)


def _fake_adb(tmp_path: Path, body: str) -> str:
    fake = tmp_path / "adb"
    fake.write_text(f"#!/bin/sh\n{body}\n")
    fake.chmod(0o755)
    return str(fake)


def test_an_adb_command_gives_back_its_exit_code_stdout_and_stderr(tmp_path: Path, watcher: str) -> None:
    fake = _fake_adb(tmp_path, 'head -c 200000 /dev/zero; echo "said $*" >&2; exit 3')
    result = asyncio.run(SubprocessAdb("emulator-5554", binary=fake).run(["shell", "true"], 5))
    assert (result.code, result.out, result.err) == (3, bytes(200000), "said -s emulator-5554 shell true\n")


def test_an_adb_command_past_its_deadline_is_killed_and_said_to_have_timed_out(tmp_path: Path, watcher: str) -> None:
    slow = _fake_adb(tmp_path, "exec sleep 30")
    result = asyncio.run(SubprocessAdb("emulator-5554", binary=slow).run(["shell", "true"], 0.2))
    assert (result.code, result.err) == (124, "timed out after 0.2 s")


def test_an_adb_command_whose_step_is_cancelled_is_killed_and_reaped(tmp_path: Path) -> None:
    pids = tmp_path / "pid"
    slow = _fake_adb(tmp_path, f"echo $$ > {pids}; exec sleep 30")

    async def cancelled() -> None:
        command = asyncio.create_task(SubprocessAdb("emulator-5554", binary=slow).run(["shell", "true"], 30))
        while not pids.exists() or not pids.read_text().strip():
            await asyncio.sleep(0.01)
        command.cancel()
        with pytest.raises(asyncio.CancelledError):
            await command

    asyncio.run(cancelled())
    with pytest.raises(ChildProcessError):  # reaped: not a child of ours any more (no zombie left)
        os.waitpid(int(pids.read_text()), os.WNOHANG)


def test_an_adb_binary_that_cannot_be_run_is_said(tmp_path: Path, watcher: str) -> None:
    fake = _fake_adb(tmp_path, "true")
    os.chmod(fake, 0o644)
    with pytest.raises(DeviceUnavailable, match="cannot be run: Permission denied"):
        asyncio.run(SubprocessAdb("emulator-5554", binary=fake).run(["shell", "true"], 1))


def test_a_missing_adb_binary_is_said_with_how_to_install_it(tmp_path: Path, watcher: str) -> None:
    with pytest.raises(DeviceUnavailable, match="is not installed") as err:
        asyncio.run(SubprocessAdb("emulator-5554", binary=str(tmp_path / "no-adb")).run(["shell", "true"], 1))
    assert "apt-get install adb" in (err.value.hint or "")
