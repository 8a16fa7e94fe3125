"""`replay lint`, `fmt`, `digest` and `--version` through the real console script."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).resolve().parents[2] / "fixtures" / "scripts"
REPLAY = shutil.which("replay", path=os.path.dirname(sys.executable)) or "replay"


def run(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run([REPLAY, *args], capture_output=True, text=True, cwd=cwd, timeout=60)


@pytest.fixture
def bad(tmp_path: Path) -> Path:
    path = tmp_path / "bad.ad"
    path.write_text('open http://x\nfill @e1 "unterminated\nclik @e2\n', encoding="utf-8")
    return path


def test_version_prints_the_package_version() -> None:
    from replay import __version__

    out = run("--version")
    assert out.returncode == 0 and __version__ in out.stdout


def test_lint_reports_every_problem_with_file_line_column_and_exits_2(bad: Path) -> None:
    out = run("lint", str(bad))
    assert out.returncode == 2
    assert f"{bad}:2:10: INVALID_ARGS: unterminated quoted string" in out.stderr
    assert f"{bad}:3:1: INVALID_ARGS: unknown command 'clik'" in out.stderr
    assert "hint:" in out.stderr
    assert "Traceback" not in out.stderr + out.stdout


def test_lint_json_prints_the_errors_as_the_last_stdout_line(bad: Path) -> None:
    out = run("lint", str(bad), "--json")
    payload = json.loads(out.stdout.strip().splitlines()[-1])
    assert payload["ok"] is False
    assert [e["location"]["line"] for e in payload["errors"]] == [2, 3]
    assert payload["error"]["code"] == "INVALID_ARGS" and payload["error"]["exitCode"] == 2


def test_lint_accepts_the_bundled_web_examples() -> None:
    files = [str(p) for p in sorted(FIXTURES.glob("*.ad")) if "android" not in p.name]
    out = run("lint", *files)
    assert out.returncode == 0, out.stderr
    assert out.stdout.startswith(f"ok: {len(files)} file(s)")


def test_lint_reports_unsupported_commands_with_file_and_line() -> None:
    path = FIXTURES / "agent-device-android.ad"
    out = run("lint", str(path))
    assert out.returncode == 2
    assert f"{path}:5: UNSUPPORTED_COMMAND" in out.stderr


def test_lint_reports_unresolved_variables_unless_given_with_e(tmp_path: Path) -> None:
    path = tmp_path / "v.ad"
    path.write_text('open http://x\ntype "${SECRET}"\n', encoding="utf-8")
    out = run("lint", str(path))
    assert out.returncode == 2 and f"{path}:2: UNRESOLVED_VARIABLE" in out.stderr
    assert run("lint", str(path), "-e", "SECRET=x").returncode == 0


def test_lint_of_a_missing_file_is_file_not_found_exit_2(tmp_path: Path) -> None:
    out = run("lint", str(tmp_path / "nope.ad"))
    assert out.returncode == 2 and "FILE_NOT_FOUND" in out.stderr and "Traceback" not in out.stderr


def test_fmt_rewrites_to_canonical_form_and_is_idempotent(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    first = run("fmt", str(path))
    assert first.returncode == 0 and "reformatted" in first.stdout
    once = path.read_bytes()
    second = run("fmt", str(path))
    assert second.returncode == 0 and "unchanged" in second.stdout
    assert path.read_bytes() == once


def test_fmt_check_exits_1_and_leaves_the_file_unchanged(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    before = path.read_bytes()
    out = run("fmt", "--check", str(path))
    assert out.returncode == 1 and "NOT_FORMATTED" in out.stderr
    assert path.read_bytes() == before


def test_fmt_keeps_comments_header_env_and_annotations(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    run("fmt", str(path))
    text = path.read_text(encoding="utf-8")
    original = (FIXTURES / "checkout.ad").read_text(encoding="utf-8")
    for line in original.splitlines():
        if line.startswith(("#", "context", "env")):
            assert line in text
    assert len(text.splitlines()) == len(original.splitlines())


def test_fmt_on_a_malformed_file_changes_nothing_and_exits_2(bad: Path) -> None:
    before = bad.read_bytes()
    out = run("fmt", str(bad))
    assert out.returncode == 2 and "Traceback" not in out.stderr
    assert bad.read_bytes() == before


def test_fmt_does_not_change_the_digest(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    before = run("digest", str(path)).stdout
    run("fmt", str(path))
    assert run("digest", str(path)).stdout == before


def test_digest_is_stable_across_processes_and_changes_with_a_step(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    a = run("digest", str(path), "--json")
    b = run("digest", str(path), "--json")
    da = json.loads(a.stdout.splitlines()[-1])["planDigest"]
    assert da == json.loads(b.stdout.splitlines()[-1])["planDigest"]
    path.write_text(path.read_text(encoding="utf-8").replace("Place order", "Submit order"), encoding="utf-8")
    assert run("digest", str(path)).stdout.strip() != da


def test_digest_is_the_same_from_another_working_directory(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    here = run("digest", "flow.ad", cwd=tmp_path).stdout
    there = run("digest", str(path), cwd=Path("/")).stdout
    assert here == there


def test_digest_changes_with_the_platform_option(tmp_path: Path) -> None:
    path = FIXTURES / "checkout.ad"
    assert run("digest", str(path)).stdout != run("digest", str(path), "--platform", "android").stdout


def test_usage_error_exits_2_without_traceback() -> None:
    out = run("lint")
    assert out.returncode == 2 and "Traceback" not in out.stderr


def test_fmt_through_a_symlink_rewrites_the_target_and_keeps_the_link(tmp_path: Path) -> None:
    target = tmp_path / "real.ad"
    shutil.copy(FIXTURES / "checkout.ad", target)
    link = tmp_path / "link.ad"
    link.symlink_to(target)
    out = run("fmt", str(link))
    assert out.returncode == 0 and "reformatted" in out.stdout
    assert link.is_symlink() and run("fmt", "--check", str(target)).returncode == 0


def test_fmt_check_with_stdout_is_a_usage_error(tmp_path: Path) -> None:
    path = tmp_path / "flow.ad"
    shutil.copy(FIXTURES / "checkout.ad", path)
    out = run("fmt", "--check", "--stdout", str(path))
    assert out.returncode == 2 and "INVALID_ARGS" in out.stderr


@pytest.mark.parametrize("command", ["lint", "digest", "fmt"])
def test_an_annotation_holding_half_a_surrogate_pair_is_invalid_args(tmp_path: Path, command: str) -> None:
    path = tmp_path / "s.ad"
    path.write_text('open http://x/\n# replay:target-v1 {"role":"button","label":"\\ud800"}\nclick id=a\n')
    before = path.read_bytes()
    out = run(command, str(path))
    assert out.returncode == 2 and f"{path}:2: INVALID_ARGS" in out.stderr and "Traceback" not in out.stderr
    assert path.read_bytes() == before
