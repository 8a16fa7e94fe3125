"""Selector expressions (design §4): ``||`` alternatives of ANDed ``key=value`` terms, scoped with ``>>``.

``A >> B || C`` is ``(A >> B) || C``: B's matches that lie inside a match of A, else C's matches.

This module parses and prints expressions; matching them against a UI tree lives in
``replay.tree``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from replay.errors import InvalidArgs, Location
from replay.script.text import normalize
from replay.script.variables import parse_template

TEXT_KEYS = ("id", "role", "label", "text", "value", "placeholder", "tag", "href", "class")
CLASS = "class"  # one of the node's word-like class tokens (design §5 own attributes): ``class=ql-bold``
HAS_TEXT = "has-text"  # the node's text content contains the value (normalized, case-insensitive)
NTH = "nth"  # keep the N-th node (0-based; -1 the last) of its link's match set, in document order
AT = "at"  # the same in reading order: top to bottom, then left to right (Maestro's index)
POSITIONAL = (NTH, AT)
BOOL_KEYS = ("visible", "hidden", "enabled", "editable", "checked", "selected", "focused", "hittable")
ALL_KEYS = TEXT_KEYS + (HAS_TEXT, NTH, AT) + BOOL_KEYS
# Keys whose values are identifiers, printed bare when they can be.
_BARE_VALUE_KEYS = frozenset({"role", "tag", CLASS, NTH, AT})
_BARE_VALUE = re.compile(r"[A-Za-z0-9_.:/-]+\Z")
_NTH_VALUE = re.compile(r"-?[0-9]{1,6}\Z")
_INTEGER = re.compile(r"-?[0-9]+\Z")
CHAIN = ">>"

Chain = tuple[tuple["Term", ...], ...]  # links of ANDed terms, outermost first
_KEY = re.compile(r"[A-Za-z][A-Za-z0-9_-]*")
REF = re.compile(r"@e(?:0|[1-9][0-9]{0,8})\Z")  # @e0 is the document; a generation never holds a billion nodes


def ref_index(ref: str) -> int:
    """The node index a ref (``@e7``, already checked against ``REF``) names in its generation."""
    return int(ref[2:])


def normalize_text(text: str) -> str:
    """Bare text selectors match normalized, so they are stored normalized (``text.normalize``)."""
    return normalize(text) or ""


@dataclass(frozen=True)
class Term:
    """One condition: ``key=value`` (normalized equality), ``key~=regex``, or a boolean."""

    key: str
    op: str  # "=" or "~="
    value: str | bool


@dataclass(frozen=True)
class Alternative:
    """ANDed terms, or a bare string meaning ``label=S || text=S``; inside the links of ``scope``.

    ``scope`` holds the links before ``>>``, outermost first (each without a scope of its own).
    """

    terms: tuple[Term, ...] = ()
    bare: str | None = None
    scope: tuple[Alternative, ...] = ()

    def links(self) -> tuple[Alternative, ...]:
        """The chain's links, outermost first, this one's own terms last."""
        return (*self.scope, Alternative(self.terms, self.bare))


@dataclass(frozen=True)
class Selector:
    """An ordered chain of alternatives; the first with a match is the match set."""

    alternatives: tuple[Alternative, ...]

    def expanded(self) -> tuple[Chain, ...]:
        """Alternatives as chains of term tuples, each bare string expanded to label, then text."""
        out: list[Chain] = []
        for alt in self.alternatives:
            chains: list[Chain] = [()]
            for link in alt.links():
                options = (
                    [(Term("label", "=", link.bare),), (Term("text", "=", link.bare),)]
                    if link.bare is not None
                    else [link.terms]
                )
                chains = [(*chain, option) for chain in chains for option in options]
            out.extend(chains)
        return tuple(out)

    def __str__(self) -> str:
        return format_selector(self)


class _Scanner:
    def __init__(self, text: str, where: Location, base_column: int) -> None:
        self.text = text
        self.i = 0
        self.where = where
        self.base = base_column

    def error(self, message: str, hint: str, at: int | None = None) -> InvalidArgs:
        col = self.base + (self.i if at is None else at)
        return InvalidArgs(message, hint=hint, location=Location(self.where.path, self.where.line, col))

    def skip_ws(self) -> None:
        while self.i < len(self.text) and self.text[self.i] in " \t":
            self.i += 1

    def at_end(self) -> bool:
        return self.i >= len(self.text)

    def at_or(self) -> bool:
        return self.text.startswith("||", self.i)

    def at_chain(self) -> bool:
        return self.text.startswith(CHAIN, self.i)

    def at_link_end(self) -> bool:
        """At the end of one link: the end, ``||`` or ``>>``."""
        return self.at_end() or self.at_or() or self.at_chain()

    def quoted(self) -> str:
        """Read a '…' or "…" string with JSON-style escapes."""
        quote_char = self.text[self.i]
        start = self.i
        self.i += 1
        out: list[str] = []
        while self.i < len(self.text):
            ch = self.text[self.i]
            if ch == quote_char:
                self.i += 1
                return "".join(out)
            if ch == "\\":
                esc = self.text[self.i + 1 : self.i + 2]
                if esc == "'":
                    out.append("'")
                    self.i += 2
                    continue
                if esc == "u":
                    chunk = self.text[self.i : self.i + 6]
                    # surrogate pairs arrive as two \\u escapes
                    if re.fullmatch(r"\\u[0-9a-fA-F]{4}", chunk):
                        pair = self.text[self.i : self.i + 12]
                        if re.fullmatch(r"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}", pair):
                            out.append(json.loads(f'"{pair}"'))
                            self.i += 12
                            continue
                        if re.fullmatch(r"\\u[dD][89a-fA-F][0-9a-fA-F]{2}", chunk):
                            raise self.error(
                                f"{chunk} is half of a surrogate pair, not a character",
                                "write the character itself, or both halves (\\ud83d\\ude00)",
                            )
                        out.append(json.loads(f'"{chunk}"'))
                        self.i += 6
                        continue
                    raise self.error("invalid \\u escape in selector value", "use \\uXXXX with 4 hex digits")
                if esc and esc in '"\\/bfnrt':
                    out.append(json.loads(f'"\\{esc}"'))
                    self.i += 2
                    continue
                raise self.error(
                    f"invalid escape \\{esc} in selector value",
                    "escapes are JSON-style: \\\" \\' \\\\ \\n \\t \\uXXXX",
                )
            out.append(ch)
            self.i += 1
        raise self.error("unterminated quoted value in selector", "close the value with its quote", at=start)

    def bare_value(self) -> str:
        start = self.i
        while self.i < len(self.text) and self.text[self.i] not in " \t" and not self.at_or() and not self.at_chain():
            self.i += 1
        return self.text[start : self.i]


def parse_selector(text: str, where: Location | None = None, base_column: int = 1) -> Selector:
    """Parse a selector expression; every error is ``INVALID_ARGS`` with a column."""
    where = where or Location()
    sc = _Scanner(text, where, base_column)
    alternatives: list[Alternative] = []
    while True:
        links: list[Alternative] = []
        while True:
            sc.skip_ws()
            if sc.at_link_end():
                raise sc.error(
                    "empty link in a >> chain"
                    if links or sc.at_chain()
                    else "empty alternative in selector"
                    if alternatives or sc.at_or()
                    else "empty selector",
                    'write terms like role=button label="Save", separated by || (or scoped with >>)',
                )
            links.append(_alternative(sc))
            sc.skip_ws()
            if not sc.at_chain():
                break
            sc.i += len(CHAIN)
        last = links[-1]
        alternatives.append(Alternative(last.terms, last.bare, tuple(links[:-1])))
        if sc.at_end():
            break
        if not sc.at_or():  # pragma: no cover - _alternative stops only at ||, >> or the end
            raise sc.error("expected ||", "separate alternatives with ||")
        sc.i += 2
    return Selector(tuple(alternatives))


# Longer than ~60 lines on purpose: a hand-written scanner for one alternative (bare text or terms),
# kept linear so every error can name its column.
def _alternative(sc: _Scanner) -> Alternative:
    first = sc.text[sc.i]
    if first in "\"'":
        start = sc.i
        value = sc.quoted()
        _check_value(sc, value, start)
        sc.skip_ws()
        if not sc.at_link_end():
            raise sc.error(
                "a quoted text selector cannot be combined with other terms",
                'use label="…" or text="…" terms to combine conditions',
            )
        return Alternative(bare=normalize_text(value))
    m = _KEY.match(sc.text, sc.i)
    after = m.end() if m else sc.i
    is_term = m is not None and (
        sc.text.startswith("=", after)
        or sc.text.startswith("~=", after)
        or (m.group(0) in BOOL_KEYS and (after == len(sc.text) or sc.text[after] in " \t|>"))
    )
    if not is_term:
        # A bare string runs to the next || or >> (agent-device: `click Sign in`).
        start = sc.i
        ends = [e for e in (sc.text.find("||", sc.i), sc.text.find(CHAIN, sc.i)) if e >= 0]
        end = min(ends) if ends else len(sc.text)
        value = normalize_text(sc.text[start:end])
        if any(c in value for c in "\"'"):
            raise sc.error(
                "unexpected quote in a bare text selector",
                'quote the whole text ("Sign in") or use label="…"',
                at=start,
            )
        _check_value(sc, value, start)
        sc.i = end
        return Alternative(bare=value)
    terms: list[Term] = []
    seen: set[str] = set()
    while True:
        sc.skip_ws()
        if sc.at_link_end():
            break
        start = sc.i
        m = _KEY.match(sc.text, sc.i)
        if m is None:
            raise sc.error(
                f"expected a key=value term, found {sc.text[sc.i : sc.i + 12]!r}",
                f"keys: {', '.join(ALL_KEYS)}",
            )
        key = m.group(0)
        sc.i = m.end()
        if key not in ALL_KEYS:
            raise sc.error(
                f"unknown selector key {key!r}",
                f"keys: {', '.join(ALL_KEYS)}",
                at=start,
            )
        if key in seen:
            raise sc.error(f"selector key {key!r} repeated in one alternative", "use || for alternatives", at=start)
        seen.add(key)
        if sc.text.startswith("~=", sc.i):
            op = "~="
            sc.i += 2
        elif sc.text.startswith("=", sc.i):
            op = "="
            sc.i += 1
        elif key in BOOL_KEYS:
            terms.append(Term(key, "=", True))
            continue
        else:
            raise sc.error(f"selector key {key!r} needs a value", f'write {key}="…"')
        vstart = sc.i
        if sc.at_end() or sc.text[sc.i] in " \t" or sc.at_or() or sc.at_chain():
            raise sc.error(f"empty value for selector key {key!r}", "empty values are not allowed")
        raw_value = sc.quoted() if sc.text[sc.i] in "\"'" else sc.bare_value()
        if sc.i < len(sc.text) and sc.text[sc.i] not in " \t" and not sc.at_or() and not sc.at_chain():
            raise sc.error("expected whitespace or || after a quoted value", "put a space after the quote")
        if key in POSITIONAL:
            if op != "=" or not _INTEGER.match(raw_value):
                raise sc.error(
                    f"{key} takes an integer: {key}=0 is the first match, {key}=-1 the last",
                    f"write {key}=2",
                    at=vstart,
                )
            if not _NTH_VALUE.match(raw_value):
                raise sc.error(f"{key} is at most 999999 (or -999999 from the end)", f"write {key}=2", at=vstart)
            terms.append(Term(key, "=", str(int(raw_value))))
            continue
        if key == HAS_TEXT and op != "=":
            raise sc.error(
                "has-text takes = (it matches text that contains the value)", 'write has-text="Bob"', at=vstart
            )
        if key in BOOL_KEYS:
            if op != "=" or raw_value not in ("true", "false"):
                raise sc.error(f"boolean key {key!r} takes =true or =false", f"write {key} or {key}=false", at=vstart)
            terms.append(Term(key, "=", raw_value == "true"))
            continue
        _check_value(sc, raw_value, vstart)
        if op == "~=":
            try:
                compile_regex(raw_value)
            except ValueError as exc:
                raise sc.error(
                    f"invalid regular expression for {key}: {exc}", "~= takes a Python regex", at=vstart
                ) from None
        terms.append(Term(key, op, raw_value))
    return Alternative(terms=tuple(terms))


# A ``~=`` pattern is bounded before it is compiled (design §12: nothing allocates without bound): the
# ``regex`` engine expands a counted repetition when compiling, so ``a{1000000000}`` alone would take
# some 24 GB. What a pattern may repeat — the product of the counts it nests — and its length are capped.
MAX_PATTERN_CHARS = 4096
MAX_REPEAT = 1000  # the copies of one piece
MAX_COPIES = 10_000  # the copies of all pieces together (~3 MB compiled)
_COUNT = re.compile(r"\{(\d*)(?:,(\d*))?\}")


def repetition_bound(pattern: str) -> tuple[int, int]:
    """How many times the compiled ``pattern`` may copy one piece of itself (the largest product of
    nested counted repetitions, ``{m}``, ``{m,n}``, ``{m,}``), and all of its pieces together (the sum
    of those products). Escapes and classes are skipped."""
    total = 0
    stack = [1]  # the largest product reached inside each open group
    last = 1  # the product of the atom just closed (a group's, or 1 for a character)
    worst = 1
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == "\\":
            i += 2
            last = 1
            continue
        if c == "[":  # a class: one atom, whatever it holds
            j = i + 1 + (pattern[i + 1 : i + 2] == "^")
            j += pattern[j : j + 1] == "]"
            while j < len(pattern) and pattern[j] != "]":
                j += 2 if pattern[j] == "\\" else 1
            i, last = j + 1, 1
            continue
        if c == "(":
            stack.append(1)
        elif c == ")" and len(stack) > 1:
            last = stack.pop()
            stack[-1] = max(stack[-1], last)
            i += 1
            continue
        elif c == "{":
            m = _COUNT.match(pattern, i)
            if m is not None:
                counts = [int(g) for g in m.groups() if g]
                top = max(counts) if counts else 1
                if m.group(2) == "" and m.group(1):  # {m,}: at least m copies
                    top = int(m.group(1))
                product = last * max(top, 1)
                total += product
                stack[-1] = max(stack[-1], product)
                worst = max(worst, product)
                last = product
                i = m.end()
                continue
        last = 1
        worst = max(worst, stack[-1])
        i += 1
    return max(worst, *stack), total


def compile_regex(pattern: str) -> Any:
    """A ``~=`` value compiled as matching uses it (the ``regex`` engine, imported only when one is
    used), within the bounds above; ``ValueError`` says why not."""
    import regex

    if len(pattern) > MAX_PATTERN_CHARS:
        raise ValueError(f"the pattern is over {MAX_PATTERN_CHARS} characters")
    most, total = repetition_bound(pattern)
    if most > MAX_REPEAT or total > MAX_COPIES:
        raise ValueError(
            f"it repeats a piece more than {MAX_REPEAT} times, or all together more than {MAX_COPIES} "
            "(counted repetitions multiply when nested)"
        )
    try:
        return regex.compile(pattern)
    except (regex.error, RecursionError, OverflowError, MemoryError) as exc:
        raise ValueError(str(exc) if isinstance(exc, regex.error) else "too complex (nested too deeply)") from None


def _check_value(sc: _Scanner, value: str, at: int) -> None:
    if not value.strip():
        raise sc.error("empty value in selector", "empty values are not allowed", at=at)
    try:
        parse_template(value)
    except InvalidArgs as exc:
        raise sc.error(exc.message, exc.hint or "", at=at) from None


def format_term(term: Term) -> str:
    """Canonical text of one term."""
    if isinstance(term.value, bool):
        return term.key if term.value else f"{term.key}=false"
    if term.key in _BARE_VALUE_KEYS and term.op == "=" and _BARE_VALUE.match(term.value):
        return f"{term.key}={term.value}"
    return f"{term.key}{term.op}{json.dumps(term.value, ensure_ascii=False)}"


def _format_link(link: Alternative) -> str:
    if link.bare is not None:
        return json.dumps(link.bare, ensure_ascii=False)
    return " ".join(format_term(t) for t in link.terms)


def format_selector(selector: Selector) -> str:
    """Canonical text of a selector; ``parse_selector(format_selector(s)) == s``."""
    return " || ".join(f" {CHAIN} ".join(_format_link(link) for link in alt.links()) for alt in selector.alternatives)


def escape_templates(selector: Selector) -> Selector:
    """The selector with every literal ``${`` written as ``\\${`` (values are data, not templates)."""

    def esc(value: str) -> str:
        return value.replace("${", "\\${")

    return map_values(selector, esc)


def map_values(selector: Selector, fn: Callable[[str], str]) -> Selector:
    """The selector with ``fn`` applied to every text value (bare strings and term values), scopes included."""

    def link(alt: Alternative) -> Alternative:
        if alt.bare is not None:
            return Alternative(bare=fn(alt.bare), scope=tuple(link(s) for s in alt.scope))
        terms = tuple(Term(t.key, t.op, fn(t.value) if isinstance(t.value, str) else t.value) for t in alt.terms)
        return Alternative(terms=terms, scope=tuple(link(s) for s in alt.scope))

    return Selector(tuple(link(alt) for alt in selector.alternatives))
