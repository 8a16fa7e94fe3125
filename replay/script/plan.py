"""The plan: fully expanded executable steps numbered from 1, and its SHA-256 digest (design §3)."""

from __future__ import annotations

import functools
import hashlib
import json
from dataclasses import dataclass

from replay.errors import InvalidArgs, Location, ReplayError, UnsupportedCommand, UnsupportedPlatform
from replay.limits import DEFAULT_TIMEOUT_MS
from replay.platforms import ANDROID, DEFAULT_PLATFORM, PLATFORMS
from replay.script import apps
from replay.script import evidence as ev_codec
from replay.script.ast import Action, Script, Target
from replay.script.registry import REGISTRY
from replay.script.selector import format_selector


@dataclass(frozen=True)
class PlanStep:
    """One executable step: its 1-based ordinal and the action it runs."""

    index: int
    action: Action
    path: str

    @property
    def location(self) -> Location:
        """Where the step's line is."""
        return Location(self.path, self.action.line)


@dataclass(frozen=True)
class Plan:
    """The steps of a script for one effective platform."""

    script: Script
    platform: str
    steps: tuple[PlanStep, ...]

    @functools.cached_property
    def digest(self) -> str:
        """SHA-256 over the canonical plan; ``${VAR}`` values are late-bound and excluded (computed once a
        plan: a run says it as it starts and as it ends)."""
        return plan_digest(self)

    @property
    def timeout_ms(self) -> int:
        """The script's step timeout (``context timeout=``) or the default."""
        return int(self.script.context.get("timeout", DEFAULT_TIMEOUT_MS))

    @property
    def effects(self) -> bool:
        """Whether its steps check their recorded effects (``context effects=off`` turns that off)."""
        return self.script.context.get("effects", "on") != "off"


def _canon_value(value: object) -> object:
    if isinstance(value, Target):
        if value.ref is not None:
            return {"ref": value.ref, "hint": value.hint}
        assert value.selector is not None
        return {"selector": format_selector(value.selector)}
    if isinstance(value, tuple):
        return list(value)
    return value


def canonical_step(step: PlanStep, source: str) -> dict[str, object]:
    """The serialization of one step that the digest covers."""
    a = step.action
    return {
        "index": step.index,
        "command": a.command,
        "form": a.form,
        "params": [[k, _canon_value(v)] for k, v in a.params],
        "flags": [[k, v] for k, v in sorted(a.flags)],
        "annotation": ev_codec.encode(a.annotation) if a.annotation is not None else None,
        "source": {"path": source, "line": a.line},
    }


def plan_digest(plan: Plan) -> str:
    """SHA-256 (hex) of the canonical plan plus the effective platform."""
    body = {
        "version": 1,
        "platform": plan.platform,
        "steps": [canonical_step(s, plan.script.source or plan.script.path) for s in plan.steps],
    }
    data = json.dumps(body, sort_keys=True, ensure_ascii=False, separators=(",", ":"))
    return hashlib.sha256(data.encode("utf-8")).hexdigest()


def plan_problems(script: Script, platform: str | None = None) -> tuple[str, list[ReplayError]]:
    """The effective platform and every step it cannot perform (one error per line)."""
    effective = platform or script.context.get("platform") or DEFAULT_PLATFORM
    if effective not in PLATFORMS:
        return effective, [
            UnsupportedPlatform(
                f"platform {effective!r} is not supported",
                hint="replay runs platform=web (Playwright) and platform=android (adb)",
                location=Location(script.path, _context_line(script)),
            )
        ]
    problems: list[ReplayError] = _unpaired_drags(script)
    for action in script.actions:
        cmd = REGISTRY.get(action.command)
        assert cmd is not None
        where = Location(script.path, action.line)
        if cmd.form(action.form).op is None:  # parsed for compatibility, never performed: refused, not skipped
            problems.append(
                UnsupportedCommand(
                    f"`{action.command}` ({action.form} form) is agent-device's; this tool does not perform it",
                    hint="remove the step, or do it by hand before the run (docs/android.md lists what runs)",
                    location=where,
                )
            )
            continue
        if effective not in cmd.platforms:
            on = ", ".join(cmd.platforms) or "no platform of this tool"
            problems.append(
                UnsupportedCommand(
                    f"`{action.command}` cannot be performed on {effective}",
                    hint=f"`{action.command}` is available on: {on}; remove the step or change the platform",
                    location=where,
                )
            )
            continue
        problem = open_problem(action, effective)
        if problem is not None:
            problems.append(InvalidArgs(f"open: {problem}", hint=apps.HINT, location=where))
            continue
        for name, _ in action.flags:
            flag = cmd.flag(name)
            if flag is not None and effective not in flag.platforms:
                problems.append(
                    UnsupportedCommand(
                        f"`{action.command} {name}` cannot be performed on {effective}",
                        hint=f"remove {name} for {effective}",
                        location=where,
                    )
                )
    return effective, problems


def _unpaired_drags(script: Script) -> list[ReplayError]:
    """A ``drag`` holds the button down until the next step, which must be its ``drop`` (and a
    ``drop`` ends the ``drag`` just before it)."""
    problems: list[ReplayError] = []
    actions = script.actions
    for i, action in enumerate(actions):
        before = actions[i - 1].command if i else None
        after = actions[i + 1].command if i + 1 < len(actions) else None
        if action.command == "drag" and after != "drop":
            said, hint = "`drag` is not followed by its `drop`", "write `drop TARGET` on the next step"
        elif action.command == "drop" and before != "drag":
            said, hint = "`drop` does not follow a `drag`", "write `drag SOURCE` on the step before it"
        else:
            continue
        problems.append(InvalidArgs(said, hint=hint, location=Location(script.path, action.line)))
    return problems


def build_plan(script: Script, platform: str | None = None) -> Plan:
    """Expand a script into its plan, rejecting what the effective platform cannot perform."""
    from replay.errors import ScriptErrors

    effective, problems = plan_problems(script, platform)
    if problems:
        raise ScriptErrors(problems)
    steps = tuple(PlanStep(i, action, script.path) for i, action in enumerate(script.actions, start=1))
    return Plan(script, effective, steps)


def open_problem(action: Action, platform: str | None) -> str | None:
    """Why an Android ``open`` names no app it may start (a value from ``${VAR}`` is checked when
    the driver opens it, resolved); asked by the plan, and by the daemon before a session (and its
    device connection) is made for an interactive ``open``."""
    if action.command != "open" or platform != ANDROID:
        return None
    target = action.param("url")
    if not isinstance(target, str) or "${" in target:
        return None
    return apps.app_problem(target)


def _context_line(script: Script) -> int | None:
    from replay.script.ast import Context

    for item in script.items:
        if isinstance(item, Context) and any(k == "platform" for k, _ in item.pairs):
            return item.line
    return None
