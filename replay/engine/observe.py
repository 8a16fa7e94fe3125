"""Steps that look rather than act: ``is`` assertions, ``wait TARGET``, ``wait absent``, ``wait text``.

Each polls the screen with ``poll_until`` until it holds or its deadline passes; a wait that
times out stops like a binding step (a divergence in a run), an assertion fails.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from replay.engine.bind import ref_node
from replay.engine.divergence import Binding
from replay.engine.journal import PLAN
from replay.engine.poll import poll_until
from replay.engine.state import Step, StepState, StepStopped, brief, capture, journal, keeps_its_annotation
from replay.errors import AssertionFailed, ElementNotFound, StaleRef
from replay.script.ast import Target
from replay.script.evidence import encode
from replay.script.selector import escape_templates, ref_index
from replay.script.text import fold
from replay.tree.identity import identity_members, record_evidence, self_check
from replay.tree.match import Resolution, ResolutionKind, describe, match_set, resolve
from replay.tree.materialize import materialize
from replay.tree.model import Capture, Node
from replay.tree.verdict import DivergenceKind


@dataclass(frozen=True)
class Checked:
    """One look at a predicate: whether it holds, what was seen, and on which node of which capture."""

    holds: bool
    observed: str
    node: Node | None = None
    resolution: Resolution | None = None
    capture: Capture | None = None


_STATES: dict[str, Callable[[Node], tuple[bool, str]]] = {
    "visible": lambda n: (n.visible, "visible" if n.visible else "not visible"),
    "hidden": lambda n: (not n.visible, "hidden" if not n.visible else "visible"),
    "enabled": lambda n: (n.enabled, "enabled" if n.enabled else "disabled"),
    "disabled": lambda n: (not n.enabled, "disabled" if not n.enabled else "enabled"),
    "checked": lambda n: (n.checked, "checked" if n.checked else "not checked"),
}


async def check(state: StepState, predicate: str, target: Target, expected: object) -> Checked:
    """One look at whether ``predicate`` holds for ``target``."""
    gone_is_fine = predicate in ("absent", "hidden")
    if target.ref is not None:
        try:
            issued, node = ref_node(state, target)
            if not await state.driver.is_attached(issued.generation, node.position):
                raise StaleRef(
                    f"{target.ref} (from refs generation {issued.generation}) is no longer on the page",
                    hint="the page changed since the snapshot; take a new snapshot (`replay snapshot -i`)",
                )
        except StaleRef:
            if gone_is_fine:
                return Checked(True, "the element is gone", None, None, None)
            raise
        fresh = await capture(state)
        index = await state.driver.locate(issued.generation, node.position, fresh.generation)
        if index is None:
            return Checked(gone_is_fine, "the element is not in the tree", None, None, fresh)
        node = fresh.nodes[index]
        res = Resolution(ResolutionKind.REF, 1)
    else:
        assert target.selector is not None
        fresh = await capture(state)
        res = resolve(fresh, target.selector)
        count = res.match_count
        if predicate == "absent":
            return Checked(count == 0, f"{count} match(es)", None, res, fresh)
        if predicate == "exists":
            return Checked(count > 0, f"{count} match(es)", res.winner, res, fresh)
        if predicate == "hidden" and count == 0:
            return Checked(True, "no match", None, res, fresh)
        if res.winner is None:
            why = "no match" if count == 0 else f"{count} matches in distinct places (ambiguous)"
            return Checked(False, why, None, res, fresh)
        node = res.winner
    if predicate in ("absent", "exists"):
        return Checked(predicate == "exists", "present", node, res, fresh)
    if predicate == "text":
        actual = node.content or node.label or node.value or ""
        return Checked(fold(actual) == fold(str(expected)), f'text is "{actual[:120]}"', node, res, fresh)
    holds, observed = _STATES[predicate](node)
    return Checked(holds, observed, node, res, fresh)


async def assert_step(state: StepState, step: Step) -> dict[str, Any]:
    target = step.action.target
    assert target is not None
    predicate = str(step.action.param("predicate"))
    expected = step.action.param("value")

    async def probe() -> tuple[bool, Checked]:
        checked = await check(state, predicate, target, expected)
        return checked.holds, checked

    looked = await poll_until(state.clock.now() + step.timeout_ms / 1000, probe, clock=state.clock)
    holds, observed, node, res, seen = looked.holds, looked.observed, looked.node, looked.resolution, looked.capture
    result: dict[str, Any] = {"command": "is", "predicate": predicate, "pass": holds, "observed": observed}
    if res is not None:
        result["resolution"] = res.to_dict()
    if node is not None:
        result["target"] = describe(node)
    line: str | None = step.line()
    evidence = _evidence(state, step, seen, node)
    if target.ref is not None:  # a recorded `is … @ref`: written by the selector of what it looked at
        line, evidence = _by_ref(state, step, seen, node)
    journal(
        state,
        step,
        record=step.written(observation=True) and holds,  # a failed assertion is not written into a script
        line=line,
        element=True,
        evidence=evidence,
    )
    if not holds:
        raise AssertionFailed(
            f"is {predicate} {brief(target)} failed: {observed}",
            hint="take a snapshot to see the screen",
            details={"result": result},
        )
    return result


SCROLLS = 10  # scroll --until: how many scrolls at most, unless --max says


async def scroll_until(state: StepState, step: Step) -> None:
    """``scroll DIRECTION --until TARGET [--max N]``: scroll until a node matches TARGET (looked at
    before each scroll), at most N scrolls; else ``ELEMENT_NOT_FOUND``."""
    from replay.script.selector import parse_selector

    until = str(step.action.flag("--until"))
    wanted = parse_selector(until)
    most = int(str(step.action.flag("--max") or SCROLLS))
    amount = step.action.param("amount")
    direction = str(step.action.param("direction"))
    for done in range(most + 1):
        if match_set(await capture(state), wanted)[1]:
            return
        if done < most:
            await state.driver.scroll(direction, float(str(amount)) if amount else None)
    raise ElementNotFound(
        f"scroll {direction} --until {until}: not on the screen after {most} scrolls",
        hint="raise --max, or check the direction",
    )


async def wait_target(state: StepState, step: Step) -> dict[str, Any]:
    """``wait TARGET`` / ``wait absent TARGET``; recorded evidence: the identity tier only, so
    look-alikes keep the wait polling until its deadline."""
    target = step.action.target
    assert target is not None
    ms = int(str(step.action.param("ms"))) if step.action.param("ms") else step.timeout_ms
    absent = step.action.form == "absent"
    ev = step.action.annotation
    identity = ev if ev is not None and ev.verified and not absent else None

    async def probe() -> tuple[bool, tuple[Capture | None, list[Node], bool]]:
        if target.ref is not None:
            issued = state.refs_capture
            present = await state.driver.is_attached(issued.generation, ref_index(target.ref)) if issued else False
            return present != absent, (None, [], present)
        assert target.selector is not None
        taken = await capture(state)
        _, matches = match_set(taken, target.selector)
        present = bool(matches) and (identity is None or bool(identity_members(taken, identity, matches)))
        return present != absent, (taken, matches, present)

    taken, matches, present = await poll_until(state.clock.now() + ms / 1000, probe, clock=state.clock)
    if present == absent:
        error = ElementNotFound(
            f"wait {'absent ' if absent else ''}{brief(target)}: "
            f"still {'present' if absent else 'absent'} after {ms} ms",
            hint="take a snapshot to see the screen",
        )
        if absent or target.ref is not None:
            raise error
        kind = DivergenceKind.SELECTOR_MISS if not matches else DivergenceKind.IDENTITY_MISMATCH
        cause = f"waited {ms} ms: " + ("nothing matches" if not matches else "only look-alikes of the recorded element")
        raise StepStopped(error, Binding(kind, cause, len(matches), matches[0] if matches else None), taken)
    journal(
        state,
        step,
        record=step.written(observation=False),
        line=step.line() if target.ref is None else None,
        ref=target.ref,
        element=target.ref is not None,
        evidence=None if absent else _evidence(state, step, taken, matches[0] if matches else None, target),
    )
    return {"command": "wait", "form": step.action.form}


async def wait_text(state: StepState, step: Step) -> dict[str, Any]:
    """``wait text "…"``: poll until a node holds the text; it records that node's evidence, so a
    timed-out wait classifies like any binding step (design §5)."""
    text = str(step.action.param("text"))
    ms = int(str(step.action.param("ms") or step.timeout_ms))
    want = fold(text)

    async def probe() -> tuple[bool, tuple[Capture, Node | None]]:
        taken = await capture(state)
        holder = text_holder(taken, want)
        return holder is not None, (taken, holder)

    last, holder = await poll_until(state.clock.now() + ms / 1000, probe, clock=state.clock)
    if holder is None:
        error = ElementNotFound(
            f'text "{text}" did not appear within {ms} ms', hint="take a snapshot to see the screen"
        )
        raise StepStopped(error, Binding(DivergenceKind.SELECTOR_MISS, error.message, 0), last)
    journal(
        state,
        step,
        record=step.written(observation=False),
        line=step.line(),
        evidence=_evidence(state, step, last, holder),
    )
    return {"command": "wait", "target": describe(holder)}


def text_holder(capture: Capture, want: str) -> Node | None:
    """The innermost node of the first that holds the (folded) text, in its content or as its label."""

    def holds(n: Node) -> bool:
        return want in fold(n.content) or want == fold(n.label)

    holder = next((n for n in capture.nodes[1:] if holds(n)), None)
    while holder is not None:
        inner = next((c for c in holder if isinstance(c, Node) and holds(c)), None)
        if inner is None:
            return holder
        holder = inner
    return None


def _by_ref(state: StepState, step: Step, seen: Capture | None, node: Node | None) -> tuple[str | None, str | None]:
    """An observation of a ref, recorded: its line by the node's portable selector, and its evidence
    (none of either when the node has no portable selector, or the session does not record)."""
    if state.recording is None or seen is None or node is None:
        return None, None
    made = materialize(seen, node)
    if made.selector is None:
        return None, None
    written = escape_templates(made.selector)
    ev = self_check(seen, made.selector, node, record_evidence(seen, node))
    return step.line(Target(selector=written)), encode(ev)


def _evidence(
    state: StepState, step: Step, seen: Capture | None, node: Node | None, target: Target | None = None
) -> str | None:
    """The evidence an observation journals: a plan step's own outside recording, else the node's fresh one.

    With a selector, the evidence is ``verified`` only if it isolates the node as the selector finds it.
    """
    raw = step.raw
    if step.provenance == PLAN and (state.recording is None or raw.annotation is None):
        # a replayed observation keeps what it was written with (minimal diffs): none stays none
        return encode(raw.annotation) if raw.annotation is not None else None
    if state.recording is None or seen is None or node is None:
        return None
    ev = record_evidence(seen, node)
    if target is not None and target.selector is not None:
        ev = self_check(seen, target.selector, node, ev)
    if step.provenance == PLAN and raw.annotation is not None and keeps_its_annotation(raw, ev):
        return encode(raw.annotation)
    return encode(ev)
