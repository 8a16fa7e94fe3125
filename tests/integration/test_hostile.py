"""The audit's hostile probes, each a rule (SPEC §6, §12), on a real daemon and real Chromium."""

from __future__ import annotations

import os
import zipfile
from pathlib import Path

from .conftest import Cli

SECRET = "PwSecret-7731"
URL_KEY = "UrlKey-5521"
TYPED = "Typed-Literal-991"


def test_a_trace_holds_no_typed_text_and_no_variable_value(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "login.ad"
    flow.write_text(
        f"open {web}/shop/checkout.html?k=${{URLKEY}}\n"
        f'fill id="password" "${{PASSWORD}}"\n'
        f'fill id="name" "{TYPED}"\n'
        'is visible role=heading label="Checkout"\n'
    )
    cli("test", str(flow), "-e", f"PASSWORD={SECRET}", "-e", f"URLKEY={URL_KEY}", "--trace", "on")
    trace = next((tmp_path / "replay-results").glob("*login/attempt-1/trace.zip"))
    with zipfile.ZipFile(trace) as z:
        names = z.namelist()
        text = b"".join(z.read(n) for n in names if not n.endswith((".jpeg", ".png")))
    assert "trace.trace" in names and b"__playwright_value_" in text  # a real trace, with its snapshots
    for value in (SECRET, URL_KEY, TYPED):
        assert value.encode() not in text, value
    assert b"<var:URLKEY>" in text and b"<redacted>" in text
    assert os.stat(trace).st_mode & 0o777 == 0o600


def test_replay_test_never_deletes_a_folder_it_did_not_make(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "keep.txt").write_text("mine")
    (tmp_path / "src.ad").write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    proc = cli("test", "src.ad", "--artifacts-dir", ".", ok=None)
    assert proc.returncode == 4 and "TARGET_EXISTS" in proc.stderr and "Traceback" not in proc.stderr
    assert (tmp_path / "src" / "keep.txt").read_text() == "mine"


def test_a_folder_replay_test_made_is_replaced_by_its_next_run(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "ok.ad").write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    cli("test", "ok.ad", "--trace", "on")
    stale = tmp_path / "replay-results" / "ok" / "attempt-9"
    stale.mkdir()
    cli("test", "ok.ad", "--trace", "on")
    assert not stale.exists() and (tmp_path / "replay-results" / "ok" / "attempt-1" / "trace.zip").exists()


def test_two_scripts_never_share_an_artifacts_folder(cli: Cli, web: str, tmp_path: Path) -> None:
    (tmp_path / "a").mkdir()
    for path in ("a/b.ad", "a_b.ad"):
        (tmp_path / path).write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    cli("test", "a/b.ad", "a_b.ad", "--trace", "on")
    folders = sorted(p.name for p in (tmp_path / "replay-results").iterdir())
    assert folders == ["a_b", "a_b-2"]
    assert all((tmp_path / "replay-results" / f / "attempt-1" / "trace.zip").exists() for f in folders)


def test_a_second_recording_on_a_recording_session_is_refused(cli: Cli, web: str, tmp_path: Path) -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", "rec2", "--save-script", "r1.ad")
    cli("fill", "id=name", "Ada", "--session", "rec2")
    again = cli("open", f"{web}/shop/index.html", "--session", "rec2", "--save-script", "r2.ad", ok=None)
    assert again.returncode == 2 and "INVALID_ARGS" in again.stderr and "already recording" in again.stderr
    cli("close", "--session", "rec2")
    recorded = [line for line in (tmp_path / "r1.ad").read_text().splitlines() if not line.startswith("#")]
    assert [line.split()[0] for line in recorded if line.strip()][-3:] == ["open", "fill", "close"]
    assert not (tmp_path / "r2.ad").exists()


def test_a_fifo_is_refused_as_a_script_by_every_command(cli: Cli, tmp_path: Path) -> None:
    os.mkfifo(tmp_path / "flow.ad")
    for command in (["run"], ["lint"], ["verify"], ["heal", "--agent", "builtin"], ["test"], ["digest"], ["fmt"]):
        proc = cli(*command, "flow.ad", ok=None, timeout=30)
        assert proc.returncode == 2 and "INVALID_ARGS" in proc.stderr and "regular file" in proc.stderr, (command, proc)
