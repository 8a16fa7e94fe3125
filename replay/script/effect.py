"""A step's recorded effect (design §15): at most 4 facts of what its action did, written into
``target-v1`` as ``effect`` (≤ 512 bytes) and checked after the action on replay.

One JSON object per fact, keyed by its kind (the value its main field):

    {"navigated":"settings.html","title":"Settings"}   the page now (path relative to the opened base)
    {"target":"checked"}                                the target now: gone, checked, unchecked,
    {"target":"value","value":"<redacted>"}               expanded, collapsed, selected, disabled, value
    {"appeared":"dialog","text":"Delete eggs?"}         a node of a telling role, by its label or key text
    {"disappeared":"listitem","text":"eggs"}
    {"count":"listitem","by":-1}                        how many such nodes the screen holds, moved by n
    {"changed":"generic","text":"July, 2026"}          a node in place whose own text now says this

Typed text is never a fact: a field's value is ``<redacted>``, or ``<var:NAME>`` when it came from
a variable.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.errors import InvalidArgs, Location
from replay.script.evidence_fields import MAX_STRING_BYTES
from replay.script.text import normalize

MAX_FACTS = 4
MAX_EFFECT_BYTES = 512
KINDS = ("navigated", "target", "appeared", "disappeared", "count", "changed")  # in their order of preference
TARGET_STATES = ("gone", "checked", "unchecked", "expanded", "collapsed", "selected", "disabled", "enabled", "value")
REDACTED = "<redacted>"
TYPED = "<typed>"  # in a key's fact: the text the focused field held when the key was pressed (Enter adds it)


@dataclass(frozen=True)
class Fact:
    """One fact of an effect; which fields it has depends on ``kind`` (see the module's table)."""

    kind: str
    subject: str  # navigated: the page path; target: its state; appeared/disappeared/count: the role
    text: str | None = None  # navigated: the title; appeared/disappeared: the label or key text; changed: the text
    value: str | None = None  # target value: what it holds now (redacted when typed)
    by: int | None = None  # count: how many more (negative: fewer)

    def describe(self) -> str:
        """The fact in a reader's words: ``a listitem "milk" to appear``-style phrases without the verb."""
        quoted = json.dumps(self.text, ensure_ascii=False) if self.text else ""
        if self.kind == "navigated":
            return f"navigation to {self.subject}" + (f" ({quoted})" if quoted else "")
        if self.kind == "target":
            if self.subject == "value":
                return f"the target to hold {self.value}"
            return "the target gone" if self.subject == "gone" else f"the target {self.subject}"
        if self.kind == "count":
            assert self.by is not None
            return f"{abs(self.by)} {'more' if self.by > 0 else 'fewer'} {self.subject} node(s)"
        if self.kind == "changed":
            return f"a {self.subject} to say {quoted}"
        return f"a {self.subject}{' ' + quoted if quoted else ''} {'to appear' if self.kind == 'appeared' else 'gone'}"

    def to_json(self) -> dict[str, Any]:
        """The fact's JSON object (its kind's key first)."""
        out: dict[str, Any] = {self.kind: self.subject}
        if self.text is not None:
            out["title" if self.kind == "navigated" else "text"] = self.text
        if self.value is not None:
            out["value"] = self.value
        if self.by is not None:
            out["by"] = self.by
        return out


def describe_all(facts: tuple[Fact, ...] | list[Fact]) -> str:
    """Facts joined for a cause line: ``a listitem "milk" to appear, 1 more listitem node(s)``."""
    return ", ".join(f.describe() for f in facts) if facts else "nothing"


def encode(facts: tuple[Fact, ...]) -> list[dict[str, Any]] | None:
    """The ``effect`` list within its bounds: at most 4 facts, the last dropped until ≤ 512 bytes."""
    kept = [f.to_json() for f in facts[:MAX_FACTS]]
    while kept and len(json.dumps(kept, ensure_ascii=False, separators=(",", ":")).encode("utf-8")) > MAX_EFFECT_BYTES:
        kept.pop()
    return kept or None


def fitted(facts: tuple[Fact, ...]) -> tuple[Fact, ...]:
    """The facts ``encode`` keeps (what a check must hold against is what the script says)."""
    return tuple(facts[: len(encode(facts) or [])])


def _bad(message: str, where: Location | None) -> InvalidArgs:
    return InvalidArgs(
        f"target-v1 annotation: 'effect' {message}",
        hint='write it as "effect":[{"appeared":"dialog","text":"Saved"}], or drop it',
        location=where,
    )


def _text(obj: dict[str, Any], key: str, where: Location | None) -> str | None:
    value = obj.get(key)
    if value is None:
        return None
    if not isinstance(value, str) or len(value.encode("utf-8", errors="replace")) > MAX_STRING_BYTES:
        raise _bad(f"'{key}' must be a string of at most {MAX_STRING_BYTES} bytes", where)
    return normalize(value)


def decode(raw: Any, where: Location | None) -> tuple[Fact, ...]:
    """Parse ``effect``: a list of at most 4 fact objects, each with exactly one kind key."""
    if raw is None:
        return ()
    if not isinstance(raw, list) or len(raw) > MAX_FACTS:
        raise _bad(f"must be a list of at most {MAX_FACTS} facts", where)
    facts = []
    for obj in raw:
        if not isinstance(obj, dict):
            raise _bad("facts must be objects", where)
        kinds = [k for k in KINDS if k in obj]
        if len(kinds) != 1:
            raise _bad(f"each fact has exactly one of {', '.join(KINDS)}", where)
        kind = kinds[0]
        subject = _text(obj, kind, where)
        if subject is None:
            raise _bad(f"'{kind}' must be a non-empty string", where)
        if kind == "target" and subject not in TARGET_STATES:
            raise _bad(f"'target' must be one of {', '.join(TARGET_STATES)}", where)
        if kind == "changed" and not obj.get("text"):
            raise _bad("a changed fact needs 'text', what the node says now", where)
        by = obj.get("by")
        if kind == "count" and (isinstance(by, bool) or not isinstance(by, int) or by == 0):
            raise _bad("a count fact needs 'by', a non-zero integer", where)
        facts.append(
            Fact(
                kind,
                subject,
                _text(obj, "title" if kind == "navigated" else "text", where),
                _text(obj, "value", where),
                by if kind == "count" else None,
            )
        )
    return tuple(facts)


@dataclass(frozen=True)
class Change:
    """A step a heal replaced whose effect is not the original's (design §15): the original's line and
    facts, the healed step's facts, the facts of the steps the heal inserted right after it (``later``:
    state fixes — an interstitial acknowledged, a dialog answered — in order), and the roles of the
    containers the original target sat in (``within``: a dialog, a menu — what closes whatever is clicked
    in it). Whether the healed steps still do what the original did is ``replay.tree.proof``'s to say."""

    line: int
    before: tuple[Fact, ...]
    after: tuple[Fact, ...]
    later: tuple[tuple[Fact, ...], ...] = ()
    within: frozenset[str] = frozenset()

    def describe(self) -> str:
        """``line 9: effect changed: was …; now …``."""
        return f"line {self.line}: effect changed: was {describe_all(self.before)}; now {describe_all(self.after)}"


def rewritten(original: Any, healed: Any) -> list[tuple[str, Any, tuple[Any, ...], tuple[Any, ...]]]:
    """Each original action a heal rewrote (``Script``s aligned by their lines): ``(how, original action,
    the healed action(s) in its place, the actions the heal inserted right after them)`` — ``how`` is
    "equal" (the same line, another annotation) or "replace"."""
    import difflib

    def key(a: Any) -> str:
        return f"{a.command} {a.form} {a.params!r}"

    a, b = list(original.actions), list(healed.actions)
    ops = difflib.SequenceMatcher(a=[key(x) for x in a], b=[key(y) for y in b], autojunk=False).get_opcodes()
    out: list[tuple[str, Any, tuple[Any, ...], tuple[Any, ...]]] = []
    for k, (tag, i1, i2, j1, j2) in enumerate(ops):
        nxt = ops[k + 1] if k + 1 < len(ops) else None
        inserted = tuple(b[nxt[3] : nxt[4]]) if nxt is not None and nxt[0] == "insert" else ()
        if tag == "equal":
            pairs = list(zip(a[i1:i2], b[j1:j2], strict=True))
            for n, (x, y) in enumerate(pairs):  # (only the last of the run is followed by the insert)
                if x.annotation != y.annotation:
                    out.append(("equal", x, (y,), inserted if n == len(pairs) - 1 else ()))
        elif tag == "replace":
            out += [("replace", x, tuple(b[j1:j2]), inserted) for x in a[i1:i2]]
    return out


def _effect(action: Any) -> tuple[Fact, ...]:
    return action.annotation.effect if action.annotation is not None else ()


def _within(action: Any) -> frozenset[str]:
    ev = action.annotation
    return frozenset({x.role for x in ev.ancestry} | ({ev.anchor.role} if ev.anchor else set()) if ev else set())


def changes(original: Any, healed: Any) -> list[Change]:
    """The replaced steps of a heal (``Script``s, aligned by their lines) whose effects differ, each with
    the facts of the steps inserted right after its healed counterpart."""
    out = []
    for how, x, now, inserted in rewritten(original, healed):
        before, later = _effect(x), tuple(_effect(y) for y in inserted)
        after = tuple(f for y in now for f in _effect(y))
        differs = after != before if how == "equal" else set(before) != set(after)
        if before and differs:
            out.append(Change(x.line, before, after, later, _within(x)))
    return out
