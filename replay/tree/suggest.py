"""Suggestion ranking: how similar each node of a capture is to the recorded evidence (design §6).

One weight table; the divergence report and the built-in healer use the same ranking.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache

from replay.script.evidence import Ancestor, TargetEvidence
from replay.script.text import fold, normalize
from replay.tree import bases
from replay.tree.anchors import column_of, find_anchor
from replay.tree.identity import ancestry_of, region_identity, region_of, sibling_of
from replay.tree.model import Capture, Node
from replay.tree.roles import kin, kin_roles

# component -> weight. A score is the weighted agreement over the components the evidence can
# speak to: all but ``id``, ``anchor`` and ``label`` always, ``id`` and ``anchor`` when recorded, ``label``
# unless the node had no name and sat in a recorded anchor (all but ``anchor`` sum to 1).
# What a score means (design §6; docs/healing.md): the structure alone — role, ancestry, region,
# sibling, position — is at most half of what the evidence speaks to, so a node that shares only
# where the recorded one sat scores ≤ 0.5; a name that keeps a word of the recorded one lifts it
# past 0.8 (a rename); the same name, placeholder or text (a strong secondary identity) past 0.9.
WEIGHTS: dict[str, float] = {
    "role": 0.145,
    "label": 0.535,  # label, else placeholder or text: word-aware similarity (see _words_similar)
    "id": 0.109,
    "ancestry": 0.104,
    "region": 0.02,
    "sibling": 0.022,
    "position": 0.065,
    "anchor": 0.39,  # the node sits in the recorded row, card or list item: identity-level evidence
}
MAX_SUGGESTIONS = 5
MIN_SCORE = 0.35
# a component counts in the basis when it reaches this share of its weight
BASIS_SHARE = 0.6


@dataclass(frozen=True)
class Suggestion:
    """A node that may be what the recorded element became."""

    node: Node
    score: float
    basis: tuple[str, ...]


def _compare(a: str | None, b: str | None, measure: Callable[[str, str], float]) -> float:
    """0 when either is empty, 1 when they are equal ignoring case, quotes, punctuation and the
    whitespace around them (design §8: ``'mushrooms'`` is ``mushrooms``), else ``measure`` of the
    casefolded pair."""
    if not a or not b:
        return 0.0
    a, b = a.casefold(), b.casefold()
    if a == b or (_bare(a) and _bare(a) == _bare(b)):  # "+" and "−" are not the same for having no words
        return 1.0
    return measure(a, b)


@lru_cache(maxsize=4096)
def _bare(text: str) -> str:
    """A name without its quotes and punctuation, its words single-spaced."""
    return " ".join(_PUNCTUATION.sub(" ", text).split())


_PUNCTUATION = re.compile(r"[^\w\s]+")


def same_name(a: str | None, b: str | None) -> bool:
    """Whether two names are one (design §8): equal ignoring case, quotes, punctuation and the whitespace
    around them (``Search`` is ``Search...``; ``+`` is not ``−``)."""
    return _compare(a, b, lambda x, y: 0.0) == 1.0


def similar(a: str | None, b: str | None) -> float:
    return _compare(a, b, lambda x, y: _words_similar(x, y, SequenceMatcher(None, x, y).ratio()))


# words that say nothing of what a control is ("Keep it" and "Yes, cancel it" share no word)
_STOP_WORDS = frozenset(
    {"a", "an", "the", "to", "of", "and", "or", "for", "in", "on", "at", "by", "your", "my", "it", "its", "is", "this"}
)
# two names with words and none in common ("Keep it" for "Yes, cancel it"): evidence against (design §8)
CONTRADICTION = -0.5
_WORD = re.compile(r"\w+")


@lru_cache(maxsize=4096)
def _words(text: str) -> frozenset[str]:
    return frozenset(w for w in _WORD.findall(text) if len(w) > 1 and w not in _STOP_WORDS)


def contradicts(recorded: str, said: tuple[str | None, ...]) -> bool:
    """Whether a node's names all contradict the recorded one: both sides have words, and nothing the
    node says (its label, text, placeholder) shares one with it or is it."""
    mine = _tokens(recorded.casefold())
    theirs = [s.casefold() for s in said if s]
    if not mine or not theirs or any(same_name(recorded, s) for s in theirs):
        return False
    worded = [t for s in theirs if (t := _tokens(s))]  # a glyph beside a name ("×") says nothing either way
    return bool(worded) and all(not mine & t for t in worded)


def another_control(
    recorded: str | None, said: tuple[str | None, ...], *, kept: bool, common: frozenset[str] = frozenset()
) -> bool:
    """Whether a candidate is another control, never a rename of the recorded one: it keeps no word of the
    recorded name — ``common``, the words its look-alikes say too ("slide" of every "Go to slide N"), tell
    nothing, and a glyph alone ("›") keeps none — and ``kept`` nothing else that identified it: its place
    first (a rename stands where it stood), an id or a row that said which one. A dialog's × does what its
    deleted "Keep it" did, a carousel's dot what its deleted arrow did; neither is it (docs/design.md §8).
    One rule for the built-in's pick, a trial's candidates and the gate."""
    if not recorded or kept:
        return False
    theirs = [s.casefold() for s in said if s]
    if any(same_name(recorded, s) for s in theirs):
        return False
    mine = _tokens(recorded.casefold()) - common
    return not any(mine & (_tokens(t) - common) for t in theirs)


def look_alike_words(said: tuple[str | None, ...], others: Sequence[tuple[str | None, ...]]) -> frozenset[str]:
    """The words a candidate shares with its series — at least two other candidates (``others``) named as it
    is but for one word ("Go to slide 3", "Go to slide 4" of "Go to slide 2") — which tell it from none of
    them: "go" and "slide" of a carousel's dots."""
    mine = frozenset().union(*(_tokens(s.casefold()) for s in said if s))
    series = [
        theirs
        for names in others
        if len(theirs := frozenset().union(*(_tokens(s.casefold()) for s in names if s))) == len(mine)
        and len(mine - theirs) == 1
    ]
    return mine.intersection(*series) if len(series) >= 2 else frozenset()


@lru_cache(maxsize=4096)
def _tokens(text: str) -> frozenset[str]:
    """Every word of a name but the stop words, one character long too ("2" is not "Next"; "+" has none); a
    name of stop words only is its words ("To" is not "From")."""
    words = frozenset(_WORD.findall(text))
    return words - _STOP_WORDS or words


def _words_similar(recorded: str, found: str, ratio: float) -> float:
    """How alike two (casefolded, unequal) names are: one that keeps a word of the recorded name
    ("Save draft" → "Save changes", "Add a task" → "New task") is a rename, 0.55..0.95 by the share of
    the recorded words kept and the characters' ``ratio``; one that keeps none ("Cancel") at most 0.2.
    Monotone in ``ratio``, so a bound of it bounds this too."""
    mine = _words(recorded)
    kept = len(mine & _words(found)) / len(mine) if mine else 0.0
    return 0.55 + 0.2 * kept + 0.2 * ratio if kept else 0.2 * ratio


class _Memo:
    """Per-ranking caches for ``identity.ancestry_of`` and ``identity.region_of``."""

    def __init__(self) -> None:
        self.chains: dict[int, tuple[Ancestor, ...]] = {}
        self.regions: dict[Node, Node | None] = {}


def _cheap(
    capture: Capture, node: Node, ev: TargetEvidence, memo: _Memo | None = None, position: float | None = None
) -> dict[str, float]:
    """The components that need no string similarity (``position``: already computed)."""
    memo = memo or _Memo()
    out: dict[str, float] = dict.fromkeys(WEIGHTS, 0.0)
    out["role"] = 1.0 if kin(ev.role, node) else 0.0  # the recorded role, or one of its family (design §8)
    if ev.ancestry:
        actual = ancestry_of(node, memo.chains)
        agree = sum(1 for i, want in enumerate(ev.ancestry) if i < len(actual) and actual[i] == want)
        out["ancestry"] = agree / len(ev.ancestry)
    region = region_of(node, memo.regions)
    if ev.scroll_region is not None or region is None:
        out["region"] = 1.0 if region_identity(region) == ev.scroll_region else 0.0
    if ev.sibling is not None:
        out["sibling"] = 1.0 if sibling_of(node) == ev.sibling else 0.0
    out["position"] = _position(capture, node, ev) if position is None else position
    if ev.anchor is not None and find_anchor(node, ev.anchor) is not None:
        # in the recorded row, and at the recorded place in it: a row's second button stays its second;
        # a cell by its row and its column first, wherever the column moved (design §8)
        out["anchor"] = 1.0 if ev.sibling is None or out["sibling"] == 1.0 else 0.75
        if ev.column is not None:
            out["anchor"] = 1.0 if fold(column_of(node)) == fold(ev.column) else 0.4
    return out


def _position(capture: Capture, node: Node, ev: TargetEvidence) -> float:
    """Rect proximity: 1 at the recorded centre, 0 a viewport diagonal away or more."""
    return _near(capture, ev)(node)


def _near(capture: Capture, ev: TargetEvidence) -> Callable[[Node], float]:
    """``_position`` for one capture and evidence, its constants computed once."""
    if ev.rect is None:
        return lambda node: 0.0
    rx, ry = ev.rect.x + ev.rect.width / 2, ev.rect.y + ev.rect.height / 2
    vw, vh = capture.viewport
    diagonal = math.hypot(vw or 1280, vh or 800)

    def near(node: Node) -> float:
        get = node.get  # Node.center, read straight from the attributes: this runs for every node
        cx = float(get("x") or 0) + float(get("w") or 0) / 2
        cy = float(get("y") or 0) + float(get("h") or 0) / 2
        return max(0.0, 1.0 - math.hypot(cx - rx, cy - ry) / diagonal)

    return near


# A node's strings the label and id components read: label, text, placeholder, test id (None when empty).
# label, text, placeholder, id, name, class tokens
Strings = tuple[str | None, str | None, str | None, str | None, str | None, str | None]


def _strings_of(node: Node) -> Strings:
    get = node.get  # node.label, .content, .placeholder, .test_id, .form_name without their properties (every node)
    return (
        get("label") or None,
        get("text") or None,
        get("placeholder") or None,
        get("id") or None,
        get("name") or None,
        get("class") or None,
    )


def _strings(
    strings: Strings,
    ev: TargetEvidence,
    out: dict[str, float],
    measure: Callable[[str | None, str | None], float] = similar,
    contradict: bool = True,
) -> dict[str, float]:
    """The ``label`` and ``id`` components by ``measure`` (``quick_similar``: their cheap upper bounds);
    ``contradict`` False: names that contradict count as any unlike names do (inside the recorded row)."""
    label, content, placeholder, test_id, _, classes = strings
    if ev.label:
        out["label"] = max(
            measure(ev.label, normalize(label)),
            measure(ev.label, content),
            measure(ev.label, placeholder),
        )
        if contradict and contradicts(ev.label, (normalize(label), content, placeholder)):
            out["label"] = CONTRADICTION
    if _same_placeholder_or_text(strings, ev) and (
        out.get("label") != CONTRADICTION or bool(ev.name) and ev.name == strings[4]
    ):
        # the same placeholder, text or form name attribute is as good as the same name — but a placeholder
        # two fields share ("Pick a city" under "From" and "To") never outweighs names that contradict
        out["label"] = 1.0
    if ev.id:
        out["id"] = measure(ev.id, test_id)
    elif (way := bases.of(ev)) is not None:  # what its basis recorded (a nameless control's class token)
        out.update(way.ranking(ev, classes))
    return out


def _same_placeholder_or_text(strings: Strings, ev: TargetEvidence) -> bool:
    """Whether the node has the recorded placeholder, text (folded) or form control name (exact)."""
    _, content, placeholder, _, name, _ = strings
    if ev.placeholder and fold(ev.placeholder) == fold(placeholder):
        return True
    if ev.name and ev.name == name:
        return True
    return bool(ev.text) and fold(ev.text) == fold(content)


@lru_cache(maxsize=64)
def _counts(recorded: str) -> tuple[tuple[str, ...], tuple[int, ...]]:
    """The distinct characters of a (casefolded) recorded string, and how often each occurs."""
    counted = Counter(recorded)
    return tuple(counted), tuple(counted.values())


def _shared(x: str, y: str) -> float:
    chars, counts = _counts(x)
    return 2.0 * sum(map(min, map(y.count, chars), counts)) / (len(x) + len(y))  # (all in C: no frame per char)


def quick_similar(a: str | None, b: str | None) -> float:
    """An upper bound of ``similar`` from the characters both share (difflib's quick_ratio), in
    O(len(b)) per distinct character of the recorded ``a`` (``str.count`` runs in C)."""
    return _compare(a, b, lambda x, y: _words_similar(x, y, _shared(x, y)))


def components(capture: Capture, node: Node, ev: TargetEvidence) -> dict[str, float]:
    """Each component's 0..1 agreement between ``node`` and the evidence."""
    cheap = _cheap(capture, node, ev)
    return _strings(_strings_of(node), ev, cheap, contradict=not cheap["anchor"])


# Inside the recorded row, card or list item (identity-level evidence) names that contradict are not held
# against a node: the row already says which one; its "Remove" may be the recorded "Delete" renamed.


def score(capture: Capture, node: Node, ev: TargetEvidence) -> tuple[float, tuple[str, ...]]:
    """The weighted similarity and the components that agreed."""
    parts = components(capture, node, ev)
    return round(_total(parts, ev), 3), _basis(parts)


def _scale(ev: TargetEvidence) -> float:
    """The sum of the weights of the components ``ev`` can speak to: a nameless control recorded in
    its row or card has no name to compare — its anchor (and its column) say what it is (design §5)."""
    return sum(
        w
        for k, w in WEIGHTS.items()
        if (k != "anchor" or ev.anchor)
        and (k != "id" or ev.id or k in _ranked(ev))
        and (k != "label" or _named(ev) or not ev.anchor)
    )


def _ranked(ev: TargetEvidence) -> dict[str, float]:
    """The components the evidence's basis speaks to (its ranking against no candidate)."""
    way = bases.of(ev)
    return way.ranking(ev, None) if way is not None else {}


def _named(ev: TargetEvidence) -> bool:
    """Whether the evidence holds a string the ``label`` component compares (a name, placeholder, text)."""
    return bool(ev.label or ev.placeholder or ev.text or ev.name)


def _total(parts: dict[str, float], ev: TargetEvidence) -> float:
    return sum(WEIGHTS[k] * v for k, v in parts.items()) / _scale(ev)


def _basis(parts: dict[str, float]) -> tuple[str, ...]:
    named = ("role", "label", "id", "anchor", "ancestry")
    return tuple(k for k in named if parts.get(k, 0.0) >= BASIS_SHARE)


def rank(capture: Capture, ev: TargetEvidence, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
    """The best candidates (≤ ``limit``), deduplicated, ties broken by document order.

    Exact scores are computed in order of upper bounds, stopping once no bound can enter the top:
    on a large page most nodes are never scored. Nodes are first grouped by role and strings (a
    table repeats its "Delete" and "paid"): a group's bound needs only the role and the characters
    its strings share with the recorded ones (position, anchor and structure credited in full), so
    a group that cannot reach the top is never read node by node. Inside a group each node's bound
    adds its position and anchor. The result equals scoring every node.
    """
    credit = sum(WEIGHTS[k] for k in ("ancestry", "region", "sibling"))
    scale = _scale(ev)
    anchor_credit = WEIGHTS["anchor"] if ev.anchor is not None else 0.0
    groups: dict[tuple[str, Strings], list[Node]] = {}
    for node in capture.labeled_or_actionable():
        groups.setdefault((node.get("role") or "generic", _strings_of(node)), []).append(node)
    upper: dict[Strings, dict[str, float]] = {}  # the string components' upper bounds, by strings
    upper_sums: dict[Strings, float] = {}
    ordered = []
    for (role, strings), members in groups.items():
        by_strings = upper_sums.get(strings)
        if by_strings is None:
            upper[strings] = _strings(strings, ev, {}, quick_similar, contradict=ev.anchor is None)  # (a bound)
            by_strings = upper_sums[strings] = sum(WEIGHTS[k] * v for k, v in upper[strings].items())
        same_role = kin_roles(ev.role, role)  # an upper bound: the family as the node may be
        top = (WEIGHTS["role"] * same_role + WEIGHTS["position"] + credit + by_strings + anchor_credit) / scale
        if top >= MIN_SCORE:
            ordered.append((top, members[0].position, same_role, strings, members))
    ordered.sort(key=lambda item: (-item[0], item[1]))
    near = _near(capture, ev)
    memo = _Memo()
    exact: dict[tuple[Strings, bool], dict[str, float]] = {}
    best: list[Suggestion] = []
    strings_credit = WEIGHTS["label"] * bool(ev.label or ev.placeholder or ev.text) + WEIGHTS["id"] * bool(
        ev.id or "id" in _ranked(ev)
    )

    def floor() -> float:
        return max(MIN_SCORE, best[limit - 1].score if len(best) >= limit else 0.0)

    for top, _, same_role, strings, members in ordered:
        if top < floor():
            break
        base = WEIGHTS["role"] * same_role + credit + upper_sums[strings]
        for node in members:
            position = near(node)
            bound = base + WEIGHTS["position"] * position
            if ev.anchor is not None:  # exact for the recorded role (most look-alikes sit in other rows), else credited
                bound += WEIGHTS["anchor"] * (not same_role or find_anchor(node, ev.anchor) is not None)
            low = floor()
            if bound / scale < low:
                continue
            cheap = _cheap(capture, node, ev, memo, position)
            if round((sum(WEIGHTS[k] * v for k, v in cheap.items()) + strings_credit) / scale, 3) < low:
                continue  # its exact structure, with the strings credited in full, cannot reach the top
            if round(_total({**cheap, **upper[strings]}, ev), 3) < low:
                continue  # even its strings' upper bounds cannot reach the top: no SequenceMatcher for it
            in_row = bool(cheap["anchor"])
            alike = exact.get((strings, in_row))
            if alike is None:
                alike = exact[(strings, in_row)] = _strings(strings, ev, {}, contradict=not in_row)
            parts = {**cheap, **alike}
            total = round(_total(parts, ev), 3)
            if total < MIN_SCORE:
                continue
            best.append(Suggestion(node, total, _basis(parts)))
            best.sort(key=lambda sug: (-sug.score, sug.node.position))
            del best[limit:]
    return _covered_after_hittable(best)


PLAUSIBLE = 0.8  # a candidate the built-in healer may act on (its MIN_SCORE)


def _covered_after_hittable(ranked: list[Suggestion]) -> list[Suggestion]:
    """``ranked`` with every covered node after the plausible hittable ones below it (a score a healer
    may act on): a node a modal layer covers is never ranked above one a person can click (design §5
    "Covered nodes") — yet a consent dialog's "Accept" is no reason to rank it lower."""
    last = max((i for i, s in enumerate(ranked) if s.node.hittable and s.score >= PLAUSIBLE), default=-1)
    head = ranked[: last + 1]
    return [s for s in head if not s.node.covered] + [s for s in head if s.node.covered] + ranked[last + 1 :]
