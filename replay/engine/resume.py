"""Resume preflight: ``--from N --plan-digest D`` is refused before any action when it cannot be right."""

from __future__ import annotations

from dataclasses import dataclass

from replay.engine.hint import RECORD_AND_HEAL
from replay.errors import InvalidArgs
from replay.script.plan import Plan


@dataclass(frozen=True)
class LastDivergence:
    """What a session remembers of its latest divergence, to judge a resume."""

    plan_digest: str
    index: int
    repair_hint: str
    recorded_actions: int  # recorded journal entries when the divergence happened


def check_resume(
    plan: Plan, from_step: int, plan_digest: str | None, last: LastDivergence | None, recorded_actions: int
) -> None:
    """Refuse (``INVALID_ARGS``) a digest mismatch, an out-of-range N, or a blind resume."""
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
        last is not None
        and last.plan_digest == plan_digest
        and last.repair_hint == RECORD_AND_HEAL
        and from_step == last.index + 1
        and recorded_actions <= last.recorded_actions
    ):
        raise InvalidArgs(
            f"blind resume: step {last.index} was not performed since the divergence",
            hint=f"perform step {last.index}'s intent in this session first (e.g. replay click @eN), "
            f"or resume with --from {last.index} to retry it",
        )
