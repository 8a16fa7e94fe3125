"""No value of a script reaches the device's shell as syntax (issue 32 §1): adbd runs a ``shell``
service's words through ``sh -c``, so every word carrying an app id, a link or typed text is quoted,
and an app id is checked against Android's package grammar before any word is sent."""

from __future__ import annotations

import asyncio
import os
import stat
from pathlib import Path

import pytest

from fixtures.android import shop_app
from fixtures.android.device import Device
from replay.drivers.android import adb
from replay.drivers.android.adb import SubprocessAdb
from replay.drivers.android.driver import AndroidDriver
from replay.drivers.base import OpenRequest
from replay.errors import InvalidArgs, ReplayError, ScriptErrors
from replay.script import apps
from replay.script.parser import parse
from replay.script.plan import plan_problems
from replay.script.redact import secrets_of
from replay.script.resolve import resolve_action

from ..fakes.driver import FakeClock

# what adbd does with `adb shell WORDS…`: the words joined by spaces, then `sh -c` (the stub commands
# log each argument they get, NUL-separated)
ADBD = """#!/bin/sh
[ "$1" = "-s" ] && shift 2
[ "$1" = "shell" ] || exit 0
shift
PATH="$STUBS:$PATH" exec sh -c "$*"
"""
STUB = """#!/bin/sh
for word in "$@"; do printf '%s\\0' "$word" >> "$WORDS"; done
"""
HOSTILE = [
    "com.x;touch {mark}",
    "com.x$(touch {mark})",
    "com.x`touch {mark}`",
    "com.x\ntouch {mark}",
    "com.x' ; touch {mark} ; '",
    "com.x && touch {mark}",
    "com.x|touch {mark}",
]


def _executable(path: Path, text: str) -> None:
    path.write_text(text)
    path.chmod(path.stat().st_mode | stat.S_IXUSR)


def _words(tmp_path: Path) -> list[str]:
    return (tmp_path / "words").read_text().split("\0")[:-1]


@pytest.fixture
def adbd(tmp_path: Path) -> SubprocessAdb:
    stubs = tmp_path / "stubs"
    stubs.mkdir()
    for name in ("am", "pm", "input"):
        _executable(stubs / name, STUB)
    _executable(tmp_path / "adb", ADBD)
    env = {**os.environ, "STUBS": str(stubs), "WORDS": str(tmp_path / "words")}
    return SubprocessAdb("emulator-5554", binary=str(tmp_path / "adb"), env=env)


@pytest.mark.parametrize("payload", HOSTILE)
@pytest.mark.parametrize("builder", [adb.start_app, adb.force_stop, adb.clear_data, adb.open_link, adb.keyevent])
def test_no_word_of_a_command_line_runs_as_shell_syntax_on_the_device(
    adbd: SubprocessAdb, tmp_path: Path, builder: object, payload: str
) -> None:
    mark = tmp_path / "INJECTED"
    value = payload.format(mark=mark)
    asyncio.run(adbd.run(builder(value), 5.0))  # type: ignore[operator]
    assert not mark.exists()
    assert value in _words(tmp_path)  # one word, whole


def test_typed_text_reaches_input_text_whole_whatever_it_holds(adbd: SubprocessAdb, tmp_path: Path) -> None:
    mark = tmp_path / "INJECTED"
    text = f"a;touch {mark}'$(x)`y`"
    for chunk in adb.text_chunks(text):
        asyncio.run(adbd.run(chunk, 5.0))
    assert not mark.exists()
    typed = [w for w in _words(tmp_path) if w != "text"]
    assert "".join(typed).replace("%s", " ") == text


@pytest.mark.parametrize(
    ("target", "ok"),
    [
        ("com.example.shop", True),
        ("settings", True),
        ("org.a_b.C9", True),
        ("myapp://cart/1?x=2", True),
        ("com", False),
        ("com.example.shop;touch X", False),
        ("com..shop", False),
        ("1com.shop", False),
        ("com.exämple.shop", False),
        ("", False),
        ("a" * 200 + "." + "b" * 60, False),
        ("my app://cart", False),
        ("myapp://car t", False),
    ],
)
def test_an_app_id_follows_androids_package_grammar_or_is_an_alias_or_a_link(target: str, ok: bool) -> None:
    assert (apps.app_problem(target) is None) is ok


def test_the_driver_refuses_an_app_id_outside_the_grammar_before_any_word_is_sent() -> None:
    device = Device(shop_app.app(1))
    driver = AndroidDriver(device, FakeClock())
    for target in ("com.example.shop;touch X", "", "com.example.shop --user 0"):
        with pytest.raises(InvalidArgs, match="open: .*app id"):
            asyncio.run(driver.navigate(OpenRequest(target=target, relaunch=True, clear_state=True), 5000))
    assert device.log == []


def test_lint_refuses_an_android_open_outside_the_grammar_at_its_line() -> None:
    script = parse('context platform=android\nopen com.example.shop\nopen "com.example.shop;touch X"\n', "f.ad")
    _, problems = plan_problems(script)
    assert [(p.location.line if p.location else None, p.code) for p in problems] == [(3, "INVALID_ARGS")]


@pytest.mark.parametrize("words", ["1e308 5", "nan 5", "inf% 5", "-5 3", "5 999999", "101% 50%", "1_0 5"])
def test_two_number_like_words_after_press_are_a_point_checked_strictly_never_a_text_to_tap(words: str) -> None:
    with pytest.raises(ScriptErrors) as err:
        parse(f"context platform=android\npress {words}\n", "f.ad")
    assert "must be device pixels or a percentage of the screen" in err.value.message


def test_a_coordinate_a_variable_made_is_checked_as_a_literal_one() -> None:
    script = parse("context platform=android\nswipe ${X} 5 10 10\n", "f.ad")
    with pytest.raises(InvalidArgs, match="x1 must be device px or a percentage"):
        resolve_action(script.actions[0], {"X": "nan"}, "f.ad")
    assert resolve_action(script.actions[0], {"X": "50%"}, "f.ad").param("x1") == "50%"


def test_a_secret_is_redacted_in_the_pieces_android_types_it_in() -> None:
    secrets = secrets_of([], {"PASSWORD": "correct horse battery"})
    said = "adb said: input text 'correct%s' failed, then horse%sba and 'ttery'"  # the chunks as sent
    shown = ReplayError(said).redacted(secrets).message
    assert "correct" not in shown and "horse" not in shown and "ttery" not in shown
