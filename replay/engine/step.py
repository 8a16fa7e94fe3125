"""The step pipeline: one function runs every step, typed interactively or replayed from a plan.

    resolve the target (ref or selector) → verify identity (design §5) → act through the driver
    → derive selector and evidence → journal

``execute`` is called for ``replay click @e3`` (by the daemon) and for every step of
``replay run`` (by the runner) alike. The session only holds the state it reads and writes
(``StepState``); the driver is the only way to the app.

A binding failure (nothing matched, several distinct targets, the recorded element is not there)
stops the step as ``StepStopped``: an interactive caller gets its ``error``; the runner turns its
``binding`` and ``capture`` into a divergence.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any

from replay.drivers.base import Click, DeviceCommands, OpenRequest, Read, gesture
from replay.engine import dialogs, effects, observe, tabs
from replay.engine.bind import Bound, bind
from replay.engine.divergence import Binding
from replay.engine.journal import INTERACTIVE, PLAN, Provenance
from replay.engine.screenshot import screenshot
from replay.engine.state import Step, StepState, StepStopped, capture, interrupt, journal, keeps_its_annotation, line_of
from replay.errors import (
    ActionFailed,
    BrowserUnavailable,
    InvalidArgs,
    ReplayError,
    StaleRef,
    Timeout,
)
from replay.files import local_file
from replay.keys import valid_key
from replay.limits import DEFAULT_TIMEOUT_MS
from replay.script import evidence as ev_codec
from replay.script.ast import Action, Target
from replay.script.redact import MIN_SECRET, secrets_of
from replay.script.registry import PHASE_READ, REGISTRY
from replay.script.resolve import resolve_action
from replay.script.selector import Alternative, Selector, Term, escape_templates, format_selector
from replay.tree import snapshot as snap
from replay.tree.identity import evidence_target, record_evidence, self_check
from replay.tree.match import MATCH_DEADLINE, MATCH_GRACE_S, describe
from replay.tree.materialize import materialize
from replay.tree.model import Node
from replay.tree.roles import drawn_elsewhere

__all__ = ["PIPELINE_OPS", "StepState", "StepStopped", "capture", "execute"]

NAVIGATION_TIMEOUT_MS = 30000
# element ops with an effect
ACTING = ("click", "dblclick", "hover", "drag", "drop", "upload", "fill", "check", "uncheck", "select", "scroll")
BUDGET_GRACE_S = MATCH_GRACE_S

# the entry point ------------------------------------------------------------------------------


async def execute(
    state: StepState,
    raw: Action,
    *,
    provenance: Provenance = INTERACTIVE,
    timeout_ms: int | None = None,
    values: Mapping[str, str] | None = None,
    path: str = "<session>",
    text_only: bool = False,
    effects: bool = True,
) -> dict[str, Any]:
    """Run one step on the session and journal it; returns the typed result.

    ``${VAR}`` references are resolved with ``values`` for dispatch only: the journal keeps the
    action as written, so a recorded line keeps its ``${VAR}`` tokens. An annotated element step
    (a plan step carrying ``target-v1`` evidence) acts only on the verified path. ``text_only``: the
    caller prints the result's text (a person at the command line), so a snapshot sends no node list.
    ``effects`` False: a replayed step does not check its recorded effect (``--no-effects``).
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
    timeout = timeout_ms or DEFAULT_TIMEOUT_MS
    # a variable's value is never written into an effect (a page that says "Welcome, ada")
    state.watch.secrets.update(v for k, v in (values or {}).items() if valid_key(k) and len(v) >= MIN_SECRET)
    step = Step(raw, action, spec.form(action.form), provenance, timeout, text_only, effects)
    handler = _HANDLERS.get(step.form.op)
    if handler is None:
        raise InvalidArgs(
            f"`{action.command} {action.form}` is not available interactively", hint="see docs/ad-format.md"
        )
    # ~= regexes stop by then: the step's own timeout ends its polling first (a miss stays a miss)
    deadline = MATCH_DEADLINE.set(time.monotonic() + step.timeout_ms / 1000 + MATCH_GRACE_S)
    budget = budget_ms(step)
    try:
        return await asyncio.wait_for(handler(state, step), budget / 1000)
    except (ReplayError, StepStopped) as err:  # its message may quote what a variable made (a URL's key)
        err.redacted(secrets_of([action], values or {}))
        raise
    except TimeoutError:
        # an app that never yields answers nothing: stop what keeps it busy, say so in its words (design §12)
        said = await interrupt(state.driver)
        raise Timeout(
            f"`{action.command}` did not finish within {budget} ms: {said}",
            hint="check the app for work that never ends; raise --timeout if it is only slow",
        ) from None
    finally:
        MATCH_DEADLINE.reset(deadline)


def budget_ms(step: Step) -> int:
    """The most a step may take before it is stopped, whatever the page does: its look (the step's
    timeout, a navigation's own), then its action (the timeout again) and an element action's effect
    (once more), any duration it waits, and a grace for reporting (normally it ends well before)."""
    look = step.timeout_ms
    if step.form.op in ("navigate", "history"):
        look = max(look, NAVIGATION_TIMEOUT_MS)
    waits = sum(
        int(v)
        for k, v in step.action.params
        if isinstance(v, str) and v.isdigit() and REGISTRY.is_duration(step.action.command, step.action.form, k)
    )
    acts = step.form.op in (*ACTING, *effects.KEYED)
    return (3 if acts else 2) * look + waits + int(BUDGET_GRACE_S * 1000)  # look, act, effect


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
    }
    if not step.text_only:
        result["snapshot"] = snap.render_json(taken, interactive=interactive, scope=scope_text)
    journal(state, step, record=step.written(observation=True), line=step.line())
    effects.looked(state, taken)
    return result


def _page_op(
    perform: Callable[[StepState, Step], Awaitable[dict[str, Any] | None]],
) -> Callable[[StepState, Step], Awaitable[dict[str, Any]]]:
    """A step that does not target an element: perform it, then journal it."""

    async def run(state: StepState, step: Step) -> dict[str, Any]:
        result: dict[str, Any] = {"command": step.action.command}
        # journal before effect: what reaches the app is in the journal, or nothing is sent
        entry = journal(state, step, record=step.written(observation=step.form.observation), line=step.line())
        pre = await effects.before_key(state, step)  # (None unless a key step's effect is recorded or checked)
        try:
            result.update(await perform(state, step) or {})
        except ReplayError:
            state.journal.retract(entry)  # it failed: it did not happen
            raise
        if step.form.op not in ("dialog", "tab"):
            result.update(await effects.after_key(state, step, entry, pre, dialogs.said_opened(state, result)))
            tabs.said_opened(state, result)
        return result

    return run


async def _navigate(state: StepState, step: Step) -> None:
    flag = step.action.flag
    request = OpenRequest(
        target=str(step.action.param("url")),
        relaunch=flag("--relaunch") is True,
        clear_state=flag("--clear-state") is True,
    )
    await state.driver.navigate(request, max(step.timeout_ms, NAVIGATION_TIMEOUT_MS))


async def _history(state: StepState, step: Step) -> None:
    await state.driver.history(step.action.command, max(step.timeout_ms, NAVIGATION_TIMEOUT_MS))


async def _device(state: StepState, step: Step) -> dict[str, Any] | None:
    """A device-level command (swipe, keyboard, appstate): its parameters and flags as given."""
    params: dict[str, Any] = {k: v for k, v in step.action.params}
    params.update({name.lstrip("-"): value for name, value in step.action.flags})
    if not isinstance(state.driver, DeviceCommands):
        raise ActionFailed(f"`{step.action.command}` is a device command", hint="this backend has none")
    said = await state.driver.device(step.action.command, params)
    return {"value": said} if said is not None else None


async def _type(state: StepState, step: Step) -> None:
    await state.driver.keyboard("type", str(step.action.param("text")))


async def _press_key(state: StepState, step: Step) -> None:
    for _ in range(int(str(step.action.flag("--count") or 1))):
        await state.driver.keyboard("press", str(step.action.param("key")))


async def _scroll_page(state: StepState, step: Step) -> None:
    if step.action.flag("--until"):
        await observe.scroll_until(state, step)
        return
    amount = step.action.param("amount")
    await state.driver.scroll(str(step.action.param("direction")), float(str(amount)) if amount else None)


async def _pause(state: StepState, step: Step) -> None:
    await state.driver.wait(int(str(step.action.param("ms"))))


async def _close(state: StepState, step: Step) -> dict[str, Any]:
    return {"command": "close"}  # the daemon closes the session; a step only ends the script


# steps on an element -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Described:
    """How a step's element is written to a script: line, evidence, verification, selector."""

    line: str | None = None
    evidence: str | None = None
    verification: str | None = None
    selector: str | None = None
    recorded_node: Node | None = None
    warning: str | None = None  # said the moment the step is recorded: what would make it robust


def _describe_for_script(state: StepState, step: Step, bound: Bound) -> Described:
    """Derive the portable selector and fresh evidence of the acted-on node (before acting: it may vanish)."""
    raw = step.raw
    as_written = _as_written(step)
    if as_written is not None and state.recording is None:
        return as_written  # a verified plan step outside recording: its own line and evidence say what was done
    if bound.node is None:
        return Described()
    node = evidence_target(bound.capture, bound.node) if step.action.command == "click" else bound.node
    fresh = record_evidence(bound.capture, node)
    if as_written is not None and keeps_its_annotation(raw, fresh):
        return as_written
    mat = materialize(bound.capture, node)
    if mat.selector is None:
        return Described(recorded_node=node)
    ev = self_check(bound.capture, mat.selector, node, fresh)
    written = escape_templates(mat.selector)
    selector = format_selector(written)
    return Described(
        step.line(Target(selector=written)),
        ev_codec.encode(ev),
        ev.verification,
        selector,
        node,
        recording_warning(selector, positional=mat.positional, verified=ev.verified, identified=ev.identifiable),
    )


def _as_written(step: Step) -> Described | None:
    """An annotated plan step described by its own line and evidence (None for any other step)."""
    raw = step.raw
    if step.provenance != PLAN or raw.annotation is None or raw.target is None or raw.target.selector is None:
        return None
    return _written(raw)


@functools.lru_cache(maxsize=4096)
def _written(raw: Action) -> Described:
    """How a plan step is written, formatted once per step and not again on every replay of it."""
    assert raw.annotation is not None and raw.target is not None and raw.target.selector is not None
    return Described(
        line_of(raw), ev_codec.encode(raw.annotation), raw.annotation.verification, format_selector(raw.target.selector)
    )


ALIKE = "act on that place only while its look-alikes are the ones recorded, and stop when they are not"
ROBUST = "give the element a label or a test id, or put it in a row or card with a text of its own"


def recording_warning(selector: str, *, positional: bool, verified: bool, identified: bool = True) -> str | None:
    """What a recording says at once of a step that replay cannot bind robustly (design §4, §5 item 7)."""
    if positional:
        then = "check the recorded identity and stop if another element sits there" if verified else ALIKE
        return f"recorded by position ({selector}): replay will {then}; {ROBUST}"
    if not verified:
        why = "look-alikes nothing tells apart" if identified else "no label, no unique test id, no row of its own"
        return (
            f"its identity could not be verified ({why}): replay will stop at this step as identity-unverifiable; "
            "give it a label or a test id"
        )
    return None


MAX_BINDS = 5  # a page re-rendering under every look does not hold a step past this many


class _Vanished(Exception):
    """The bound element left the page between the look and the act (nothing was sent)."""


async def _element(state: StepState, step: Step) -> dict[str, Any]:
    """Bind, then act. An element bound by selector that is gone when the act reaches it (its frame
    navigated, the list re-rendered) is bound again — looked at and verified anew — until the
    step's deadline: the page changed under the step, and nothing was sent. A ref stays stale."""
    target = step.action.target
    assert target is not None
    deadline = state.clock.now() + step.timeout_ms / 1000
    for attempt in range(1, MAX_BINDS + 1):
        try:
            rebind = attempt < MAX_BINDS and state.clock.now() < deadline
            return await _element_once(state, step, target, rebind=rebind)
        except _Vanished:
            continue
    raise AssertionError("unreachable: the last attempt never raises _Vanished")


async def _element_once(state: StepState, step: Step, target: Target, *, rebind: bool) -> dict[str, Any]:
    bound = await bind(state, step, target)
    described = _describe_for_script(state, step, bound)
    result: dict[str, Any] = {
        "command": step.action.command,
        "target": describe(bound.shown),
        "resolution": bound.resolution.to_dict(),
    }
    if bound.drift:
        result["drift"] = list(bound.drift)
    if described.recorded_node is not None and described.recorded_node is not bound.node:
        result["recordedAs"] = describe(described.recorded_node)
    generation, index = bound.handle
    reading = step.form.phase == PHASE_READ
    # journal before effect: what reaches the app is in the journal, or nothing is sent
    entry = journal(
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
    try:
        if reading:  # get
            result["value"] = await _read(state, step, bound.node, generation, index)
        else:
            params = {k.lstrip("-"): v for k, v in (*step.action.params, *step.action.flags) if isinstance(v, str)}
            if step.form.op == "upload":
                params["path"] = local_file(params["path"], state.cwd)
            doing = gesture(str(step.form.op), params)
            if isinstance(doing, Click) and bound.node is not None and drawn_elsewhere(bound.node):
                doing = replace(doing, through=True)  # a hidden input its track or label shows (design §5)
            await state.driver.act(generation, index, doing, step.timeout_ms)
    except (ActionFailed, StaleRef, BrowserUnavailable) as exc:
        state.journal.retract(entry)  # it failed: it did not happen
        if isinstance(exc, StaleRef) and target.ref is None and rebind:
            raise _Vanished from None
        raise StepStopped(exc, Binding.failed_dispatch(exc, 1)) from None  # post-response capture
    if not reading and not dialogs.said_opened(state, result):  # (a dialog's page waits: no look)
        said = await effects.after_act(state, step, bound, entry)
        if said.drift:
            result["drift"] = [*result.get("drift", ()), *said.drift]
        if said.effect is not None:
            result["effect"] = said.effect
    if not reading:
        tabs.said_opened(state, result)
    if described.selector:
        result["selector"] = described.selector
        result["verification"] = described.verification
    if described.warning and state.recording is not None and step.written(observation=reading):
        result["warning"] = described.warning
    result["recorded"] = entry.record and state.recording is not None
    return result


async def _read(state: StepState, step: Step, node: Node | None, generation: int, index: int) -> Any:
    """What ``get`` reads of the element; of a password field, the mask its capture shows (``•••``),
    never what was typed — whoever holds the session (a CLI, MCP, a heal agent) reads no secret."""
    what = step.action.param("what")
    if node is None or node.input_type != "password":
        return await state.driver.act(generation, index, Read(str(what)), step.timeout_ms)
    if what == "value":
        return node.value or ""
    read = await state.driver.act(generation, index, Read(str(what)), step.timeout_ms)
    if what == "attrs" and isinstance(read, dict):
        read = {k: (node.value or "") if k in ("value", "text") else v for k, v in read.items()}
    return read


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


# the pipeline stage of each registry ``op`` (element ops go through ``_element``)
_HANDLERS: dict[str | None, Callable[[StepState, Step], Awaitable[dict[str, Any]]]] = {
    "snapshot": _snapshot,
    "navigate": _page_op(_navigate),
    "history": _page_op(_history),
    "device": _page_op(_device),
    "type": _page_op(_type),
    "press": _page_op(_press_key),
    "scroll_page": _page_op(_scroll_page),
    "pause": _page_op(_pause),
    "dialog": _page_op(dialogs.alert),
    "tab": _page_op(tabs.tab),
    "wait_text": observe.wait_text,
    "screenshot": _page_op(screenshot),
    "close": _close,
    "assert": observe.assert_step,
    "wait_target": observe.wait_target,
    "find": _find,
    **{op: _element for op in (*ACTING, "read")},
}
PIPELINE_OPS = frozenset(op for op in _HANDLERS if op is not None)  # every registry ``op`` the pipeline runs
