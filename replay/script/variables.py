"""``${VAR}`` templates, ``env`` keys, and the variable precedence of design §3.

Substitution is late-bound and per argument: a template is resolved inside one already
tokenized argument, so a value can never split it into two.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

from replay.errors import InvalidArgs, Location, UnresolvedVariable
from replay.keys import ENV_KEY, RESERVED_PREFIXES, SHELL_PREFIX

REF_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*\Z")


@dataclass(frozen=True)
class Literal:
    """Plain text inside a template."""

    text: str


@dataclass(frozen=True)
class Reference:
    """A ``${NAME}`` or ``${NAME:-default}`` reference."""

    name: str
    default: str | None = None


Part = Literal | Reference


def parse_template(text: str, where: Location | None = None) -> tuple[Part, ...]:
    """Split ``text`` into literal and reference parts; ``\\${`` is a literal ``${``."""
    parts: list[Part] = []
    buf: list[str] = []
    i = 0
    n = len(text)
    while i < n:
        if text.startswith("\\${", i):
            buf.append("${")
            i += 3
            continue
        if text.startswith("${", i):
            close = text.find("}", i + 2)
            if close < 0:
                raise InvalidArgs(
                    f"unterminated variable reference in {text!r}",
                    hint="write ${NAME} or ${NAME:-default}; a literal ${ is written \\${",
                    location=where,
                )
            body = text[i + 2 : close]
            name, sep, default = body.partition(":-")
            if not REF_NAME.match(name):
                raise InvalidArgs(
                    f"invalid variable name {name!r} in {text!r}",
                    hint="variable names are letters, digits and _ (env keys: [A-Z][A-Z0-9_]*)",
                    location=where,
                )
            if buf:
                parts.append(Literal("".join(buf)))
                buf = []
            parts.append(Reference(name, default if sep else None))
            i = close + 1
            continue
        buf.append(text[i])
        i += 1
    if buf:
        parts.append(Literal("".join(buf)))
    return tuple(parts)


def resolve(text: str, values: Mapping[str, str], where: Location | None = None) -> str:
    """Substitute every reference in ``text``; an unknown name without default fails."""
    if "${" not in text:
        return text  # no reference and no escaped ``\${``: most arguments of most steps
    out: list[str] = []
    for part in parse_template(text, where):
        if isinstance(part, Literal):
            out.append(part.text)
        elif part.name in values:
            out.append(values[part.name])
        elif part.default is not None:
            out.append(part.default)
        else:
            raise UnresolvedVariable(
                f"variable ${{{part.name}}} is not set",
                hint=f"set it with `env {part.name}=…` in the script, `-e {part.name}=…`, "
                f"or REPLAY_VAR_{part.name} in the shell; or write ${{{part.name}:-default}}",
                location=where,
            )
    return "".join(out)


def check_env_key(key: str, where: Location | None = None) -> None:
    """Validate a user-defined variable key (script ``env`` or CLI ``-e``)."""
    if not ENV_KEY.match(key):
        raise InvalidArgs(
            f"invalid variable key {key!r}",
            hint="keys match [A-Z][A-Z0-9_]* (upper case, digits, underscore)",
            location=where,
        )
    if key.startswith(RESERVED_PREFIXES):
        raise InvalidArgs(
            f"variable key {key!r} uses a reserved prefix",
            hint="the REPLAY_ and AD_ prefixes are reserved for built-ins",
            location=where,
        )


def effective_values(
    *,
    script_env: Mapping[str, str],
    builtins: Mapping[str, str],
    shell: Mapping[str, str],
    cli: Mapping[str, str],
) -> dict[str, str]:
    """Merge variable sources; highest precedence first: CLI, shell REPLAY_VAR_*, script, built-ins."""
    values: dict[str, str] = dict(builtins)
    values.update(script_env)
    for name, value in shell.items():
        if name.startswith(SHELL_PREFIX) and len(name) > len(SHELL_PREFIX):
            values[name[len(SHELL_PREFIX) :]] = value
    values.update(cli)
    return values


def parse_cli_assignment(text: str) -> tuple[str, str]:
    """Parse one ``-e KEY=VALUE`` option."""
    key, sep, value = text.partition("=")
    if not sep:
        raise InvalidArgs(f"-e expects KEY=VALUE, got {text!r}", hint="e.g. -e EMAIL=ada@example.com")
    check_env_key(key)
    return key, value
