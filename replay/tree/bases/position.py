"""Basis ``position`` (docs/design.md §5 item 7): steps told from look-alikes by their place alone.

Nothing but ``nth`` singles such an element out. Replay acts on that place **only while the look-alikes
are the ones recorded**: the nodes the selector names without its ``nth`` — their count, and each one's
own signature (role, name, key text) in the same order — recorded as ``lookAlikes`` (``"3:1f0c9a2e"``,
the count and a digest) and compared before acting. Any change among them (one more, one gone, one
renamed, two swapped) stops the step as ``identity-unverifiable``: the place may now hold another
element, and nothing recorded can say which. A *verified* step whose place among look-alikes in its anchor
was part of what isolated it (``role=form label="Route" >> role=combobox nth=0``, told by its sibling
index) records them too, and stops when their number changes (``recounted``).
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from replay.script.evidence import POSITION, UNVERIFIABLE, TargetEvidence
from replay.script.selector import POSITIONAL, Alternative, Selector
from replay.script.text import normalize
from replay.tree.bases import Stage, Way
from replay.tree.match import match_set
from replay.tree.model import Capture, Node


def is_positional(selector: Selector) -> bool:
    """Whether a selector singles its node out by position (an ``nth`` term anywhere)."""
    return any(t.key in POSITIONAL for alt in selector.alternatives for link in alt.links() for t in link.terms)


def _unplaced(selector: Selector) -> Selector | None:
    """The first positional alternative of ``selector`` without its place (every ``nth`` dropped)."""
    for alt in selector.alternatives:
        if not any(t.key in POSITIONAL for link in alt.links() for t in link.terms):
            continue
        scope = tuple(replace(s, terms=tuple(t for t in s.terms if t.key not in POSITIONAL)) for s in alt.scope)
        own = tuple(t for t in alt.terms if t.key not in POSITIONAL)
        return Selector((Alternative(terms=own, bare=alt.bare, scope=scope),))
    return None


def look_alikes(capture: Capture, selector: Selector) -> str | None:
    """``"N:DIGEST"`` of the nodes ``selector`` names without its place (None: it names none by place)."""
    unplaced = _unplaced(selector)
    if unplaced is None:
        return None
    nodes = match_set(capture, unplaced)[1]
    signatures = "\n".join(_signature(n) for n in nodes)
    return f"{len(nodes)}:{hashlib.sha1(signatures.encode('utf-8')).hexdigest()[:8]}"


def _signature(node: Node) -> str:
    return f"{node.role}|{normalize(node.label) or ''}|{normalize(node.key_text) or ''}"


def by_place(capture: Capture, selector: Selector, ev: TargetEvidence) -> Node | None:
    """The node at the recorded place, when the look-alikes are the ones recorded (None otherwise)."""
    if ev.look_alikes is None or look_alikes(capture, selector) != ev.look_alikes:
        return None
    found = match_set(capture, selector)[1]
    return found[0] if len(found) == 1 else None


def changed(capture: Capture, selector: Selector, ev: TargetEvidence) -> list[str]:
    """What a reader is told when the look-alikes changed: ``look-alikes: recorded 3, found 4``."""
    if ev.look_alikes is None:
        return []
    now = look_alikes(capture, selector)
    was, _, _ = ev.look_alikes.partition(":")
    count = (now or "0:").partition(":")[0]
    same_count = f"found {count}, one of them changed or moved" if count == was else f"found {count}"
    return [f"look-alikes: recorded {was}, {same_count}"]


def recounted(capture: Capture, selector: Selector, ev: TargetEvidence) -> list[str]:
    """For a *verified* step told from look-alikes in its anchor by its place (``lookAlikes`` beside an
    anchor): what a reader is told when their number changed — one deleted leaves its twin at the place,
    and the signals that told them apart (sibling, viewport order) would pick the twin. Their names may
    drift (the anchor and the evidence still verify); their number may not."""
    if ev.look_alikes is None:
        return []
    counted = look_alikes(capture, selector)
    if counted is None:  # a selector a person rewrote without its place: the count was of another
        return []
    was, now = ev.look_alikes.partition(":")[0], counted.partition(":")[0]
    return [] if now == was else [f"look-alikes: recorded {was}, found {now}"]


def place(capture: Capture, selector: Selector, node: Node, ev: TargetEvidence) -> TargetEvidence:
    """The self-check's last word on unverifiable evidence: basis ``position`` with the look-alikes its
    positional selector tells ``node`` from, when it names exactly ``node`` (else ``ev`` as it is)."""
    alike = look_alikes(capture, selector) if is_positional(selector) else None
    if alike is None or match_set(capture, selector)[1] != [node]:
        return ev
    return replace(ev, verification=UNVERIFIABLE, basis=POSITION, look_alikes=alike)


class Position(Way):
    """Never recorded from a node alone: the self-check gives it (``place``), from the selector written.
    Verification acts on the place while the look-alikes are the recorded ones (``by_place``)."""

    name = POSITION
    fields = ("look_alikes",)
    stage = Stage.PLACE


WAY = Position()
