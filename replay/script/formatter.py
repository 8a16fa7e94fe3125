"""The canonical writer: one output line per input line, so line numbers (and the digest) hold.

``parse(write(s))`` equals ``s`` for every parsed script; the writer checks each target it
prints by parsing it back, so it never emits what the parser rejects.
"""

from __future__ import annotations

from replay.errors import InvalidArgs, Location
from replay.script import evidence as ev_codec
from replay.script.ast import Action, Annotation, Blank, Comment, Context, Env, Item, Script, Target
from replay.script.registry import BARE, RAW, REGISTRY, TARGET, TARGET_REST, URL, Command
from replay.script.selector import format_selector
from replay.script.tokens import json_quote, quote, tokenize

CONTEXT_ORDER = ("platform", "timeout", "retries", "device")


def _target_candidates(target: Target) -> list[str]:
    assert target.selector is not None
    sel = target.selector
    out: list[str] = []
    if len(sel.alternatives) == 1 and sel.alternatives[0].bare is not None:
        out.append(json_quote(sel.alternatives[0].bare))
    text = format_selector(sel)
    out.append(text)
    out.append(json_quote(text))
    return out


def format_target(target: Target, *, rest: bool) -> str:
    """Canonical text of a target in a joined (``rest``) or single-token position."""
    from replay.script.parser import _rest_target, parse_target

    if target.ref is not None:
        if target.hint is None:
            return target.ref
        return f"{target.ref} {json_quote(target.hint)}" if rest else target.ref
    where = Location("<writer>", 1)
    for cand in _target_candidates(target):
        try:
            toks = tokenize(cand, where)
            if not toks:
                continue
            if rest:
                if any(not t.quoted and t.text.startswith("-") for t in toks[1:]) or (
                    not toks[0].quoted and toks[0].text.startswith("-")
                ):
                    continue
                back = _rest_target(toks, cand, where)
            else:
                if len(toks) != 1 or (not toks[0].quoted and toks[0].text.startswith("-")):
                    continue
                back = parse_target(toks[0].text, where)
        except InvalidArgs:
            continue
        if back == target:
            return cand
    raise InvalidArgs(f"cannot write target {format_selector(target.selector)!r}")  # type: ignore[arg-type]


def format_action(action: Action) -> str:
    """Canonical text of an action line."""
    cmd: Command | None = REGISTRY.get(action.command)
    assert cmd is not None
    form = next(f for f in cmd.forms if f.name == action.form)
    parts = [cmd.name]
    for p in form.params:
        value = action.param(p.name, None)
        if value is None:
            continue
        if p.kind == RAW:
            parts.extend(value)  # type: ignore[arg-type]
        elif p.kind in (TARGET, TARGET_REST):
            assert isinstance(value, Target)
            parts.append(format_target(value, rest=p.kind == TARGET_REST))
        elif p.kind in BARE:  # one bare token when read: its text reads back as is
            parts.append(str(value))
        elif p.kind == URL:
            parts.append(quote(str(value)))
        else:
            parts.append(json_quote(str(value)))
    declared = [f.name for f in cmd.flags] + ["--record", "--no-record"]
    for name, value in sorted(action.flags, key=lambda kv: declared.index(kv[0])):
        parts.append(name if value is True else f"{name} {quote(str(value))}")
    return " ".join(parts)


def format_item(item: Item) -> str:
    """Canonical text of one line."""
    if isinstance(item, Blank):
        return ""
    if isinstance(item, Comment):
        return item.text.strip()
    if isinstance(item, Annotation):
        return ev_codec.annotation_line(item.evidence)
    if isinstance(item, Context):
        pairs = sorted(item.pairs, key=lambda kv: CONTEXT_ORDER.index(kv[0]))
        return "context " + " ".join(f"{k}={quote(v) if k != 'device' else json_quote(v)}" for k, v in pairs)
    if isinstance(item, Env):
        return f"env {item.key}={json_quote(item.value)}"
    return format_action(item)


def format_script(script: Script) -> str:
    """The canonical text of a script."""
    return "".join(format_item(item) + "\n" for item in script.items)
