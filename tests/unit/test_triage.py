"""The morning after (SPEC §10): every script that did not pass is one class — regression, drift
(healed), broken or failed — in the console's last line, JUnit's type, the HTML's groups and
results.json. On stored results: no browser."""

from __future__ import annotations

import json
import os
import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest

from replay.engine.report import Reported
from replay.errors import FileNotFound, InvalidArgs
from replay.results import Timing
from replay.suite import reports
from replay.suite.discover import Entry
from replay.suite.merge import compare, load_run, merge
from replay.suite.runner import DIVERGED, FAILED, PASSED, Attempt, ScriptResult, SuiteResult, write_artifacts
from replay.suite.triage import Triage, expected_observed, triage


def diverged(
    kind: str, action: str = "click role=button", *, effect: dict[str, str] | None = None, **more: Any
) -> ScriptResult:
    d: dict[str, Any] = {
        "kind": kind,
        "step": {"index": 3, "source": {"path": "f.ad", "line": 5}},
        "action": action,
        "cause": "the cause",
        "repairHint": "manual" if effect else "record-and-heal",
        "screen": more.pop("screen", {"state": "unavailable", "reason": "closed", "hint": "h"}),
        "resume": {"from": 3, "planDigest": "d"},
    }
    if effect is not None:
        d["effect"] = effect
    attempt = Attempt(1, DIVERGED, 1.0, "/tmp/a", divergence=Reported.from_dict(d))
    return ScriptResult(more.pop("path", "f.ad"), DIVERGED, [attempt], **more)


def errored(code: str, message: str = "m", *, stepped: bool = True) -> ScriptResult:
    timings = [Timing({"index": 1, "line": 1, "command": "open", "ms": 10.0})] if stepped else []
    attempt = Attempt(1, FAILED, 1.0, "/tmp/a", error={"code": code, "message": message}, timings=timings)
    return ScriptResult("f.ad", FAILED, [attempt])


MISSING = {"expected": 'status "Saved" appears', "observed": "nothing changed"}


def test_a_verified_step_whose_recorded_effect_did_not_happen_is_a_regression() -> None:
    assert triage(diverged("action-failure", effect=MISSING)) == Triage.REGRESSION


def test_a_failed_check_is_a_regression_with_expected_and_observed() -> None:
    r = errored("ASSERTION_FAILED", 'is visible "Saved" failed: hidden')
    assert triage(r) == Triage.REGRESSION
    assert expected_observed(r) == ('is visible "Saved"', "hidden")


def test_a_dialog_the_recording_did_not_have_is_a_regression() -> None:
    r = diverged(
        "action-failure", screen={"state": "unavailable", "reason": "capture failed: DIALOG_OPEN: an alert is open"}
    )
    assert triage(r) == Triage.REGRESSION


def test_a_script_that_no_longer_finds_what_it_recorded_is_drift_and_healed_once_healed() -> None:
    for kind in ("selector-miss", "identity-mismatch", "identity-unverifiable"):
        assert triage(diverged(kind)) == Triage.DRIFT
    assert triage(diverged("selector-miss", healed="f.healed.ad", heal_status="healed")) == Triage.HEALED
    assert triage(diverged("selector-miss", heal_status="escalated")) == Triage.DRIFT


def test_an_app_that_did_not_open_is_broken_not_a_regression() -> None:
    assert triage(diverged("action-failure", "open http://127.0.0.1:9/")) == Triage.BROKEN
    assert triage(errored("BROWSER_UNAVAILABLE")) == Triage.BROKEN
    assert triage(errored("TIMEOUT", stepped=False)) == Triage.BROKEN


def test_anything_else_is_failed() -> None:
    assert triage(diverged("action-failure")) == Triage.FAILED  # an action that failed: no class says why
    assert triage(errored("TIMEOUT")) == Triage.FAILED  # it reached the app, then ran out of time
    assert triage(errored("MISSING_VARIABLE")) == Triage.FAILED


def test_a_pass_has_no_class() -> None:
    assert triage(ScriptResult("f.ad", PASSED, [Attempt(1, PASSED, 1.0, "/tmp/a")])) is None


def night() -> SuiteResult:
    return SuiteResult(
        [
            ScriptResult("ok.ad", PASSED, [Attempt(1, PASSED, 1.0, "/tmp/a")]),
            diverged("selector-miss", path="bank.ad", healed="bank.healed.ad", heal_status="healed"),
            diverged("action-failure", "open http://down/", path="down.ad"),
            diverged("action-failure", path="notes-add.ad", effect=MISSING),
        ],
        3.0,
    )


def test_the_last_line_counts_the_classes() -> None:
    assert night().summary() == "1 passed, 0 flaky, 1 regression, 1 drifted (1 healed), 1 broken, 0 failed in 3.0 s"


def test_junit_types_each_failure_by_its_class(tmp_path: Path) -> None:
    root = ET.parse(reports.write_junit(night(), str(tmp_path / "j.xml"))).getroot()
    types = {
        c.get("name"): c.find("failure").get("type") for c in root.iter("testcase") if c.find("failure") is not None
    }
    assert types == {"bank.ad": "healed", "down.ad": "broken", "notes-add.ad": "regression"}


def test_the_html_report_lists_regressions_first(tmp_path: Path) -> None:
    page = Path(reports.write_html(night(), str(tmp_path / "html"))).read_text()
    order = [page.index(f'<h2 id="{c}">') for c in ("regression", "healed", "broken", "passed")]
    assert order == sorted(order)
    assert page.index("notes-add.ad") < page.index("bank.ad") < page.index("down.ad")


def test_results_json_holds_one_record_per_script_and_the_run(tmp_path: Path) -> None:
    path = reports.write_results(night(), str(tmp_path / "results.json"), {"shard": "1/2", "started": "t"})
    written = json.loads(Path(path).read_text())
    assert written["run"]["shard"] == "1/2" and written["run"]["summary"].startswith("1 passed")
    by_path = {r["path"]: r for r in written["results"]}
    assert [r["path"] for r in written["results"]] == ["ok.ad", "bank.ad", "down.ad", "notes-add.ad"]
    assert by_path["notes-add.ad"]["class"] == "regression"
    assert (by_path["notes-add.ad"]["expected"], by_path["notes-add.ad"]["observed"]) == tuple(MISSING.values())
    assert by_path["bank.ad"]["divergence"] == {"kind": "selector-miss", "repairHint": "record-and-heal", "step": 3}
    assert by_path["ok.ad"]["class"] is None


def test_heals_diff_is_one_patch_git_apply_takes_turning_each_original_into_its_healed(tmp_path: Path) -> None:
    original = 'context platform=web\nopen http://x/\nclick role=button label="Save"\nclose\n'
    healed = original.replace('"Save"', '"Save changes"')
    results = []
    for name, heal in (("flows/a.ad", "healed"), ("flows/b.ad", "rejected"), ("c.ad", "healed")):
        path = tmp_path / name
        path.parent.mkdir(exist_ok=True)
        path.write_text(original if name != "c.ad" else original.rstrip("\n"))  # c: no newline at its end
        path.with_suffix(".healed.ad").write_text(healed)
        results.append(
            diverged("selector-miss", path=str(path), healed=str(path.with_suffix(".healed.ad")), heal_status=heal)
        )
    patch = reports.heals_patch(SuiteResult(results, 1.0), str(tmp_path))
    assert "a/flows/a.ad" in patch and "flows/b.ad" not in patch  # a rejected heal is not proposed
    (tmp_path / "heals.diff").write_text(patch)
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    subprocess.run(["git", "apply", "heals.diff"], cwd=tmp_path, check=True)
    assert (tmp_path / "flows/a.ad").read_text() == healed and (tmp_path / "c.ad").read_text() == healed
    assert (tmp_path / "flows/b.ad").read_text() == original


def shards_of(suite: SuiteResult, n: int, root: Path) -> list[str]:
    """``suite`` as `replay test --shard I/N` would have written it, one results folder per shard."""
    folders = []
    for i in range(1, n + 1):
        part = [r for k, r in enumerate(suite.results) if k % n == i - 1]
        order = {r.path: k for k, r in enumerate(suite.results)}
        folder = root / f"shard-{i}"
        reports.write_results(
            SuiteResult(part, suite.seconds / n), str(folder / "results.json"), {"shard": f"{i}/{n}"}, order
        )
        folders.append(str(folder))
    return folders


def test_merged_shards_are_the_unsharded_run_in_order_and_counts(tmp_path: Path) -> None:
    whole = SuiteResult([*night().results, *night().results[:3]], 6.0)
    for r, name in zip(whole.results, "abcdefg", strict=True):
        r.path = f"{name}.ad"
    for k, r in enumerate(whole.results):  # each attempt's folder inside its shard's, as `replay test` writes them
        r.last.directory = str(tmp_path / f"shard-{k % 3 + 1}" / r.path)
        os.makedirs(r.last.directory)
        write_artifacts(Entry(r.path, "web", None), r.last)
    runs = [load_run(f) for f in shards_of(whole, 3, tmp_path)]
    merged, order = merge(runs)
    assert [r.path for r in merged.results] == [f"{c}.ad" for c in "abcdefg"]
    assert order == list(range(7))
    assert merged.summary().rsplit(" in ", 1)[0] == whole.summary().rsplit(" in ", 1)[0]
    assert [triage(r) for r in merged.results] == [triage(r) for r in whole.results]


def test_a_folder_without_results_is_file_not_found_and_a_mangled_one_invalid_args(tmp_path: Path) -> None:
    with pytest.raises(FileNotFound):
        load_run(str(tmp_path))
    (tmp_path / "results.json").write_text('{"results": [{"status": "nope"}]}')
    with pytest.raises(InvalidArgs, match="results.json"):
        load_run(str(tmp_path))


def passing(path: str) -> ScriptResult:
    return ScriptResult(path, PASSED, [Attempt(1, PASSED, 1.0, "/tmp/a")])


def test_against_a_baseline_each_script_is_new_fixed_or_still_failing_for_n_runs(tmp_path: Path) -> None:
    nights = [
        [passing("a.ad"), diverged("selector-miss", path="b.ad"), diverged("selector-miss", path="c.ad")],
        [diverged("selector-miss", path="a.ad"), passing("b.ad"), diverged("selector-miss", path="c.ad")],
        [diverged("selector-miss", path="a.ad"), passing("b.ad"), diverged("selector-miss", path="c.ad")],
    ]
    previous = None
    for k, results in enumerate(nights):
        suite = SuiteResult(results, 1.0)
        if previous is not None:
            compare(suite, load_run(previous))
        previous = reports.write_results(suite, str(tmp_path / f"night-{k}" / "results.json"), {})
    marks = {r.path: (r.since, r.failing_runs) for r in suite.results}
    assert marks == {"a.ad": ("still failing", 2), "b.ad": (None, 0), "c.ad": ("still failing", 3)}
    second = SuiteResult(nights[1], 1.0)
    compare(second, load_run(str(tmp_path / "night-0")))
    assert [(r.since, r.failing_runs) for r in second.results] == [("new", 1), ("fixed", 0), ("still failing", 2)]
    assert second.summary().endswith("; since the baseline: 1 new, 1 fixed, 1 still failing")


def test_the_html_report_shows_a_failed_checks_expected_and_observed(tmp_path: Path) -> None:
    r = errored("ASSERTION_FAILED", 'is visible "Saved" failed: hidden')
    page = Path(reports.write_html(SuiteResult([r], 1.0), str(tmp_path / "html"))).read_text()
    assert "<th>expected</th><td>is visible &quot;Saved&quot;</td>" in page
    assert "<th>observed</th><td>hidden</td>" in page
