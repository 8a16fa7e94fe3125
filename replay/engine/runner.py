"""Run a plan: verify before every element action, act only on the verified path, stop with a divergence."""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field, replace
from typing import Any, NoReturn

from replay.engine import step as pipeline
from replay.engine.divergence import Binding, Divergence, build_divergence
from replay.engine.effects import view_ahead
from replay.engine.journal import PLAN
from replay.engine.state import interrupt
from replay.errors import ActionFailed, AmbiguousMatch, DivergenceError, ReplayError, StaleRef
from replay.limits import DEFAULT_TIMEOUT_MS
from replay.script.plan import Plan, PlanStep
from replay.script.redact import scrub, secrets_of
from replay.script.resolve import resolve_action
from replay.tree.model import Capture


@dataclass
class StepTiming:
    """Per-step start/stop."""

    index: int
    command: str
    line: int
    started: float
    ms: float
    resolution: dict[str, Any] | None = None
    drift: list[str] | None = None  # what changed around the step without stopping it (design §5, §15)

    def to_dict(self) -> dict[str, Any]:
        """JSON of one timing."""
        out: dict[str, Any] = {"index": self.index, "command": self.command, "line": self.line, "ms": round(self.ms, 1)}
        if self.resolution is not None:
            out["resolution"] = self.resolution
        if self.drift:
            out["drift"] = self.drift
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
    timeout_ms: int = DEFAULT_TIMEOUT_MS
    level: str = "default"
    artifacts_dir: str = "."
    held: bool | None = None  # repairSessionHeld, for armed runs
    effects: bool = True  # check each step's recorded effect (design §15; --no-effects)


class Runner:
    """Runs one plan on one session, every step through the step pipeline."""

    def __init__(self, state: pipeline.StepState, plan: Plan, options: RunOptions) -> None:
        self.state = state
        self.plan = plan
        self.options = options
        self.last_divergence: Divergence | None = None
        self.timings: list[StepTiming] = []  # the steps done so far, also when the run stops

    async def run(self) -> RunResult:
        """Run steps ``start``.. of the plan; raise ``DivergenceError`` on the first divergence."""
        t0 = time.monotonic()
        timings = self.timings
        steps = self.plan.steps[self.options.start - 1 :]
        for position, step in enumerate(steps):
            if step.action.command == "close" and step.index == len(self.plan.steps):
                break  # a terminal close ends the script; the session is the runner's to close
            started = time.monotonic()
            following = steps[position + 1] if position + 1 < len(steps) else None
            # a step's effect check looks at what the next step binds by too (one look a step, design §15)
            self.state.watch.ahead = view_ahead(following.action) if following is not None else None
            resolution, drift = await self.run_step(step)
            timings.append(
                StepTiming(
                    step.index,
                    step.action.command,
                    step.action.line,
                    time.time(),
                    (time.monotonic() - started) * 1000,
                    resolution,
                    drift,
                )
            )
        return RunResult(self.plan.digest, len(self.plan.steps), len(timings), time.monotonic() - t0, timings)

    async def run_step(self, step: PlanStep) -> tuple[dict[str, Any] | None, list[str] | None]:
        """One step through the pipeline: its resolution when it targeted an element, and its drift.

        A step that cannot bind its target, or whose dispatch fails, stops the run with a
        divergence; any other error (a failed assertion, a wait absent that timed out) is the
        run's failure, located at the step's line.
        """
        try:
            result = await pipeline.execute(
                self.state,
                step.action,
                provenance=PLAN,
                timeout_ms=self.options.timeout_ms,
                values=self.options.values,
                path=step.path,
                effects=self.options.effects and self.plan.effects,
            )
        except pipeline.StepStopped as stop:
            await self._diverge(step, stop.binding, stop.capture)
        except (AmbiguousMatch, ActionFailed, StaleRef) as exc:
            await self._diverge(step, Binding.failed_dispatch(exc), None)
        except ReplayError as exc:
            raise exc.at(step.location) from None
        resolution, drift = result.get("resolution"), result.get("drift")
        return (resolution if isinstance(resolution, dict) else None), (drift if isinstance(drift, list) else None)

    # divergences ---------------------------------------------------------------------------

    async def _diverge(self, step: PlanStep, binding: Binding, capture: Capture | None) -> NoReturn:
        """Stop with a divergence. Its screen is ``capture`` (pre-action) or a fresh post-response one."""
        error = None
        if capture is None:
            capture, error = await self._try_capture()
        if capture is not None:
            self.state.refs_capture = capture  # the agent can act on the screen's refs at once
        if binding.effect is not None:  # its facts may quote what an earlier step typed (design §6)
            binding = self._redacted(binding)
        divergence = build_divergence(
            binding,
            index=step.index,
            path=step.path,
            action=step.action,
            capture=capture,
            capture_error=error,
            evidence=step.action.annotation,
            plan_len=len(self.plan.steps),
            plan_digest=self.plan.digest,
            held=self.options.held,
            session=self.state.name,
        )
        divergence.write_overflow(self.options.artifacts_dir, self.options.level)
        self.last_divergence = divergence
        raise DivergenceError(
            f"{binding.kind} at step {step.index} ({step.path}:{step.action.line}): {binding.cause}",
            divergence.to_dict(self.options.level),
            source=divergence,
            hint=f"repairHint {divergence.repair_hint}",
        )

    def _redacted(self, binding: Binding) -> Binding:
        """A missing effect's words with every text the plan types, and every variable's value, hidden."""
        actions = []
        for planned in self.plan.steps:
            try:
                actions.append(resolve_action(planned.action, self.options.values, planned.path))
            except ReplayError:
                actions.append(planned.action)
        secrets = secrets_of(actions, self.options.values)
        effect = {k: scrub(v, secrets) for k, v in (binding.effect or {}).items()}
        return replace(binding, cause=scrub(binding.cause, secrets), effect=effect)

    async def _try_capture(self) -> tuple[Capture | None, str | None]:
        try:
            return await asyncio.wait_for(pipeline.capture(self.state), self.options.timeout_ms / 1000 + 5), None
        except TimeoutError:  # a page that does not answer (its script never yields)
            await interrupt(self.state.driver)
            return None, "the page did not answer in time (its JavaScript kept it busy)"
        except Exception as exc:  # noqa: BLE001 - a capture failure never masks the original cause
            return None, str(exc).splitlines()[0] if str(exc) else type(exc).__name__
