"""What a heal must keep of a step's effect (design §8, §15): the healed step — or the state fixes the
heal recorded right after it — must do what the original step did, in the original's words or a drifted
form of them. One home for the rule: the acceptance gate (every healer: the built-in, an agent, a
person's ``close --verify``) and ``heal-report.md`` both ask here.

Two rules make a proof out of a comparison:
- **Drift forms count** as in a replay's effect check: the same navigation under another title, the
  same text appearing in another role (or said in place), a count moved the same way, a generated
  reference in its shape ("K7QWZP" is "9XQ2LM").
- **A dismissal proves nothing alone**: a dialog, menu or listbox that closes is what *every* control
  inside it does ("Keep it" closes the dialog "Yes, cancel it" closed), and the target going with it
  follows. When the original step recorded any other fact, one of those others must hold.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.script.effect import Change, Fact, rewritten
from replay.script.evidence import TargetEvidence
from replay.tree.effects import DISMISSED_WITH, masked
from replay.tree.place import same_place
from replay.tree.suggest import another_control

_SAYS = frozenset({"appeared", "changed"})  # "now shows this": the same text in place or appearing


@dataclass(frozen=True)
class Kept:
    """Whether a replaced step's effect is kept, and after how many inserted steps (0: by the step)."""

    kept: bool
    deferred: int = 0

    def note(self) -> str:
        """What ``heal-report.md`` appends to the step's "effect changed" line."""
        if not self.kept:
            return " (none of what it did)"
        return f" (effect deferred by {self.deferred} step{'s' * (self.deferred != 1)})" if self.deferred else ""


def same(recorded: Fact, found: Fact) -> bool:
    """Whether ``found`` is ``recorded`` or a drifted form of it (design §15)."""
    if recorded.kind == "navigated" or found.kind == "navigated":
        return recorded.kind == found.kind and recorded.subject == found.subject
    if recorded.kind == "target" or found.kind == "target":
        return recorded.kind == found.kind and recorded.subject == found.subject
    if recorded.kind == "count" or found.kind == "count":
        if recorded.kind != found.kind or recorded.by is None or found.by is None:
            return False
        return (recorded.subject == found.subject and (recorded.by > 0) == (found.by > 0)) or recorded.by == found.by
    if not (recorded.text and found.text):
        return False
    kinds_agree = recorded.kind == found.kind or {recorded.kind, found.kind} <= _SAYS
    return kinds_agree and masked(recorded.text) == masked(found.text)


def dismissals(facts: tuple[Fact, ...], within: frozenset[str]) -> set[Fact]:
    """The facts any control of the target's closing container would produce: that container gone
    (a dialog, a menu, a listbox it sat in) and, with it, the target."""
    closed = {f for f in facts if f.kind == "disappeared" and f.subject in DISMISSED_WITH & within}
    if closed:
        closed |= {f for f in facts if f.kind == "target" and f.subject == "gone"}
    return closed


def telling(facts: tuple[Fact, ...], within: frozenset[str]) -> tuple[Fact, ...]:
    """The facts that prove what this control did: all but the dismissals, when any other remains."""
    told = tuple(f for f in facts if f not in dismissals(facts, within))
    return told or facts


def kept(change: Change) -> Kept:
    """Whether the healed step, or the steps the heal inserted right after it, still do something the
    original step did (its telling facts, drift forms allowed): at once, or deferred by N steps."""
    wanted = telling(change.before, change.within)
    if not wanted:
        return Kept(True)
    for n, facts in enumerate((change.after, *change.later)):
        if any(same(w, f) for w in wanted for f in facts):
            return Kept(True, n)
    return Kept(False)


def identity_lost(original: Any, healed: Any) -> list[str]:
    """The replaced steps (``Script``s aligned by their lines) whose healed element is named against the
    recorded one — two names that share no word — and shares nothing else that identified it (test id,
    class, ``name``, row): another element that happens to do the same ("2" for a deleted "Next"), never
    a heal of this one; a person decides."""
    out = []
    for _, was, now, _ in rewritten(original, healed):
        ev = was.annotation
        news = [y.annotation for y in now if y.annotation is not None and y.target is not None]
        if ev is None or not ev.label or not news or not all(_named_against(ev, n) for n in news):
            continue
        n = news[0]
        found, recorded = (json.dumps(s, ensure_ascii=False) for s in (n.label or n.text or "", ev.label))
        out.append(
            f"line {was.line}: the healed step acts on a {n.role} {found}, whose name shares nothing with the"
            f" recorded {recorded} (none of what identified it)"
        )
    return out


def _named_against(recorded: TargetEvidence, found: TargetEvidence) -> bool:
    kept = (
        (recorded.id is not None and recorded.id == found.id)
        or (recorded.css_class is not None and recorded.css_class == found.css_class)
        or (recorded.name is not None and recorded.name == found.name)
        # the row said which one, and it stands where the recorded one stood ("Remove" for "Delete" in Bob's
        # row); in the same dialog but elsewhere, it is another control that does the same (× for "Keep it")
        or (recorded.anchor is not None and recorded.anchor == found.anchor and _in_place(recorded, found))
    )
    return another_control(recorded.label, (found.label, found.text, found.key_text), kept=kept)


def _in_place(recorded: TargetEvidence, found: TargetEvidence) -> bool:
    """Where the recorded element stood: its box when both are known (an evidence does not say whether its
    sibling index has siblings to count among), else that index."""
    if recorded.rect is not None and found.rect is not None:
        return same_place(recorded, None, (found.rect.x, found.rect.y, found.rect.width, found.rect.height))
    return same_place(recorded, found.sibling, None) or (recorded.sibling is None and recorded.rect is None)
