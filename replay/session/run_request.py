"""What a `replay run` request needs before its runner starts: the plan, its values, the resume
preflight and a new repair transaction. The daemon routes; these decide."""

from __future__ import annotations

import asyncio
import logging
import os
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import dataclass, replace
from secrets import token_hex
from typing import TYPE_CHECKING, Any

from replay.drivers import check_platform
from replay.drivers.base import Traces
from replay.engine.poll import Clock
from replay.errors import DivergenceError, InvalidArgs, ReplayError, SessionNotFound, Timeout
from replay.script.ast import Comment, Context, Env, Script
from replay.script.formatter import format_item
from replay.script.plan import Plan
from replay.session import repair
from replay.session.protocol import shown_name
from replay.session.requests import Run
from replay.session.session import Session

if TYPE_CHECKING:
    from replay.engine.runner import RunResult

log = logging.getLogger("replay.daemon")

# The plans of the scripts run last, by (resolved path, path as given, platform asked for, text):
# a suite or a loop runs one script again and again, and parsing is most of a short run's set-up.
# Script and Plan are frozen (their dicts are never written after parsing), so runs share them.
PLANS_KEPT = 32
_plans: OrderedDict[tuple[str, str, object, str], tuple[Script, Plan]] = OrderedDict()


@dataclass(frozen=True, kw_only=True)
class Prepared:
    """A run request that passed its preflight: what its runner needs."""

    script: Script
    plan: Plan
    display: str  # the script's path as the user gave it
    name: str  # the session's key (a fresh ephemeral one unless the request names one)
    artifacts: str
    given: dict[str, dict[str, str]]  # its -e ("cli") and shell values
    values: dict[str, str]  # every variable's value
    target: str | None  # an arming run: where its healed script is published

    @property
    def shown(self) -> str:
        return shown_name(self.name)


def prepare(home: str, sessions: Mapping[str, Session], request: Run) -> Prepared:
    """Plan, values, R2, the resume preflight and arming, in that order: what fails, fails before
    any session is touched."""
    from replay.script.resolve import unresolved, variables_for

    script, plan, display = load_plan(request)
    name = request.session or f"run-{token_hex(3)}"
    artifacts = request.artifacts_dir or os.path.join(home, "artifacts", name)
    shown = shown_name(name)
    if request.from_step is None and request.plan_digest:
        raise InvalidArgs("--plan-digest checks a resume: it needs --from", hint="--from N --plan-digest D")
    session = sessions.get(name)
    given = given_values(request, session if request.from_step is not None else None)
    values = variables_for(
        script, platform=plan.platform, session=shown, artifacts=artifacts, cli=given["cli"], shell=given["shell"]
    )
    problems = unresolved(script, values)
    if problems:
        raise problems[0]
    arming = request.save_script is not None and request.from_step is None
    if session is None and not arming:
        repair.check_tombstone(home, name)
    check_continuation(session, shown, plan, request.from_step, request.plan_digest)
    target = repair.check_arming(plan, display, request.path, str(request.save_script)) if arming else None
    return Prepared(
        script=script,
        plan=plan,
        display=display,
        name=name,
        artifacts=artifacts,
        given=given,
        values=values,
        target=target,
    )


def load_plan(request: Run) -> tuple[Script, Plan, str]:
    """The script a run request names, its plan, and the path as the user gave it (its text is
    read every time; a text already parsed is not parsed again)."""
    from replay.script.loader import read_text
    from replay.script.parser import parse
    from replay.script.plan import build_plan

    path = request.path
    display = request.display or path
    text = read_text(path)
    key = (os.path.realpath(path), display, request.platform, text)
    known = _plans.get(key)
    if known is None:
        script = replace(parse(text, display), source=key[0])
        known = _plans[key] = (script, build_plan(script, request.platform))
        while len(_plans) > PLANS_KEPT:
            _plans.popitem(last=False)
    else:
        _plans.move_to_end(key)
    script, plan = known
    check_platform(plan.platform, display)
    return script, plan, display


def secrets(plan: Plan, values: dict[str, str]) -> list[tuple[str, str]]:
    """What the run's trace must not hold: its variables' values and the text its steps type."""
    from replay.script.redact import secrets_of
    from replay.script.resolve import resolve_action

    return secrets_of((resolve_action(s.action, values, s.path) for s in plan.steps), values)


def check_continuation(
    session: Session | None, shown: str, plan: Plan, from_step: int | None, plan_digest: str | None
) -> None:
    """R2 and the resume preflight: a full re-run of an armed session is refused; ``--from`` is checked."""
    from replay.engine.resume import check_resume

    if from_step is None:
        repair.refuse_full_rerun(session.repair if session is not None else None, shown)
        return
    if session is None:
        raise SessionNotFound(
            f"--from needs the session that diverged; no session {shown!r} is open",
            hint="resume with the --session the divergence report names, or re-run from step 1",
        )
    check_resume(
        plan,
        from_step,
        plan_digest or None,
        session.last_divergence if session.outstanding else None,
        session.recorded_at_divergence,
        session.recorded_count(),
    )


def given_values(request: Run, resumed: Session | None) -> dict[str, dict[str, str]]:
    """-e and shell values of a run; a resume reuses the diverged run's values unless -e is given again."""
    given = {"cli": dict(request.values), "shell": dict(request.shell)}
    if resumed is not None and not given["cli"] and resumed.run_values:
        return resumed.run_values
    return given


def new_transaction(
    script: Script, plan: Plan, display: str, path: str, target: str, session: Session
) -> repair.RepairTransaction:
    """A new transaction: the original's header (leading comments, context and env lines) and the watermark."""
    header = header_of(script)
    return repair.RepairTransaction(
        script=os.path.abspath(path),
        display=display,
        target=target,
        plan_digest=plan.digest,
        platform=plan.platform,
        watermark=session.journal.count,
        header=header,
    )


def header_of(script: Script) -> list[str]:
    """A script's header as a script it begets starts with: its leading comments, context and env lines."""
    first_action = script.actions[0].line if script.actions else 0
    return [
        format_item(i)
        for i in script.items
        if isinstance(i, (Context, Env)) or (isinstance(i, Comment) and i.line < first_action)
    ]


async def evidence(session: Session, screenshot: Any) -> None:
    """The screen where a run stopped, for a suite's artifacts (best effort: evidence, not the outcome)."""
    if not screenshot:
        return
    try:
        await asyncio.wait_for(session.driver.screenshot(str(screenshot), False), 10)
    except Exception:  # noqa: BLE001 - e.g. a crashed page; the run's own error says what happened
        log.warning("no screenshot of %s where its run stopped", session.name)


async def within(run: Coroutine[Any, Any, RunResult], deadline_ms: int | None) -> RunResult:
    """Await a run, stopped where it is once ``deadline_ms`` has passed (``replay test --timeout``)."""
    if deadline_ms is None:
        return await run
    try:
        return await asyncio.wait_for(run, deadline_ms / 1000)
    except TimeoutError:
        raise Timeout(
            f"the script did not finish within its {deadline_ms} ms timeout",
            hint="raise --timeout, or find the slow steps in the attempt's timing.ndjson",
        ) from None


async def run_locked(
    session: Session,
    request: Run,
    ready: Prepared,
    armed: bool,
    clock: Clock,
    forget: Callable[[str, Session], Awaitable[None]],
) -> RunResult:
    """The run itself, holding the session: its trace and screenshot evidence, its divergence kept."""
    from replay.engine.runner import Runner, RunOptions

    options = RunOptions(
        start=request.from_step or 1,
        values=ready.values,
        timeout_ms=request.timeout or ready.plan.timeout_ms,
        level=request.level,
        artifacts_dir=ready.artifacts,
        held=True if armed else None,
        effects=request.effects,
    )
    trace = request.trace_path
    hidden = secrets(ready.plan, ready.values) if trace else []
    session.last_used = clock.now()
    session.cwd = request.cwd or None
    session.run_values = ready.given
    session.plan, session.values = ready.plan, ready.values
    traces = session.driver if isinstance(session.driver, Traces) else None  # (a device keeps none)
    trace = trace if traces is not None else None
    if traces is not None and trace:
        await traces.trace_start()
    runner = Runner(session, ready.plan, options)
    try:
        result = await within(runner.run(), request.deadline_ms)
    except ReplayError as err:
        err.details.setdefault("timings", [t.to_dict() for t in runner.timings])  # the steps before it
        await evidence(session, request.screenshot_path)
        if isinstance(err, DivergenceError):
            session.diverged(err.source)
        if traces is not None and trace:
            await traces.trace_stop(trace, hidden)
        if not isinstance(err, DivergenceError) and session.ephemeral and session.repair is None:
            await forget(ready.name, session)  # a failed run keeps no session (a divergence does)
        raise
    if traces is not None and trace:  # a passing run keeps its trace only when asked to
        await traces.trace_stop(trace if request.trace_always else None, hidden)
    session.outstanding = False
    if armed:
        repair.complete(session)  # R7: the plan ran through; a terminal close is skipped
    return result
