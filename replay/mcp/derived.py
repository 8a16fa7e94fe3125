"""A tool for every interactive command that has none written by hand, derived from the command's
registry declaration (design §11): its parameters are the command's own — a positional parameter by
its name, a flag by its word (``--message`` → ``message``) — and a call becomes the command line
the CLI would have sent, so the daemon reads and checks it exactly as it reads the CLI's (`tab -1`
is refused with the same words). A dialog or a second tab never leaves an MCP-only agent stuck."""

from __future__ import annotations

import inspect
from dataclasses import dataclass
from typing import Annotated, Any, Literal

from pydantic import Field

from replay.errors import InvalidArgs
from replay.script.declare import GLOBAL_FLAGS, INDEX, INT, NUMBER, Command, Flag, Form, Param

SESSION_HELP = "The session (default: $REPLAY_SESSION, else `default`)."
TIMEOUT_HELP = "Step timeout in ms (default: the script's context, else 5000)."


SPELLED = {"type": "type_text"}  # (a tool named as a Python builtin is no help to an agent's code)


def tool_name(command: str) -> str:
    """A command's tool name: snake_case (``long-press`` → ``long_press``; ``type`` → ``type_text``)."""
    return SPELLED.get(command, command.replace("-", "_"))


def flag_word(flag: Flag) -> str:
    """A flag's parameter name: ``--pause-ms`` → ``pause_ms``."""
    return flag.name.lstrip("-").replace("-", "_")


def _type(kind: str, choices: tuple[str, ...]) -> Any:
    if choices:
        return Literal[choices]  # (a JSON schema enum: the agent sees the words)
    return {INT: int, INDEX: int, NUMBER: float}.get(kind, str)


@dataclass(frozen=True)
class Derived:
    """One command's tool: its parameters, and the command line a call stands for."""

    command: Command

    @property
    def name(self) -> str:
        return tool_name(self.command.name)

    def positional(self) -> dict[str, tuple[Param, tuple[str, ...], bool]]:
        """Each positional parameter of any form, in order of first use: its declaration, every word it
        may be across forms, and whether every form needs it."""
        out: dict[str, tuple[Param, tuple[str, ...], bool]] = {}
        for form in self.command.forms:
            for p in form.params:
                seen = out.get(p.name)
                words = tuple(dict.fromkeys((*(seen[1] if seen else ()), *p.choices)))
                out[p.name] = (seen[0] if seen else p, words, (seen[2] if seen else True) and not p.optional)
        for name, (p, words, needed) in out.items():
            everywhere = all(any(q.name == name for q in f.params) for f in self.command.forms)
            out[name] = (p, words, needed and everywhere)
        return out

    def flags(self) -> tuple[Flag, ...]:
        return self.command.flags + GLOBAL_FLAGS

    def parameters(self) -> list[inspect.Parameter]:
        """The tool's signature: the positional parameters (the needed ones first), the flags, the
        session and the timeout — each with its type, default and description."""
        needed, optional = [], []
        for name, (p, words, required) in self.positional().items():
            kind = _type(p.kind, words)
            about = f"{p.name} ({' | '.join(words)})" if words else p.name
            if required:
                needed.append(_param(name, kind, inspect.Parameter.empty, about))
            else:
                optional.append(_param(name, kind | None, None, about))
        for flag in self.flags():
            if flag.takes_value:
                kind = int if flag.whole_number else _type("", flag.choices)
                optional.append(_param(flag_word(flag), kind | None, None, f"{flag.name} VALUE"))
            else:
                optional.append(_param(flag_word(flag), bool, False, flag.name))
        optional.append(_param("session", str | None, None, SESSION_HELP))
        optional.append(_param("timeout", int | None, None, TIMEOUT_HELP))
        return needed + optional

    def argv(self, given: dict[str, Any]) -> list[str]:
        """The command line a call stands for (``given``: its arguments less session and timeout; a
        None or False one is not given). Refused when the arguments make none of the command's forms."""
        words = {f.name: f for f in self.flags()}
        by_word = {flag_word(f): f for f in words.values()}
        positional = {k: v for k, v in given.items() if k not in by_word and v is not None}
        form = next((f for f in self.command.forms if _fits(f, positional)), None)
        if form is None:
            raise InvalidArgs(
                f"{self.name}: {', '.join(f'{k}={v!r}' for k, v in positional.items()) or 'no arguments'} "
                f"make none of `{self.command.name}`'s forms",
                hint="its forms: " + "; ".join(_usage(f) for f in self.command.forms),
            )
        argv = [self.command.name] + [_word(positional[p.name]) for p in form.params if p.name in positional]
        for word, flag in by_word.items():
            value = given.get(word)
            if flag.takes_value and value is not None:
                argv += [flag.name, _word(value)]
            elif not flag.takes_value and value is True:
                argv.append(flag.name)
        return argv


def _param(name: str, kind: Any, default: Any, about: str) -> inspect.Parameter:
    return inspect.Parameter(
        name, inspect.Parameter.KEYWORD_ONLY, default=default, annotation=Annotated[kind, Field(description=about)]
    )


def _fits(form: Form, given: dict[str, Any]) -> bool:
    names = {p.name for p in form.params}
    if not set(given) <= names:
        return False
    for p in form.params:
        if p.name not in given:
            if not p.optional:
                return False
        elif p.choices and given[p.name] not in p.choices:
            return False
    return True


def _word(value: Any) -> str:
    return str(value).lower() if isinstance(value, bool) else str(value)


def _usage(form: Form) -> str:
    said = [
        (f"{p.name}={'|'.join(p.choices)}" if p.choices else p.name) + ("?" if p.optional else "") for p in form.params
    ]
    return " ".join(said) or "(no arguments)"
