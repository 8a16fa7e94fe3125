"""Selector matching and resolution on a capture (design §4).

Geometry, depth or size never choose among distinct targets: several matches resolve only when
they are one ancestor–descendant chain (structural collapse).
"""

from __future__ import annotations

import time
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, cast

import regex

from replay.errors import InvalidArgs, Timeout
from replay.script.selector import AT, CLASS, HAS_TEXT, POSITIONAL, Chain, Selector, Term, compile_regex
from replay.script.text import fold
from replay.tree.controls import is_chain, partner
from replay.tree.model import INDEXED_KEYS, Capture, Node

MAX_CANDIDATES = 5


_BOOL_FIELDS = {
    "visible": lambda n: n.visible,
    "hidden": lambda n: not n.visible,
    "enabled": lambda n: n.enabled,
    "editable": lambda n: n.editable,
    "checked": lambda n: n.checked,
    "selected": lambda n: n.selected,
    "focused": lambda n: n.focused,
    "hittable": lambda n: n.hittable,
}


# A ``~=`` regular expression runs under a deadline (design §12: a regex cannot stall the daemon): the
# step's, set by the pipeline, and never more than SEARCH_CAP_S on one node's text, so a pathological
# pattern fails at once instead of holding the daemon's event loop (and every other session).
MATCH_DEADLINE: ContextVar[float | None] = ContextVar("MATCH_DEADLINE", default=None)
SEARCH_CAP_S = 0.1
MATCH_GRACE_S = 5.0  # beyond the step's timeout: a slow regex on a big tree, not a pathological one


def _search(pattern: regex.Pattern[str], text: str) -> bool:
    deadline = MATCH_DEADLINE.get()
    left = SEARCH_CAP_S if deadline is None else min(SEARCH_CAP_S, deadline - time.monotonic())
    try:
        if left <= 0:
            raise TimeoutError
        return pattern.search(text, timeout=left) is not None
    except TimeoutError:
        raise Timeout(
            f"the regular expression {pattern.pattern!r} did not finish matching in time",
            hint="simplify the ~= pattern (nested repetition backtracks), or match with = instead",
        ) from None


def _compiled(term: Term) -> regex.Pattern[str]:
    """A term's pattern, bounded as at parse time (a ``${VAR}`` made it after the script was checked)."""
    try:
        return cast("regex.Pattern[str]", compile_regex(str(term.value)))
    except ValueError as exc:
        raise InvalidArgs(
            f"invalid regular expression for {term.key}: {exc}", hint="~= takes a Python regex of bounded size"
        ) from None


def term_matches(node: Node, term: Term, regex_cache: dict[str, regex.Pattern[str]] | None = None) -> bool:
    """Whether one term holds for a node (``nth`` is not a property of a node: see ``link_matches``)."""
    if isinstance(term.value, bool):
        return bool(_BOOL_FIELDS[term.key](node)) == term.value
    if term.key == HAS_TEXT:
        return fold(term.value) in fold(node.content)
    value = node.field(term.key)
    if value is None:
        return False
    if term.key == CLASS and term.op == "=":  # a token of the list, not the whole list
        return fold(term.value) in fold(value).split(" ")
    if term.op == "~=":
        cache = regex_cache if regex_cache is not None else {}
        pattern = cache.get(term.value)
        if pattern is None:
            pattern = cache[term.value] = _compiled(term)
        return _search(pattern, value)
    return fold(value) == fold(term.value)


_ATTRIBUTE = {
    "id": "id",
    "label": "label",
    "text": "text",
    "value": "value",
    "placeholder": "placeholder",
    "href": "href",
    CLASS: "class",
    HAS_TEXT: "text",
}


def _candidates(capture: Capture, terms: tuple[Term, ...], within: list[Node] | None = None) -> list[Node]:
    """A superset of the matches, narrowed in C by XPath: exact role/tag, and present attributes.

    role and tag are stored as lower-case ASCII tokens, so their folded equality is exact string
    equality; every other text key needs its attribute present. The Python check decides the rest.
    ``within``: only strict descendants of these nodes (the scope of a ``>>`` link).
    """
    if within is None:
        # a role's nodes first: verification reads that index anyway (identity starts with the role),
        # and one pass over the roles costs less than folding every label; generic nodes are too many
        exact = next(
            (
                t
                for t in terms
                if t.key == "role" and t.op == "=" and isinstance(t.value, str) and fold(t.value) != "generic"
            ),
            None,
        )
        if exact is None:
            exact = next((t for t in terms if t.key in INDEXED_KEYS and t.op == "=" and isinstance(t.value, str)), None)
        if exact is not None:
            return capture.by_value(exact.key, fold(str(exact.value)))
    predicates: list[str] = []
    args: dict[str, str] = {}
    for i, t in enumerate(terms):
        if isinstance(t.value, bool) or t.key in POSITIONAL:
            continue
        if t.key in ("role", "tag") and t.op == "=" and t.value.isascii():
            predicates.append(f"@{t.key}=$v{i}")
            args[f"v{i}"] = fold(t.value)
        elif t.key in _ATTRIBUTE:
            predicates.append(f"@{_ATTRIBUTE[t.key]}")
    where = "[" + " and ".join(predicates) + "]" if predicates else ""
    if within is None:
        return capture.select(".//node" + where, **args) if predicates else capture.nodes[1:]
    seen: set[int] = set()
    found: list[Node] = []
    for scope in within:
        for n in cast(list[Node], scope.xpath(".//node" + where, **args)):  # type: ignore[arg-type]
            if n.position not in seen:
                seen.add(n.position)
                found.append(n)
    return sorted(found, key=lambda n: n.position) if len(within) > 1 else found


def link_matches(capture: Capture, terms: tuple[Term, ...], within: list[Node] | None = None) -> list[Node]:
    """Nodes (document order, root excluded) for which every term holds, then ``nth`` picks one of them."""
    cache: dict[str, regex.Pattern[str]] = {}
    nth = next((int(str(t.value)) for t in terms if t.key in POSITIONAL), None)
    filters = tuple(t for t in terms if t.key not in POSITIONAL)
    found = [n for n in _candidates(capture, filters, within) if all(term_matches(n, t, cache) for t in filters)]
    if nth is None:
        return found
    if any(t.key == AT for t in terms):  # reading order: top to bottom, then left to right
        found.sort(key=lambda n: (n.rect[1], n.rect[0]))
    return [found[nth]] if -len(found) <= nth < len(found) else []


def chain_matches(capture: Capture, chain: Chain) -> list[Node]:
    """Nodes matching the last link that lie inside a match of each link before it (``A >> B``)."""
    within: list[Node] | None = None
    for terms in chain:
        within = link_matches(capture, terms, within)
        if not within:
            return []
    return within or []


def match_set(capture: Capture, selector: Selector) -> tuple[int, list[Node]]:
    """The first alternative (index into ``selector.expanded()``) with a match, and its matches."""
    for i, chain in enumerate(selector.expanded()):
        found = chain_matches(capture, chain)
        if found:
            return i, found
    return -1, []


def describe(node: Node) -> str:
    """One candidate line: ``@e7 button "Place order" [disabled]``."""
    out = f"{node.ref} {node.role}"
    if node.label:
        out += f' "{node.label}"'
    elif node.content:
        out += f' text="{node.content[:60]}"'
    if node.test_id:
        out += f" id={node.test_id}"
    ancestors = [a for a in node.ancestors() if a.label][:1]
    if ancestors:
        out += f' in {ancestors[0].role} "{ancestors[0].label}"'
    return out


class ResolutionKind(StrEnum):
    """How a step's target resolved (a resolution's ``kind``)."""

    UNIQUE = "unique"
    DISAMBIGUATED = "disambiguated"
    AMBIGUOUS = "ambiguous"
    NONE = "none"
    REF = "ref"  # a ref of a refs generation
    REBOUND = "rebound"  # a ref whose element was found again by its recorded identity
    EVIDENCE = "evidence"  # identity evidence isolated it among matches in distinct subtrees


@dataclass
class Resolution:
    """How a step's target resolved — disclosed by every action response (design §4, §5).

    ``kind``: unique | disambiguated | ambiguous | none (a selector's match set), ``ref`` (a ref
    of a refs generation), or ``evidence`` (identity evidence isolated the target among matches
    in distinct subtrees, by ``signal``).
    """

    kind: ResolutionKind
    match_count: int
    winner: Node | None = None
    matches: list[Node] = field(default_factory=list)
    tiebreak: str | None = None
    alternative: int = -1
    ref: str | None = None
    refs_generation: int | None = None
    signal: str | None = None

    @classmethod
    def of_ref(cls, ref: str, refs_generation: int) -> Resolution:
        """A ref resolves to the one node it names."""
        return cls(ResolutionKind.REF, 1, ref=ref, refs_generation=refs_generation)

    @classmethod
    def by_evidence(cls, match_count: int, signal: str) -> Resolution:
        """Matches in distinct subtrees, the recorded element isolated among them by ``signal``."""
        return cls(ResolutionKind.EVIDENCE, match_count, signal=signal)

    def to_dict(self) -> dict[str, Any]:
        """The ``resolution`` JSON."""
        out: dict[str, Any] = {"kind": self.kind, "matchCount": self.match_count}
        if self.ref is not None:
            out["ref"] = self.ref
            out["refsGeneration"] = self.refs_generation
        if self.signal is not None:
            out["signal"] = self.signal
        if self.tiebreak:
            out["tiebreak"] = self.tiebreak
        if self.alternative >= 0:
            out["alternative"] = self.alternative
        if self.kind == ResolutionKind.AMBIGUOUS:
            out["candidates"] = [describe(n) for n in self.matches[:MAX_CANDIDATES]]
        return out


def resolve_matches(matches: list[Node], alternative: int = -1) -> Resolution:
    """Resolve a match set: one node; a chain around one actionable node; else ambiguous."""
    if not matches:
        return Resolution(ResolutionKind.NONE, 0, alternative=alternative)
    if len(matches) == 1:
        return Resolution(ResolutionKind.UNIQUE, 1, matches[0], matches, alternative=alternative)
    if is_chain(matches):
        actionable = [n for n in matches if n.actionable]
        if len(actionable) == 1:
            return Resolution(
                ResolutionKind.DISAMBIGUATED,
                len(matches),
                actionable[0],
                matches,
                "structural-equivalence",
                alternative,
            )
        if len(actionable) == 2 and partner(actionable[0]) is actionable[1]:
            # a custom element and the control in its shadow root are one control (design §5): the half a
            # person's pointer reaches, else the host
            shown = [n for n in actionable if n.hittable]
            one = shown[0] if len(shown) == 1 else actionable[0]
            return Resolution(ResolutionKind.DISAMBIGUATED, len(matches), one, matches, "composed-control", alternative)
        if not actionable:
            # nested containers that all carry the text: the innermost element is the one that holds it
            return Resolution(
                ResolutionKind.DISAMBIGUATED, len(matches), matches[-1], matches, "structural-innermost", alternative
            )
    return Resolution(ResolutionKind.AMBIGUOUS, len(matches), None, matches, alternative=alternative)


def resolve(capture: Capture, selector: Selector) -> Resolution:
    """Match and resolve a selector against a capture."""
    alternative, matches = match_set(capture, selector)
    return resolve_matches(matches, alternative)
