"""The suite's guard (issue 32 §11): a test that touches the real ~/.replay fails the whole run."""

from __future__ import annotations

import pytest

GUARD = "from tests.conftest import pytest_sessionfinish, pytest_sessionstart, pytest_terminal_summary\n"


def test_a_test_that_touches_the_real_replay_home_fails_the_run(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(GUARD)  # pytester's HOME is its own folder: the real one is never touched here
    pytester.makepyfile("from pathlib import Path\n\ndef test_escapes():\n    (Path.home() / '.replay').mkdir()\n")
    result = pytester.runpytest()
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    assert "FAILED (guard): a test touched the real" in result.stdout.str()


def test_a_run_that_leaves_the_real_replay_home_alone_passes(pytester: pytest.Pytester) -> None:
    pytester.makeconftest(GUARD)
    pytester.makepyfile("def test_nothing():\n    pass\n")
    assert pytester.runpytest().ret == pytest.ExitCode.OK
