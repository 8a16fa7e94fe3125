from __future__ import annotations

import pytest

from replay.engine.divergence import Binding, Divergence, build_divergence
from replay.engine.hint import RepairHint
from replay.engine.resume import check_resume
from replay.errors import InvalidArgs
from replay.script import build_plan, parse
from replay.tree.verdict import DivergenceKind

PLAN = build_plan(parse("open http://x\nclick id=a\nclick id=b\nclose\n", "f.ad"))


def diverged_at(index: int, hint: RepairHint) -> Divergence:
    """A divergence of PLAN at step ``index`` whose repairHint is ``hint``."""
    d = build_divergence(
        Binding(DivergenceKind.SELECTOR_MISS, "no node matches the selector", 0),
        index=index,
        path="f.ad",
        action=PLAN.steps[index - 1].action,
        capture=None,
        capture_error="not needed",
        evidence=None,
        plan_len=len(PLAN.steps),
        plan_digest=PLAN.digest,
        held=None,
        session="s",
    )
    d.repair_hint = hint
    return d


def test_digest_mismatch_is_refused() -> None:
    with pytest.raises(InvalidArgs, match="digest mismatch"):
        check_resume(PLAN, 2, "0" * 64, None, 0, 0)


def test_missing_digest_is_refused() -> None:
    with pytest.raises(InvalidArgs, match="needs --plan-digest"):
        check_resume(PLAN, 2, None, None, 0, 0)


@pytest.mark.parametrize("n", [0, 6, -1])
def test_out_of_range_step_is_refused(n: int) -> None:
    with pytest.raises(InvalidArgs, match="out of range"):
        check_resume(PLAN, n, PLAN.digest, None, 0, 0)


def test_len_plus_one_is_the_legal_empty_tail() -> None:
    check_resume(PLAN, 5, PLAN.digest, None, 0, 0)


def test_blind_resume_after_record_and_heal_is_refused() -> None:
    last = diverged_at(2, RepairHint.RECORD_AND_HEAL)
    with pytest.raises(InvalidArgs, match="blind resume"):
        check_resume(PLAN, 3, PLAN.digest, last, 3, 3)


def test_resume_after_a_recorded_corrective_action_is_accepted() -> None:
    last = diverged_at(2, RepairHint.RECORD_AND_HEAL)
    check_resume(PLAN, 3, PLAN.digest, last, 3, 4)


def test_retrying_the_failed_step_is_always_accepted() -> None:
    check_resume(PLAN, 2, PLAN.digest, diverged_at(2, RepairHint.RECORD_AND_HEAL), 3, 3)


def test_skipping_a_caution_step_needs_no_corrective_action() -> None:
    check_resume(PLAN, 3, PLAN.digest, diverged_at(2, RepairHint.CAUTION), 3, 3)
