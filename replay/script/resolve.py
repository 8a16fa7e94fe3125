"""Late binding of ``${VAR}`` values into one action at dispatch (design §3)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from dataclasses import replace

from replay.errors import InvalidArgs, Location, ReplayError
from replay.limits import MAX_MS
from replay.script.ast import Action, Script, Target
from replay.script.literals import is_coord, is_ms
from replay.script.registry import REGISTRY
from replay.script.selector import map_values
from replay.script.variables import effective_values, parse_template, resolve


def _resolve_value(value: object, values: Mapping[str, str], where: Location) -> object:
    if isinstance(value, str):
        return resolve(value, values, where)
    if isinstance(value, tuple):
        return tuple(resolve(v, values, where) for v in value)
    if isinstance(value, Target):
        if value.selector is None:
            return replace(value, hint=resolve(value.hint, values, where) if value.hint else value.hint)
        return replace(value, selector=map_values(value.selector, lambda v: resolve(v, values, where)))
    return value


def resolve_action(action: Action, values: Mapping[str, str], path: str) -> Action:
    """The action with every ``${VAR}`` substituted; an unresolved name fails with file:line, and a
    duration that a variable made (``wait ${MS}``) is checked as a literal one is."""
    where = Location(path, action.line)
    params = tuple((k, _resolve_value(v, values, where)) for k, v in action.params)
    for name, value in params:
        if isinstance(value, str) and REGISTRY.is_duration(action.command, action.form, name) and not is_ms(value):
            raise InvalidArgs(
                f"{action.command}: {name} must be a whole number of milliseconds up to {MAX_MS} (an hour)",
                hint="check the variable's value",
                location=where,
            )
        if isinstance(value, str) and REGISTRY.is_coordinate(action.command, action.form, name) and not is_coord(value):
            raise InvalidArgs(
                f"{action.command}: {name} must be device px or a percentage of the screen (50%), got {value[:20]!r}",
                hint="check the variable's value",
                location=where,
            )
    flags = tuple((k, resolve(v, values, where) if isinstance(v, str) else v) for k, v in action.flags)
    return replace(action, params=params, flags=flags)


def variables_for(
    script: Script,
    *,
    platform: str,
    session: str = "default",
    artifacts: str = "",
    cli: Mapping[str, str] | None = None,
    shell: Mapping[str, str] | None = None,
) -> dict[str, str]:
    """The effective variable values for running ``script``, by design §3 precedence."""
    builtins = {
        "REPLAY_PLATFORM": platform,
        "REPLAY_SESSION": session,
        "REPLAY_FILENAME": script.path,
        "REPLAY_ARTIFACTS": artifacts,
    }
    return effective_values(
        script_env=script.env, builtins=builtins, shell=os.environ if shell is None else shell, cli=cli or {}
    )


def unresolved(script: Script, values: Mapping[str, str]) -> list[ReplayError]:
    """Every action whose variables cannot be resolved, one error per line."""
    errors: list[ReplayError] = []
    for action in script.actions:
        try:
            resolve_action(action, values, script.path)
        except ReplayError as exc:
            errors.append(exc)
    return errors


__all__ = ["parse_template", "resolve_action", "unresolved", "variables_for"]
