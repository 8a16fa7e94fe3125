"""Run a plan: verify before every element action, act only on the verified path, stop with a divergence."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, NoReturn, Protocol

from replay.engine import hint as hints
from replay.engine.divergence import Binding, Divergence, build_divergence
from replay.errors import (
    ActionFailed,
    AmbiguousMatch,
    BrowserUnavailable,
    DivergenceError,
    ElementNotFound,
    ReplayError,
    StaleRef,
)
from replay.script.ast import Action
from replay.script.evidence import TargetEvidence
from replay.script.plan import Plan, Step
from replay.script.registry import PHASE_ACT, PHASE_WAIT, REGISTRY
from replay.script.resolve import resolve_action
from replay.tree.identity import (
    IDENTITY_MISMATCH,
    SELECTOR_MISS,
    identity_members,
    verify,
)
from replay.tree.match import match_set, resolve
from replay.tree.model import Capture, Node

POLL_S = 0.1
PLAN = "plan"


class StepHost(Protocol):
    """What the engine needs from a session (implemented by ``replay.session.Session``)."""

    name: str

    async def capture(self) -> Capture: ...

    def issue_refs(self, capture: Capture) -> None: ...

    def journal_plan_step(self, raw: Action) -> None: ...

    async def execute(
        self, action: Action, *, provenance: str, timeout_ms: int | None, values: dict[str, str] | None
    ) -> dict[str, Any]: ...

    async def perform(
        self,
        raw: Action,
        action: Action,
        capture: Capture,
        node: Node,
        resolution: dict[str, Any],
        *,
        provenance: str,
        timeout_ms: int,
    ) -> dict[str, Any]: ...


@dataclass
class StepTiming:
    """Per-step start/stop."""

    index: int
    command: str
    line: int
    started: float
    ms: float
    resolution: dict[str, Any] | None = None

    def to_dict(self) -> dict[str, Any]:
        """JSON of one timing."""
        out: dict[str, Any] = {"index": self.index, "command": self.command, "line": self.line, "ms": round(self.ms, 1)}
        if self.resolution is not None:
            out["resolution"] = self.resolution
        return out


@dataclass
class RunResult:
    """A run that reached the end of its plan."""

    plan_digest: str
    steps: int
    ran: int
    elapsed_s: float
    timings: list[StepTiming] = field(default_factory=list)

    def to_dict(self) -> dict[str, Any]:
        """JSON of the result."""
        return {
            "planDigest": self.plan_digest,
            "steps": self.steps,
            "ran": self.ran,
            "elapsedSeconds": round(self.elapsed_s, 3),
            "timings": [t.to_dict() for t in self.timings],
        }


@dataclass
class RunOptions:
    """How to run: from which step, variable values, step timeout, report level, where artifacts go."""

    start: int = 1
    values: dict[str, str] = field(default_factory=dict)
    timeout_ms: int = 5000
    level: str = "default"
    artifacts_dir: str = "."
    held: bool | None = None  # repairSessionHeld, for armed runs


class Runner:
    """Runs one plan on one session."""

    def __init__(self, host: StepHost, plan: Plan, options: RunOptions) -> None:
        self.host = host
        self.plan = plan
        self.options = options
        self.last_divergence: Divergence | None = None

    async def run(self) -> RunResult:
        """Run steps ``start``.. of the plan; raise ``DivergenceError`` on the first divergence."""
        t0 = time.monotonic()
        timings: list[StepTiming] = []
        steps = self.plan.steps[self.options.start - 1 :]
        for step in steps:
            if step.action.command == "close" and step.index == len(self.plan.steps):
                break  # a terminal close ends the script; the session is the runner's to close
            started = time.monotonic()
            resolution = await self.run_step(step)
            timings.append(
                StepTiming(
                    step.index,
                    step.action.command,
                    step.action.line,
                    time.time(),
                    (time.monotonic() - started) * 1000,
                    resolution,
                )
            )
        return RunResult(self.plan.digest, len(self.plan.steps), len(timings), time.monotonic() - t0, timings)

    async def run_step(self, step: Step) -> dict[str, Any] | None:
        """One step; returns its resolution when it targeted an element."""
        raw = step.action
        action = resolve_action(raw, self.options.values, step.path)
        spec = REGISTRY.get(action.command)
        assert spec is not None
        form = next(f for f in spec.forms if f.name == action.form)
        target = action.target
        if form.targets_element and target is not None and target.selector is not None and action.command != "find":
            if form.phase == PHASE_ACT:
                return await self._act_step(step, raw, action)
            if form.phase == PHASE_WAIT:
                await self._wait_step(step, raw, action)
                return None
        try:
            result = await self.host.execute(
                raw, provenance=PLAN, timeout_ms=self._timeout(action), values=self.options.values
            )
        except ElementNotFound as exc:
            await self._diverge(step, action, Binding(hints.SELECTOR_MISS, exc.message, 0), None)
        except (AmbiguousMatch, ActionFailed, StaleRef) as exc:
            await self._diverge(step, action, _failure(exc), None)
        return result.get("resolution") if isinstance(result, dict) else None

    def _timeout(self, action: Action) -> int:
        return self.options.timeout_ms

    async def _act_step(self, step: Step, raw: Action, action: Action) -> dict[str, Any]:
        target = action.target
        assert target is not None and target.selector is not None
        ev: TargetEvidence | None = action.annotation
        deadline = time.monotonic() + self._timeout(action) / 1000
        while True:
            capture = await self.host.capture()
            if ev is not None:
                verdict = verify(capture, target.selector, ev)
                if verdict.verified and verdict.target is not None:
                    node, resolution = verdict.target, verdict.resolution or {"kind": "unique", "matchCount": 1}
                    break
                if time.monotonic() >= deadline:
                    cause = {
                        hints.SELECTOR_MISS: "no node matches the selector",
                        hints.IDENTITY_MISMATCH: "the selector matches, but not the recorded element",
                        hints.IDENTITY_UNVERIFIABLE: "the recorded element cannot be told apart from look-alikes"
                        if ev.verified
                        else "the recording could not verify this element's identity",
                    }[verdict.kind]
                    binding = Binding(
                        verdict.kind,
                        cause,
                        verdict.match_count,
                        verdict.winner,
                        verdict.mismatches,
                        verdict.candidates(),
                    )
                    await self._diverge(step, action, binding, capture)
            else:
                res = resolve(capture, target.selector)
                if res.winner is not None:
                    node, resolution = res.winner, res.to_dict()
                    break
                if res.kind == "ambiguous":
                    err = AmbiguousMatch(
                        f"the selector matches {res.match_count} nodes in distinct places",
                        details={"candidates": res.to_dict().get("candidates", [])},
                    )
                    await self._diverge(step, action, _failure(err), capture)
                if time.monotonic() >= deadline:
                    await self._diverge(
                        step, action, Binding(SELECTOR_MISS, "no node matches the selector", 0), capture
                    )
            await asyncio.sleep(POLL_S)
        try:
            await self.host.perform(
                raw, action, capture, node, resolution, provenance=PLAN, timeout_ms=self._timeout(action)
            )
        except (ActionFailed, StaleRef, BrowserUnavailable) as exc:
            await self._diverge(step, action, _failure(exc, match_count=1), None)  # post-response capture
        return resolution

    async def _wait_step(self, step: Step, raw: Action, action: Action) -> None:
        target = action.target
        assert target is not None and target.selector is not None
        ev = action.annotation if action.annotation is not None and action.annotation.verified else None
        ms = int(str(action.param("ms"))) if action.param("ms") else self._timeout(action)
        deadline = time.monotonic() + ms / 1000
        absent = action.form == "absent"
        while True:
            capture = await self.host.capture()
            _, matches = match_set(capture, target.selector)
            if absent:
                if not matches:
                    break
            elif matches and (ev is None or identity_members(capture, ev, matches)):
                break  # the identity tier only: look-alikes keep the wait polling
            if time.monotonic() >= deadline:
                if absent:
                    raise ElementNotFound(
                        f"step {step.index}: still present after {ms} ms",
                        location=step.location,
                        hint="take a snapshot",
                    )
                kind = SELECTOR_MISS if not matches else IDENTITY_MISMATCH
                cause = f"waited {ms} ms: " + (
                    "nothing matches" if not matches else "only look-alikes of the recorded element"
                )
                await self._diverge(
                    step, action, Binding(kind, cause, len(matches), matches[0] if matches else None), capture
                )
            await asyncio.sleep(POLL_S)
        self.host.journal_plan_step(raw)  # wait always records

    # divergences ---------------------------------------------------------------------------

    async def _diverge(self, step: Step, action: Action, binding: Binding, capture: Capture | None) -> NoReturn:
        """Stop with a divergence. Its screen is ``capture`` (pre-action) or a fresh post-response one."""
        error = None
        if capture is None:
            capture, error = await self._try_capture()
        if capture is not None:
            self.host.issue_refs(capture)  # the agent can act on the screen's refs at once
        divergence = build_divergence(
            binding,
            index=step.index,
            path=step.path,
            action=step.action,
            capture=capture,
            capture_error=error,
            evidence=action.annotation,
            plan_len=len(self.plan.steps),
            plan_digest=self.plan.digest,
            held=self.options.held,
            session=self.host.name,
        )
        divergence.write_overflow(self.options.artifacts_dir, self.options.level)
        self.last_divergence = divergence
        raise DivergenceError(
            f"{binding.kind} at step {step.index} ({step.path}:{step.action.line}): {binding.cause}",
            divergence.to_dict(self.options.level),
            hint=f"repairHint {divergence.repair_hint}",
        )

    async def _try_capture(self) -> tuple[Capture | None, str | None]:
        try:
            return await self.host.capture(), None
        except Exception as exc:  # noqa: BLE001 - a capture failure never masks the original cause
            return None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__


def _failure(exc: ReplayError, match_count: int | None = None) -> Binding:
    """An ``action-failure`` binding from a failed dispatch (candidates of an ambiguous match kept)."""
    candidates = [str(c) for c in exc.details.get("candidates", [])] if exc.details else []
    return Binding(hints.ACTION_FAILURE, exc.message, match_count, candidates=candidates)
