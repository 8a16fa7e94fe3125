"""The idle reaper and repair teardown (R7) on an injected clock and a FakeDriver: no browser, no sleeps."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import pytest

from replay.engine import step as pipeline
from replay.errors import RepairSessionExpired
from replay.script.parser import parse_argv
from replay.session import repair
from replay.session.daemon import Daemon
from replay.session.session import Session

from ..fakes.driver import FakeClock, FakeDriver
from .treebuild import N, screen

T = TypeVar("T")
PAGE = screen(N("main")(N("form", label="Checkout")(N("button", label="Save", id="save"))))
IDLE = 60.0


def run(coro: Coroutine[Any, Any, T]) -> T:
    return asyncio.run(coro)


def daemon(home: Path, linger: float = 5.0) -> Daemon:
    return Daemon(str(home), idle_timeout=IDLE, linger=linger, clock=FakeClock())


def open_session(d: Daemon, name: str, *commands: list[str]) -> Session:
    """A session of ``d`` on the fake page that has performed ``commands``."""
    s = Session(name, d.home, FakeDriver(PAGE), clock=d.clock)
    d.sessions[name] = s
    d.empty_since = None
    for argv in commands:
        run(pipeline.execute(s, parse_argv(argv)))
    return s


def armed(d: Daemon, name: str, target: Path) -> Session:
    """A session with an armed repair whose plan opened the page and clicked Save."""
    s = open_session(d, name)
    tx = repair.RepairTransaction(
        script=str(target.with_name("flow.ad")),
        display="flow.ad",
        target=str(target),
        plan_digest="d",
        platform="web",
        watermark=0,
    )
    repair.arm(s, tx)
    for argv in (["open", "http://127.0.0.1/page.html"], ["click", "id=save"]):
        run(pipeline.execute(s, parse_argv(argv), provenance="plan"))
    return s


def idle_past_the_timeout(d: Daemon) -> None:
    assert isinstance(d.clock, FakeClock)
    d.clock.advance(IDLE + 1)
    run(d.reap_once())


def test_a_session_idle_past_the_timeout_is_reaped_and_its_browser_context_closed(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    s = open_session(d, "idle")
    idle_past_the_timeout(d)
    assert d.sessions == {} and isinstance(s.driver, FakeDriver) and s.driver.closed


def test_a_session_used_within_the_timeout_is_kept(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    open_session(d, "busy")
    assert isinstance(d.clock, FakeClock)
    d.clock.advance(IDLE - 1)
    run(d.reap_once())
    assert list(d.sessions) == ["busy"]


def test_a_session_running_a_command_is_never_reaped(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    s = open_session(d, "locked")

    async def reap_while_locked() -> None:
        async with s.lock:
            assert isinstance(d.clock, FakeClock)
            d.clock.advance(IDLE + 1)
            await d.reap_once()

    run(reap_while_locked())
    assert list(d.sessions) == ["locked"]


def test_a_reaped_recording_session_writes_its_script(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    out = tmp_path / "reaped.ad"
    s = open_session(d, "rec")
    s.start_recording(str(out))
    run(pipeline.execute(s, parse_argv(["click", "id=save"])))
    idle_past_the_timeout(d)
    assert 'click id="save"' in out.read_text()


def test_stop_never_loses_a_recording_a_step_nothing_portable_names_is_a_comment_in_its_place(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    out = tmp_path / "kept.ad"
    s = open_session(d, "keep")
    s.start_recording(str(out))
    for argv in (["click", "id=save"], ["click", "id=save"]):
        run(pipeline.execute(s, parse_argv(argv)))
    s.journal.entries[-2].line = None  # a click in a code editor's drawn lines: no portable selector
    closed = run(d._close("keep", None, False))
    lines = out.read_text().splitlines()
    assert lines[1].startswith("# replay: step 1 (click") and "was not written" in lines[1], lines
    assert lines[-2].startswith('click id="save"') and lines[-1] == "close", lines  # the rest is published
    assert closed["unwritten"] == [lines[1].removeprefix("# replay: ").split(" (redo")[0]]
    assert "keep" not in d.sessions  # the session closed


def test_a_complete_repair_is_committed_when_its_idle_session_is_reaped(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    target = tmp_path / "flow.healed.ad"
    s = armed(d, "done", target)
    repair.complete(s)
    idle_past_the_timeout(d)
    assert target.read_text().rstrip().endswith(repair.SENTINEL)


def test_an_incomplete_repair_reaped_publishes_nothing_and_leaves_a_tombstone(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    target = tmp_path / "flow.healed.ad"
    armed(d, "half", target)
    idle_past_the_timeout(d)
    assert not target.exists()
    with pytest.raises(RepairSessionExpired, match="reaped after being idle"):
        repair.check_tombstone(str(tmp_path), "half")


def test_the_daemon_stops_once_it_has_had_no_session_for_its_linger(tmp_path: Path) -> None:
    d = daemon(tmp_path, linger=5)
    open_session(d, "last")
    idle_past_the_timeout(d)  # the last session goes: the linger starts now
    assert not d.stop.is_set()
    assert isinstance(d.clock, FakeClock)
    d.clock.advance(5)
    run(d.reap_once())
    assert d.stop.is_set()


def test_closing_an_incomplete_repair_by_hand_leaves_no_tombstone(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    target = tmp_path / "flow.healed.ad"
    s = armed(d, "byhand", target)
    assert s.repair is not None
    ending = repair.end(d.home, "byhand", s.repair, s.journal.since(s.repair.watermark), reason=None)
    assert ending.aborted and not target.exists()
    repair.check_tombstone(d.home, "byhand")  # nothing raised: the user closed it on purpose


def test_recovery_commits_a_complete_repair_and_buries_an_armed_one(tmp_path: Path) -> None:
    d = daemon(tmp_path)
    complete_target, armed_target = tmp_path / "a.healed.ad", tmp_path / "b.healed.ad"
    repair.complete(armed(d, "a", complete_target))
    armed(d, "b", armed_target)
    d.sessions.clear()  # the daemon was killed: only the files remain
    repair.recover(d.home)
    assert complete_target.exists() and not armed_target.exists()
    with pytest.raises(RepairSessionExpired):
        repair.check_tombstone(d.home, "b")
    state = json.loads((tmp_path / "sessions" / "a" / "repair.json").read_text())["state"]
    assert state == repair.COMMITTED


def test_a_commit_with_an_action_that_vanished_before_it_was_described_fails_loudly_and_publishes_nothing(
    tmp_path: Path,
) -> None:
    from replay.errors import Unmaterialized

    d = daemon(tmp_path)
    target = tmp_path / "flow.healed.ad"
    s = armed(d, "r4", target)
    s.journal.entries[-1].line = None  # R4: the node was gone before a selector could be derived
    repair.complete(s)
    assert s.repair is not None
    with pytest.raises(Unmaterialized, match=r"step 2 \(click"):
        repair.end(d.home, "r4", s.repair, s.journal.since(s.repair.watermark), reason=None)
    assert not target.exists() and s.repair.state == repair.COMPLETE  # the session stays; close --discard ends it


def test_the_daemon_never_stops_while_a_request_is_being_served(tmp_path: Path) -> None:
    d = daemon(tmp_path, linger=1)
    d.in_flight = 1  # e.g. the first `open`, still launching the browser
    assert isinstance(d.clock, FakeClock)
    d.clock.advance(10)
    run(d.reap_once())
    assert not d.stop.is_set()


def test_only_a_home_replay_creates_is_made_private_and_a_shared_one_is_refused_unchanged(tmp_path: Path) -> None:
    import os
    import stat

    from replay.errors import PermissionDenied
    from replay.session.server import prepare_home

    mask = os.umask(0)
    try:
        prepare_home(str(tmp_path / "new" / "home"))
    finally:
        os.umask(mask)
    assert stat.S_IMODE(os.stat(tmp_path / "new" / "home").st_mode) == 0o700
    mine = tmp_path / "mine"
    mine.mkdir()
    mine.chmod(0o755)
    prepare_home(str(mine))
    assert stat.S_IMODE(os.stat(mine).st_mode) == 0o755  # an existing folder keeps its mode
    for mode in (0o1777, 0o777, 0o770, 0o1700):
        shared = tmp_path / f"shared-{mode:o}"
        shared.mkdir()
        shared.chmod(mode)
        with pytest.raises(PermissionDenied, match=f"is shared \\(mode {mode:o}"):
            prepare_home(str(shared))
        assert stat.S_IMODE(os.stat(shared).st_mode) == mode


class _DiesUnderTheStep(FakeDriver):
    """A page whose browser is killed: the next capture fails as the web driver says a closed target."""

    async def capture(self, generation: int, keep: int | None = None) -> Any:
        from replay.errors import BrowserUnavailable

        self.closed = True  # as the web driver marks itself on a closed page or browser
        raise BrowserUnavailable("capture: the browser or page was closed", hint="open the session again")


def test_a_step_whose_browser_died_under_it_ends_the_session_as_a_crash_does(tmp_path: Path) -> None:
    from replay.errors import BrowserUnavailable
    from replay.session.requests import command_options

    d = daemon(tmp_path)
    s = open_session(d, "a")
    s.driver = _DiesUnderTheStep(PAGE)
    with pytest.raises(BrowserUnavailable, match="crashed; the session was closed"):
        run(d._command("a", parse_argv(["snapshot"]), command_options()))
    assert "a" not in d.sessions


@pytest.mark.parametrize("name", ["-rf", ".hidden", "", "a" * 65, "a/b"])
def test_a_refused_session_name_is_told_the_rule_it_broke(name: str) -> None:
    from replay.errors import InvalidArgs
    from replay.session.protocol import check_session_name

    with pytest.raises(InvalidArgs) as refused:
        check_session_name(name)
    assert "the first a letter or a digit" in (refused.value.hint or "") and "64" in (refused.value.hint or "")
