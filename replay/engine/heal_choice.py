"""The built-in healer's decision (SPEC §8): deterministic, no network, and it abstains when unsure.

For ``record-and-heal`` it acts only when the best-ranked candidate (the suggestion ranking of
SPEC §6) has the recorded role, lies in the recorded container, scores ≥ 0.8 and beats the
runner-up by ≥ 0.15; for ``caution`` only when, in addition, it is the very node the selector
matched. It never acts on ``state-repair`` or ``manual``.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.engine.hint import Container, RepairHint, container_present_for, recorded_container
from replay.script.evidence import TargetEvidence
from replay.tree.anchors import find_anchor
from replay.tree.model import Capture, Node
from replay.tree.roles import kin
from replay.tree.suggest import Suggestion, rank

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
    second = _plausible_rival(ranked, evidence, container, capture)
    checks = (
        (kin(evidence.role, best.node), f"the best candidate is a {best.node.role}, not a {evidence.role}"),
        (
            container is not None and container_present_for(container, best.node, capture),
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
    ranked: list[Suggestion], evidence: TargetEvidence, container: Container | None, capture: Capture
) -> float:
    """The score of the best rival the healer could be wrong about (SPEC §8): the recorded role, in the
    recorded container, in the recorded anchor's row when one was recorded. A "Cancel" of another role
    or in another form is no rival. When none of the ranked is one and more were cut, the lowest
    ranked score stands in for those (never less strict than the whole capture)."""
    for s in ranked[1:]:
        if not kin(evidence.role, s.node):
            continue
        if container is not None and not container_present_for(container, s.node, capture):
            continue
        if evidence.anchor is not None and find_anchor(s.node, evidence.anchor) is None:
            continue
        return s.score
    return ranked[-1].score if len(ranked) == RIVALS else 0.0
