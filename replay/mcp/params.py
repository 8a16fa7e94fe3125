"""MCP tool parameters from the options' declarations: MCPServer derives a tool's input schema from
its Python signature, so a tool that takes declared options (``**options``) gets a signature naming
each one, with its type, default and help."""

from __future__ import annotations

import inspect
from collections.abc import Callable, Iterable
from typing import Annotated, Any, TypeVar

from pydantic import Field

from replay.options import Option, backend_options

F = TypeVar("F", bound=Callable[..., Any])

_TYPES: dict[str, Any] = {
    "str": str | None,
    "int": int | None,
    "ms": int | None,
    "float": float | None,
    "bool": bool,
    "values": dict[str, str] | None,
}


def parameter(option: Option) -> inspect.Parameter:
    """``option`` as a keyword parameter: its type (None when not given), default and description."""
    kind = _TYPES[option.kind]
    default = bool(option.default) if option.kind == "bool" else None
    return inspect.Parameter(
        option.name,
        inspect.Parameter.KEYWORD_ONLY,
        default=default,
        annotation=Annotated[kind, Field(description=option.help)],
    )


def given(options: dict[str, Any]) -> tuple[dict[str, Any], dict[str, Any]]:
    """A tool's ``**options`` as (the operation's, the backends'), each without what was not given."""
    backends = {o.name for o in backend_options()}
    own = {k: v for k, v in options.items() if v is not None and k not in backends}
    return own, {k: v for k, v in options.items() if v is not None and k in backends}


def takes(*declared: Iterable[Option]) -> Callable[[F], F]:
    """The tool's own parameters, then ``declared``'s in place of its ``**options``."""

    def decorate(fn: F) -> F:
        signature = inspect.signature(fn, eval_str=True)  # (a signature set is taken as it is: types, not names)
        own = [p for p in signature.parameters.values() if p.kind is not inspect.Parameter.VAR_KEYWORD]
        names = {p.name for p in own}
        added = [parameter(o) for group in declared for o in group if o.name not in names]
        fn.__signature__ = signature.replace(parameters=[*own, *added])  # type: ignore[attr-defined]
        return fn

    return decorate
