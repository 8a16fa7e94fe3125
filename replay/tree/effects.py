"""What an action did, read off the screen before and after it (design §15): the facts a recording
keeps, and how a replay judges them. Pure functions of captures; the engine takes the captures.

A fact is about what a person would say the action did: the page it led to, the state of what was
acted on, a dialog, alert, status, heading, row, list item, option or menu that appeared or went,
and how many rows or items the screen holds. Never about what changes by itself (clocks,
counters, timers' rows, spinners, focus): those differ between two captures with no action between
them (``Idle``), or only in their digits (a counter in place), and are left out.
"""

from __future__ import annotations

import json
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from replay.script.effect import MAX_FACTS, Fact
from replay.tree.filled import FIELD_ROLES, field_facts, holds
from replay.tree.generated import NUMBERS, PLACEHOLDER, masked
from replay.tree.model import F_OVERLAY, Capture, Node
from replay.tree.nearby import container_facts, said_by

# roles whose appearance tells what happened, overlays first (the order facts are kept in)
TELLING = (
    "dialog",
    "alertdialog",
    "alert",
    "status",
    "heading",
    "menu",
    "listbox",
    "tabpanel",
    "region",  # a disclosure's content (an accordion's panel)
    "row",
    "listitem",
    "option",
    "treeitem",
)
ITEMS = ("row", "listitem", "option", "treeitem")  # told by their key text, counted as a list's length
DISMISSED_WITH = frozenset({"dialog", "alertdialog", "menu", "listbox"})  # close whatever is clicked in them
TEXT_CHARS = 80
MAX_ONE_BY_ONE = 2  # more rows or items of a role than this appearing at once: a count, not each
MAX_TEXTS = 2  # more texts in place than this changing at once: a re-render, no fact
Key = tuple[str, str]  # (role, text)


def text_of(node: Node) -> str | None:
    """What a telling node says: a row's or item's key text (its name is all its cells), else its
    label, else its key text; cut to 80 characters."""
    said = node.key_text if node.role in ITEMS else (node.label or node.key_text)
    return said[:TEXT_CHARS].rstrip() if said else None


def tells(node: Node) -> bool:
    """Whether ``node``'s appearance tells what happened: a telling role, or a layer over the page of
    any role (a modal of plain divs, a popover)."""
    return node.get("role") in TELLING or node.has(F_OVERLAY)


def telling(capture: Capture) -> Counter[Key]:
    """How many visible nodes of each telling (role, text) the screen shows."""
    found: Counter[Key] = Counter()
    for node in capture.nodes[1:]:
        if tells(node) and node.visible and (said := text_of(node)):
            found[(node.role, said)] += 1
    return found


def items(capture: Capture) -> Counter[str]:
    """How many visible rows, list items and options the screen shows, by role."""
    return Counter(n.role for n in capture.nodes[1:] if n.get("role") in ITEMS and n.visible)


@dataclass
class Idle:
    """What the session saw change with no action between two captures: never an effect."""

    keys: set[Key] = field(default_factory=set)
    roles: set[str] = field(default_factory=set)  # item roles whose count moved by itself

    def learn(self, before: Capture, after: Capture) -> None:
        """Remember what differs between two captures taken with no action between them."""
        a, b = telling(before), telling(after)  # (a toast leaves by itself: its coming was still an action's)
        left = {k for k in a.keys() - b.keys() if k[0] in ("alert", "status")}
        self.keys.update(k for k in a.keys() | b.keys() if a[k] != b[k] and k not in left)
        self.keys.update((role, masked(text)) for role, text in a.keys() ^ b.keys() if (role, text) not in left)
        self.roles.update(role for role, text in a.keys() ^ b.keys() if role in ITEMS)
        for pair in _reworded_in_place(before, after, None):  # a text in place that changes by itself: both
            self.keys.update((n.role, masked(_own(n))) for n in pair if _may_say(n))

    def steady(self, facts: tuple[Fact, ...]) -> tuple[Fact, ...]:
        """``facts`` less those about what has since been seen changing by itself."""
        return tuple(
            f for f in facts if f.text is None or f.kind == "navigated" or not self.volatile((f.subject, f.text))
        )

    def volatile(self, key: Key) -> bool:
        """Whether ``key`` was seen changing by itself (its text by its shape too)."""
        return key in self.keys or (key[0], masked(key[1])) in self.keys


@dataclass
class Watch:
    """A session's memory for effects: the latest settled screen after an action (``baseline``, at
    journal position ``at``) and what it saw change by itself since (``idle``)."""

    baseline: Capture | None = None
    at: int = 0
    idle: Idle = field(default_factory=Idle)
    # every step the session recorded with facts (its journal entry, its facts): what is later seen
    # changing by itself is taken out of each, however many steps back (a timer's rows)
    recorded: list[tuple[Any, tuple[Fact, ...]]] = field(default_factory=list)
    secrets: set[str] = field(default_factory=set)  # every variable's value the session's steps used
    # what an effect check just looked at, and the journal's length then: the next step's first look
    # takes it instead of looking again (the same moment: right after the action) — only while nothing
    # else was journaled, so nothing acted in between. A whole screen serves any look; a targeted view
    # serves the look whose spec it was taken with too (``ahead``: the next step's, set by the runner)
    handoff: tuple[Capture, int, dict[str, Any] | None] | None = None  # (look, journal length, the spec it serves)
    ahead: dict[str, Any] | None = None


@dataclass(frozen=True)
class TargetState:
    """What the screen says of the acted-on element: gone, or its flags and value."""

    present: bool
    checked: bool = False
    selected: bool = False
    enabled: bool = True
    expanded: bool = False
    value: str | None = None
    editable: bool = False  # it takes text: its value is what was typed

    @classmethod
    def of(cls, node: Node | None) -> TargetState:
        """The state of ``node`` (None: it is gone)."""
        if node is None:
            return cls(False)
        value = node.value if node.value is not None or not node.editable else node.content  # (an editor: its text)
        return cls(True, node.checked, node.selected, node.enabled, node.expanded, value, node.editable)


def target_facts(before: TargetState, after: TargetState, command: str, value: str | None) -> list[Fact]:
    """How the target changed: gone, its check, selection or enabled state, or (a fill, a select) its
    value — ``value`` is what the fact says of it (``<redacted>`` for typed text)."""
    if before.present and not after.present:
        return [Fact("target", "gone")]
    if not after.present:
        return []
    out = []
    if after.checked != before.checked:
        out.append(Fact("target", "checked" if after.checked else "unchecked"))
    if after.selected and not before.selected:
        out.append(Fact("target", "selected"))
    if after.expanded != before.expanded:  # an accordion's header, a tree's row, a menu's button
        out.append(Fact("target", "expanded" if after.expanded else "collapsed"))
    if after.enabled != before.enabled:
        out.append(Fact("target", "enabled" if after.enabled else "disabled"))
    if command in ("fill", "select", "type") and value is not None and after.value != before.value:
        # a select is chosen by its label or value, and holds the option's value: the fact says what it holds
        out.append(Fact("target", "value", value=after.value if command == "select" and after.value else value))
    elif after.value != before.value and after.value and not (after.editable or before.editable):
        out.append(Fact("target", "value", value=after.value))  # a slider's keys or drag: the value it holds now
    return out


def observe(
    before: Capture,
    after: list[Capture],
    target: tuple[TargetState, TargetState],
    *,
    command: str,
    value: str | None = None,
    idle: Idle | None = None,
    typed: str | None = None,
    acted: Node | None = None,
) -> tuple[Fact, ...]:
    """The effect of one action: at most 4 facts, in order of preference (design §15). ``after`` are the
    captures taken while the screen settled, the settled one last (a toast seen in any of them
    appeared); ``target`` the acted-on element's state before and after; ``acted``: the element (of
    ``before``) whose container tells what it did where nothing else does."""
    settled = after[-1]
    facts: list[Fact] = []
    if settled.screen.path != before.screen.path and settled.screen.path:
        # another page: what it shows is the page, not the action's doing
        facts.append(Fact("navigated", settled.screen.path, settled.screen.title))
        facts += target_facts(target[0], target[1], command, value)[:1] if target[1].present else []
        return tuple(facts[:MAX_FACTS])
    facts += target_facts(target[0], target[1], command, value)
    facts += changes(before, after, idle or Idle())
    told = {masked(f.text) for f in facts if f.text}
    # a target that went took its place with it (a screen that moved on): places no longer pair — unless it
    # went with the layer it sat in (a dialog answered: what its answer changed beneath is what tells it)
    answered = any(f.kind == "disappeared" and f.subject in DISMISSED_WITH for f in facts)
    for fact in text_changes(before, settled) if target[1].present or answered else ():
        volatile = idle is not None and idle.volatile((fact.subject, fact.text or ""))
        if not volatile and masked(fact.text or "") not in told and not (typed and typed in (fact.text or "")):
            facts.append(fact)
    if command not in ("fill", "type"):  # a field this filled (a day's click its date; never typed text)
        facts += field_facts(before, settled, acted)
    if not facts and acted is not None:  # nothing telling: what changed beside it (a tag input's new tag)
        facts = [f for f in container_facts(before, settled, acted, (idle or Idle()).keys) if f.text != typed]
    return tuple(facts[:MAX_FACTS])


def _in_place(capture: Capture) -> dict[tuple[tuple[str, int], ...], Node]:
    """The visible nodes that say something, by their place: the roles and child indices down from the
    root (the same place in two captures of one screen is the same node, re-rendered or not)."""
    out: dict[tuple[tuple[str, int], ...], Node] = {}
    todo: list[tuple[Node, tuple[tuple[str, int], ...]]] = [(capture.nodes[0], ())]
    while todo:
        node, path = todo.pop()
        for i, child in enumerate(c for c in node if isinstance(c, Node)):
            place = (*path, (child.role, i))
            if child.visible and child.content:
                out[place] = child
            todo.append((child, place))
    return out


def text_changes(before: Capture, after: Capture) -> list[Fact]:
    """Nodes in place whose own text changed (design §15: a calendar's "June, 2026" → "July, 2026"), not a
    field, a row or a telling node (their appearing says it); more than ``MAX_TEXTS`` is a re-render."""
    facts = [Fact("changed", n.role, _own(n)) for _, n in _reworded_in_place(before, after, MAX_TEXTS) if _may_say(n)]
    return facts if len(facts) <= MAX_TEXTS else []


def _reworded_in_place(before: Capture, after: Capture, limit: int | None) -> list[tuple[Node, Node]]:
    """The nodes in place whose text was reworded and nothing inside them changed, came or went, however deep
    (a feed's new row, which a text cut at the capture's cap shows half of), as (before, after)."""
    if before.partial or after.partial:
        return []  # (a view holds some nodes only: places in it are not the page's)
    pre, post = _in_place(before), _in_place(after)

    def reworded(was: str, now: str) -> bool:  # its numbers moved ("2 items left" → "1 item left"): a counter
        return masked(was) != masked(now) and NUMBERS.findall(was) == NUMBERS.findall(now)

    changed = {p for p in pre.keys() & post.keys() if reworded(pre[p].content or "", post[p].content or "")}
    if limit is not None and len(changed) > 4 * limit + 16:  # (None: all, to learn what changes by itself)
        return []  # (a screen re-rendered whole: no pairing is worth reading)
    around = {p[:i] for p in changed | (pre.keys() ^ post.keys()) for i in range(len(p))}
    return [(pre[p], post[p]) for p in sorted(changed) if p not in around]


def _own(node: Node) -> str:
    return (node.content or "")[:TEXT_CHARS].rstrip()


def _may_say(node: Node) -> bool:
    return not (node.editable or tells(node) or any(a.get("role") in ITEMS for a in node.ancestors()))


def changes(before: Capture, after: list[Capture], idle: Idle) -> list[Fact]:
    """What appeared (in any capture of ``after``) or went (from the last), overlays first; a role with
    many rows at once, or rows that tell nothing apart, as a count."""
    pre = telling(before)
    seen = [telling(c) for c in after]
    post = seen[-1]
    appeared = [k for k in dict.fromkeys(k for s in seen for k in s) if max(s[k] for s in seen) > pre[k]]
    gone = [k for k in pre if post[k] < pre[k]]
    # a counter or a clock in place ("3 left" → "4 left") is neither an appearance nor a departure
    paired = {masked(t) for _, t in appeared} & {masked(t) for _, t in gone}
    appeared = [k for k in appeared if masked(k[1]) not in paired and not idle.volatile(k)]
    gone = [k for k in gone if masked(k[1]) not in paired and not idle.volatile(k)]
    facts: list[Fact] = []
    by_role: dict[str, int] = {}
    for keys in (appeared, gone):
        for role, _ in keys:
            by_role[role] = by_role.get(role, 0) + 1
    for kind, keys in (("appeared", appeared), ("disappeared", gone)):
        for role, said in keys:
            if role in ITEMS and by_role[role] > MAX_ONE_BY_ONE:
                continue
            facts.append(Fact(kind, role, said))
    facts.sort(key=lambda f: TELLING.index(f.subject) if f.subject in TELLING else 0)  # (a layer: first)
    told = {f.subject for f in facts}
    counts = items(before), items(after[-1])
    for role in ITEMS:
        moved = counts[1][role] - counts[0][role]
        if moved and role not in told and role not in idle.roles:
            facts.append(Fact("count", role, by=moved))
    return facts


# replay: judging recorded facts ----------------------------------------------------------------

HELD, CHANGED, MISSING = "held", "changed", "missing"


@dataclass(frozen=True)
class Judged:
    """One recorded fact on replay: held, held in a changed form (``how``), or missing."""

    fact: Fact
    status: str
    how: str | None = None


def judge(
    fact: Fact,
    before: Capture,
    after: Capture,
    target: tuple[TargetState, TargetState],
    *,
    typed: str | None = None,
    shown: frozenset[str] | None = frozenset(),
) -> Judged:
    """Whether ``fact`` holds between ``before`` and ``after``. ``typed``: the text a fill typed this
    time (its fact says ``<redacted>``); ``shown``: the roles both captures show whole (None: every
    role), in which a fact held in another form (the same text in another role) can be told."""
    if fact.kind == "navigated":
        if after.screen.path == fact.subject:
            if fact.text is None or after.screen.title == fact.text:
                return Judged(fact, HELD)
            return Judged(fact, CHANGED, f"navigated to {fact.subject} titled {after.screen.title!r}")
        if after.screen.path and after.screen.path != before.screen.path:
            # it navigated, elsewhere (a notice page first): the next step's identity check tells the screen
            return Judged(fact, CHANGED, f"navigated to {after.screen.path} instead")
        return Judged(fact, MISSING)
    if fact.kind == "target":
        if _target_holds(fact, target, typed):
            return Judged(fact, HELD)
        if fact.subject == "gone" and target[1].present and target[1].selected and not target[0].selected:
            return Judged(fact, CHANGED, "the target stayed, selected")  # a list that keeps a chosen option
        instead = {"expanded": "selected", "selected": "expanded"}.get(fact.subject)  # a tab: either says it shows
        if instead is not None and _target_holds(Fact("target", instead), target, typed):
            return Judged(fact, CHANGED, f"the target became {instead}")
        return Judged(fact, MISSING)
    if fact.kind == "count":
        assert fact.by is not None
        moved = items(after)[fact.subject] - items(before)[fact.subject]
        if moved == fact.by:
            return Judged(fact, HELD)
        if moved and (moved > 0) == (fact.by > 0):
            return Judged(fact, CHANGED, f"{fact.subject} count moved by {moved:+d}")
        return Judged(fact, MISSING)
    assert fact.text is not None
    if fact.kind == "changed":  # a node of its role says it now, and no fewer than before (a row may
        said = masked(fact.text)  # have said it already: "Order A-101" in the list, then the title; a field: its value)
        saying = lambda c: sum(_says(n, said) or holds(n, fact.text) for n in c.by_value("role", fact.subject))  # noqa: E731
        was, now = saying(before), saying(after)
        if now and now >= was:
            return Judged(fact, HELD)
        if fact.subject in FIELD_ROLES:  # a field's value: as it is, or not at all
            return Judged(fact, MISSING)
        # in another form: another role says it, shown or chosen (flatpickr 3's month title, 4's option)
        other = next((n for n in after.nodes[1:] if n.role != fact.subject and _says(n, said, anyhow=True)), None)
        return Judged(fact, CHANGED, f"said by a {other.role}") if other is not None else Judged(fact, MISSING)
    # compared by shape: "Order 1234 placed, reference K7QWZP" is the toast "Order 1299 placed, reference 9XQ2LM"
    key = (fact.subject, masked(fact.text))
    was, now = said_on(before, *key), said_on(after, *key)  # only that role's nodes (a view's few)
    if (now > was) if fact.kind == "appeared" else (now < was):
        return Judged(fact, HELD)
    pre, post = _by_mask(telling(before)), _by_mask(telling(after))
    if shown is None or shown:
        for role, said in post.keys() | pre.keys():
            if said != key[1] or role == fact.subject or (shown is not None and role not in shown):
                continue
            moved = post[(role, said)] - pre[(role, said)]
            if (moved > 0) if fact.kind == "appeared" else (moved < 0):
                return Judged(fact, CHANGED, f"{fact.kind} as a {role}")
    return Judged(fact, MISSING)


def said_on(capture: Capture, role: str, said: str) -> int:
    """How many visible nodes of ``role`` say ``said`` (compared by shape) — by what they tell, or by
    their name or key text alone (a panel named "Reviews" that shows "Reviews pane"); a layer over the
    page by any text of its own too (a popover that showed "Small" first shows "Small Large" whole); of a
    role that tells nothing (what changed beside the target), any node of it by what it says."""
    beside = role not in TELLING  # (a fact of what changed beside the target: a node of any role, by what it says)
    return sum(
        1
        for n in capture.by_value("role", role)
        if n.visible
        and (
            (said in _forms(n) or (n.has(F_OVERLAY) and n.shows(said)))
            if tells(n)
            else beside and (t := said_by(n)) is not None and masked(t) == said
        )
    )


def _says(node: Node, said: str, *, anyhow: bool = False) -> bool:
    """Whether ``node`` shows ``said`` as its text; ``anyhow``: or its name or value, or chosen."""
    if not (node.visible or (anyhow and node.selected)):
        return False
    texts = (node.content, node.label, node.value) if anyhow else (node.content,)
    return any(t and masked(t[:TEXT_CHARS].rstrip()) == said for t in texts)


def _forms(node: Node) -> set[str]:
    return {masked(t[:TEXT_CHARS].rstrip()) for t in (text_of(node), node.label, node.key_text) if t}


def _by_mask(found: Counter[Key]) -> Counter[Key]:
    return Counter(k for (role, said), n in found.items() for k in [(role, masked(said))] * n)


def words_of(text: str) -> str | None:
    """The longest part of ``text`` that a run does not generate (≥ 3 characters), for a view to look
    for: what a fact's text is matched by whatever numbers or references it shows this time."""
    longest = max(masked(text).split(PLACEHOLDER), key=len).strip()
    return longest if len(longest) >= 3 else None


def _target_holds(fact: Fact, target: tuple[TargetState, TargetState], typed: str | None) -> bool:
    before, after = target
    state = fact.subject
    if state == "gone":
        return not after.present
    if not after.present:
        return False
    if state in ("checked", "unchecked"):
        return after.checked == (state == "checked")
    if state == "selected":
        return after.selected
    if state in ("expanded", "collapsed"):
        return after.expanded == (state == "expanded")
    if state in ("enabled", "disabled"):
        return after.enabled == (state == "enabled")
    if state == "value":
        if fact.value is not None and not fact.value.startswith("<"):
            return after.value == fact.value  # a select's choice: not typed, written as it is
        # (text typed into an editor ends what it holds; a field filled holds it whole)
        now = after.value or ""  # (a password shows as bullets: any it shows holds; none shown, none typed)
        return typed is None or now.endswith(typed) or (bool(now) and now.strip("•*") == "")
    return False


def past(facts: tuple[Fact, ...] | list[Fact]) -> str:
    """What happened, in a reader's words: ``a dialog "Delete eggs?" appeared`` (``nothing changed``)."""
    said = []
    for f in facts:
        if f.kind == "navigated":
            said.append(f"navigated to {f.subject}")
        elif f.kind == "target":
            gone = "the target went" if f.subject == "gone" else f"the target became {f.subject}"
            said.append(f"the target holds {f.value}" if f.subject == "value" else gone)
        elif f.kind == "count":
            said.append(f"{f.subject} count moved by {f.by:+d}")
        elif f.kind == "changed":
            said.append(f"a {f.subject} now says {_quoted(f.text)}")
        else:
            said.append(f"a {f.subject} {_quoted(f.text)} {f.kind}")
    return "; ".join(said) if said else "nothing changed"


def _quoted(text: str | None) -> str:
    return json.dumps(text or "", ensure_ascii=False)
