from __future__ import annotations

import pytest

from replay.engine.hint import CAUTION, RECORD_AND_HEAL
from replay.engine.resume import LastDivergence, check_resume
from replay.errors import InvalidArgs
from replay.script import build_plan, parse

PLAN = build_plan(parse("open http://x\nclick id=a\nclick id=b\nclose\n", "f.ad"))


def test_digest_mismatch_is_refused() -> None:
    with pytest.raises(InvalidArgs, match="digest mismatch"):
        check_resume(PLAN, 2, "0" * 64, None, 0)


def test_missing_digest_is_refused() -> None:
    with pytest.raises(InvalidArgs, match="needs --plan-digest"):
        check_resume(PLAN, 2, None, None, 0)


@pytest.mark.parametrize("n", [0, 6, -1])
def test_out_of_range_step_is_refused(n: int) -> None:
    with pytest.raises(InvalidArgs, match="out of range"):
        check_resume(PLAN, n, PLAN.digest, None, 0)


def test_len_plus_one_is_the_legal_empty_tail() -> None:
    check_resume(PLAN, 5, PLAN.digest, None, 0)


def test_blind_resume_after_record_and_heal_is_refused() -> None:
    last = LastDivergence(PLAN.digest, 2, RECORD_AND_HEAL, recorded_actions=3)
    with pytest.raises(InvalidArgs, match="blind resume"):
        check_resume(PLAN, 3, PLAN.digest, last, 3)


def test_resume_after_a_recorded_corrective_action_is_accepted() -> None:
    last = LastDivergence(PLAN.digest, 2, RECORD_AND_HEAL, recorded_actions=3)
    check_resume(PLAN, 3, PLAN.digest, last, 4)


def test_retrying_the_failed_step_is_always_accepted() -> None:
    check_resume(PLAN, 2, PLAN.digest, LastDivergence(PLAN.digest, 2, RECORD_AND_HEAL, 3), 3)


def test_skipping_a_caution_step_needs_no_corrective_action() -> None:
    check_resume(PLAN, 3, PLAN.digest, LastDivergence(PLAN.digest, 2, CAUTION, 3), 3)
