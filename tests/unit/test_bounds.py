"""Bad input is bounded with a clear error, never a traceback or a stall (SPEC §12)."""

from __future__ import annotations

import gc
import os
import time
from pathlib import Path

import pytest

from replay.client import Client
from replay.errors import InvalidArgs, Location, ReplayError, Timeout
from replay.files import open_private
from replay.limits import MAX_MS
from replay.script import parse
from replay.script.parser import parse_action
from replay.script.resolve import resolve_action
from replay.script.selector import parse_selector
from replay.session.protocol import MAX_MESSAGE
from replay.session.publish import publish_exclusive
from replay.tree.match import resolve

from .treebuild import N, capture

HERE = Location("t.ad", 3)


def lint_error(text: str) -> ReplayError:
    """The error ``replay lint`` reports for a script (its first problem)."""
    with pytest.raises(ReplayError) as err:
        parse(text, "t.ad")
    return err.value


def test_an_annotation_nested_too_deeply_is_invalid_args_not_a_recursion_error() -> None:
    deep = "[" * 1500 + "]" * 1500
    err = lint_error(f"context platform=web\nopen http://x/\n# replay:target-v1 {deep}\nclick id=a\n")
    assert err.code == "INVALID_ARGS" and "nested more than 16 levels" in err.message


def test_a_regex_of_600_nested_groups_is_refused_as_too_complex_without_a_traceback() -> None:
    pattern = "(" * 600 + "a" + ")" * 600
    with pytest.raises(InvalidArgs, match="too complex"):
        parse_selector(f'label~="{pattern}"')


def test_a_regex_that_backtracks_forever_times_out_instead_of_stalling() -> None:
    cap = capture(N("button", label="a" * 40 + "!"))
    with pytest.raises(Timeout, match="did not finish matching"):
        resolve(cap, parse_selector('label~="(a|aa)+$"'))


@pytest.mark.parametrize(
    "line",
    [
        "context platform=web timeout=99999999999999999999",
        f"context platform=web timeout={MAX_MS + 1}",
        "context platform=web retries=00000000000000000000001",
    ],
)
def test_context_numbers_are_bounded(line: str) -> None:
    err = lint_error(f"{line}\nopen http://x/\n")
    assert err.code == "INVALID_ARGS" and err.message.startswith("context ") and len(err.message) < 120


@pytest.mark.parametrize("ms", ["9" * 400, str(MAX_MS + 1), "9" * 5000])
def test_durations_are_at_most_an_hour(ms: str) -> None:
    with pytest.raises(InvalidArgs, match="up to 3600000") as err:
        parse_action(f"wait {ms}", HERE)
    assert len(err.value.message) < 200  # the 5,000 digits are not echoed back


def test_a_duration_made_by_a_variable_is_bounded_too() -> None:
    action = parse_action('wait text "Done" ${MS}', HERE)
    with pytest.raises(InvalidArgs, match="up to 3600000"):
        resolve_action(action, {"MS": "not a number"}, "t.ad")
    assert resolve_action(action, {"MS": "250"}, "t.ad").param("ms") == "250"


def test_the_cli_duration_bound_is_the_scripts() -> None:
    from replay.cli.app import MS

    assert MS.max == MAX_MS


def test_a_ref_of_5000_digits_is_invalid_args() -> None:
    with pytest.raises(InvalidArgs, match="invalid ref"):
        parse_action("click @e" + "1" * 5000, HERE)


def _lint_seconds(alternatives: int) -> float:
    """CPU seconds of this process (another process on a loaded machine does not count), no GC pause."""
    line = "click " + " || ".join(f"id=a{i}" for i in range(alternatives))
    gc.disable()
    try:
        t = time.process_time()
        parse_action(line, HERE)
        return time.process_time() - t
    finally:
        gc.enable()


def test_parsing_a_selector_is_linear_in_its_alternatives() -> None:
    _lint_seconds(500)  # warm
    small, large = min(_lint_seconds(2000) for _ in range(3)), min(_lint_seconds(8000) for _ in range(3))
    assert large / small < 8  # 4× the input: ~4× the time (quadratic was 16×)


def test_a_request_over_the_size_limit_is_invalid_args_before_it_is_sent(tmp_path: Path) -> None:
    client = Client("s", home=str(tmp_path / "home"))
    with pytest.raises(InvalidArgs, match="the limit is 32 MiB"):
        client.command("fill", "id=x", "a" * (MAX_MESSAGE + 1))
    assert not (tmp_path / "home" / "daemon.sock").exists()  # no daemon was started for it


@pytest.mark.parametrize(("mask", "mode"), [(0o022, 0o600), (0o077, 0o600), (0o277, 0o400)])
def test_published_scripts_are_private_honouring_a_stricter_umask(tmp_path: Path, mask: int, mode: int) -> None:
    old = os.umask(mask)
    try:
        path = publish_exclusive(str(tmp_path / "flow.ad"), "open http://x/\n")
        with open_private(str(tmp_path / "result.json")) as fh:
            fh.write("{}")
    finally:
        os.umask(old)
    assert (os.stat(path).st_mode & 0o777, os.stat(tmp_path / "result.json").st_mode & 0o777) == (mode, mode)
