"""Binding a step's target: a ref of its refs generation, a selector, or a selector verified
against recorded identity evidence (design §4, §5). The driver acts only on what binds.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.engine.divergence import Binding
from replay.engine.hint import container_present, recorded_container
from replay.engine.poll import poll_until
from replay.engine.state import Step, StepState, StepStopped, capture, view
from replay.errors import ActionFailed, AmbiguousMatch, ElementNotFound, ReplayError, StaleRef
from replay.script.ast import Target
from replay.script.effect import Fact
from replay.script.evidence import Ancestor, TargetEvidence
from replay.script.registry import PHASE_ACT
from replay.script.selector import Selector, format_selector, ref_index
from replay.script.text import fold
from replay.tree.controls import one_control
from replay.tree.effects import words_of
from replay.tree.filled import FIELD_ROLES
from replay.tree.identity import identity_members, record_evidence, verify
from replay.tree.match import Resolution, ResolutionKind, describe, resolve
from replay.tree.model import Capture, Node
from replay.tree.nearby import CLIMB
from replay.tree.verdict import DivergenceKind, Verdict

# why a verification that never passed stopped, by kind (the ``cause`` of the divergence)
VERIFY_CAUSES = {
    DivergenceKind.SELECTOR_MISS: "no node matches the selector",
    DivergenceKind.IDENTITY_MISMATCH: "the selector matches, but not the recorded element",
    DivergenceKind.IDENTITY_UNVERIFIABLE: "the recorded element cannot be told apart from look-alikes",
}
UNVERIFIED_CAUSE = "the recording could not verify this element's identity"


@dataclass
class Bound:
    """A resolved target: the fresh capture, its node, the element the driver acts on, and how."""

    capture: Capture
    node: Node | None  # None: a ref whose element the fresh capture no longer shows
    handle: tuple[int, int]  # (generation, index) the driver acts on
    resolution: Resolution
    shown: Node  # what the response describes
    drift: tuple[str, ...] = ()  # what changed around a verified element without making it another (design §5)


def ref_node(state: StepState, target: Target) -> tuple[Capture, Node]:
    """The node a ref names in the refs generation that issued it (never a silent rebind)."""
    assert target.ref is not None
    if state.refs_capture is None:
        raise StaleRef(
            f"{target.ref}: no snapshot has issued refs in this session", hint="run `replay snapshot -i` first"
        )
    index = ref_index(target.ref)
    issued = state.refs_capture
    if index >= len(issued.nodes):  # @e0 is the document, which every snapshot prints
        raise StaleRef(
            f"{target.ref} is not in refs generation {issued.generation}",
            hint="take a new snapshot and use one of its refs",
        )
    node = issued.nodes[index]
    # no attachment round trip here: acting on a gone element raises STALE_REF in the driver
    if target.hint and fold(target.hint) not in (fold(node.label), fold(node.content)):
        raise StaleRef(
            f'{target.ref} is {describe(node)}, not "{target.hint}"',
            hint="take a new snapshot; refs never silently rebind",
        )
    return issued, node


async def _bind_ref(state: StepState, target: Target) -> Bound:
    issued, node = ref_node(state, target)
    fresh = await capture(state)
    index = await state.driver.locate(issued.generation, node.position, fresh.generation)
    assert target.ref is not None
    if index is None and (twin := rebound(issued, node, fresh)) is not None:
        # the app re-rendered the node (a row's DOM replaced on every change): the one node that
        # carries its full identity is the same element, and the response says so (design §4 Refs)
        resolution = Resolution(ResolutionKind.REBOUND, 1, ref=target.ref, refs_generation=issued.generation)
        return Bound(fresh, twin, (fresh.generation, twin.position), resolution, twin)
    found = fresh.nodes[index] if index is not None else None
    handle = (fresh.generation, index) if index is not None else (issued.generation, node.position)
    return Bound(fresh, found, handle, Resolution.of_ref(target.ref, issued.generation), node)


def rebound(issued: Capture, node: Node, fresh: Capture) -> Node | None:
    """The node of ``fresh`` that is ``node`` of ``issued`` by its full identity (role, id or label or
    key text, anchor, ancestry), when exactly one carries it and that identity verifies at look
    time; else None (the ref stays stale: never a guess)."""
    ev = record_evidence(issued, node)
    if not ev.verified or identity_members(issued, ev) != [node]:
        return None
    members = identity_members(fresh, ev)
    return members[0] if len(members) == 1 else None


async def _bind_selector(state: StepState, step: Step, selector: Selector) -> Bound:
    """Resolve a selector, waiting up to the step timeout; distinct targets fail at once."""

    async def probe() -> tuple[bool, tuple[Capture, Resolution]]:
        taken = await capture(state)
        res = resolve(taken, selector)
        # distinct targets do not become one by waiting: stop at once, like a strict locator
        return res.winner is not None or res.kind == ResolutionKind.AMBIGUOUS, (taken, res)

    taken, res = await poll_until(state.clock.now() + step.timeout_ms / 1000, probe, clock=state.clock)
    if res.winner is not None:
        return Bound(taken, res.winner, (taken.generation, res.winner.position), res, res.winner)
    if res.kind == ResolutionKind.AMBIGUOUS:
        details = res.to_dict()
        error: ReplayError = AmbiguousMatch(
            f"{format_selector(selector)} matches {res.match_count} nodes in distinct places",
            hint="make the selector specific (add a role, an ancestor's label via -s, or use a ref)",
            details={"resolution": details, "candidates": details["candidates"]},
        )
        cause = f"the selector matches {res.match_count} nodes in distinct places"
        raise StepStopped(error, Binding(DivergenceKind.ACTION_FAILURE, cause, candidates=details["candidates"]), taken)
    error = ElementNotFound(
        f"no node matches {format_selector(selector)} (waited {step.timeout_ms} ms)",
        hint="take a snapshot (`replay snapshot -i`) to see what is on screen",
    )
    raise StepStopped(error, Binding(DivergenceKind.SELECTOR_MISS, "no node matches the selector", 0), taken)


def view_spec(selector: Selector, ev: TargetEvidence) -> dict[str, Any]:
    """What the page needs to take a targeted view for ``selector`` verified against ``ev``: the first
    link of each alternative (the page brings back every node it may match, with its subtree), and the
    roles whose ancestors identity reads whole (the anchor's, the scope's)."""
    links = [[{"key": t.key, "op": t.op, "value": t.value} for t in chain[0]] for chain in selector.expanded()]
    roles = sorted({a.role for a in (ev.anchor, ev.scope) if a is not None})
    if ev.effect:  # what the step's effect names, and the overlays it may open instead (design §15)
        links += effect_links(ev.effect, ev.ancestry)
    return {"links": links, "fullRoles": roles}


OVERLAYS = ("dialog", "alertdialog", "alert", "status")


def effect_links(facts: tuple[Fact, ...], around: tuple[Ancestor, ...] = ()) -> list[list[dict[str, Any]]]:
    """The view's links that bring back every node a recorded fact names (a count: its whole role),
    and every overlay, so the screens before and after an action tell what it opened. A ``generic``'s
    text (a ``<span>`` beside the target: the container-diff fallback's) is looked for in the container
    it was recorded in — the target's nearest named ancestor ``around`` it, as near as that fallback
    climbs — brought back whole: no selector narrows a page to its ``div``s and ``span``s. Where the
    text is not there the check looks at the whole screen, as it would have."""
    links: list[list[dict[str, Any]]] = [[{"key": "role", "op": "in", "value": list(OVERLAYS)}]]
    named = next((a for a in around[:CLIMB] if a.role != "generic" and a.label), None)
    container = (
        None
        if named is None
        else [{"key": k, "op": "=", "value": v} for k, v in zip(("role", "label"), named, strict=True)]
    )
    for f in facts:
        if f.subject == "generic" and f.text and container is not None and f.kind != "count":
            links += [] if container in links else [container]
        elif f.kind in ("appeared", "disappeared", "changed") and f.text and f.subject not in OVERLAYS:
            words = None if f.subject in FIELD_ROLES else words_of(f.text)  # (a field: its value, not its text)
            text = [{"key": "has-text", "op": "=", "value": words}] if words else []
            links.append([{"key": "role", "op": "=", "value": f.subject}, *text])
            if f.kind != "changed" and words:  # a node named by its label alone (aria-label="Delete todo")
                links.append(
                    [{"key": "role", "op": "=", "value": f.subject}, {"key": "label", "op": "=", "value": f.text}]
                )
        elif f.kind == "count":
            links.append([{"key": "role", "op": "=", "value": f.subject}])
    return links


async def _verified_in_view(state: StepState, selector: Selector, ev: TargetEvidence) -> Bound | None:
    """The happy path of design §13: verification on the targeted view, trusted only where the view
    decides exactly as the full capture would — verified, with one node carrying the identity (the
    view holds every match with its subtree and ancestors; isolating one of several look-alikes reads
    the whole page: that is the full capture's to decide). None: take the full capture.

    The first alternative is looked at alone first: where it matches, the page takes it whatever the
    others match, and a fallback (`role=form label=… >> …`) would bring back nearly the whole page."""
    first = first_look(selector)
    for tried in (first, selector) if len(selector.alternatives) > 1 else (selector,):
        taken = await view(state, view_spec(tried, ev))
        if taken is None:
            return None
        verdict = verify(taken, tried, ev)
        if verdict.verified and verdict.target is not None and len(verdict.members) == 1:
            return _bound(taken, verdict)
    return None


def first_look(selector: Selector) -> Selector:
    """What a verified step's first view is taken for: its first alternative alone (an effect check just
    before it takes that view with its own, so the step binds without a look of its own)."""
    return Selector(selector.alternatives[:1])


def _bound(taken: Capture, verdict: Verdict) -> Bound:
    """The binding of a verified verdict."""
    assert verdict.target is not None
    resolution = verdict.resolution or Resolution(ResolutionKind.UNIQUE, 1)
    handle = (taken.generation, verdict.target.position)
    return Bound(taken, verdict.target, handle, resolution, verdict.target, tuple(verdict.drift))


async def _bind_verified(state: StepState, step: Step, selector: Selector, ev: TargetEvidence) -> Bound:
    """design §5: poll until the recorded element is the one the selector finds, or stop before acting.
    Outside recording (which writes from the full capture) a verified step first looks at the targeted
    view; whatever the view cannot decide, the full capture decides as before."""
    if state.recording is None and ev.verified:
        quick = await _verified_in_view(state, selector, ev)
        if quick is not None:
            return quick

    async def probe() -> tuple[bool, Any]:
        taken = await capture(state)
        verdict = verify(taken, selector, ev)
        return verdict.verified, (taken, verdict)

    taken, verdict = await poll_until(state.clock.now() + step.timeout_ms / 1000, probe, clock=state.clock)
    if verdict.verified and verdict.target is not None:
        return _bound(taken, verdict)
    kind = DivergenceKind(verdict.kind)
    cause = VERIFY_CAUSES[kind] if ev.verified or kind != DivergenceKind.IDENTITY_UNVERIFIABLE else UNVERIFIED_CAUSE
    if kind == DivergenceKind.SELECTOR_MISS and (gone := _missing_anchor(taken, ev)) is not None:
        cause += f": {gone} is not on the screen"
    observed = verdict.winner if verdict.winner is not None else one_control(verdict.matches or [])
    binding = Binding(kind, cause, verdict.match_count, observed, verdict.mismatches, verdict.candidates())
    error_type = ElementNotFound if kind == DivergenceKind.SELECTOR_MISS else ActionFailed
    raise StepStopped(error_type(f"{kind}: {cause}", hint="take a snapshot to see the screen"), binding, taken)


def _missing_anchor(taken: Capture, ev: TargetEvidence) -> str | None:
    """The recorded anchor (the row or card the node sat in, the recorded container), described, when
    the capture has none."""
    container = recorded_container(ev)
    if container is None or container.anchor is None or container_present(container, taken):
        return None
    anchor = container.anchor
    return f"its recorded {anchor.role} {json.dumps(anchor.label or anchor.text or anchor.id, ensure_ascii=False)}"


async def bind(state: StepState, step: Step, target: Target) -> Bound:
    if target.ref is not None:
        return await _bind_ref(state, target)
    assert target.selector is not None
    ev = step.action.annotation
    if ev is not None and step.form.phase == PHASE_ACT and step.action.command != "find":
        return await _bind_verified(state, step, target.selector, ev)
    return await _bind_selector(state, step, target.selector)
