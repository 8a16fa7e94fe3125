"""`replay run` on real Chromium: the recorded flow on v1 and on every drifted version."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import pytest

from replay.client import Client
from replay.errors import DivergenceError

from .conftest import FAST, ROOT, Cli, diverge

sys.path.insert(0, str(ROOT / "fixtures"))
from drifts import DRIFTS  # noqa: E402

FLOW = str(ROOT / "fixtures" / "flows" / "checkout.ad")
LEGACY = str(ROOT / "fixtures" / "flows" / "checkout-legacy.ad")


def test_clean_flow_replays_and_prints_one_line(cli: Cli, web: str) -> None:
    proc = cli("run", FLOW, "-e", f"SHOP={web}/shop")
    assert proc.stdout.startswith("replayed 7 steps in ") and proc.stdout.strip().endswith(" s")


def test_shorthand_runs_a_flow_file(cli: Cli, web: str) -> None:
    assert cli(FLOW, "-e", f"SHOP={web}/shop").stdout.startswith("replayed 7 steps")


def test_json_result_has_per_step_timings_and_the_digest(cli: Cli, web: str) -> None:
    result = cli.json("run", FLOW, "-e", f"SHOP={web}/shop")["result"]
    assert [t["command"] for t in result["timings"]] == ["open", "fill", "fill", "fill", "check", "click", "is"]
    assert result["planDigest"] == cli("digest", FLOW).stdout.strip()
    click = result["timings"][5]
    assert click["resolution"]["kind"] == "unique" and click["ms"] > 0


@pytest.mark.parametrize("name", sorted(DRIFTS))
def test_each_drifted_version_stops_with_its_documented_outcome(cli: Cli, web: str, name: str) -> None:
    drift = DRIFTS[name]
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/{name}", *FAST)
    assert (d["kind"], d["repairHint"]) == (drift.kind, drift.repair_hint)
    assert d["repairHint"] and d["resume"]["planDigest"]


@pytest.mark.parametrize("name", ["moved", "noids", "renamed"])
def test_replay_stops_before_acting(cli: Cli, web: str, name: str) -> None:
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/{name}", *FAST)
    assert d["step"]["index"] == 6
    # the session is kept for repair; the order was not placed: nothing was clicked
    assert cli("is", "absent", "Order placed", "--session", d["session"]).returncode == 0


def test_renamed_button_is_the_first_suggestion(cli: Cli, web: str) -> None:
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/renamed", *FAST)
    top = d["suggestions"][0]
    assert top["label"] == "Submit order" and top["score"] >= 0.8 and "role" in top["basis"]
    # its ref belongs to the divergence's fresh refs generation: the agent can act on it at once
    cli("click", top["ref"], "--session", d["session"])
    assert cli("is", "visible", "Order placed", "--session", d["session"]).returncode == 0


def test_identity_mismatch_names_what_differs(cli: Cli, web: str) -> None:
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/moved", *FAST)
    assert d["targetBinding"]["mismatches"] == [
        "ancestry: recorded form 'Checkout' < region 'Order form' < main, found complementary 'Summary' < main"
    ]
    assert d["targetBinding"]["matchCount"] == 1 and d["targetBinding"]["recorded"]["id"] == "place-order"


def test_legacy_script_without_annotations_that_breaks_is_manual(cli: Cli, web: str) -> None:
    d = diverge(cli, "run", LEGACY, "-e", f"SHOP={web}/drift/renamed", *FAST)
    assert (d["kind"], d["repairHint"]) == ("selector-miss", "manual")
    assert d["targetBinding"]["recorded"] is None


def test_legacy_script_replays_without_identity_checks_on_v1(cli: Cli, web: str) -> None:
    assert cli("run", LEGACY, "-e", f"SHOP={web}/shop").returncode == 0


def test_unannotated_ambiguous_step_is_an_action_failure_divergence(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "ambiguous.ad"
    flow.write_text(f'open {web}/shop/index.html\nclick "Add to cart"\n')
    d = diverge(cli, "run", str(flow), *FAST)
    assert (d["kind"], d["repairHint"]) == ("action-failure", "manual")
    assert len(d["targetBinding"]["candidates"]) == 3


def test_text_report_says_what_happened_and_what_to_run_next(cli: Cli, web: str) -> None:
    proc = cli("run", FLOW, "-e", f"SHOP={web}/drift/renamed", *FAST, ok=None)
    assert proc.returncode == 3
    out = proc.stdout
    assert out.startswith("DIVERGENCE selector-miss at step 6 (")
    assert "checkout.ad:16)" in out.splitlines()[0]
    assert 'action: click id="place-order" || role=button label="Place order"' in out
    assert "hint:   record-and-heal" in out
    assert "next:   replay click @e" in out
    assert "--from 7 --plan-digest " in out


def test_heal_by_doing_then_resume_runs_only_the_rest(cli: Cli, home: str, web: str) -> None:
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/renamed", *FAST)
    session, digest, ref = d["session"], d["resume"]["planDigest"], d["suggestions"][0]["ref"]
    blind = cli("run", FLOW, "--session", session, "--from", "7", "--plan-digest", digest, "--json", ok=None)
    assert blind.returncode == 2 and "blind resume" in blind.stdout
    cli("click", ref, "--session", session)
    journal = Path(home) / "sessions" / session / "journal.ndjson"
    before = [json.loads(line)["command"] for line in journal.read_text().splitlines()]
    result = cli.json("run", FLOW, "--session", session, "--from", "7", "--plan-digest", digest)["result"]
    assert result["ran"] == 1 and [t["index"] for t in result["timings"]] == [7]
    assert before.count("open") == 1  # steps 1..6 were not re-run


def test_resume_with_a_changed_script_is_refused_before_any_action(
    cli: Cli, home: str, web: str, tmp_path: Path
) -> None:
    flow = tmp_path / "flow.ad"
    flow.write_text(Path(FLOW).read_text())
    d = diverge(cli, "run", str(flow), "-e", f"SHOP={web}/drift/moved", *FAST)
    flow.write_text(flow.read_text().replace('is visible "Order placed"', 'is visible "Order placed!"'))
    journal = Path(home) / "sessions" / d["session"] / "journal.ndjson"
    before = journal.read_text()
    proc = cli(
        "run", str(flow), "--session", d["session"], "--from", "7", "--plan-digest", d["resume"]["planDigest"], ok=None
    )
    assert proc.returncode == 2 and "digest mismatch" in proc.stderr
    assert journal.read_text() == before


def test_from_counts_plan_ordinals_and_len_plus_one_is_an_empty_tail(cli: Cli, web: str) -> None:
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/moved", *FAST)
    s, digest = d["session"], d["resume"]["planDigest"]
    out_of_range = cli("run", FLOW, "--session", s, "--from", "10", "--plan-digest", digest, ok=None)
    assert out_of_range.returncode == 2 and "out of range" in out_of_range.stderr
    assert cli.json("run", FLOW, "--session", s, "--from", "9", "--plan-digest", digest)["result"]["ran"] == 0


def test_caution_can_be_resumed_past_the_step(cli: Cli, web: str) -> None:
    d = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/moved", *FAST)
    assert d["resume"] == {"allowed": True, "from": 6, "planDigest": d["resume"]["planDigest"], "alternateFrom": 7}


def test_the_projections_carry_the_same_divergence(cli: Cli, home: str, web: str) -> None:
    d_cli = diverge(cli, "run", FLOW, "-e", f"SHOP={web}/drift/renamed", *FAST, "--session", "proj")
    client = Client("proj", home=home, cwd=cli.cwd)
    assert client.divergence() == d_cli
    assert cli.json("divergence", "--session", "proj")["divergence"] == d_cli
    text = cli("divergence", "--session", "proj").stdout
    for needle in (d_cli["kind"], d_cli["repairHint"], d_cli["action"], d_cli["cause"], d_cli["resume"]["planDigest"]):
        assert needle in text
    client.close()
    with pytest.raises(DivergenceError) as exc:
        Client("proj2", home=home, cwd=cli.cwd).run(FLOW, values={"SHOP": f"{web}/drift/renamed"}, timeout=1500)
    d_py = exc.value.divergence
    assert exc.value.exit_code == 3

    def stable(d: dict[str, Any]) -> dict[str, Any]:
        out = json.loads(json.dumps(d).replace('"proj2"', '"proj"').replace("/proj2/", "/proj/"))
        out["screen"]["refsGeneration"] = None  # counts polls, which vary between runs
        return out

    assert stable(d_py) == stable(d_cli)


def test_a_filled_password_never_appears_in_reports_artifacts_or_logs(cli: Cli, home: str, web: str) -> None:
    secret = "pw-Zebra-4711"
    proc = cli(
        "run", FLOW, "-e", f"SHOP={web}/drift/renamed", "-e", f"PASSWORD={secret}", *FAST, "--level", "digest", ok=None
    )
    assert proc.returncode == 3 and secret not in proc.stdout + proc.stderr
    as_json = cli("run", FLOW, "-e", f"SHOP={web}/drift/renamed", "-e", f"PASSWORD={secret}", *FAST, "--json", ok=None)
    assert secret not in as_json.stdout
    d = json.loads(as_json.stdout.splitlines()[-1])["error"]["divergence"]
    for path in Path(home).rglob("*"):
        if path.is_file() and not path.name.endswith(".sock"):
            assert secret not in path.read_text(errors="replace"), path
    assert d["repairHint"] == "record-and-heal"


def test_unresolved_variable_fails_with_file_and_line_before_step_one(cli: Cli, tmp_path: Path) -> None:
    flow = tmp_path / "vars.ad"
    flow.write_text('open http://127.0.0.1:9/\ntype "${MISSING}"\n')
    proc = cli("run", str(flow), ok=None)
    assert proc.returncode == 2 and f"{flow}:2: UNRESOLVED_VARIABLE" in proc.stderr


@pytest.mark.own_daemon  # counts the sessions of its daemon
def test_a_command_the_platform_cannot_perform_is_refused_before_step_one(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "kbd.ad"
    flow.write_text(f"open {web}/shop/index.html\nkeyboard dismiss\n")
    proc = cli("run", str(flow), ok=None)
    assert proc.returncode == 2 and "UNSUPPORTED_COMMAND" in proc.stderr and f"{flow}:2" in proc.stderr
    assert cli.json("session", "list")["sessions"] == []


def test_a_failing_assertion_is_exit_1_not_a_divergence(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "assert.ad"
    flow.write_text(f'open {web}/shop/index.html\nis visible "No such thing"\n')
    proc = cli("run", str(flow), "--timeout", "500", ok=None)
    assert proc.returncode == 1 and "ASSERTION_FAILED" in proc.stderr


def annotated_wait_flow(tmp_path: Path, url: str) -> Path:
    """open URL, then wait for Place order carrying the evidence recorded for it on v1."""
    lines = Path(FLOW).read_text().splitlines()
    place = next(i for i, line in enumerate(lines) if line.startswith('click id="place-order"'))
    flow = tmp_path / "wait.ad"
    flow.write_text(f"open {url}\n{lines[place - 1]}\n" + 'wait "role=button label=\\"Place order\\"" 800\n')
    return flow


def test_annotated_wait_keeps_polling_through_look_alikes(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = annotated_wait_flow(tmp_path, f"{web}/drift/noids/checkout.html")
    d = diverge(cli, "run", str(flow))
    assert d["kind"] == "identity-mismatch" and "look-alikes" in d["cause"]


def test_annotated_wait_passes_once_the_recorded_element_is_there(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = annotated_wait_flow(tmp_path, f"{web}/shop/checkout.html")
    assert cli("run", str(flow)).stdout.startswith("replayed 2 steps")
