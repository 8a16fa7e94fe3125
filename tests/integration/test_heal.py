"""Heal by doing: repair transactions (R1–R7) and healed scripts, end to end through the CLI."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path
from typing import Any

import pytest

from replay.script.loader import load

from .conftest import FAST, REPLAY, ROOT, Cli, diverge, pid_alive, wait_until

FLOW = ROOT / "fixtures" / "flows" / "checkout.ad"


def copy_flow(tmp_path: Path) -> Path:
    flow = tmp_path / "checkout.ad"
    shutil.copy(FLOW, flow)
    return flow


def resume(cli: Cli, flow: Path, session: str, d: dict[str, Any], key: str = "from") -> Any:
    """Continue an armed run where the divergence ``d`` says (``key``: from or alternateFrom)."""
    digest = d["resume"]["planDigest"]
    return cli("run", str(flow), "--session", session, "--from", str(d["resume"][key]), "--plan-digest", digest)


def test_record_and_heal_loop_publishes_a_healed_script_that_passes_in_a_fresh_session(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = copy_flow(tmp_path)
    original = flow.read_bytes()
    drifted = f"SHOP={web}/drift/renamed"
    d = diverge(cli, "run", str(flow), "--session", "fix", "-e", drifted, "--save-script", *FAST)
    assert d["repairHint"] == "record-and-heal" and d["resume"]["repairSessionHeld"] is True
    cli("snapshot", "-i", "--session", "fix")  # a diagnostic read: excluded from the healed script
    cli("is", "visible", "Submit order", "--session", "fix")  # excluded too
    cli("click", d["suggestions"][0]["ref"], "--session", "fix")  # the corrective action
    resumed = resume(cli, flow, "fix", d)
    assert "repair COMPLETE" in resumed.stdout
    closed = cli("close", "--session", "fix", "--verify")
    healed = tmp_path / "checkout.healed.ad"
    assert f"healed script written to {healed}" in closed.stdout and "verified:" in closed.stdout
    text = healed.read_text()
    assert not re.search(r"(^|\s)@e[0-9]+", text)  # R4: no bare refs
    assert text.count("\nopen ") == 1  # no duplicated prefix after --from
    assert 'click id="submit-order" || role=button label="Submit order"' in text
    assert 'is visible "Order placed"' in text  # an authored observation survives
    assert "snapshot" not in text and 'Submit order"\n' not in text.replace('label="Submit order"', "")
    assert text.rstrip().endswith("close\n# replay:heal-complete".rstrip())
    for line in (
        'env SHOP="http://127.0.0.1:8765/shop"',
        'env PASSWORD="correct-horse-battery"',
        '"${NAME}"',
        '"${PASSWORD}"',
    ):
        assert line in text
    assert flow.read_bytes() == original
    assert cli("verify", str(healed), "-e", drifted).returncode == 0


def test_state_repair_with_no_record_resumes_at_the_same_step_and_leaves_the_fix_out(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = copy_flow(tmp_path)
    d = diverge(
        cli, "run", str(flow), "--session", "gate", "-e", f"SHOP={web}/drift/interstitial", "--save-script", *FAST
    )
    assert d["repairHint"] == "state-repair" and d["resume"]["from"] == 2
    cli("click", "Continue", "--no-record", "--session", "gate")
    resume(cli, flow, "gate", d)
    cli("close", "--session", "gate")
    text = (tmp_path / "checkout.healed.ad").read_text()
    assert "Continue" not in text and 'click id="place-order"' in text


def test_close_verify_leaves_a_heal_its_gate_rejects_under_the_rejected_name_saying_why(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = copy_flow(tmp_path)
    flow.write_text(flow.read_text().replace("context platform=web", "context platform=web timeout=1000"))  # the gate's
    drifted = f"SHOP={web}/drift/interstitial"
    d = diverge(cli, "run", str(flow), "--session", "gate2", "-e", drifted, "--save-script", *FAST)
    cli("click", "Continue", "--no-record", "--session", "gate2")  # the app needs it every time
    resume(cli, flow, "gate2", d)
    closed = cli("close", "--session", "gate2", "--verify", ok=None)
    rejected = tmp_path / "checkout.rejected.ad"
    assert closed.returncode == 3 and "verification FAILED" in closed.stdout and str(rejected) in closed.stdout
    assert not (tmp_path / "checkout.healed.ad").exists()
    assert rejected.read_text().startswith("# replay heal: REJECTED: FAILED: ")


def test_watermark_excludes_earlier_actions_of_a_reused_session(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    cli("open", f"{web}/shop/index.html", "--session", "reuse")
    cli("click", "id=rate-up", "--session", "reuse")
    cli("run", str(flow), "--session", "reuse", "-e", f"SHOP={web}/shop", "--save-script")
    cli("close", "--session", "reuse")
    text = (tmp_path / "checkout.healed.ad").read_text()
    assert "rate-up" not in text and "index.html" not in text
    assert [a.command for a in load(str(tmp_path / "checkout.healed.ad")).actions][:2] == ["open", "fill"]


def test_full_rerun_on_an_armed_session_is_refused(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    diverge(cli, "run", str(flow), "--session", "r2", "-e", f"SHOP={web}/drift/moved", "--save-script", *FAST)
    proc = cli("run", str(flow), "--session", "r2", ok=None)
    assert proc.returncode == 2 and "full re-run is refused" in proc.stderr


def test_blind_resume_is_refused_in_an_armed_run(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    d = diverge(cli, "run", str(flow), "--session", "blind", "-e", f"SHOP={web}/drift/renamed", "--save-script", *FAST)
    proc = cli(
        "run", str(flow), "--session", "blind", "--from", "7", "--plan-digest", d["resume"]["planDigest"], ok=None
    )
    assert proc.returncode == 2 and "blind resume" in proc.stderr


@pytest.mark.own_daemon  # counts the sessions of its daemon
def test_an_armed_run_must_start_with_open(cli: Cli, tmp_path: Path) -> None:
    flow = tmp_path / "noopen.ad"
    flow.write_text('click "Place order"\n')
    proc = cli("run", str(flow), "--save-script", ok=None)
    assert proc.returncode == 2 and "must start with `open`" in proc.stderr
    assert cli.json("session", "list")["sessions"] == []


def test_a_nameless_clickable_performed_in_a_repair_is_published_never_dropped(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = tmp_path / "swatch.ad"
    flow.write_text(f'open {web}/shop/index.html\nclick "No such button"\n')
    d = diverge(cli, "run", str(flow), "--session", "r4", "--save-script", *FAST)
    snap = cli("snapshot", "--session", "r4").stdout
    swatch = next(  # the colour swatch: a clickable div with no label, id, placeholder or text
        line.split()[0]
        for line in snap.splitlines()
        if line.strip().split()[1:2] == ["generic"] and "text=" not in line and '"' not in line
    )
    assert "warning: " in cli("click", swatch, "--session", "r4").stdout
    resume(cli, flow, "r4", d, "alternateFrom")
    cli("close", "--session", "r4")
    assert "nth=" in (tmp_path / "swatch.healed.ad").read_text()


def test_existing_target_is_refused_before_step_one(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    target = tmp_path / "checkout.healed.ad"
    target.write_text("# mine\n")
    proc = cli("run", str(flow), "-e", f"SHOP={web}/shop", "--save-script", ok=None)
    assert proc.returncode == 4 and "TARGET_EXISTS" in proc.stderr
    assert target.read_text() == "# mine\n"


def test_closing_an_incomplete_repair_publishes_nothing(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    diverge(cli, "run", str(flow), "--session", "abort", "-e", f"SHOP={web}/drift/moved", "--save-script", *FAST)
    out = cli("close", "--session", "abort").stdout
    assert "nothing was published" in out
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkout.ad"]


@pytest.mark.own_daemon  # kills its daemon
def test_a_killed_daemon_mid_repair_leaves_no_partial_file_and_a_tombstone(
    cli: Cli, home: str, web: str, tmp_path: Path
) -> None:
    flow = copy_flow(tmp_path)
    diverge(cli, "run", str(flow), "--session", "crash", "-e", f"SHOP={web}/drift/renamed", "--save-script", *FAST)
    pid = int((Path(home) / "daemon.pid").read_text())
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not pid_alive(pid))
    proc = cli("snapshot", "--session", "crash", ok=None)
    assert proc.returncode == 2 and "REPAIR_SESSION_EXPIRED" in proc.stderr and "--save-script" in proc.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["checkout.ad"]  # nothing partial
    # a new armed run clears the tombstone
    cli("run", str(flow), "--session", "crash", "-e", f"SHOP={web}/shop", "--save-script")
    assert cli("snapshot", "--session", "crash").returncode == 0


def test_two_concurrent_commits_to_one_target_publish_exactly_one_file(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    out = tmp_path / "one.ad"
    for name in ("a", "b"):
        cli("run", str(flow), "--session", name, "-e", f"SHOP={web}/shop", f"--save-script={out}")
    procs = [
        subprocess.Popen(
            [REPLAY, "close", "--session", name],
            cwd=cli.cwd,
            env=cli.env,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for name in ("a", "b")
    ]
    codes = sorted(p.wait(timeout=60) for p in procs)
    errors = "".join(p.stderr.read() for p in procs if p.stderr)
    assert codes == [0, 4] and "TARGET_EXISTS" in errors
    assert out.exists() and out.read_text().rstrip().endswith("# replay:heal-complete")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []  # no temp files left


def test_record_on_a_mutating_command_is_invalid_args(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    proc = cli("click", "id=rate-up", "--record", ok=None)
    assert proc.returncode == 2 and "--record" in proc.stderr


@pytest.mark.own_daemon  # kills its daemon
def test_a_complete_repair_outlived_by_a_killed_daemon_is_committed_at_the_next_start(
    cli: Cli, home: str, web: str, tmp_path: Path
) -> None:
    flow = copy_flow(tmp_path)
    cli("run", str(flow), "--session", "done", "-e", f"SHOP={web}/shop", "--save-script")
    pid = int((Path(home) / "daemon.pid").read_text())
    os.kill(pid, signal.SIGKILL)
    assert wait_until(lambda: not pid_alive(pid))
    assert not (tmp_path / "checkout.healed.ad").exists()
    cli("open", f"{web}/shop/index.html", "--session", "other")  # the next daemon recovers it
    assert (tmp_path / "checkout.healed.ad").read_text().rstrip().endswith("# replay:heal-complete")


def _rounds(tmp_path: Path) -> list[dict[str, Any]]:
    import json

    log = tmp_path / "replay-results" / "checkout" / "heal.jsonl"
    return [json.loads(line) for line in log.read_text().splitlines()]


def test_heal_by_trial_heals_the_one_candidate_that_does_what_the_step_did(cli: Cli, web: str, tmp_path: Path) -> None:
    # "Submit order" and "Save order for later" rank within the healer's margin: only trying them tells
    flow, shop = copy_flow(tmp_path), f"SHOP={web}/drift/rivals"
    unsure = cli("heal", str(flow), "--agent", "builtin", "--trials", "0", "-e", shop, *FAST, ok=None)
    assert unsure.returncode == 6 and not (tmp_path / "checkout.healed.ad").exists()
    tried = cli("heal", str(flow), "--agent", "builtin", "-e", shop, *FAST, ok=None)
    assert tried.returncode == 5, tried.stdout + tried.stderr
    assert 'click id="submit-order"' in (tmp_path / "checkout.healed.ad").read_text()
    last = _rounds(tmp_path)[-1]
    assert last["trials"] == 2 and last["trial_s"] > 0 and last["strategy"] == "DECOMPOSE"


def test_heal_by_trial_heals_nothing_when_the_target_is_gone(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = copy_flow(tmp_path)
    gone = cli("heal", str(flow), "--agent", "builtin", "-e", f"SHOP={web}/drift/gone", *FAST, ok=None)
    assert gone.returncode == 6 and not (tmp_path / "checkout.healed.ad").exists()
    last = _rounds(tmp_path)[-1]
    assert last["trials"] >= 1 and last["outcome"] == "abstained" and "did what the step did" not in last["adjustment"]
