"""`replay heal` end to end: the built-in healer, scripted agents, bounded rounds, the audit trail, the gate."""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import FAST, ROOT, Cli

FLOW = ROOT / "fixtures" / "flows" / "checkout.ad"
AGENT = f"{sys.executable} {ROOT / 'tests' / 'agents' / 'scripted.py'}"


def heal(cli: Cli, tmp_path: Path, drift: str, web: str, *args: str) -> tuple[int, dict[str, Any], Path]:
    flow = tmp_path / "checkout.ad"
    if not flow.exists():
        shutil.copy(FLOW, flow)
    proc = cli("heal", str(flow), "-e", f"SHOP={web}/{drift}", *FAST, *args, "--json", ok=None)
    return proc.returncode, json.loads(proc.stdout.strip().splitlines()[-1])["result"], flow


def agent(mode: str, tmp_path: Path) -> str:
    return f"{AGENT} {mode} {tmp_path / 'agent'}"


def requests(tmp_path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in (tmp_path / "agent" / "requests.jsonl").read_text().splitlines()]


def test_the_builtin_healer_heals_the_renamed_button_and_the_diff_is_exactly_that_step(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    original = FLOW.read_bytes()
    code, result, flow = heal(cli, tmp_path, "drift/renamed", web)
    assert (code, result["status"]) == (5, "healed")
    assert result["healed"] == str(tmp_path / "checkout.healed.ad")  # the name, only once the gate passed
    assert not (tmp_path / "checkout.rejected.ad").exists()
    healed = Path(result["healed"]).read_text().splitlines()
    before = flow.read_text().splitlines()
    changed = [line for line in healed if line not in before]
    removed = [line for line in before if line not in healed]
    assert [line.split(" ", 2)[1] if line.startswith("#") else line for line in changed] == [
        "replay:target-v1",
        'click id="submit-order" || role=button label="Submit order"',
        "replay:heal-complete",
    ]
    assert len(removed) == 2 and removed[1] == 'click id="place-order" || role=button label="Place order"'
    assert flow.read_bytes() == original  # the original is never modified
    report = Path(result["report"]).read_text()
    # its name changed ("Place order" → "Submit order") and the step can be proven: a trial, not a score, decides
    assert "[Repair - DECOMPOSE] step 6: no node matches the selector → tried 1 candidate(s)" in report
    assert 'button "Submit order" did what the step did; performed on @e' in report
    assert "passed: replayed 7 steps in a fresh session" in report


def test_a_flow_that_did_not_drift_exits_0_and_publishes_nothing(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(cli, tmp_path, "shop", web)
    assert (code, result["status"], result["healed"]) == (0, "clean", None)
    assert not (tmp_path / "checkout.healed.ad").exists()


@pytest.mark.parametrize(("drift", "why"), [("drift/interstitial", "state-repair"), ("drift/duplicated", "manual")])
def test_the_builtin_healer_escalates_what_it_must_not_touch(
    cli: Cli, web: str, tmp_path: Path, drift: str, why: str
) -> None:
    code, result, _ = heal(cli, tmp_path, drift, web)
    assert (code, result["status"]) == (6, "escalated") and why in result["reason"]
    assert not (tmp_path / "checkout.healed.ad").exists()


def test_the_builtin_healer_abstains_on_caution_when_the_best_candidate_is_not_the_found_element(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/moved", web)  # caution: the button moved out of its form
    assert code == 6 and result["rounds"][0]["strategy"] == "ESCALATE" and "abstained" in result["rounds"][0]["outcome"]


def test_an_agents_recorded_action_on_a_caution_step_resumes_after_it_not_at_it(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/moved", web, "--agent", agent("fail-0", tmp_path))
    assert requests(tmp_path)[0]["divergence"]["repairHint"] == "caution"
    assert (code, result["status"]) == (5, "healed"), result
    clicks = [line for line in Path(result["healed"]).read_text().splitlines() if line.startswith("click ")]
    assert len(clicks) == 1, clicks  # the agent's click, not it and the failed step run again


def test_a_scripted_agent_clears_the_interstitial_with_a_state_fix_and_the_heal_completes(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/interstitial", web, "--agent", agent("click-through", tmp_path))
    assert [(r["strategy"], r["outcome"]) for r in result["rounds"]] == [("RETRY", "resolved")]
    assert "Continue" not in Path(result["healed"]).read_text()  # --no-record kept the fix out
    # the gate is honest: the interstitial is still there in a fresh session, and the fix was not recorded
    assert (code, result["status"]) == (6, "rejected") and "FAILED" in Path(result["report"]).read_text()
    assert result["healed"] == str(tmp_path / "checkout.rejected.ad") and not (tmp_path / "checkout.healed.ad").exists()
    assert Path(result["healed"]).read_text().startswith("# replay heal: REJECTED: FAILED: ")


def test_an_agents_notes_reach_no_file_or_console_with_a_secret_and_are_bounded(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = tmp_path / "checkout.ad"
    shutil.copy(FLOW, flow)
    args = ("-e", f"SHOP={web}/drift/renamed", *FAST, "--agent", agent("tell-typed", tmp_path), "--json")
    proc = cli("heal", str(flow), *args, ok=None)
    result = json.loads(proc.stdout.strip().splitlines()[-1])["result"]
    shown = proc.stdout + proc.stderr + Path(result["log"]).read_text() + Path(result["report"]).read_text()
    for secret in ("correct-horse-battery", "correct-h", "ada@example.com"):
        assert secret not in shown
    (line,) = [json.loads(x) for x in Path(result["log"]).read_text().splitlines()]
    assert "<var:PASSWORD>" in line["adjustment"] and all(len(n.encode()) <= 256 for n in line["notes"])
    assert len(line["adjustment"].encode()) <= 3 * 256 + 6


def test_an_agents_terminal_control_sequences_reach_no_reviewer_facing_file(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/renamed", web, "--agent", agent("tell-escapes", tmp_path))
    assert code == 5, result
    ledger = Path(cli.home) / "heal-ledger.json"
    for text in (Path(result["report"]).read_text(), Path(result["log"]).read_text(), ledger.read_text()):
        assert "\x1b" not in text and "\x9b" not in text and "\x07" not in text
    assert "\\u001b[2J" in Path(result["report"]).read_text()  # said, as an escape a terminal does not act on


def test_repair_n_rounds_continue_one_conversation(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/renamed", web, "--agent", agent("fail-2", tmp_path), "--repair", "3")
    assert (code, [r["outcome"] for r in result["rounds"]]) == (5, ["unresolved", "unresolved", "resolved"])
    sent = requests(tmp_path)
    assert [r["round"] for r in sent] == ["1/3", "2/3", "3/3"]
    assert sent[0]["conversationId"] is None and sent[1]["conversationId"] == "conv-1"


def test_a_divergence_still_unresolved_after_n_rounds_escalates(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/renamed", web, "--agent", agent("fail-2", tmp_path), "--repair", "2")
    assert code == 6 and "2 repair round(s) spent" in result["reason"]


def test_a_spent_budget_starts_no_new_round(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(
        cli, tmp_path, "drift/renamed", web, "--agent", agent("fail-5", tmp_path), "--budget-usd", "0"
    )
    assert code == 6 and "budget" in result["reason"] and result["rounds"] == []


def test_transport_failures_are_retried_and_not_counted_as_rounds(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(
        cli, tmp_path, "drift/renamed", web, "--agent", agent("crash-once", tmp_path), "--repair", "1"
    )
    assert (code, len(result["rounds"])) == (5, 1) and len(requests(tmp_path)) == 2


def test_an_agent_whose_result_stays_untrustworthy_escalates_once_its_retries_are_spent(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/renamed", web, "--agent", agent("crash-always", tmp_path))
    assert code == 6 and "(3 tries)" in result["reason"]
    assert len(requests(tmp_path)) == 3 and [r["outcome"] for r in result["rounds"]] == ["escalated"]


def test_an_agent_whose_cost_cannot_be_read_counts_as_the_whole_budget_and_is_never_started_again(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    code, result, _ = heal(
        cli, tmp_path, "drift/renamed", web, "--agent", agent("bad-cost", tmp_path), "--budget-usd", "0.5"
    )
    assert code == 6 and "what it spent is unknown, counted as the whole budget" in result["reason"], result
    assert len(requests(tmp_path)) == 1 and [r["outcome"] for r in result["rounds"]] == ["escalated"]


def test_a_pruned_step_never_passes(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/moved", web, "--agent", agent("prune", tmp_path))
    assert code == 6 and result["status"] in ("rejected", "escalated") and result["rounds"][0]["strategy"] == "PRUNE"
    assert "[Repair - PRUNE] step 6" in Path(result["report"]).read_text()


def test_heal_jsonl_has_one_line_per_round(cli: Cli, web: str, tmp_path: Path) -> None:
    _, result, _ = heal(cli, tmp_path, "drift/renamed", web)
    (line,) = [json.loads(x) for x in Path(result["log"]).read_text().splitlines()]
    assert line["label"] == "checkout.ad[step 6] repair 1/2" and line["repairHint"] == "record-and-heal"
    assert set(line) >= {"round", "of", "strategy", "kind", "cost_usd", "duration_ms", "notes", "outcome"}


def test_a_spent_deadline_starts_no_new_round(cli: Cli, web: str, tmp_path: Path) -> None:
    code, result, _ = heal(cli, tmp_path, "drift/renamed", web, "--agent", agent("fail-5", tmp_path), "--deadline", "0")
    assert code == 6 and "deadline" in result["reason"] and result["rounds"] == []


def test_the_example_agent_follows_the_protocol_and_heals_the_renamed_button(
    home: str, web: str, tmp_path: Path
) -> None:
    import os

    venv_bin = str(Path(sys.executable).parent)  # the example calls `replay` from PATH
    cli = Cli(home, str(tmp_path), env={"PATH": f"{venv_bin}:{os.environ.get('PATH', '')}"})
    example = f"{sys.executable} {ROOT / 'examples' / 'agent.py'}"
    code, result, _ = heal(cli, tmp_path, "drift/renamed", web, "--agent", example)
    assert (code, result["status"]) == (5, "healed") and result["rounds"][0]["notes"][0].startswith("click @e")
