"""Every step proves its effect (design §15): the pipeline's stage after an element action.

Recording: the screen is looked at until it settles, and what the action did (``tree.effects.observe``)
joins the step's ``target-v1`` evidence, amended in the journal. Replay: the recorded facts are
polled for — on the targeted view where the driver has one, so a big page pays for the few nodes
the facts name — until they hold; held in a changed form they are drift; none holding stops the
step as ``action-failure`` with the expected and observed effect and ``repairHint: manual``.
"""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, replace
from typing import Any

from replay.drivers.base import Frames
from replay.engine.bind import OVERLAYS, Bound, effect_links, first_look, view_spec
from replay.engine.divergence import Binding
from replay.engine.journal import PLAN, JournalEntry
from replay.engine.state import Step, StepState, StepStopped, capture, view
from replay.errors import ActionFailed
from replay.script import evidence as ev_codec
from replay.script.ast import Action
from replay.script.effect import TYPED, Fact, describe_all, fitted
from replay.script.evidence import NEIGHBOUR, TargetEvidence
from replay.script.redact import REDACTED, var_tag
from replay.script.registry import PHASE_ACT, REGISTRY
from replay.script.selector import Selector
from replay.script.variables import Reference, parse_template
from replay.scrubbing import echoes
from replay.tree import effects as eff
from replay.tree.generated import masked
from replay.tree.identity import identity_members, record_evidence
from replay.tree.match import Resolution, ResolutionKind
from replay.tree.model import Capture, Node
from replay.tree.place import in_place_of
from replay.tree.verdict import DivergenceKind

SETTLE_MIN_S = 0.12  # a recording looks at least this long after an action (a handler's next tick)
SETTLE_MAX_S = 1.5  # and at most this long for the screen to stop changing
SETTLE_EVERY_S = 0.04
CHECK_EVERY_S = 0.03
PARTLY_S = 1.0  # once some recorded facts hold, how long the others are waited for
# commands that only look: between two captures with only these, what changed did so by itself
LOOKING = frozenset({"snapshot", "get", "is", "wait", "screenshot", "find"})
TEXT_COMMANDS = ("fill", "type")  # the steps whose text is typed (never written into an effect)


def _learn_idle(state: StepState, watch: eff.Watch, pre: Capture, *, acting: bool = True) -> None:
    """``pre`` and the baseline with only looks between them: what differs changed by itself, and is
    taken out of every fact the recording kept about it (a journal ``amend``), however old."""
    if watch.baseline is None or state.journal.count < watch.at:
        return
    between = state.journal.since(watch.at) if watch.at >= state.journal.offset else None
    if between is None or not all(e.command in LOOKING for e in (between[:-1] if acting else between)):
        return  # (``acting``: the last entry is the step about to act, journaled already)
    watch.idle.learn(watch.baseline, pre)
    watch.idle.keys.update(_passed([pre], watch.baseline.generation))  # (a toast that came and went by itself)
    for i, (entry, facts) in enumerate(watch.recorded):
        if (steady := watch.idle.steady(facts)) != facts and entry.evidence:
            state.journal.amend(entry, amended(entry.evidence, steady))
            watch.recorded[i] = (entry, steady)


async def last_look(state: StepState) -> None:
    """Before a recording is published: one more look with no action since the last, so what a
    timer changed after the last step's screen settled is not that step's doing either."""
    watch = state.watch
    if watch.recorded and watch.baseline is not None and state.recording is not None:
        _learn_idle(state, watch, await capture(state), acting=False)


def looked(state: StepState, taken: Capture) -> None:
    """A look (``snapshot``) between actions: what changed since the last one changed by itself; it
    is the next baseline."""
    _learn_idle(state, state.watch, taken)
    state.watch.baseline, state.watch.at = taken, state.journal.count


async def _settle(state: StepState, hold: int) -> list[Capture]:
    """Captures after an action until two in a row tell the same with no transition under way, and the
    screen has drawn its next frames since the action and since the look that saw a move end
    (at least ``SETTLE_MIN_S``, at most ``SETTLE_MAX_S``): every one is kept, so what showed only for a
    moment (a toast) is seen, and what fades in is seen as it ends (a popover, then its focused item).
    The frames are the page's pace, not the clock's: what a transition's end sets (a carousel's "moved"
    handler) is set in the frame after it ends, late on a busy machine — a look between the two saw
    nothing moving and nothing changed. ``hold``: the capture the step acted in, whose element stays
    actable however many looks it takes."""
    clock, driver = state.clock, state.driver
    frames = driver.frames if isinstance(driver, Frames) else None
    start = clock.now()
    drawn = asyncio.ensure_future(frames()) if frames is not None else None
    try:
        seen = [await capture(state, hold)]
        while clock.now() - start < SETTLE_MAX_S:
            await clock.sleep(SETTLE_EVERY_S)
            after_frames = drawn is None or drawn.done()  # (asked before the look: the look is after them)
            seen.append(await capture(state, hold))
            still = not any(c.moving or c.changed for c in seen[-2:])
            if not still and frames is not None and drawn is not None:  # moving, or it just stopped:
                drawn.cancel()  # what the move's end sets is set in a frame after this look
                drawn = asyncio.ensure_future(frames())
            if _told(seen[-1]) == _told(seen[-2]) and still and after_frames and clock.now() - start >= SETTLE_MIN_S:
                break
    finally:
        if drawn is not None:
            drawn.cancel()
    return seen


def _passed(looks: list[Capture], since: int) -> dict[tuple[str, str], str]:
    """The overlays that came and went after the look of generation ``since`` (before the action) and
    before one of ``looks``: (role, text masked) → the text (a toast gone before the next look, design §15)."""
    return {(role, masked(text)): text for c in looks for role, text, after in c.passed if text and after >= since}


def _caught(judged: eff.Judged, passed: dict[tuple[str, str], str]) -> eff.Judged:
    """A fact that an overlay appeared, missing from the look after the action because it had gone by then."""
    f = judged.fact
    if judged.status == eff.MISSING and f.kind == "appeared" and f.text and (f.subject, masked(f.text)) in passed:
        return replace(judged, status=eff.HELD)
    return judged


def _told(taken: Capture) -> tuple[object, ...]:
    return (taken.screen.path, taken.screen.title, eff.telling(taken), eff.items(taken), _flags(taken))


def _flags(taken: Capture) -> tuple[tuple[int, str | None], ...]:
    return tuple((n.flags & 0b11011, n.value) for n in taken.nodes[1:] if n.actionable)


async def _state_in(
    state: StepState, taken: Capture, ev: TargetEvidence | None, acted: tuple[int, int], node: Node | None
) -> eff.TargetState:
    """The acted-on element in ``taken``: the one node that carries its recorded identity (a re-rendered
    row is the same row), else the element acted on itself (``acted``: its generation and index) —
    among look-alikes, or renamed by its own action ("Edit" that became "Save"); gone when neither."""
    members = identity_members(taken, ev) if ev is not None and ev.verified else []
    if len(members) == 1:
        return eff.TargetState.of(members[0])
    index = await state.driver.locate(*acted, taken.generation)
    if index is not None:
        return eff.TargetState.of(taken.nodes[index])
    if ev is not None and ev.basis == NEIGHBOUR and node is not None and not taken.partial:
        # its container is known by a neighbour the action may reword ("June" → "July"): it is where it was
        return eff.TargetState.of(in_place_of(node, taken))
    return eff.TargetState(bool(members))


def typed_fact_value(step: Step) -> str | None:
    """What a fill's (or text typed into an editor's) fact says of its value (``<var:NAME>`` or
    ``<redacted>``), a select's choice as it is."""
    text = step.raw.param("text") if step.action.command in TEXT_COMMANDS else None
    if isinstance(text, str):
        parts = parse_template(text)
        refs = [p for p in parts if isinstance(p, Reference)]
        return var_tag(refs[0].name) if len(parts) == 1 and refs else REDACTED
    chosen = step.action.param("value") if step.action.command == "select" else None
    return str(chosen) if chosen is not None else None


async def record(state: StepState, step: Step, pre: Capture, node: Node, watch: eff.Watch) -> tuple[Fact, ...]:
    """What the action just performed on ``node`` (of ``pre``) did, as the script will say it."""
    _learn_idle(state, watch, pre)
    ev = record_evidence(pre, node)
    seen = await _settle(state, pre.generation)
    target = (eff.TargetState.of(node), await _state_in(state, seen[-1], ev, (pre.generation, node.position), node))
    typed = step.action.param("text") if step.action.command in TEXT_COMMANDS else None
    facts = eff.observe(
        pre,
        seen,
        target,
        command=step.action.command,
        value=typed_fact_value(step),
        idle=watch.idle,
        typed=typed if isinstance(typed, str) else None,
        acted=node,
    )
    said = {(f.subject, masked(f.text)) for f in facts if f.kind == "appeared" and f.text} | watch.idle.keys
    flashed = _passed(seen, pre.generation)  # (gone before any look after the action saw it)
    facts = (
        *facts,
        *(Fact("appeared", role, text) for (role, key), text in flashed.items() if (role, key) not in said),
    )
    watch.baseline, watch.at = seen[-1], state.journal.count
    # a page that shows a variable's value ("Welcome, ada") must not write it into the script
    facts = tuple(
        f
        for f in facts
        if not any(
            s in (f.text or "") or s in f.subject or echoes(f"{f.text or ''} {f.subject}", s) for s in watch.secrets
        )
    )
    return fitted(facts)


def amended(evidence: str, facts: tuple[Fact, ...]) -> str:
    """A step's evidence payload with ``facts`` as its effect (none: without one)."""
    ev = ev_codec.decode(evidence)
    return ev_codec.encode(replace(ev, effect=facts))


@dataclass(frozen=True)
class Checked:
    """How a step's recorded effect fared: the facts judged, and what was seen instead."""

    judged: tuple[eff.Judged, ...]
    seen: tuple[Fact, ...] = ()  # what the action did this time, when the whole screen tells it

    @property
    def held(self) -> bool:
        return any(j.status != eff.MISSING for j in self.judged)

    @property
    def complete(self) -> bool:
        return all(j.status == eff.HELD for j in self.judged)

    def drift(self) -> list[str]:
        """The facts that held in another form, or not at all beside ones that held."""
        out = []
        for j in self.judged:
            if j.status == eff.CHANGED:
                out.append(f"effect: expected {j.fact.describe()}; {j.how}")
            elif j.status == eff.MISSING:
                out.append(f"effect: expected {j.fact.describe()}; not seen")
        return out


async def check(state: StepState, step: Step, bound: Bound, ev: TargetEvidence, spec: dict[str, Any] | None) -> Checked:
    """Poll until the recorded facts hold (design §15): the targeted view (``spec``; None: none) first,
    the whole screen once the view alone has not shown them all; stop with ``action-failure`` when
    none holds by the step's deadline."""
    clock, pre = state.clock, bound.capture
    pre_whole = not pre.partial
    facts = ev.effect
    typed = step.action.param("text") if step.action.command in TEXT_COMMANDS else None
    typed_text = typed if isinstance(typed, str) else None
    acted = bound.handle
    target_before = eff.TargetState.of(bound.node)
    about_target = any(f.kind == "target" for f in facts)  # else the element is not looked for
    deadline = clock.now() + step.timeout_ms / 1000
    looks = 0
    passed: dict[tuple[str, str], str] = {}  # overlays that came and went since the action (a brief toast)
    held_at: float | None = None  # when a fact first held (the others get ``PARTLY_S`` more)
    ahead = state.watch.ahead  # the next step's view: taken with this one, so it looks only once
    if spec is not None and ahead is not None:
        spec = {
            "links": [*spec["links"], *ahead["links"]],
            "fullRoles": sorted({*spec["fullRoles"], *ahead["fullRoles"]}),
        }
    while True:
        looks += 1
        # (the acted-on capture's elements stay known however many looks it takes: the target is found in each)
        post = await view(state, spec, acted[0]) if spec is not None and looks <= 2 else None
        whole = post is None
        if post is None:
            post = await capture(state, acted[0])
        target = (target_before, await _state_in(state, post, ev, acted, bound.node) if about_target else target_before)
        shown = None if whole and pre_whole else frozenset(OVERLAYS)  # a view shows every overlay whole
        passed |= _passed([post], pre.generation)
        judged = tuple(_caught(eff.judge(f, pre, post, target, typed=typed_text, shown=shown), passed) for f in facts)
        last = Checked(judged)
        if last.complete or all(j.status != eff.MISSING for j in judged):
            break
        held_at = held_at if held_at is not None or not last.held else clock.now()
        if clock.now() >= deadline or (held_at is not None and clock.now() - held_at >= PARTLY_S):
            break  # the rest of the facts had their time: what held is drift, what did not is said
        await clock.sleep(CHECK_EVERY_S)
    if last.complete:
        state.watch.handoff = (post, state.journal.count, None if whole else ahead) if whole or ahead else None
        return last
    seen = eff.observe(pre, [post], target, command=step.action.command, value=typed_fact_value(step), acted=bound.node)
    if not pre_whole:  # the view before shows the overlays and the facts' nodes, not the rest
        seen = tuple(f for f in seen if f.kind in ("navigated", "target") or f.subject in OVERLAYS)
    if last.held:
        return replace(last, seen=seen if pre_whole and whole else ())
    observed = eff.past(seen)
    expected = describe_all(facts)
    cause = f"no effect: expected {expected}; observed {observed}"
    binding = Binding(DivergenceKind.ACTION_FAILURE, cause, 1, effect={"expected": expected, "observed": observed})
    error = ActionFailed(
        cause, hint="the step acted on the recorded element: a person decides whether the app regressed"
    )
    raise StepStopped(error, binding, post)


async def confirm(
    state: StepState, action: Action, pre: Capture, node: Node, ev: TargetEvidence, timeout_ms: int
) -> Checked | None:
    """An effect-confirmed heal's proof (design §8): after the healer acted on ``node`` of ``pre``, poll
    until the step's recorded effect holds — as a replay checks it, drifted forms included; None when
    none of it held by ``timeout_ms`` (the candidate did not do what the step did)."""
    spec = REGISTRY.get(action.command)
    assert spec is not None
    step = Step(action, action, spec.form(action.form), PLAN, timeout_ms)
    bound = Bound(pre, node, (pre.generation, node.position), Resolution(ResolutionKind.REF, 1, node), node)
    try:
        return await check(state, step, bound, ev, None)
    except StepStopped:
        return None


def view_ahead(action: Action) -> dict[str, Any] | None:
    """The targeted view a planned step will bind by (design §13), when it binds by one: an effect check
    just before it takes its own view with these links too, and hands it over (one look a step)."""
    spec = REGISTRY.get(action.command)
    ev, target = action.annotation, action.target
    if spec is None or ev is None or not ev.verified or target is None or target.selector is None:
        return None
    if spec.form(action.form).phase != PHASE_ACT or action.command == "find":
        return None
    return view_spec(first_look(target.selector), ev)


def check_spec(selector: Selector, ev: TargetEvidence, alternative: int) -> dict[str, Any]:
    """The view an effect check looks at: each fact's nodes and every overlay (``effect_links``), and
    — only when a fact is about the target — the nodes of the alternative the step bound by (not
    every alternative: one that matches every input of a long list would cost what binding cost)."""
    alternatives = selector.alternatives
    if not 0 <= alternative < len(alternatives):  # bound on a view: its id alternative, where it has one
        ids = [i for i, alt in enumerate(alternatives) if any(t.key == "id" for t in alt.links()[0].terms or ())]
        alternative = ids[0] if ids else -1
    chosen = Selector((alternatives[alternative],)) if alternative >= 0 else selector
    spec = view_spec(chosen, replace(ev, effect=()))
    if not any(f.kind == "target" for f in ev.effect):
        spec["links"] = []
    spec["links"] += effect_links(ev.effect, ev.ancestry)
    return spec


@dataclass(frozen=True)
class Said:
    """What the effect stage adds to a step's result: drift of a checked effect, a recorded one."""

    drift: tuple[str, ...] = ()
    effect: str | None = None  # the recorded effect in a reader's words ("a listitem "eggs" appeared")


async def after_act(state: StepState, step: Step, bound: Bound, entry: JournalEntry) -> Said:
    """The effect stage of an element step that acted (design §15). A replayed step with a recorded
    effect is checked (its drift returned; an armed run re-records what it saw); a step a recording
    or a repair writes gets the effect it had. Anything else costs nothing."""
    ev = step.action.annotation
    target = step.action.target
    if step.provenance == PLAN:
        if ev is None or not ev.effect or not step.effects or target is None or target.selector is None:
            return Said()
        # a run that records (an armed repair) looks at the whole screen: what drifted is written anew
        spec = check_spec(target.selector, ev, bound.resolution.alternative) if state.recording is None else None
        checked = await check(state, step, bound, ev, spec)
        if state.recording is not None and entry.evidence:  # the healed script carries what held (design §15)
            if not checked.complete and checked.seen:
                state.journal.amend(entry, amended(entry.evidence, fitted(checked.seen)))
            elif checked.complete and not ev_codec.decode(entry.evidence).effect:
                state.journal.amend(entry, amended(entry.evidence, ev.effect))
        return Said(tuple(checked.drift()))
    if state.recording is None or not entry.record or entry.evidence is None or bound.node is None:
        return Said()
    facts = await record(state, step, bound.capture, bound.node, state.watch)
    if facts:
        state.journal.amend(entry, amended(entry.evidence, facts))
        state.watch.recorded.append((entry, facts))
    return Said(effect=eff.past(facts) if facts else "none kept (nothing that tells what a step did changed)")


# keys: a press or typed text acts on the focused element (design §15: Enter adds a tag, Escape closes a menu)

KEYED = ("press", "type")  # the steps' ops whose effect is what the focused element (or the page) did


async def before_key(state: StepState, step: Step) -> Capture | None:
    """The screen before a key step that records its effect, or checks a recorded one (else None: free)."""
    if step.form.op not in KEYED:
        return None
    ev = step.action.annotation
    if step.provenance == PLAN:
        if ev is not None and ev.effect and step.effects:
            return await _ready(state, step, ev.effect)
        return await capture(state) if state.recording is not None and ev is not None else None
    return await capture(state) if state.recording is not None and step.written(observation=False) else None


async def _ready(state: StepState, step: Step, facts: tuple[Fact, ...]) -> Capture:
    """The screen a key step acts on, once something its recorded effect takes away is on it: the person
    pressed Escape on the popover they saw; a replay whose last step was done before a loaded machine drew
    that popover waits for it, up to the step's timeout — then acts on the screen as it is, and the check
    says what did not hold. Any one of them will do: a popover drawn with other roles on the app's next
    version (drift the check tells) is there all the same, and waiting for the rest would cost the timeout."""
    away = [(f.subject, masked(f.text)) for f in facts if f.kind == "disappeared" and f.text]
    deadline = state.clock.now() + step.timeout_ms / 1000
    pre = await capture(state)
    while away and not any(eff.said_on(pre, *key) for key in away) and state.clock.now() < deadline:
        await state.clock.sleep(CHECK_EVERY_S)
        pre = await capture(state)
    return pre


async def after_key(
    state: StepState, step: Step, entry: JournalEntry, pre: Capture | None, dialog: bool
) -> dict[str, Any]:
    """A key step's effect (design §15): checked when recorded (drift returned; a missing one stops the
    step), recorded when a recording writes the step — against the element that had focus. None when
    the key opened a ``dialog``: the page waits for its answer, nothing may look at it."""
    if pre is None or dialog:
        return {}
    focused = next((n for n in pre.nodes[1:] if n.focused), pre.nodes[0])
    ev = step.action.annotation
    if step.provenance == PLAN:
        if ev is None:
            return {}
        if state.recording is not None:
            state.journal.amend(entry, ev_codec.encode(ev))  # an armed run writes the step as it was
        if not ev.effect or not step.effects:
            return {}
        bound = Bound(
            pre, focused, (pre.generation, focused.position), Resolution(ResolutionKind.REF, 1, focused), focused
        )
        checked = await check(state, step, bound, replace(ev, effect=_typed(ev.effect, TYPED, focused.value)), None)
        if state.recording is not None and not checked.complete and checked.seen:
            state.journal.amend(entry, amended(ev_codec.encode(ev), fitted(checked.seen)))
        return {"drift": list(checked.drift())} if checked.drift() else {}
    facts = _typed(await record(state, step, pre, focused, state.watch), focused.value, TYPED)
    if facts:  # (a key that changed nothing is written as it was: no annotation)
        said = TargetEvidence(role=focused.role, label=focused.label, verification=ev_codec.UNVERIFIABLE, effect=facts)
        state.journal.amend(entry, ev_codec.encode(said))
        state.watch.recorded.append((entry, facts))
    return {"effect": eff.past(facts) if facts else "none kept (nothing that tells what a step did changed)"}


def _typed(facts: tuple[Fact, ...], this: str | None, that: str | None) -> tuple[Fact, ...]:
    """``facts`` with ``this`` in their texts said as ``that``: the text a field held when a key was pressed
    in it is written ``<typed>`` (a flow whose data changed adds another todo), and read back as it is now."""
    if not this or not that or len(this if that == TYPED else that) < 2:
        return facts
    return tuple(replace(f, text=f.text.replace(this, that)) if f.text and this in f.text else f for f in facts)
