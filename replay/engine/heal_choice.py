"""The built-in healer's decision (design §8): deterministic, no network, and it abstains when unsure.

For ``record-and-heal`` it acts only when the best-ranked candidate (the suggestion ranking of
design §6) has the recorded role, lies in the recorded container, scores ≥ 0.8 and beats the
runner-up by ≥ 0.15; for ``caution`` only when, in addition, it is the very node the selector
matched, or the one control inside it (a day's ``gridcell`` around its ``button``). It never acts
on ``state-repair`` or ``manual``.

**Effect-confirmed** (design §8): a step that recorded an effect has a second proof of identity — what
the element did. When the checks above refuse, such a step is acted on the best hittable candidate
whose label (ignoring case, quotes and punctuation; a clickable generic's own text, which is what a
person reads there), or an own attribute (test id, ``name``, a class token), equals the recorded one,
with no hittable rival of its role family sharing it, whose role is the recorded one, of its family,
or moved within the actionable or the editable family, and which lies in the recorded anchor when one
was recorded (a row's "Remove" is not another row's); then the recorded effect must hold
(``Decision.confirm``: the caller checks it, and a candidate that did not do what the step did fails
the round). A candidate singled out only by its place is never acted on.
"""

from __future__ import annotations

from dataclasses import dataclass

from replay.engine.hint import Container, RepairHint, container_present_for, recorded_container
from replay.script.ast import Action
from replay.script.evidence import TargetEvidence
from replay.tree import bases
from replay.tree.anchors import find_anchor
from replay.tree.bases.position import is_positional
from replay.tree.controls import within, wraps
from replay.tree.model import Capture, Node
from replay.tree.place import stands_in_place
from replay.tree.roles import kin, moved_within
from replay.tree.suggest import PLAUSIBLE, Suggestion, another_control, look_alike_words, rank, same_name

MIN_SCORE = PLAUSIBLE  # 0.8
MIN_MARGIN = 0.15
RIVALS = 8  # candidates ranked to find the best plausible rival among
CONFIRMABLE = 20  # candidates ranked for an effect-confirmed heal (a moved role ranks lower)


@dataclass(frozen=True)
class Decision:
    """Act on ``node`` (with its score), or abstain, and why."""

    node: Node | None
    score: float | None
    reason: str
    confirm: bool = False  # effect-confirmed: the step's recorded effect must hold after acting
    pick: Node | None = None  # chosen on its score but named otherwise: a trial must prove it first

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
    trial: bool = False,
    positional: bool = False,
) -> Decision:
    """What the built-in healer does about one divergence; ``matched`` is the node the selector found.
    With ``trial`` (the step can be proven by one, design §8) a best candidate that says nothing the
    recorded element said — "Expand all fields" for "Collapse all fields" — is not acted on on its score:
    a rename and another control look alike to a ranking, and only what the element does tells them apart.
    A ``record-and-heal`` step whose selector was ``positional`` (its element told from look-alikes by its
    place alone) is never acted on: with the recorded one gone, the one left saying the same is its twin."""
    if hint not in (RepairHint.RECORD_AND_HEAL, RepairHint.CAUTION):
        return Decision(None, None, f"{hint}: the built-in healer only performs record-and-heal and caution steps")
    if evidence is None or capture is None:
        return Decision(None, None, "no recorded evidence or no screen to compare it with")
    if positional and hint == RepairHint.RECORD_AND_HEAL:
        return Decision(
            None, None, "the step was recorded by its place among look-alikes: which one is meant, a person says"
        )
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
            hint != RepairHint.CAUTION or best.node is matched or wraps(matched, best.node),
            "caution: the best candidate is not the element the selector matched",
        ),
    )
    for holds, why in checks:
        if not holds:
            confirmed = by_effect(evidence, capture) if evidence.effect else None
            return confirmed if confirmed is not None else Decision(None, best.score, why)
    others = [(says(s.node),) for s in ranked[1:] if s.node.role == best.node.role]
    common = look_alike_words((says(best.node),), others)
    if trial and another_control(
        evidence.label, (says(best.node),), kept=stands_in_place(evidence, best.node), common=common
    ):
        return Decision(
            None,
            best.score,
            f"{best.node.ref} is named {says(best.node)!r} (no telling word of the recorded {evidence.label!r}) and"
            ' stands elsewhere: another control (one that does the same, as a dialog\'s × does its "Keep it"), not a'
            " rename",
        )
    if trial and renamed(evidence, best.node):
        return Decision(
            None,
            best.score,
            pick=best.node,
            reason=f"{best.node.ref} ({best.score}) is named {says(best.node)!r}, the recorded element"
            f" {evidence.label!r}: a rename or another control, a trial decides",
        )
    return Decision(
        best.node, best.score, f"{best.node.ref} scores {best.score}, {round(best.score - second, 3)} ahead"
    )


def _plausible_rival(
    ranked: list[Suggestion], evidence: TargetEvidence, container: Container | None, capture: Capture
) -> float:
    """The score of the best rival the healer could be wrong about (design §8): the recorded role, in the
    recorded container, in the recorded anchor's row when one was recorded. A "Cancel" of another role
    or in another form is no rival. When none of the ranked is one and more were cut, the lowest
    ranked score stands in for those (never less strict than the whole capture)."""
    for s in ranked[1:]:
        if not kin(evidence.role, s.node):
            continue
        if ranked[0].node.hittable and s.node.covered:
            continue  # behind a modal's backdrop: a person could not click it either (design §5)
        if container is not None and not container_present_for(container, s.node, capture):
            continue
        if evidence.anchor is not None and find_anchor(s.node, evidence.anchor) is None:
            continue
        return s.score
    return ranked[-1].score if len(ranked) == RIVALS else 0.0


def by_effect(evidence: TargetEvidence, capture: Capture) -> Decision | None:
    """The effect-confirmed choice (design §8): the best-ranked hittable candidate that says what the
    recorded element said — its label, test id, ``name`` or class token — of a role the recorded one
    may have become, alone in saying it among the hittable nodes of its role family; None when there
    is none, or a rival."""
    for s in rank(capture, evidence, limit=CONFIRMABLE):
        node = s.node
        said = shared(evidence, node)
        if not node.hittable or said is None or not moved_within(evidence.role, node):
            continue
        if evidence.anchor is not None and find_anchor(node, evidence.anchor) is None:
            continue  # the recorded row or card told it from look-alikes that say the same: another one's is not it
        rivals = [n for n in capture.nodes[1:] if n is not node and _rival(n, node, evidence, said, capture)]
        if rivals:
            return None  # the best one that says it is not alone in saying it: a person decides
        return Decision(node, s.score, f"{node.ref} says the recorded {said[0]} {said[1]!r}; effect-confirmed", True)
    return None


def shared(evidence: TargetEvidence, node: Node) -> tuple[str, str] | None:
    """What ``node`` says that the recorded element said (``("label", "Returns")``), or None."""
    if evidence.id is not None and node.test_id == evidence.id:
        return "test id", evidence.id
    if evidence.label and same_name(evidence.label, says(node)):
        return "label", evidence.label
    if evidence.name and node.form_name == evidence.name:
        return "name", evidence.name
    way = bases.of(evidence)
    return way.shared(node, evidence) if way is not None else None


def positional(action: Action) -> bool:
    """Whether the step's element was told from look-alikes by its place alone (an ``nth`` in its selector)."""
    target = action.target
    return target is not None and target.selector is not None and is_positional(target.selector)


def renamed(evidence: TargetEvidence, node: Node) -> bool:
    """Whether the recorded element had a name and ``node`` says none of what it said (label, test id,
    ``name``, class token)."""
    return bool(evidence.label) and shared(evidence, node) is None


def says(node: Node) -> str | None:
    """What a person reads as ``node``'s name: its label, or its own text when it is a clickable generic
    with none (a link that became a ``div``: its text is no longer its accessible name)."""
    if node.label or node.role != "generic" or not node.actionable:
        return node.label
    return node.content


def _rival(other: Node, node: Node, evidence: TargetEvidence, said: tuple[str, str], capture: Capture) -> bool:
    """Whether ``other`` could be what the step meant as well as ``node``: shown (in the viewport or
    scrolled away), of its role family, not a part of the same control (one inside the other), saying
    the same thing. A covered node — behind a modal's backdrop — is no rival: a person could not click
    it either."""
    if not other.visible or other.covered or not moved_within(node.role, other):
        return False
    if within(other, node) or within(node, other):
        return False
    return shared(evidence, other) == said
