"""An option, declared once and projected to every surface that takes it: the click option, the fast
path's reader, the ``Client`` keyword, the daemon's request field and the MCP tool parameter.

Operations declare theirs in ``replay.session.contract``; each backend declares its own in its
package's ``__init__`` (``OPTIONS``), which the surfaces read through ``backend_options``. Light on
purpose (no ``dataclasses``, no ``typing``): the fast path imports it on every command.
"""

from __future__ import annotations

import importlib

from replay.errors import InvalidArgs
from replay.limits import check_ms
from replay.platforms import BACKENDS

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from collections.abc import Callable
    from typing import Any

# the kinds an option's value may have (the Python type each surface declares for it)
KINDS = {"str": str, "int": int, "ms": int, "bool": bool, "float": float, "values": dict, "words": list, "object": dict}


class Option:
    """One option. ``name``: its Python name (``Client`` keyword, request field, MCP parameter);
    ``wire``: its key in a request (default ``name``); ``flag``: its CLI flag (None: not on the CLI;
    a bool defaulting to True is switched off by its ``--no-…`` flag); ``env``: the environment
    variable a caller that gives none falls back to; ``path``: a file path, made absolute against
    the caller's directory by the client; ``check``: a function of the value that returns it (checked
    beyond its kind) or raises ``INVALID_ARGS``; ``caller``: False for a field the client fills in
    itself (the working directory, the script's path as typed), which no surface offers;
    ``required``: a request without it is refused. A ``metavar`` in brackets (``[PATH]``) makes a
    flag that may be given bare (``--save-script``: its value is then ``""``)."""

    __slots__ = (
        "caller",
        "check",
        "choices",
        "default",
        "env",
        "flag",
        "help",
        "kind",
        "metavar",
        "name",
        "path",
        "required",
        "wire",
    )

    def __init__(
        self,
        name: str,
        kind: str = "str",
        default: Any = None,
        *,
        help: str,  # noqa: A002 - click's word for it
        flag: str | None = "",
        wire: str | None = None,
        metavar: str | None = None,
        env: str | None = None,
        choices: tuple[str, ...] = (),
        path: bool = False,
        check: Callable[[Any], Any] | None = None,
        caller: bool = True,
        required: bool = False,
    ) -> None:
        if kind not in KINDS:
            raise ValueError(f"option {name!r}: unknown kind {kind!r}")
        if kind == "values" and default is None:
            default = {}  # (copied on every read: never shared)
        self.name, self.kind, self.default, self.help = name, kind, default, help
        self.flag = ("--" + name.replace("_", "-")) if flag == "" else flag
        self.wire = wire or name
        self.metavar, self.env, self.choices, self.path, self.check = metavar, env, choices, path, check
        self.caller, self.required = caller, required

    def __repr__(self) -> str:
        return f"Option({self.name!r}, {self.kind!r})"

    @property
    def switched_off(self) -> bool:
        """A bool that is on unless its ``--no-…`` flag is given (``--no-effects``)."""
        return self.kind == "bool" and self.default is True

    def read(self, value: Any, where: str = "") -> Any:
        """``value`` when it has this option's kind (a ``check`` says itself what it must be, the one
        message every surface gives); ``INVALID_ARGS`` saying why."""
        if value is None and not self.required:
            return dict(self.default) if isinstance(self.default, dict) else self.default
        if self.check is not None:
            return self.check(value)
        label = where or f"{self.wire!r}"
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise InvalidArgs(f"bad request: {label} must be true or false", hint="a JSON object per line")
        elif self.kind == "ms":
            value = check_ms(self.name, value)
        elif self.kind == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                raise InvalidArgs(f"bad request: {label} must be a whole number", hint="a JSON object per line")
        elif self.kind == "float":
            if isinstance(value, bool) or not isinstance(value, (int, float)):
                raise InvalidArgs(f"bad request: {label} must be a number", hint="a JSON object per line")
        elif self.kind in ("values", "object"):
            if not isinstance(value, dict):
                raise InvalidArgs(f"bad request: {label} must be a JSON object", hint="a JSON object per line")
            if self.kind == "values":
                value = {str(k): str(v) for k, v in value.items()}
        elif self.kind == "words":
            if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
                raise InvalidArgs(f"bad request: {label} must be a list of strings", hint="a JSON object per line")
        elif not isinstance(value, str):
            raise InvalidArgs(f"bad request: {label} must be a string", hint="a JSON object per line")
        if self.choices and value not in self.choices:
            raise InvalidArgs(f"{label} must be one of {', '.join(self.choices)}, got {value!r}")
        return value


def backend_options(platform: str | None = None) -> tuple[Option, ...]:
    """The options the backends declare (``platform``'s only, when given): one of each name, however
    many backends declare it (they must declare it alike)."""
    found: dict[str, Option] = {}
    for name in BACKENDS if platform is None else (platform,):
        for option in backend_package(name).OPTIONS:
            other = found.setdefault(option.name, option)
            if other is not option and (other.kind, other.default) != (option.kind, option.default):
                raise ValueError(f"backends declare option {option.name!r} differently")
    return tuple(found.values())


def backend_package(platform: str) -> Any:
    """The package of ``platform``'s backend: its ``OPTIONS`` and its ``new_backend`` factory (light to import)."""
    return importlib.import_module(BACKENDS[platform])


def read_backend(platform: str, given: dict[str, Any]) -> dict[str, Any]:
    """The options of ``platform``'s backend out of ``given`` (an option another backend declares is
    not this one's, and is left out), each read by its declaration; defaults filled in."""
    out: dict[str, Any] = {}
    for option in backend_package(platform).OPTIONS:
        value = given.get(option.name)
        out[option.name] = option.default if value is None else option.read(value, f"backend option {option.name!r}")
    return out


def check_backend(given: Any) -> dict[str, Any]:
    """A request's ``backend`` object: names some backend declares, values of their kinds."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise InvalidArgs("bad request: 'backend' must be a JSON object", hint="a JSON object per line")
    declared = {o.name: o for o in backend_options()}
    for name, value in given.items():
        if name not in declared:
            raise InvalidArgs(f"bad request: no backend has an option {name!r}", hint=f"one of {', '.join(declared)}")
        declared[name].read(value, f"backend option {name!r}")
    return dict(given)
