"""The pytest plugin: `pytest flows/` collects .ad files as items, in process and under xdist -n 2."""

from __future__ import annotations

from pathlib import Path

import pytest

from .conftest import ROOT

FLOW = ROOT / "fixtures" / "flows" / "checkout.ad"


@pytest.fixture
def flows(pytester: pytest.Pytester, web: str, home: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("REPLAY_HOME", home)
    text = FLOW.read_text()
    pytester.makefile(".ad", passing=text.replace("${SHOP}", f"{web}/shop"))
    pytester.makefile(".ad", diverging=text.replace("${SHOP}", f"{web}/drift/renamed"))
    pytester.makefile(".ad", **{"android_only": "context platform=android\nopen com.example.app\n"})
    return pytester.path


def test_ad_files_are_items_and_a_divergence_is_a_readable_failure(pytester: pytest.Pytester, flows: Path) -> None:
    result = pytester.runpytest("-m", "web", "--replay-step-timeout", "1000", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, failed=1, deselected=1)
    result.stdout.fnmatch_lines(["*= replay: 1 drift =*", "DRIFT diverging.ad::diverging"])  # not a bug in the app
    result.stdout.fnmatch_lines(["*DIVERGENCE selector-miss at step 6*", "*artifacts: *attempt-1*"])
    assert (flows / "replay-results" / "diverging" / "attempt-1" / "trace.zip").exists()


def test_items_are_selected_by_name(pytester: pytest.Pytester, flows: Path) -> None:
    result = pytester.runpytest("-k", "passing", "-p", "no:cacheprovider")
    result.assert_outcomes(passed=1, deselected=2)


def test_the_flows_run_under_xdist_with_two_workers(pytester: pytest.Pytester, flows: Path) -> None:
    result = pytester.runpytest_subprocess(
        "-n", "2", "-m", "web", "--replay-step-timeout", "1000", "-p", "no:cacheprovider"
    )
    result.assert_outcomes(passed=1, failed=1)
    result.stdout.fnmatch_lines(["*= replay: 1 drift =*"])
