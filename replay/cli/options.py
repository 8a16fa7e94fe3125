"""The click options of the operations' and the backends' declarations (``replay.options.Option``):
a command takes them with one decorator each, and gets them as one ``dict`` by Python name."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable, Iterable
from typing import Any, TypeVar

import click

from replay.cli.output import report_error
from replay.errors import ReplayError
from replay.limits import MAX_MS
from replay.options import Option, backend_options
from replay.session.contract import caller_options

F = TypeVar("F", bound=Callable[..., Any])

_TYPES: dict[str, Any] = {"str": str, "int": int, "ms": click.IntRange(1, MAX_MS), "float": float}


def click_option(option: Option, param: str) -> Callable[[F], F]:
    """The click option of ``option``, its value under ``param``."""
    assert option.flag is not None
    if option.kind == "bool":  # a flag; a bool on by default is switched off by its --no-… flag
        return click.option(option.flag, param, is_flag=True, help=option.help)
    if option.kind == "values":
        return click.option(option.flag, param, multiple=True, metavar=option.metavar, help=option.help)
    kind = click.Choice(option.choices) if option.choices else _TYPES[option.kind]
    bare = bool(option.metavar and option.metavar.startswith("["))  # `--save-script` alone: its value is ""
    extra: dict[str, Any] = {"is_flag": False, "flag_value": ""} if bare else {}
    return click.option(
        option.flag,
        param,
        type=kind,
        default=None,
        metavar=option.metavar,
        help=option.help,
        **extra,
    )


def given(option: Option, value: Any) -> Any:
    """A click value as the option's own (a switched-off flag's is its negation; ``-e`` pairs a dict)."""
    if option.kind == "bool":
        return (not option.switched_off) if value else None
    if option.kind == "values":
        from replay.script.variables import parse_cli_assignment

        return dict(parse_cli_assignment(p) for p in value) or None
    return value


def with_options(declared: Iterable[Option], into: str) -> Callable[[F], F]:
    """Add ``declared``'s click options to a command, which gets them as ``into``: ``{name: value}``
    (only those given)."""
    declared = [o for o in declared if o.flag is not None]

    def decorate(fn: F) -> F:
        @functools.wraps(fn)
        def command(**kwargs: Any) -> Any:
            chosen = {}
            for option in declared:
                try:
                    value = given(option, kwargs.pop(f"{into}_{option.name}"))
                except ReplayError as err:  # (read before the command's own error handling: said the same way)
                    sys.exit(report_error(err, bool(kwargs.get("as_json"))))
                if value is not None:
                    chosen[option.name] = value
            return fn(**kwargs, **{into: chosen})

        for option in reversed(declared):
            command = click_option(option, f"{into}_{option.name}")(command)
        return command  # type: ignore[return-value]

    return decorate


def operation_options(op: str, *, only: tuple[str, ...] = ()) -> Callable[[F], F]:
    """``op``'s options a caller gives (``only`` these, when named), as ``options``."""
    declared = [o for o in caller_options(op) if not only or o.name in only]
    return with_options(declared, "options")


def backend_flags(fn: F) -> F:
    """Every backend's options (``--headed``, ``--serial`` …), as ``backend``."""
    return with_options(backend_options(), "backend")(fn)
