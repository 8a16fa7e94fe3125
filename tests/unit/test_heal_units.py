"""The built-in healer's decision, the agent protocol's transport, the ledger and the audit lines."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import stat
import sys
import time
from pathlib import Path

import pytest

from replay.engine.heal_choice import decide
from replay.heal.agent import Ledger, request, run_turn
from replay.heal.audit import Audit, Round
from replay.script.evidence import Ancestor, Rect, TargetEvidence

from .treebuild import N, capture

PLACE = TargetEvidence(
    role="button",
    label="Place order",
    ancestry=(Ancestor("form", "Checkout"),),
    sibling=2,
    rect=Rect(20, 400, 100, 20),
)


def form(*buttons: N) -> object:
    return capture(
        N("main")(N("form", label="Checkout")(N("textbox", label="Name"), N("textbox", label="Email"), *buttons))
    )


def test_it_performs_a_renamed_step_that_clearly_wins() -> None:
    cap = form(N("button", label="Place your order", rect=(20, 400, 100, 20)))
    d = decide("record-and-heal", PLACE, cap)  # type: ignore[arg-type]
    assert d.acts and d.node is not None and d.node.label == "Place your order"


def test_it_performs_a_step_whose_element_moved_to_a_role_of_the_recorded_family() -> None:
    from dataclasses import replace

    cap = form(N("button", label="Place your order", rect=(20, 400, 100, 20)))
    d = decide("record-and-heal", replace(PLACE, role="generic"), cap)  # type: ignore[arg-type]
    assert d.acts and d.node is not None and d.node.role == "button"  # a clickable generic became a button
    d = decide("record-and-heal", replace(PLACE, role="link"), cap)  # type: ignore[arg-type]
    assert not d.acts and "not a link" in d.reason


def test_it_abstains_when_two_candidates_score_within_the_margin() -> None:
    cap = form(
        N("button", label="Place order now", rect=(20, 400, 100, 20)),
        N("button", label="Place orders", rect=(20, 430, 100, 20)),
    )
    d = decide("record-and-heal", PLACE, cap)  # type: ignore[arg-type]
    assert not d.acts and "runner-up" in d.reason


def test_it_abstains_below_the_score_floor() -> None:
    cap = form(N("button", label="Cancel", rect=(600, 100, 100, 20)))
    d = decide("record-and-heal", PLACE, cap)  # type: ignore[arg-type]
    assert not d.acts


def test_it_never_acts_on_state_repair_or_manual() -> None:
    cap = form(N("button", label="Place order", rect=(20, 400, 100, 20)))
    for hint in ("state-repair", "manual"):
        assert not decide(hint, PLACE, cap).acts  # type: ignore[arg-type]


def test_on_caution_it_acts_only_on_the_element_the_selector_matched() -> None:
    cap = form(N("button", label="Place your order", rect=(20, 400, 100, 20)))
    best = cap.nodes[-1]  # type: ignore[attr-defined]
    assert decide("caution", PLACE, cap, matched=best).acts  # type: ignore[arg-type]
    assert not decide("caution", PLACE, cap, matched=cap.nodes[3]).acts  # type: ignore[arg-type, attr-defined]


def agent_script(tmp_path: Path, body: str) -> str:
    script = tmp_path / "agent.py"
    script.write_text("import json, sys\nsys.stdin.read()\n" + body)
    return f"{sys.executable} {script}"


def test_a_result_line_is_parsed_and_its_notes_capped_at_three() -> None:
    out = {"status": "done", "notes": ["a", "b", "c", "d"], "cost_usd": 0.5, "conversation_id": "c1"}
    turn = run_turn(
        f"{sys.executable} -c 'import sys; sys.stdin.read(); print({json.dumps(json.dumps(out))})'",
        {},
        timeout_s=30,
        env=dict(os.environ),
    )
    assert (turn.status, turn.notes, turn.cost_usd, turn.conversation_id, turn.transport) == (
        "done",
        ["a", "b", "c"],
        0.5,
        "c1",
        None,
    )


def test_transport_failures_are_named_never_raised(tmp_path: Path) -> None:
    env = dict(os.environ)
    assert "did not start" in (run_turn("/no/such/agent", {}, timeout_s=5, env=env).transport or "")
    assert "no result" in (run_turn(agent_script(tmp_path, "sys.exit(3)"), {}, timeout_s=30, env=env).transport or "")
    bad = agent_script(tmp_path, "print('{not json')")
    assert "malformed" in (run_turn(bad, {}, timeout_s=30, env=env).transport or "")
    odd = agent_script(tmp_path, "print(json.dumps({'status': 'maybe'}))")
    assert "known status" in (run_turn(odd, {}, timeout_s=30, env=env).transport or "")


@pytest.mark.parametrize("cost", ['"abc"', "NaN", "-1", "Infinity", "1e999", "true", "[1]", "1" + "0" * 400])
def test_a_cost_that_is_not_a_finite_amount_of_at_least_zero_is_a_transport_failure(tmp_path: Path, cost: str) -> None:
    agent = agent_script(tmp_path, f'print(\'{{"status": "done", "cost_usd": {cost}}}\')')
    turn = run_turn(agent, {}, timeout_s=30, env=dict(os.environ))
    assert turn.transport is not None and turn.cost_usd == 0.0


def test_a_result_that_is_not_utf8_or_over_the_bound_is_a_transport_failure(tmp_path: Path) -> None:
    env = dict(os.environ)
    latin = agent_script(tmp_path, 'sys.stdout.buffer.write(b\'{"status": "done", "notes": ["caf\\xe9"]}\\n\')')
    assert "not UTF-8" in (run_turn(latin, {}, timeout_s=30, env=env).transport or "")
    huge = agent_script(tmp_path, "print(json.dumps({'status': 'done', 'notes': ['x' * 10_000_000]}))")
    assert "over 64 KiB" in (run_turn(huge, {}, timeout_s=30, env=env).transport or "")


def test_an_agent_past_its_deadline_is_stopped_with_everything_it_started(tmp_path: Path) -> None:
    pids = tmp_path / "child.pid"
    body = (
        "import os, subprocess, time\n"
        # (the pid as this machine's /proc counts it: the turn may run in a PID namespace of its own)
        "child = subprocess.Popen([sys.executable, '-c', 'import os, sys, time; "
        f'open(sys.argv[1], "w").write(os.readlink("/proc/self")); time.sleep(60)\', {str(pids)!r}])\n'
        f"while not os.path.exists({str(pids)!r}): time.sleep(0.01)\n"
        "time.sleep(60)\n"
    )
    turn = run_turn(agent_script(tmp_path, body), {}, timeout_s=1.5, env=dict(os.environ))
    assert "ran past its deadline (1.5 s)" in (turn.transport or "")
    stat = Path(f"/proc/{int(pids.read_text())}/stat")

    def killed() -> bool:  # a zombie, or reaped (SIGKILL lands a moment after killpg returns: poll for it)
        try:
            return stat.read_text().rsplit(")", 1)[1].split()[0] == "Z"
        except FileNotFoundError:
            return True

    deadline = time.monotonic() + 5
    while not killed() and time.monotonic() < deadline:
        time.sleep(0.01)
    assert killed()


def test_a_child_that_left_the_agents_process_group_ends_with_the_turn(tmp_path: Path) -> None:
    pids = tmp_path / "escaped.pid"
    body = (  # a child in a session of its own, forked again so that init adopts it; the agent answers at once
        "import os, time\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    if os.fork() == 0:\n"
        f"        open({str(pids)!r}, 'w').write(os.readlink('/proc/self'))\n"
        "        time.sleep(60)\n"
        "    os._exit(0)\n"
        f"while not os.path.exists({str(pids)!r}): time.sleep(0.01)\n"
        "print(json.dumps({'status': 'done'}))\n"
    )
    turn = run_turn(agent_script(tmp_path, body), {}, timeout_s=30, env=dict(os.environ))
    assert turn.status == "done" and turn.transport is None
    assert _ends(int(pids.read_text()))


def test_a_grandchild_that_cleared_its_environment_still_ends_with_the_turn(tmp_path: Path) -> None:
    pids = tmp_path / "escaped.pid"
    # the pid (as the host sees it) is told only by the re-executed program (no mark left), and whole:
    # a sweep that ran before the execve would otherwise have found it still marked
    after = (
        f"import os, time; open({str(pids)!r} + '.new', 'w').write(os.readlink('/proc/self')); "
        f"os.replace({str(pids)!r} + '.new', {str(pids)!r}); time.sleep(60)"
    )
    body = (  # the audit's escape: out of the group, orphaned, and re-executed with no environment (no mark)
        "import os, sys, time\n"
        f"AFTER = {after!r}\n"
        "if os.fork() == 0:\n"
        "    os.setsid()\n"
        "    parent = os.getpid()\n"
        "    if os.fork() == 0:\n"
        "        while os.getppid() == parent: time.sleep(0.01)\n"  # orphaned first: no marked parent
        "        os.execve(sys.executable, [sys.executable, '-c', AFTER], {})\n"
        "    os._exit(0)\n"
        f"while not os.path.exists({str(pids)!r}): time.sleep(0.01)\n"
        "print(json.dumps({'status': 'done'}))\n"
    )
    turn = run_turn(agent_script(tmp_path, body), {}, timeout_s=30, env=dict(os.environ))
    ended = _ends(int(pids.read_text()))
    assert turn.status == "done" and turn.transport is None
    assert ended


def _ends(pid: int) -> bool:
    """Whether ``pid`` is gone (or a zombie) within 5 s; killed afterwards either way (nothing left running)."""
    try:
        deadline = time.monotonic() + 5
        while _state(pid) not in ("Z", "gone") and time.monotonic() < deadline:
            time.sleep(0.01)
        return _state(pid) in ("Z", "gone")
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGKILL)


def _state(pid: int) -> str:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return "gone"


def test_without_a_deadline_a_turn_still_has_one(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.heal import agent

    monkeypatch.setattr(agent, "TURN_S", 0.5)
    turn = run_turn(agent_script(tmp_path, "import time; time.sleep(60)"), {}, timeout_s=None, env=dict(os.environ))
    assert "ran past its deadline (0.5 s)" in (turn.transport or "")


def test_the_ledger_keeps_only_the_conversation_and_a_turn_count_privately(tmp_path: Path) -> None:
    ledger = Ledger(str(tmp_path / "home" / "heal-ledger.json"))
    ledger.record("s", "conv-1")
    ledger.record("s", None)  # an agent that gave no id continues the same conversation
    assert ledger.get("s") == ("conv-1", 2) and ledger.get("other") == (None, 0)
    assert stat.S_IMODE(os.stat(ledger.path).st_mode) == 0o600
    assert json.loads(Path(ledger.path).read_text()) == {"s": {"conversation_id": "conv-1", "turns": 2}}


def test_the_request_names_the_session_the_commands_and_the_round() -> None:
    r = request(
        {"kind": "selector-miss"},
        session="s",
        resume="replay run f --from 2",
        round_label="1/2",
        budget_usd=1.0,
        deadline_s=30.0,
        conversation_id=None,
    )
    assert r["session"] == "s" and r["round"] == "1/2" and all("--session s" in c for c in r["commands"])
    assert r["budget"] == {"remaining_usd": 1.0, "remaining_s": 30.0} and r["conversationId"] is None


def test_a_report_line_is_the_fixed_human_form() -> None:
    r = Round("f.ad[step 7] repair 1/2", 1, 2, "RETRY", "state-repair", "selector-miss", 7, "why", "what", "resolved")
    assert r.report_line() == "[Repair - RETRY] step 7: why → what — resolved"
    assert Round(**{**r.__dict__, "outcome": "unresolved"}).report_line().endswith("— escalated")


def test_a_report_without_rounds_says_no_drift_only_when_the_flow_was_clean(tmp_path: Path) -> None:
    flow = str(tmp_path / "f.ad")
    audit = Audit(str(tmp_path / "heal"))
    clean = Path(audit.report(flow=flow, status="clean", healed=None, acceptance="not needed: no drift")).read_text()
    assert "- none: no drift" in clean
    stopped = audit.report(flow=flow, status="escalated", healed=None, acceptance="not run: a different screen")
    text = Path(stopped).read_text()
    assert "no drift" not in text and "- none: nothing was tried (see Acceptance)" in text
    assert "not run: a different screen" in text


def test_an_agents_notes_never_repeat_a_value_given_with_e() -> None:
    from replay.script.redact import scrub, secrets_of

    values = {"PASSWORD": "hunter2-secret", "X": "ab"}
    shown = scrub("typed hunter2-secret into Password, ab", secrets_of([], values))
    assert shown == "typed <var:PASSWORD> into Password, ab"


def test_an_agents_note_never_repeats_a_value_given_with_e_upper_cased_or_reversed() -> None:
    from replay.script.redact import scrub, secrets_of

    values = {"PASSWORD": "hunter2-secret"}
    shown = scrub("tried HUNTER2-SECRET, then terces-2retnuh", secrets_of([], values))
    assert shown == "tried <var:PASSWORD>, then <var:PASSWORD>"


def test_an_agent_that_never_reads_a_large_request_still_ends_at_its_deadline(tmp_path: Path) -> None:
    script = tmp_path / "deaf.py"
    script.write_text("import time\ntime.sleep(60)\n")  # reads nothing: a pipe's 64 KiB fill up
    turn = run_turn(f"{sys.executable} {script}", {"pad": "x" * 1_000_000}, timeout_s=1.0, env=dict(os.environ))
    assert "ran past its deadline (1 s)" in (turn.transport or "")


def test_a_heals_log_exists_from_the_start_and_holds_only_its_own_rounds(tmp_path: Path) -> None:
    folder = str(tmp_path / "heal")
    first = Audit(folder)
    assert Path(first.log).read_text() == ""  # an escalation before any round still leaves its log
    first.add(Round("f.ad[step 1] repair 1/2", 1, 2, "RETRY", "state-repair", "k", 1, "c", "a", "resolved"))
    assert len(Path(Audit(folder).log).read_text().splitlines()) == 0  # the next heal starts its own


@pytest.mark.parametrize(
    "content",
    [
        b'{"s": {"conversation_id": "c1", "turns": "abc"}}',  # a turn count that is not one
        b"\xff\xfe not UTF-8",
        b'{"s": ["not", "an", "object"]}',
        b'["a list"]',
        b'{"s": {"conversation_id": 7, "turns": 1}}',
    ],
)
def test_a_tampered_heal_ledger_is_read_as_empty_entries_never_a_crash(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "heal-ledger.json"
    path.write_bytes(content)
    ledger = Ledger(str(path))
    assert ledger.get("s") == (None, 0)
    ledger.record("s", "c2")  # the next turn writes a good ledger over it
    assert ledger.get("s") == ("c2", 1)


def test_a_checkbox_that_became_a_switch_is_of_the_recorded_family() -> None:
    """Bootstrap 5 writes its switch role=switch; Bootstrap 3's was a checkbox."""
    wrap = TargetEvidence(role="checkbox", label="Gift wrap", ancestry=(Ancestor("form", "Checkout"),), sibling=2)
    cap = form(N("switch", label="Gift wrap", rect=(20, 400, 100, 20)))
    d = decide("record-and-heal", wrap, cap)  # type: ignore[arg-type]
    assert d.acts and d.node is not None and d.node.role == "switch"
