"""The step pipeline: one function runs every step, typed interactively or replayed from a plan.

    resolve the target (ref or selector) → verify identity (SPEC §5) → act through the driver
    → derive selector and evidence → journal

``execute`` is called for ``replay click @e3`` (by the daemon) and for every step of
``replay run`` (by the runner) alike. The session only holds the state it reads and writes
(``StepState``); the driver is the only way to the page.

A binding failure (nothing matched, several distinct targets, the recorded element is not there)
stops the step as ``StepStopped``: an interactive caller gets its ``error``; the runner turns its
``binding`` and ``capture`` into a divergence.
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, Protocol

from replay.drivers.base import Driver
from replay.engine.divergence import Binding
from replay.engine.poll import Clock, poll_until
from replay.errors import (
    ActionFailed,
    AmbiguousMatch,
    AssertionFailed,
    BrowserUnavailable,
    ElementNotFound,
    InvalidArgs,
    ReplayError,
    StaleRef,
)
from replay.script import evidence as ev_codec
from replay.script.ast import Action, Target
from replay.script.evidence import TargetEvidence
from replay.script.formatter import format_action
from replay.script.registry import PHASE_ACT, PHASE_READ, REGISTRY, Form
from replay.script.resolve import resolve_action
from replay.script.selector import Alternative, Selector, Term, escape_templates, format_selector
from replay.script.text import fold
from replay.session.journal import INTERACTIVE, PLAN, Journal, JournalEntry, written_to_script
from replay.tree import snapshot as snap
from replay.tree.identity import evidence_target, identity_members, record_evidence, self_check, verify
from replay.tree.match import Resolution, describe, match_set, resolve
from replay.tree.materialize import materialize
from replay.tree.model import Capture, Node
from replay.tree.verdict import DivergenceKind

DEFAULT_TIMEOUT_MS = 5000
NAVIGATION_TIMEOUT_MS = 30000

# why a verification that never passed stopped, by kind (the ``cause`` of the divergence)
VERIFY_CAUSES = {
    DivergenceKind.SELECTOR_MISS: "no node matches the selector",
    DivergenceKind.IDENTITY_MISMATCH: "the selector matches, but not the recorded element",
    DivergenceKind.IDENTITY_UNVERIFIABLE: "the recorded element cannot be told apart from look-alikes",
}
UNVERIFIED_CAUSE = "the recording could not verify this element's identity"


class StepState(Protocol):
    """What a step reads and writes of its session (implemented by ``replay.session.Session``)."""

    name: str
    home: str
    platform: str
    driver: Driver
    clock: Clock
    generation: int
    refs_capture: Capture | None
    journal: Journal
    last_used: float

    @property
    def recording(self) -> object | None:
        """The recording, when the session records (None otherwise)."""
        ...


class StepStopped(Exception):
    """A step that could not bind its target: ``error`` for a person, ``binding`` for a divergence.

    ``capture`` is the screen the binding was judged on (None: take a fresh one).
    """

    def __init__(self, error: ReplayError, binding: Binding, capture: Capture | None = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.binding = binding
        self.capture = capture


@dataclass
class Bound:
    """A resolved target: the fresh capture, its node, the element the driver acts on, and how."""

    capture: Capture
    node: Node | None  # None: a ref whose element the fresh capture no longer shows
    handle: tuple[int, int]  # (generation, index) the driver acts on
    resolution: Resolution
    shown: Node  # what the response describes


@dataclass(frozen=True)
class Step:
    """One step as the pipeline runs it: as written (``raw``, ``${VAR}`` kept) and as dispatched."""

    raw: Action
    action: Action
    form: Form
    provenance: str
    timeout_ms: int

    @property
    def record_flag(self) -> bool:
        """``--record``: an observation typed interactively goes into the script."""
        return self.action.flag("--record") is True

    @property
    def no_record(self) -> bool:
        """``--no-record``: a state fix stays out of the script."""
        return self.action.flag("--no-record") is True

    def written(self, *, observation: bool) -> bool:
        """Whether this step's journal entry is written to a script (the one rule in ``written_to_script``)."""
        return written_to_script(
            provenance=self.provenance,
            command=self.action.command,
            observation=observation,
            record=self.record_flag,
            no_record=self.no_record,
        )

    def line(self, target: Target | None = None) -> str:
        """The canonical line as written (``${VAR}`` kept, record flags dropped), optionally retargeted."""
        raw = self.raw
        flags = tuple((k, v) for k, v in raw.flags if k not in ("--record", "--no-record"))
        params = raw.params if target is None else tuple((k, target if k == "target" else v) for k, v in raw.params)
        return format_action(replace(raw, params=params, flags=flags))


# the entry point ------------------------------------------------------------------------------


async def execute(
    state: StepState,
    raw: Action,
    *,
    provenance: str = INTERACTIVE,
    timeout_ms: int | None = None,
    values: Mapping[str, str] | None = None,
    path: str = "<session>",
) -> dict[str, Any]:
    """Run one step on the session and journal it; returns the typed result.

    ``${VAR}`` references are resolved with ``values`` for dispatch only: the journal keeps the
    action as written, so a recorded line keeps its ``${VAR}`` tokens. An annotated element step
    (a plan step carrying ``target-v1`` evidence) acts only on the verified path.
    """
    state.last_used = state.clock.now()
    action = resolve_action(raw, values or {}, path)
    spec = REGISTRY.get(action.command)
    assert spec is not None
    if state.platform not in spec.platforms:
        raise InvalidArgs(
            f"`{action.command}` cannot be performed on {state.platform}",
            hint=f"available on: {', '.join(spec.platforms) or 'no platform of this tool'}",
        )
    step = Step(raw, action, spec.form(action.form), provenance, timeout_ms or DEFAULT_TIMEOUT_MS)
    handler = _HANDLERS.get(step.form.op)
    if handler is None:
        raise InvalidArgs(
            f"`{action.command} {action.form}` is not available interactively", hint="see docs/ad-format.md"
        )
    return await handler(state, step)


async def capture(state: StepState) -> Capture:
    """A fresh capture under a new generation (the refs generation stays actable)."""
    state.generation += 1
    keep = state.refs_capture.generation if state.refs_capture is not None else None
    return await state.driver.capture(state.generation, keep)


def _journal(
    state: StepState,
    step: Step,
    *,
    record: bool,
    line: str | None,
    element: bool = False,
    **fields: Any,
) -> JournalEntry:
    entry = JournalEntry(
        seq=state.journal.next_seq(),
        command=step.action.command,
        provenance=step.provenance,
        record=record,
        line=line if (line is not None or element) else step.line(),
        **fields,
    )
    state.journal.append(entry)
    return entry


# steps without an element ------------------------------------------------------------------------


async def _snapshot(state: StepState, step: Step) -> dict[str, Any]:
    taken = await capture(state)
    state.refs_capture = taken
    interactive = step.action.flag("-i") is True
    scope = step.action.flag("-s")
    scope_text = scope if isinstance(scope, str) else None
    result = {
        "command": "snapshot",
        "refsGeneration": taken.generation,
        "text": snap.render_text(taken, interactive=interactive, scope=scope_text),
        "snapshot": snap.render_json(taken, interactive=interactive, scope=scope_text),
    }
    _journal(state, step, record=step.written(observation=True), line=step.line())
    return result


def _page_op(
    perform: Callable[[StepState, Step], Awaitable[dict[str, Any] | None]],
) -> Callable[[StepState, Step], Awaitable[dict[str, Any]]]:
    """A step that does not target an element: perform it, then journal it."""

    async def run(state: StepState, step: Step) -> dict[str, Any]:
        result: dict[str, Any] = {"command": step.action.command}
        result.update(await perform(state, step) or {})
        _journal(state, step, record=step.written(observation=step.form.observation), line=step.line())
        return result

    return run


async def _navigate(state: StepState, step: Step) -> None:
    await state.driver.navigate(str(step.action.param("url")), max(step.timeout_ms, NAVIGATION_TIMEOUT_MS))


async def _history(state: StepState, step: Step) -> None:
    await state.driver.history(step.action.command, max(step.timeout_ms, NAVIGATION_TIMEOUT_MS))


async def _type(state: StepState, step: Step) -> None:
    await state.driver.keyboard("type", str(step.action.param("text")))


async def _press_key(state: StepState, step: Step) -> None:
    await state.driver.keyboard("press", str(step.action.param("key")))


async def _scroll_page(state: StepState, step: Step) -> None:
    amount = step.action.param("amount")
    await state.driver.scroll(str(step.action.param("direction")), float(str(amount)) if amount else None)


async def _pause(state: StepState, step: Step) -> None:
    await state.driver.wait(int(str(step.action.param("ms"))))


async def _wait_text(state: StepState, step: Step) -> None:
    text = str(step.action.param("text"))
    ms = int(str(step.action.param("ms") or step.timeout_ms))
    want = fold(text)

    async def probe() -> tuple[bool, Capture]:
        taken = await capture(state)
        return any(want in fold(n.content) or want == fold(n.label) for n in taken.nodes), taken

    last = await poll_until(state.clock.now() + ms / 1000, probe, clock=state.clock)
    if not any(want in fold(n.content) or want == fold(n.label) for n in last.nodes):
        error = ElementNotFound(
            f'text "{text}" did not appear within {ms} ms', hint="take a snapshot to see the screen"
        )
        raise StepStopped(error, Binding(DivergenceKind.SELECTOR_MISS, error.message, 0))


async def _screenshot(state: StepState, step: Step) -> dict[str, Any]:
    default = os.path.join(state.home, "screenshots", f"{state.name}-{int(time.time())}.png")
    path = str(step.action.param("path") or default)
    os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
    await state.driver.screenshot(path, step.action.flag("--full-page") is True)
    return {"path": os.path.abspath(path)}


async def _close(state: StepState, step: Step) -> dict[str, Any]:
    return {"command": "close"}  # the daemon closes the session; a step only ends the script


# binding a target --------------------------------------------------------------------------------


def _ref_node(state: StepState, target: Target) -> tuple[Capture, Node]:
    """The node a ref names in the refs generation that issued it (never a silent rebind)."""
    assert target.ref is not None
    if state.refs_capture is None:
        raise StaleRef(
            f"{target.ref}: no snapshot has issued refs in this session", hint="run `replay snapshot -i` first"
        )
    index = int(target.ref[2:])
    issued = state.refs_capture
    if index <= 0 or index >= len(issued.nodes):
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
    issued, node = _ref_node(state, target)
    fresh = await capture(state)
    index = await state.driver.locate(issued.generation, node.position, fresh.generation)
    found = fresh.nodes[index] if index is not None else None
    handle = (fresh.generation, index) if index is not None else (issued.generation, node.position)
    assert target.ref is not None
    return Bound(fresh, found, handle, Resolution.of_ref(target.ref, issued.generation), node)


async def _bind_selector(state: StepState, step: Step, selector: Selector) -> Bound:
    """Resolve a selector, waiting up to the step timeout; distinct targets fail at once."""

    async def probe() -> tuple[bool, tuple[Capture, Resolution]]:
        taken = await capture(state)
        res = resolve(taken, selector)
        # distinct targets do not become one by waiting: stop at once, like a strict locator
        return res.winner is not None or res.kind == "ambiguous", (taken, res)

    taken, res = await poll_until(state.clock.now() + step.timeout_ms / 1000, probe, clock=state.clock)
    if res.winner is not None:
        return Bound(taken, res.winner, (taken.generation, res.winner.position), res, res.winner)
    if res.kind == "ambiguous":
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


async def _bind_verified(state: StepState, step: Step, selector: Selector, ev: TargetEvidence) -> Bound:
    """SPEC §5: poll until the recorded element is the one the selector finds, or stop before acting."""

    async def probe() -> tuple[bool, Any]:
        taken = await capture(state)
        verdict = verify(taken, selector, ev)
        return verdict.verified, (taken, verdict)

    taken, verdict = await poll_until(state.clock.now() + step.timeout_ms / 1000, probe, clock=state.clock)
    if verdict.verified and verdict.target is not None:
        resolution = verdict.resolution or Resolution("unique", 1)
        return Bound(taken, verdict.target, (taken.generation, verdict.target.position), resolution, verdict.target)
    kind = DivergenceKind(verdict.kind)
    cause = VERIFY_CAUSES[kind] if ev.verified or kind != DivergenceKind.IDENTITY_UNVERIFIABLE else UNVERIFIED_CAUSE
    binding = Binding(kind, cause, verdict.match_count, verdict.winner, verdict.mismatches, verdict.candidates())
    error_type = ElementNotFound if kind == DivergenceKind.SELECTOR_MISS else ActionFailed
    raise StepStopped(error_type(f"{kind}: {cause}", hint="take a snapshot to see the screen"), binding, taken)


async def _bind(state: StepState, step: Step, target: Target) -> Bound:
    if target.ref is not None:
        return await _bind_ref(state, target)
    assert target.selector is not None
    ev = step.action.annotation
    if ev is not None and step.form.phase == PHASE_ACT and step.action.command != "find":
        return await _bind_verified(state, step, target.selector, ev)
    return await _bind_selector(state, step, target.selector)


# steps on an element -----------------------------------------------------------------------------


@dataclass
class Described:
    """How a step's element is written to a script: line, evidence, verification, selector."""

    line: str | None = None
    evidence: str | None = None
    verification: str | None = None
    selector: str | None = None
    recorded_node: Node | None = None


def _describe_for_script(state: StepState, step: Step, bound: Bound) -> Described:
    """Derive the portable selector and fresh evidence of the acted-on node (before acting: it may vanish)."""
    raw = step.raw
    if step.provenance == PLAN and state.recording is None and raw.annotation is not None:
        # a verified plan step outside recording: its own line and evidence describe what was done
        assert raw.target is not None and raw.target.selector is not None
        return Described(
            step.line(),
            ev_codec.encode(raw.annotation),
            raw.annotation.verification,
            format_selector(raw.target.selector),
        )
    if bound.node is None:
        return Described()
    node = evidence_target(bound.capture, bound.node) if step.action.command == "click" else bound.node
    mat = materialize(bound.capture, node)
    if mat.selector is None:
        return Described(recorded_node=node)
    ev = self_check(bound.capture, mat.selector, node, record_evidence(bound.capture, node))
    written = escape_templates(mat.selector)
    return Described(
        step.line(Target(selector=written)),
        ev_codec.encode(ev),
        ev.verification,
        format_selector(written),
        node,
    )


async def _element(state: StepState, step: Step) -> dict[str, Any]:
    target = step.action.target
    assert target is not None
    bound = await _bind(state, step, target)
    described = _describe_for_script(state, step, bound)
    result: dict[str, Any] = {
        "command": step.action.command,
        "target": describe(bound.shown),
        "resolution": bound.resolution.to_dict(),
    }
    if described.recorded_node is not None and described.recorded_node is not bound.node:
        result["recordedAs"] = describe(described.recorded_node)
    generation, index = bound.handle
    reading = step.form.phase == PHASE_READ
    try:
        if reading:  # get
            op = f"get_{step.action.param('what')}"
            result["value"] = await state.driver.act(generation, index, op, {}, step.timeout_ms)
        else:
            params = {k: v for k, v in step.action.params if isinstance(v, str)}
            await state.driver.act(generation, index, str(step.form.op), params, step.timeout_ms)
    except (ActionFailed, StaleRef, BrowserUnavailable) as exc:
        binding = Binding(DivergenceKind.ACTION_FAILURE, exc.message, 1, candidates=_candidates_of(exc))
        raise StepStopped(exc, binding) from None  # post-response capture
    if described.selector:
        result["selector"] = described.selector
        result["verification"] = described.verification
    entry = _journal(
        state,
        step,
        record=step.written(observation=reading),
        line=described.line,
        evidence=described.evidence,
        ref=target.ref,
        describe=result["target"],
        selector=described.selector,
        verification=described.verification,
        element=True,
    )
    result["recorded"] = entry.record and state.recording is not None
    return result


def _candidates_of(exc: ReplayError) -> list[str]:
    return [str(c) for c in exc.details.get("candidates", [])] if exc.details else []


# assertions and waits on an element --------------------------------------------------------------

Checked = tuple[bool, str, Node | None, Resolution | None]
_STATES: dict[str, Callable[[Node], tuple[bool, str]]] = {
    "visible": lambda n: (n.visible, "visible" if n.visible else "not visible"),
    "hidden": lambda n: (not n.visible, "hidden" if not n.visible else "visible"),
    "enabled": lambda n: (n.enabled, "enabled" if n.enabled else "disabled"),
    "disabled": lambda n: (not n.enabled, "disabled" if not n.enabled else "enabled"),
    "checked": lambda n: (n.checked, "checked" if n.checked else "not checked"),
}


async def _check(state: StepState, predicate: str, target: Target, expected: object) -> Checked:
    """One look at whether ``predicate`` holds for ``target``: (holds, observed, node, resolution)."""
    gone_is_fine = predicate in ("absent", "hidden")
    if target.ref is not None:
        try:
            issued, node = _ref_node(state, target)
            if not await state.driver.is_attached(issued.generation, node.position):
                raise StaleRef(
                    f"{target.ref} (from refs generation {issued.generation}) is no longer on the page",
                    hint="the page changed since the snapshot; take a new snapshot (`replay snapshot -i`)",
                )
        except StaleRef:
            if gone_is_fine:
                return True, "the element is gone", None, None
            raise
        fresh = await capture(state)
        index = await state.driver.locate(issued.generation, node.position, fresh.generation)
        if index is None:
            return gone_is_fine, "the element is not in the tree", None, None
        node = fresh.nodes[index]
        res = Resolution("ref", 1)
    else:
        assert target.selector is not None
        res = resolve(await capture(state), target.selector)
        count = res.match_count
        if predicate == "absent":
            return count == 0, f"{count} match(es)", None, res
        if predicate == "exists":
            return count > 0, f"{count} match(es)", res.winner, res
        if predicate == "hidden" and count == 0:
            return True, "no match", None, res
        if res.winner is None:
            why = "no match" if count == 0 else f"{count} matches in distinct places (ambiguous)"
            return False, why, None, res
        node = res.winner
    if predicate in ("absent", "exists"):
        return predicate == "exists", "present", node, res
    if predicate == "text":
        actual = node.content or node.label or node.value or ""
        return fold(actual) == fold(str(expected)), f'text is "{actual[:120]}"', node, res
    holds, observed = _STATES[predicate](node)
    return holds, observed, node, res


async def _assert(state: StepState, step: Step) -> dict[str, Any]:
    target = step.action.target
    assert target is not None
    predicate = str(step.action.param("predicate"))
    expected = step.action.param("value")

    async def probe() -> tuple[bool, Checked]:
        checked = await _check(state, predicate, target, expected)
        return checked[0], checked

    holds, observed, node, res = await poll_until(state.clock.now() + step.timeout_ms / 1000, probe, clock=state.clock)
    result: dict[str, Any] = {"command": "is", "predicate": predicate, "pass": holds, "observed": observed}
    if res is not None:
        result["resolution"] = res.to_dict()
    if node is not None:
        result["target"] = describe(node)
    _journal(
        state,
        step,
        record=step.written(observation=True),
        line=step.line() if target.ref is None else None,
        element=True,
    )
    if not holds:
        raise AssertionFailed(
            f"is {predicate} {_brief(target)} failed: {observed}",
            hint="take a snapshot to see the screen",
            details={"result": result},
        )
    return result


async def _wait_target(state: StepState, step: Step) -> dict[str, Any]:
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
            present = await state.driver.is_attached(issued.generation, int(target.ref[2:])) if issued else False
            return present != absent, (None, [], present)
        assert target.selector is not None
        taken = await capture(state)
        _, matches = match_set(taken, target.selector)
        present = bool(matches) and (identity is None or bool(identity_members(taken, identity, matches)))
        return present != absent, (taken, matches, present)

    taken, matches, present = await poll_until(state.clock.now() + ms / 1000, probe, clock=state.clock)
    if present == absent:
        error = ElementNotFound(
            f"wait {'absent ' if absent else ''}{_brief(target)}: "
            f"still {'present' if absent else 'absent'} after {ms} ms",
            hint="take a snapshot to see the screen",
        )
        if absent or target.ref is not None:
            raise error
        kind = DivergenceKind.SELECTOR_MISS if not matches else DivergenceKind.IDENTITY_MISMATCH
        cause = f"waited {ms} ms: " + ("nothing matches" if not matches else "only look-alikes of the recorded element")
        raise StepStopped(error, Binding(kind, cause, len(matches), matches[0] if matches else None), taken)
    _journal(
        state,
        step,
        record=step.written(observation=False),
        line=step.line() if target.ref is None else None,
        ref=target.ref,
        element=target.ref is not None,
    )
    return {"command": "wait", "form": step.action.form}


async def _find(state: StepState, step: Step) -> dict[str, Any]:
    """agent-device's ``find [LOCATOR] VALUE [ACTION [ARG]]`` as the step it stands for."""
    action = step.action
    locator = str(action.param("locator") or "any")
    value = str(action.param("value"))
    alt = Alternative(bare=value) if locator == "any" else Alternative(terms=(Term(locator, "=", value),))
    target = Target(selector=Selector((alt,)))
    verb = action.param("action")
    arg = action.param("arg")
    by_target: tuple[tuple[str, object], ...] = (("target", target),)
    if verb == "get":
        sub = Action(action.line, "get", "read", (("what", str(arg or "text")), *by_target), action.flags)
    elif verb == "wait":
        sub = Action(action.line, "wait", "target", (*by_target, *((("ms", str(arg)),) if arg else ())), action.flags)
    elif verb in (None, "exists"):
        sub = Action(action.line, "is", "state", (("predicate", "exists"), *by_target), action.flags)
    elif verb in ("fill", "type"):
        sub = Action(action.line, "fill", "target", (*by_target, ("text", str(arg or ""))), action.flags)
    elif verb == "focus":
        sub = Action(action.line, "click", "target", by_target, action.flags)
    else:
        sub = Action(action.line, str(verb), "target", by_target, action.flags)
    return await execute(state, sub, provenance=step.provenance, timeout_ms=step.timeout_ms)


def _brief(target: Target) -> str:
    """A short display of a target for messages."""
    if target.ref is not None:
        return target.ref
    assert target.selector is not None
    return format_selector(target.selector)


# the pipeline stage of each registry ``op`` (element ops go through ``_element``)
_HANDLERS: dict[str | None, Callable[[StepState, Step], Awaitable[dict[str, Any]]]] = {
    "snapshot": _snapshot,
    "navigate": _page_op(_navigate),
    "history": _page_op(_history),
    "type": _page_op(_type),
    "press": _page_op(_press_key),
    "scroll_page": _page_op(_scroll_page),
    "pause": _page_op(_pause),
    "wait_text": _page_op(_wait_text),
    "screenshot": _page_op(_screenshot),
    "close": _close,
    "assert": _assert,
    "wait_target": _wait_target,
    "find": _find,
    **{op: _element for op in ("click", "dblclick", "hover", "fill", "check", "uncheck", "select", "scroll", "read")},
}
