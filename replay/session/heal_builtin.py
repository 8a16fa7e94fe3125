"""The built-in healer's daemon side (the ``heal_builtin`` request): decide on the session's
outstanding divergence (``replay.engine.heal_choice.decide``) and, if sure, perform the failed step on
the chosen element — through the step pipeline, so it is journaled like anyone's action."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from replay.engine import effects
from replay.engine.heal_choice import decide, positional
from replay.engine.step import StepStopped, execute
from replay.errors import InvalidArgs
from replay.script.ast import Target
from replay.script.effect import describe_all
from replay.script.resolve import resolve_action
from replay.script.selector import ref_index
from replay.session.session import Session


async def perform(session: Session, *, trial: bool = False) -> dict[str, Any]:
    """Decide on the session's outstanding divergence and, if sure, perform the failed
    step on the chosen element — through the step pipeline, so it is recorded like anyone's action.
    With ``trial`` (the step can be proven by one) a candidate named otherwise is not acted on here."""
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
    decision = decide(
        d.repair_hint, step.action.annotation, capture, matched=matched, trial=trial, positional=positional(step.action)
    )
    if decision.node is None:
        pick = {"pick": decision.pick.ref} if decision.pick is not None else {}
        return {"acted": False, "reason": decision.reason, "score": decision.score, **pick}
    target = Target(ref=decision.node.ref)
    params = tuple((k, target if k == "target" else v) for k, v in step.action.params)
    action = replace(step.action, params=params, annotation=None)
    try:
        result = await execute(session, action, values=session.values, path=step.path)
    except StepStopped as stop:
        raise stop.error from None  # the step itself failed (a disabled button): the caller escalates
    if decision.confirm:
        assert capture is not None and step.action.annotation is not None
        resolved = resolve_action(step.action, session.values, step.path)
        held = await effects.confirm(session, resolved, capture, decision.node, step.action.annotation, plan.timeout_ms)
        if held is None:
            expected = describe_all(step.action.annotation.effect)
            return {"acted": False, "reason": f"the candidate did not do what the step did (expected {expected})"}
    return {
        "acted": True,
        "target": result.get("target"),
        "selector": result.get("selector"),
        "score": decision.score,
        "reason": decision.reason,
        "confirmed": decision.confirm,
    }
