"""Resume preflight: ``--from N --plan-digest D`` is refused before any action when it cannot be right."""

from __future__ import annotations

from typing import TYPE_CHECKING

from replay.engine.hint import RepairHint
from replay.errors import InvalidArgs
from replay.script.plan import Plan

if TYPE_CHECKING:
    from replay.engine.divergence import Divergence


def check_resume(
    plan: Plan,
    from_step: int,
    plan_digest: str | None,
    outstanding: Divergence | None,
    recorded_then: int,
    recorded_now: int,
) -> None:
    """Refuse (``INVALID_ARGS``) a digest mismatch, an out-of-range N, or a blind resume.

    ``outstanding`` is the session's unresolved divergence, if any; ``recorded_then`` and
    ``recorded_now`` count the recorded actions of its journal then and now.
    """
    if not plan_digest:
        raise InvalidArgs(
            "--from needs --plan-digest",
            hint="copy both from the divergence report: --from N --plan-digest D",
        )
    if plan_digest != plan.digest:
        raise InvalidArgs(
            "plan digest mismatch: the script (or platform) changed since the divergence",
            hint=f"re-run from step 1 without --from (current digest {plan.digest})",
        )
    last_ok = len(plan.steps) + 1
    if not 1 <= from_step <= last_ok:
        raise InvalidArgs(
            f"--from {from_step} is out of range: the plan has {len(plan.steps)} steps (1..{last_ok})",
            hint=f"--from {last_ok} is the empty tail",
        )
    if (
        outstanding is not None
        and outstanding.resume.plan_digest == plan_digest
        and outstanding.repair_hint == RepairHint.RECORD_AND_HEAL
        and from_step == outstanding.index + 1
        and recorded_now <= recorded_then
    ):
        raise InvalidArgs(
            f"blind resume: step {outstanding.index} was not performed since the divergence",
            hint=f"perform step {outstanding.index}'s intent in this session first (e.g. replay click @eN), "
            f"or resume with --from {outstanding.index} to retry it",
        )
