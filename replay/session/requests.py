"""The daemon's requests, typed: read from the client's JSON object in one place (``parse``), by the
operation's declaration (``session.contract``), so a handler gets fields of the right kind and never
a raw ``dict``. A key the client sends that its operation does not declare is refused
(``INVALID_ARGS``), so the two ends cannot drift apart unnoticed.
"""

from __future__ import annotations

from typing import Any, TypeAlias

from replay.errors import InvalidArgs
from replay.options import Option
from replay.session.contract import COMMAND_OPTIONS, OPERATIONS


class Request:
    """A request read by its declaration: ``request.timeout``, ``request.options.cwd`` … (frozen)."""

    __slots__ = ("_fields", "op")

    def __init__(self, op: str, fields: dict[str, Any]) -> None:
        object.__setattr__(self, "op", op)
        object.__setattr__(self, "_fields", fields)

    def __getattr__(self, name: str) -> Any:
        try:
            return self._fields[name]
        except KeyError:
            raise AttributeError(f"a {self.op!r} request has no field {name!r}") from None

    def __setattr__(self, name: str, value: Any) -> None:
        raise AttributeError("a request is read-only: make another with replace()")

    def __repr__(self) -> str:
        return f"Request({self.op!r}, {self._fields!r})"

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Request) and (self.op, self._fields) == (other.op, other._fields)

    __hash__ = None  # type: ignore[assignment]  # (its fields are dicts)

    def replace(self, **changes: Any) -> Request:
        """This request with ``changes``."""
        unknown = set(changes) - set(self._fields)
        if unknown:
            raise AttributeError(f"a {self.op!r} request has no field {sorted(unknown)[0]!r}")
        return Request(self.op, {**self._fields, **changes})


def parse(obj: dict[str, Any]) -> Request:
    """The typed request of a client's JSON object; ``INVALID_ARGS`` saying what is wrong."""
    op = obj.get("op")
    declared = OPERATIONS.get(op) if isinstance(op, str) else None
    if declared is None:
        raise InvalidArgs(f"unknown request {obj.get('op')!r}", hint="see replay.client.Client for the requests")
    assert isinstance(op, str)
    return make(op, {k: v for k, v in obj.items() if k != "op"})


def make(op: str, given: dict[str, Any]) -> Request:
    """The request ``op`` of ``given`` (its wire keys), every field read by its declaration."""
    return Request(op, _read(op, OPERATIONS[op], given))


def command_options(given: dict[str, Any] | None = None) -> Request:
    """A command's options (``options`` of ``command`` and ``record``), defaults filled in."""
    return Request("options", _read("options", COMMAND_OPTIONS, given or {}))


def _read(op: str, declared: tuple[Option, ...], obj: dict[str, Any]) -> dict[str, Any]:
    by_wire = {o.wire: o for o in declared}
    unknown = sorted(set(obj) - set(by_wire))
    if unknown:
        raise InvalidArgs(f"bad request: unknown field {unknown[0]!r} for {op}")
    fields: dict[str, Any] = {}
    for wire, option in by_wire.items():
        if wire not in obj and option.required:
            raise InvalidArgs(f"bad request: {wire!r} is missing", hint="a JSON object per line")
        value = option.read(obj.get(wire))
        if option.name == "options":
            value = command_options(value)
        fields[option.name] = value
    return fields


# the requests' names in annotations (each is a ``Request`` of its op)
Command: TypeAlias = Request
Run: TypeAlias = Request
Close: TypeAlias = Request
ShowDivergence: TypeAlias = Request
HealBuiltin: TypeAlias = Request
Record: TypeAlias = Request
RecordEvents: TypeAlias = Request
CommandOptions: TypeAlias = Request
