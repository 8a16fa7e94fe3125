"""Parse `.ad` text into a ``Script`` (design §3). Every error is ours, with file:line:column."""

from __future__ import annotations

import difflib
import re
from collections.abc import Sequence

from replay.errors import InvalidArgs, Location, ReplayError, ScriptErrors
from replay.limits import MAX_MS
from replay.script import evidence as ev_codec
from replay.script.ast import Action, Annotation, Blank, Comment, Context, Env, Item, Script, Target
from replay.script.header import parse_context, parse_env
from replay.script.literals import KEY_CHORD, is_coord, is_int, is_ms, is_number
from replay.script.registry import (
    CHOICE,
    COORD,
    INDEX,
    INT,
    KEY,
    KEYWORD,
    NUMBER,
    RAW,
    REGISTRY,
    TARGET,
    TARGET_REST,
    TEXT,
    URL,
    Command,
    Form,
)
from replay.script.selector import REF, Alternative, Selector, normalize_text, parse_selector
from replay.script.text import quoted
from replay.script.tokens import Token, tokenize
from replay.script.variables import parse_template

_FLAG = re.compile(r"--?[A-Za-z][A-Za-z0-9-]*")
_TERM_START = re.compile(r"\s*(?:[A-Za-z][A-Za-z0-9_-]*(?:~?=)|[\"'])")


def parse_target(text: str, where: Location, column: int = 1) -> Target:
    """A target token's text: ``@eN``, a selector expression, or a bare text."""
    stripped = text.strip()
    if REF.match(stripped):
        return Target(ref=stripped)
    if stripped.startswith("@"):
        raise InvalidArgs(
            f"invalid ref {quoted(stripped)}",
            hint="refs look like @e3 (take a snapshot to see them)",
            location=Location(where.path, where.line, column),
        )
    from replay.script.selector import BOOL_KEYS

    first_word = stripped.split(maxsplit=1)[0] if stripped else ""
    if "||" in stripped or _TERM_START.match(stripped) or first_word in BOOL_KEYS:
        return Target(selector=parse_selector(text, where, column))
    if not stripped:
        raise InvalidArgs(
            "empty target", hint="give a selector, a text or a @ref", location=Location(where.path, where.line, column)
        )
    parse_template(stripped, Location(where.path, where.line, column))
    return Target(selector=Selector((Alternative(bare=normalize_text(stripped)),)))


def _rest_target(toks: Sequence[Token], line: str, where: Location) -> Target:
    first = toks[0]
    if not first.quoted and REF.match(first.text):
        if len(toks) == 1:
            return Target(ref=first.text)
        if len(toks) == 2 and toks[1].quoted:
            return Target(ref=first.text, hint=toks[1].text)
        rest = line[toks[1].column - 1 : toks[-1].end]
        return Target(ref=first.text, hint=rest)
    if len(toks) == 1:
        return parse_target(first.text, where, first.column)
    return parse_target(line[first.column - 1 : toks[-1].end], where, first.column)


def _choose_form(cmd: Command, toks: Sequence[Token]) -> Form:
    for form in cmd.forms:
        if form.matches is None or form.matches(toks):
            return form
    return cmd.forms[-1]


def _loc(where: Location, tok: Token | None) -> Location:
    return Location(where.path, where.line, tok.column if tok else None)


# Longer than ~60 lines on purpose: one branch per parameter kind of the registry, in one table-like walk.
def _bind(
    cmd: Command, form: Form, toks: Sequence[Token], line: str, where: Location
) -> tuple[tuple[str, object], ...]:
    params: list[tuple[str, object]] = []
    i = 0
    for p in form.params:
        if p.kind == RAW:
            params.append((p.name, tuple(t.raw for t in toks[i:])))
            i = len(toks)
            continue
        if i >= len(toks):
            if p.optional:
                continue
            raise InvalidArgs(
                f"{cmd.name}: missing {p.name}",
                hint=f"usage: {usage(cmd, form)}",
                location=Location(where.path, where.line, len(line.rstrip()) + 1),
            )
        tok = toks[i]
        if p.kind == TARGET_REST:
            params.append((p.name, _rest_target(toks[i:], line, where)))
            i = len(toks)
            continue
        if p.kind in (KEYWORD, CHOICE):
            if not tok.quoted and tok.text in p.choices:
                params.append((p.name, tok.text))
                i += 1
                continue
            if p.optional:
                continue
            raise InvalidArgs(
                f"{cmd.name}: expected {' | '.join(p.choices)} for {p.name}, got {tok.raw!r}",
                hint=f"usage: {usage(cmd, form)}",
                location=_loc(where, tok),
            )
        if p.kind == TARGET:
            params.append((p.name, parse_target(tok.text, where, tok.column)))
            i += 1
            continue
        text = tok.text
        parse_template(text, _loc(where, tok))
        templated = "${" in text
        if p.kind == INT and not templated and (tok.quoted or not is_ms(text)):
            raise InvalidArgs(
                f"{cmd.name}: {p.name} must be a whole number of milliseconds up to {MAX_MS} (an hour), "
                f"got {quoted(tok.raw)}",
                hint=f"usage: {usage(cmd, form)}",
                location=_loc(where, tok),
            )
        if p.kind == INDEX and not templated and (tok.quoted or not (is_int(text) and 0 < int(text[:7]) <= 999_999)):
            raise InvalidArgs(
                f"{cmd.name}: {p.name} must be a whole number from 1, got {quoted(tok.raw)}",
                hint=f"usage: {usage(cmd, form)}",
                location=_loc(where, tok),
            )
        if p.kind == NUMBER and not templated and (tok.quoted or not is_number(text)):
            raise InvalidArgs(
                f"{cmd.name}: {p.name} must be a number of at least 0, got {tok.raw!r}",
                hint=f"usage: {usage(cmd, form)}",
                location=_loc(where, tok),
            )
        if p.kind == COORD and not templated and (tok.quoted or not is_coord(text)):
            raise InvalidArgs(
                f"{cmd.name}: {p.name} must be device pixels or a percentage of the screen (50%), got {tok.raw!r}",
                hint=f"usage: {usage(cmd, form)}",
                location=_loc(where, tok),
            )
        if p.kind == KEY and not templated and not KEY_CHORD.match(text):
            raise InvalidArgs(
                f"{cmd.name}: {text!r} is not a key",
                hint="keys: Enter, Tab, Escape, ArrowDown, a, Control+A …",
                location=_loc(where, tok),
            )
        if p.kind in (TEXT, URL, INT, INDEX, NUMBER, COORD, KEY):
            params.append((p.name, text))
        i += 1
    if i < len(toks):
        raise InvalidArgs(
            f"{cmd.name}: unexpected argument {toks[i].raw!r}",
            hint=f"usage: {usage(cmd, form)} (quote text that holds spaces)",
            location=_loc(where, toks[i]),
        )
    return tuple(params)


def usage(cmd: Command, form: Form | None = None) -> str:
    """A one-line usage string built from the declaration."""
    forms = [form] if form else list(cmd.forms)
    out = []
    for f in forms:
        parts = [cmd.name]
        for p in f.params:
            word = "|".join(p.choices) if p.kind in (KEYWORD, CHOICE) else p.name.upper()
            parts.append(f"[{word}]" if p.optional else word)
        out.append(" ".join(parts))
    return " / ".join(out)


def _split_flags(cmd: Command, toks: list[Token], where: Location) -> tuple[list[Token], list[tuple[str, str | bool]]]:
    if cmd.foreign:
        return toks, []
    positionals: list[Token] = []
    flags: list[tuple[str, str | bool]] = []
    i = 0
    while i < len(toks):
        tok = toks[i]
        if tok.quoted or not _FLAG.fullmatch(tok.text.split("=", 1)[0]):
            positionals.append(tok)
            i += 1
            continue
        name, eq, inline = tok.text.partition("=")
        spec = cmd.flag(name)
        if spec is None:
            known = " ".join(f.name for f in cmd.flags) or "(none)"
            raise InvalidArgs(
                f"{cmd.name}: unknown flag {name}",
                hint=f"flags of {cmd.name}: {known} --record --no-record",
                location=_loc(where, tok),
            )
        if any(n == name for n, _ in flags):
            raise InvalidArgs(
                f"{cmd.name}: flag {name} given twice", hint="give each flag once", location=_loc(where, tok)
            )
        if spec.takes_value:
            if eq:
                value = inline
            elif i + 1 < len(toks):
                i += 1
                value = toks[i].text
            else:
                raise InvalidArgs(
                    f"{cmd.name}: flag {name} needs a value", hint=f"write {name} VALUE", location=_loc(where, tok)
                )
            parse_template(value, _loc(where, tok))
            if not value.strip():
                raise InvalidArgs(
                    f"{cmd.name}: flag {name} needs a value, got an empty one",
                    hint=f"write {name} VALUE",
                    location=_loc(where, tok),
                )
            if spec.selector and "${" not in value:
                parse_selector(value, _loc(where, tok))
            if spec.whole_number and "${" not in value and not (is_int(value) and len(value) <= 6):
                raise InvalidArgs(
                    f"{cmd.name}: flag {name} takes a whole number, got {quoted(value)}",
                    hint=f"write {name} 3",
                    location=_loc(where, tok),
                )
            if spec.choices and value not in spec.choices:
                raise InvalidArgs(
                    f"{cmd.name}: flag {name} takes one of {', '.join(spec.choices)}, got {quoted(value)}",
                    hint=f"write {name} {spec.choices[0]}",
                    location=_loc(where, tok),
                )
            flags.append((name, value))
        else:
            if eq:
                raise InvalidArgs(
                    f"{cmd.name}: flag {name} takes no value", hint=f"write {name}", location=_loc(where, tok)
                )
            flags.append((name, True))
        i += 1
    names = {n for n, _ in flags}
    if {"--record", "--no-record"} <= names:
        raise InvalidArgs("--record and --no-record are mutually exclusive", hint="give one of them", location=where)
    return positionals, flags


def parse_action(line: str, where: Location) -> Action:
    """Parse one action line."""
    toks = tokenize(line, where)
    if not toks:
        raise InvalidArgs("an empty line is not an action", hint="write a command, e.g. click id=save", location=where)
    head = toks[0]
    name = head.text
    cmd = REGISTRY.get(name) if not head.quoted else None
    if cmd is None:
        close = difflib.get_close_matches(name, REGISTRY.native_names(), n=1)
        raise InvalidArgs(
            f"unknown command {name!r}",
            hint=(f"did you mean {close[0]!r}? " if close else "") + "see docs/ad-format.md for the commands",
            location=_loc(where, head),
        )
    positionals, flags = _split_flags(cmd, toks[1:], where)
    if positionals and any(p.kind == TARGET_REST for f in cmd.forms for p in f.params):
        # flags must not split a joined selector
        first, last = positionals[0], positionals[-1]
        bound = {id(t) for t in positionals}  # by identity: linear in the line's length
        inside = [t for t in toks[1:] if first.column < t.column < last.column and id(t) not in bound]
        if inside:
            raise InvalidArgs(
                f"{cmd.name}: flags go after the target",
                hint=f"move {inside[0].text} to the end of the line",
                location=_loc(where, inside[0]),
            )
    form = _choose_form(cmd, positionals)
    params = _bind(cmd, form, positionals, line, where)
    _check_record_flag(cmd, form, flags, where)
    return Action(where.line or 0, cmd.name, form.name, params, tuple(flags))


def _check_record_flag(cmd: Command, form: Form, flags: Sequence[tuple[str, str | bool]], where: Location) -> None:
    # --record only makes sense on an observation: a mutating command is always written
    if any(name == "--record" for name, _ in flags) and not (form.observation or cmd.name == "wait"):
        raise InvalidArgs(
            f"--record on `{cmd.name}`: only observations (snapshot, get, is, read-only find) take --record",
            hint=f"`{cmd.name}` is always written to the script; use --no-record to keep a state fix out",
            location=where,
        )


def parse(text: str, path: str = "<input>") -> Script:
    """Parse a whole script; raise ``ScriptErrors`` listing every problem found."""
    script, errors = parse_collect(text, path)
    if errors:
        raise ScriptErrors(errors)
    assert script is not None
    return script


# Longer than our ~60-line rule on purpose: one pass over the lines, whose cross-line rules (an
# annotation binds to the next line; header lines precede actions) share state best read in one loop.
def parse_collect(text: str, path: str = "<input>") -> tuple[Script | None, list[ReplayError]]:
    """Parse, collecting one error per bad line instead of stopping at the first."""
    items: list[Item] = []
    errors: list[ReplayError] = []
    context: dict[str, str] = {}
    env: dict[str, str] = {}
    seen_action = False
    pending: Annotation | None = None
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    for index, raw_line in enumerate(lines, start=1):
        line = raw_line.rstrip("\r")
        where = Location(path, index)
        stripped = line.strip()
        try:
            if pending is not None and (not stripped or stripped.startswith("#")):
                raise InvalidArgs(
                    "a target-v1 annotation must be immediately followed by its element action",
                    hint="remove the blank or comment line between the annotation and its action",
                    location=Location(path, pending.line),
                )
            if not stripped:
                items.append(Blank(index))
                continue
            if stripped.startswith("#"):
                payload = ev_codec.match_annotation(stripped)
                if payload is not None:
                    pending = Annotation(index, ev_codec.decode(payload, where))
                    items.append(pending)
                else:
                    items.append(Comment(index, stripped))
                continue
            head = stripped.split(maxsplit=1)[0]
            offset = len(line) - len(line.lstrip())
            rest = line[offset + len(head) :]
            if head in ("context", "env"):
                if pending is not None:
                    raise InvalidArgs(
                        "a target-v1 annotation must precede an element action",
                        hint=f"line {index} is not an action",
                        location=Location(path, pending.line),
                    )
                if seen_action:
                    raise InvalidArgs(
                        f"{head} lines must come before the first action",
                        hint=f"move this line above line {items[-1].line if items else 1}",
                        location=Location(path, index, offset + 1),
                    )
                if head == "context":
                    pairs = parse_context(rest, where, offset + len(head))
                    for key, value in pairs:
                        if key in context:
                            what = "duplicate" if context[key] == value else "conflicting"
                            raise InvalidArgs(
                                f"{what} context key {key!r}",
                                hint="give each context key once",
                                location=Location(path, index, offset + 1),
                            )
                        context[key] = value
                    items.append(Context(index, pairs))
                else:
                    key, value = parse_env(rest, where, offset + len(head))
                    if key in env:
                        raise InvalidArgs(
                            f"duplicate env key {key!r}",
                            hint="define each variable once",
                            location=Location(path, index, offset + 1),
                        )
                    env[key] = value
                    items.append(Env(index, key, value))
                continue
            action = parse_action(line, where)
            seen_action = True
            if pending is not None:
                spec = REGISTRY.get(action.command)
                form = next(f for f in spec.forms if f.name == action.form) if spec else None
                if form is None or not form.annotated:
                    raise InvalidArgs(
                        f"a target-v1 annotation cannot bind to `{action.command}` (it targets no element)",
                        hint="annotations precede element actions such as click or fill",
                        location=Location(path, pending.line),
                    )
                action = Action(action.line, action.command, action.form, action.params, action.flags, pending.evidence)
                pending = None
            items.append(action)
        except ReplayError as exc:
            errors.append(exc.at(where))
            pending = None
    if pending is not None:
        errors.append(
            InvalidArgs(
                "a target-v1 annotation at the end of the file binds to nothing",
                hint="remove it or add its action on the next line",
                location=Location(path, pending.line),
            )
        )
    if errors:
        return None, errors
    return Script(path, tuple(items), context, env), []


def parse_argv(argv: Sequence[str], where: Location | None = None, *, literal: bool = True) -> Action:
    """Parse a command given as shell words (``replay click @e3``): each word is one token.

    Interactive words are literal data (``literal``): a ``${`` in them is kept, not substituted.
    """
    where = where or Location("<command line>", 1)
    if not argv:
        raise InvalidArgs("no command given", hint="e.g. replay click @e3")
    if literal:
        argv = [w.replace("${", "\\${") for w in argv]
    toks: list[Token] = []
    col = 1
    for word in argv:
        toks.append(Token(word, word, False, col))
        col += len(word) + 1
    line = " ".join(argv)
    head = toks[0]
    cmd = REGISTRY.get(head.text)
    if cmd is None:
        close = difflib.get_close_matches(head.text, REGISTRY.native_names(), n=1)
        raise InvalidArgs(
            f"unknown command {head.text!r}",
            hint=(f"did you mean {close[0]!r}? " if close else "") + "see `replay --help`",
            location=where,
        )
    positionals, flags = _split_flags(cmd, toks[1:], where)
    form = _choose_form(cmd, positionals)
    params = _bind(cmd, form, positionals, line, where)
    _check_record_flag(cmd, form, flags, where)
    return Action(0, cmd.name, form.name, params, tuple(flags))
