"""Suggestion ranking: how similar each node of a capture is to the recorded evidence (SPEC §6).

One weight table; the divergence report and the built-in healer use the same ranking.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from difflib import SequenceMatcher

from replay.script.evidence import TargetEvidence, normalize_label
from replay.tree.identity import region_identity, region_of, sibling_of
from replay.tree.model import Capture, Node

# component -> weight; the weights sum to 1.0
WEIGHTS: dict[str, float] = {
    "role": 0.30,
    "label": 0.25,
    "id": 0.10,
    "ancestry": 0.15,
    "region": 0.05,
    "sibling": 0.05,
    "position": 0.10,
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


def _similar(a: str | None, b: str | None) -> float:
    if not a or not b:
        return 0.0
    a, b = a.casefold(), b.casefold()
    if a == b:
        return 1.0
    return SequenceMatcher(None, a, b).ratio()


def components(capture: Capture, node: Node, ev: TargetEvidence) -> dict[str, float]:
    """Each component's 0..1 agreement between ``node`` and the evidence."""
    out: dict[str, float] = dict.fromkeys(WEIGHTS, 0.0)
    out["role"] = 1.0 if ev.role is not None and node.role == ev.role else 0.0
    if ev.label:
        out["label"] = max(
            _similar(ev.label, normalize_label(node.label)),
            _similar(ev.label, node.content),
            _similar(ev.label, node.placeholder),
        )
    if ev.id:
        out["id"] = _similar(ev.id, node.test_id)
    if ev.ancestry:
        actual = node.ancestors()
        agree = sum(
            1
            for i, want in enumerate(ev.ancestry)
            if i < len(actual) and actual[i].role == want.role and normalize_label(actual[i].label) == want.label
        )
        out["ancestry"] = agree / len(ev.ancestry)
    if ev.scroll_region is not None or region_of(node) is None:
        out["region"] = 1.0 if region_identity(region_of(node)) == ev.scroll_region else 0.0
    if ev.sibling is not None:
        out["sibling"] = 1.0 if sibling_of(node) == ev.sibling else 0.0
    if ev.rect is not None:
        cx, cy = node.center
        rx, ry = ev.rect.x + ev.rect.width / 2, ev.rect.y + ev.rect.height / 2
        vw, vh = capture.viewport
        diag = math.hypot(vw or 1280, vh or 800)
        out["position"] = max(0.0, 1.0 - math.hypot(cx - rx, cy - ry) / diag)
    return out


def score(capture: Capture, node: Node, ev: TargetEvidence) -> tuple[float, tuple[str, ...]]:
    """The weighted similarity and the components that agreed."""
    parts = components(capture, node, ev)
    total = sum(WEIGHTS[k] * v for k, v in parts.items())
    basis = tuple(k for k, v in parts.items() if v >= BASIS_SHARE and k in ("role", "label", "id", "ancestry"))
    return round(total, 3), basis


def rank(capture: Capture, ev: TargetEvidence, limit: int = MAX_SUGGESTIONS) -> list[Suggestion]:
    """The best candidates (≤ ``limit``), deduplicated, ties broken by document order."""
    scored = []
    for node in capture.nodes[1:]:
        if not (node.actionable or node.label):
            continue
        s, basis = score(capture, node, ev)
        if s >= MIN_SCORE:
            scored.append(Suggestion(node, s, basis))
    scored.sort(key=lambda sug: (-sug.score, sug.node.position))
    return scored[:limit]
