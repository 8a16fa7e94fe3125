"""The built-in healer's decision (SPEC §8): deterministic, no network, and it abstains when unsure.

For ``record-and-heal`` it acts only when the best-ranked candidate (the suggestion ranking of
SPEC §6) has the recorded role, lies in the recorded container, scores ≥ 0.8 and beats the
runner-up by ≥ 0.15; for ``caution`` only when, in addition, it is the very node the selector
matched. It never acts on ``state-repair`` or ``manual``.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from replay.engine.hint import Container, RepairHint, container_present_for, recorded_container
from replay.errors import InvalidArgs
from replay.script.ast import Target
from replay.script.evidence import TargetEvidence
from replay.script.selector import ref_index
from replay.tree.identity import find_anchor
from replay.tree.model import Capture, Node
from replay.tree.suggest import Suggestion, rank

if TYPE_CHECKING:
    from replay.session.session import Session

MIN_SCORE = 0.8
MIN_MARGIN = 0.15
RIVALS = 8  # candidates ranked to find the best plausible rival among


@dataclass(frozen=True)
class Decision:
    """Act on ``node`` (with its score), or abstain, and why."""

    node: Node | None
    score: float | None
    reason: str

    @property
    def acts(self) -> bool:
        """Whether the healer performs the step."""
        return self.node is not None


def decide(
    hint: str,
    evidence: TargetEvidence | None,
    capture: Capture | None,
    *,
    matched: Node | None = None,
    base: str | None = None,
) -> Decision:
    """What the built-in healer does about one divergence; ``matched`` is the node the selector found."""
    if hint not in (RepairHint.RECORD_AND_HEAL, RepairHint.CAUTION):
        return Decision(None, None, f"{hint}: the built-in healer only performs record-and-heal and caution steps")
    if evidence is None or capture is None:
        return Decision(None, None, "no recorded evidence or no screen to compare it with")
    ranked = rank(capture, evidence, limit=RIVALS)
    if not ranked:
        return Decision(None, None, "no element on screen resembles the recorded one")
    best = ranked[0]
    container = recorded_container(evidence)
    second = _plausible_rival(ranked, evidence, container, capture, base)
    checks = (
        (best.node.role == evidence.role, f"the best candidate is a {best.node.role}, not a {evidence.role}"),
        (
            container is not None and container_present_for(container, best.node, capture, base),
            "the best candidate is not in the recorded container",
        ),
        (best.score >= MIN_SCORE, f"the best candidate scores {best.score} (< {MIN_SCORE})"),
        (best.score - second >= MIN_MARGIN, f"the runner-up scores {second}, within {MIN_MARGIN} of {best.score}"),
        (
            hint != RepairHint.CAUTION or best.node is matched,
            "caution: the best candidate is not the element the selector matched",
        ),
    )
    for holds, why in checks:
        if not holds:
            return Decision(None, best.score, why)
    return Decision(
        best.node, best.score, f"{best.node.ref} scores {best.score}, {round(best.score - second, 3)} ahead"
    )


def _plausible_rival(
    ranked: list[Suggestion], evidence: TargetEvidence, container: Container | None, capture: Capture, base: str | None
) -> float:
    """The score of the best rival the healer could be wrong about (SPEC §8): the recorded role, in the
    recorded container, in the recorded anchor's row when one was recorded. A "Cancel" of another role
    or in another form is no rival. When none of the ranked is one and more were cut, the lowest
    ranked score stands in for those (never less strict than the whole capture)."""
    for s in ranked[1:]:
        if s.node.role != evidence.role:
            continue
        if container is not None and not container_present_for(container, s.node, capture, base):
            continue
        if evidence.anchor is not None and find_anchor(s.node, evidence.anchor) is None:
            continue
        return s.score
    return ranked[-1].score if len(ranked) == RIVALS else 0.0


async def perform(session: Session) -> dict[str, Any]:
    """Daemon side: decide on the session's outstanding divergence and, if sure, perform the failed
    step on the chosen element — through the step pipeline, so it is recorded like anyone's action."""
    from replay.engine.step import StepStopped, execute

    d, plan = session.last_divergence, session.plan
    if d is None or not session.outstanding or plan is None:
        raise InvalidArgs("this session has no outstanding divergence to heal", hint="run the flow with --save-script")
    step = plan.steps[d.index - 1]
    capture = session.refs_capture  # the divergence's own screen
    observed = d.binding.get("observed")
    matched = None
    if capture is not None and isinstance(observed, dict) and str(observed.get("ref", "")).startswith("@e"):
        at = ref_index(str(observed["ref"]))
        matched = capture.nodes[at] if 0 < at < len(capture.nodes) else None
    decision = decide(d.repair_hint, step.action.annotation, capture, matched=matched, base=session.base)
    if decision.node is None:
        return {"acted": False, "reason": decision.reason, "score": decision.score}
    target = Target(ref=decision.node.ref)
    params = tuple((k, target if k == "target" else v) for k, v in step.action.params)
    action = replace(step.action, params=params, annotation=None)
    try:
        result = await execute(session, action, values=session.values, path=step.path)
    except StepStopped as stop:
        raise stop.error from None  # the step itself failed (a disabled button): the caller escalates
    return {
        "acted": True,
        "target": result.get("target"),
        "selector": result.get("selector"),
        "score": decision.score,
        "reason": decision.reason,
    }
