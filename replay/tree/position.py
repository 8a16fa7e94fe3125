"""Steps told from look-alikes by their place alone (docs/design.md §5, basis ``position``).

Nothing but ``nth`` singles such an element out. Replay acts on that place **only while the look-alikes
are the ones recorded**: the nodes the selector names without its ``nth`` — their count, and each one's
own signature (role, name, key text) in the same order — recorded as ``lookAlikes`` (``"3:1f0c9a2e"``,
the count and a digest) and compared before acting. Any change among them (one more, one gone, one
renamed, two swapped) stops the step as ``identity-unverifiable``: the place may now hold another
element, and nothing recorded can say which.
"""

from __future__ import annotations

import hashlib
from dataclasses import replace

from replay.script.evidence import TargetEvidence
from replay.script.selector import POSITIONAL, Alternative, Selector
from replay.script.text import normalize
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
