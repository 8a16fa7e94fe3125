"""Redaction: what any report, log or artifact may show of a script and of what it typed (design §6).

One home for the rule. Text typed by ``fill``/``type`` is ``<redacted>``; a value that came from a
``${VAR}`` is ``<var:NAME>``. Every excerpt of a script that leaves the script itself (a divergence's
action, a healed script's diff, a timeline line) goes through ``action_text`` or ``script_excerpt``;
artifacts a library writes (a Playwright trace) are scrubbed of ``secrets_of`` a run. Free text
from outside (an agent's notes, a device's answer) goes through ``scrub`` with those secrets —
including the pieces Android's ``input text`` sends them in — and is bounded by ``bounded``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from replay.errors import Location, ReplayError
from replay.keys import valid_key
from replay.script.ast import Action
from replay.script.formatter import format_action
from replay.script.registry import REGISTRY
from replay.script.variables import Literal, Reference, parse_template
from replay.scrubbing import bounded as bounded
from replay.scrubbing import scrub as scrub

REDACTED = "<redacted>"
MIN_SECRET = 3  # a shorter value or piece ("ab", a last chunk "5") is not replaced: it would blank out words
ANDROID_CHUNK = 8  # characters per `input text` (replay.drivers.android.adb.TEXT_CHUNK): a piece on its own
_QUOTED = re.compile(r'"(?:[^"\\]|\\.)*"?|\'[^\']*\'?')
_ENV_LINE = re.compile(r"(\s*env\s+[A-Za-z0-9_]+=)(.*)")


def var_tag(name: str) -> str:
    """How a report shows the value of ``${NAME}``."""
    return f"<var:{name}>"


def redacted_text(value: str) -> str:
    """What a report shows of typed text: ``<var:NAME>`` for variables, never the literal."""
    parts = parse_template(value)
    if parts and all(isinstance(p, Reference) for p in parts):
        return " ".join(var_tag(p.name) for p in parts if isinstance(p, Reference))
    if any(isinstance(p, Reference) for p in parts):
        return "".join(
            var_tag(p.name) if isinstance(p, Reference) else REDACTED
            for p in parts
            if not (isinstance(p, Literal) and not p.text)
        )
    return REDACTED


def action_text(action: Action) -> str:
    """The step as written, with typed text redacted (the registry says which parameters are typed)."""
    params = tuple(
        (k, redacted_text(v) if REGISTRY.is_typed(action.command, k) and isinstance(v, str) else v)
        for k, v in action.params
    )
    shown = Action(action.line, action.command, action.form, params, action.flags, None)
    return re.sub(r'"((?:<(?:var:\w+|redacted)> ?)+)"', r"\1", format_action(shown))


def script_excerpt(text: str) -> str:
    """Script text as a report may show it (a diff's lines, a healed script): each action line that
    types text has it redacted; ``env`` values are ``<var:NAME>``; a line that does not parse has
    every quoted string redacted. Comments and annotations (no typed text: design §5) stay."""
    from replay.script.parser import parse_action

    out = []
    for number, line in enumerate(text.split("\n"), 1):
        stripped = line.strip()
        env = _ENV_LINE.match(line)
        if not stripped or stripped.startswith("#") or stripped.startswith("context "):
            out.append(line)
        elif env is not None:
            name = env[1].strip().split(None, 1)[1].rstrip("=")
            out.append(env[1] + var_tag(name))
        else:
            try:
                action = parse_action(line, Location("<excerpt>", number))
            except ReplayError:
                out.append(_QUOTED.sub(REDACTED, line))
                continue
            typed = any(REGISTRY.is_typed(action.command, k) for k, _ in action.params)
            indent = line[: len(line) - len(line.lstrip())]
            out.append(indent + action_text(action) if typed else line)
    return "\n".join(out)


def secrets_of(actions: Iterable[Action], values: Mapping[str, str]) -> list[tuple[str, str]]:
    """What a run may leave in an artifact a library wrote, and what to show instead: every user
    variable's value (``<var:NAME>``) and every text the run types (``<redacted>``), each also as
    the 8-character pieces Android types it in (a device's answer may quote one), longest first
    (a longer value is replaced before a value it contains). ``actions`` are resolved ones."""
    shown: dict[str, str] = {}
    for action in actions:
        for k, v in action.params:
            if REGISTRY.is_typed(action.command, k) and isinstance(v, str) and v:
                _add(shown, v, REDACTED)
    for name, value in values.items():
        if value and valid_key(name):  # built-ins (REPLAY_SESSION, …) are not the user's values
            _add(shown, value, var_tag(name), replace=True)
    return sorted(shown.items(), key=lambda item: -len(item[0]))


def _add(shown: dict[str, str], value: str, tag: str, *, replace: bool = False) -> None:
    pieces = [value] + [value[i : i + ANDROID_CHUNK] for i in range(0, len(value), ANDROID_CHUNK)]
    pieces += [p.replace(" ", "%s") for p in pieces if " " in p]  # as `input text` spells a space
    for piece in (p for p in pieces if len(p) >= MIN_SECRET):
        if replace:
            shown[piece] = tag  # a variable's name says more than <redacted>
        else:
            shown.setdefault(piece, tag)


def script_secrets(path: str, values: Mapping[str, str]) -> list[tuple[str, str]]:
    """What a heal of the script at ``path`` must never show: its variables' values (``-e`` and its
    own ``env``) and the literal text it types. A script that does not load gives the values only."""
    from replay.script.loader import load
    from replay.script.resolve import resolve_action

    try:
        script = load(path)
        known = {**script.env, **values}  # not the shell's: PATH and HOME are not secrets
    except ReplayError:
        return secrets_of([], values)
    actions = []
    for action in script.actions:
        try:
            actions.append(resolve_action(action, known, path))
        except ReplayError:
            actions.append(action)
    return secrets_of(actions, known)
