"""repairHint: computed here and nowhere else (design §6, R3).

The mapping is total: every (kind, evidence, capture) gets exactly one hint.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING

from replay.script.evidence import Anchor, TargetEvidence
from replay.script.text import fold, normalize
from replay.tree.naming import names_a_place
from replay.tree.tolerances import allows
from replay.tree.verdict import DivergenceKind

if TYPE_CHECKING:  # the enum is read by the light report renderer: no lxml at import time
    from replay.tree.model import Capture, Node


class RepairHint(StrEnum):
    """The one mechanical next move for a divergence (design §6 table)."""

    RECORD_AND_HEAL = "record-and-heal"
    STATE_REPAIR = "state-repair"
    CAUTION = "caution"
    MANUAL = "manual"


LANDMARKS = ("form", "dialog", "main", "navigation", "region", "list", "table", "tabpanel")
SPARSE_BELOW = 3


class ContainerSource(StrEnum):
    """Which recorded evidence a container comes from (design §6), in the order they are tried."""

    ANCHOR = "anchor"
    SCROLL_REGION = "scrollRegion"
    ANCESTRY_LABEL = "ancestry-label"
    ANCESTRY_LANDMARK = "ancestry-landmark"
    PAGE = "page"


@dataclass(frozen=True)
class Container:
    """The recorded container: a node identity to look for, or the recorded page path."""

    source: ContainerSource
    role: str | None = None
    label: str | None = None
    id: str | None = None
    path: str | None = None
    anchor: Anchor | None = None  # source "anchor": matched as identity matches it (role + each field)


def meaningful_nodes(capture: Capture) -> int:
    """Nodes an agent could use: labeled, actionable, or carrying text."""
    return sum(1 for n in capture.nodes[1:] if n.label or n.actionable or n.content)


def is_sparse(capture: Capture) -> bool:
    """Fewer than 3 meaningful nodes: the screen tells nothing reliable."""
    found = 0
    for n in capture.nodes[1:]:
        if n.label or n.actionable or n.content:
            found += 1
            if found >= SPARSE_BELOW:
                return False
    return True


def awaited_container(ev: TargetEvidence) -> Container | None:
    """The container a wait's or an assertion's text is expected in: as ``recorded_container``, but a
    landmark with no label (a ``main`` that every page has) says nothing about which screen it is,
    so then the recorded page is (design §6 waits)."""
    container = recorded_container(ev)
    if container is not None and container.source == ContainerSource.ANCESTRY_LANDMARK:
        return (
            Container(ContainerSource.PAGE, path=ev.screen.path) if ev.screen is not None and ev.screen.path else None
        )
    return container


def recorded_container(ev: TargetEvidence) -> Container | None:
    """First of: the anchor; scroll region; nearest labeled ancestor; nearest landmark ancestor; the screen.

    The anchor (the row, card or list item that told the node apart from its look-alikes) comes
    first: it is part of the node's identity, so when it is gone the same step on another row is
    not a repair but a different action (docs/decisions.md).
    """
    if ev.anchor is not None:
        return Container(ContainerSource.ANCHOR, ev.anchor.role, anchor=ev.anchor)
    if ev.scroll_region is not None:
        r = ev.scroll_region
        return Container(ContainerSource.SCROLL_REGION, r.role, r.label, r.id)
    for a in ev.ancestry:
        if names_a_place(a.role, a.label):  # not a row's data, nor a status line (design §6)
            return Container(ContainerSource.ANCESTRY_LABEL, a.role, a.label)
    for a in ev.ancestry:
        if a.role in LANDMARKS:
            return Container(ContainerSource.ANCESTRY_LANDMARK, a.role)
    if ev.screen is not None and ev.screen.path:
        return Container(ContainerSource.PAGE, path=ev.screen.path)
    return None


def container_present(container: Container, capture: Capture) -> bool:
    """Whether the capture holds the container (role, and label/id when recorded); a page container
    is present when the capture's screen is the recorded one."""
    if container.source == ContainerSource.PAGE:
        return capture.screen.path == container.path
    if _gained_a_role(container):  # a generic wrapper recorded by its id or label, whatever role it gained
        anchor = container.anchor
        key, value = ("id", anchor.id) if anchor is not None else ("label", container.label)
        return any(_is(n, container) for n in capture.by_value(key, fold(value)))
    return any(_is(n, container) for n in capture.by_value("role", container.role or ""))


def _gained_a_role(container: Container) -> bool:
    """Whether the container is a ``generic`` told by its id (an anchor) or its label (an ancestor): the
    node that says it is the container whatever role a major gave it (design §5: a wrapper that gained a
    role is drift — Vanilla Calendar Pro 3's ``#cal``, "Start", became a ``group``)."""
    if container.role != "generic" or not allows("gained-role"):
        return False
    return container.anchor.id is not None if container.anchor is not None else container.label is not None


def container_present_for(container: Container, node: Node, capture: Capture) -> bool:
    """Whether ``node`` lies in the container (one of its ancestors is it; a page: the page is it)."""
    if container.source == ContainerSource.PAGE:
        return capture.screen.path == container.path
    return any(_is(a, container) for a in node.ancestors())


def _is(n: Node, container: Container) -> bool:
    if container.anchor is not None:
        from replay.tree.anchors import anchor_matches  # (lxml: not at this light module's import)

        return anchor_matches(n, container.anchor)
    if n.role != container.role and not _gained_a_role(container):
        return False
    if container.label is not None and normalize(n.label) != container.label:
        return False
    return container.id is None or n.test_id == container.id


# (kind, recorded container present?) → hint, once evidence and a usable capture exist
_BY_KIND: dict[tuple[DivergenceKind, bool], RepairHint] = {
    (DivergenceKind.SELECTOR_MISS, True): RepairHint.RECORD_AND_HEAL,
    (DivergenceKind.SELECTOR_MISS, False): RepairHint.STATE_REPAIR,
    (DivergenceKind.IDENTITY_MISMATCH, True): RepairHint.CAUTION,
    (DivergenceKind.IDENTITY_MISMATCH, False): RepairHint.CAUTION,
    (DivergenceKind.IDENTITY_UNVERIFIABLE, True): RepairHint.MANUAL,
    (DivergenceKind.IDENTITY_UNVERIFIABLE, False): RepairHint.MANUAL,
    (DivergenceKind.ACTION_FAILURE, True): RepairHint.RECORD_AND_HEAL,
    (DivergenceKind.ACTION_FAILURE, False): RepairHint.MANUAL,
}


def repair_hint(
    kind: DivergenceKind,
    evidence: TargetEvidence | None,
    capture: Capture | None,
    *,
    awaited: bool = False,
) -> RepairHint:
    """The one mechanical hint for a divergence, from the evidence and the full capture; ``awaited``:
    a timed-out wait or text assertion, which is a state to repair whenever the recorded page or
    the awaited text's container is not showing (an interstitial first, design §6)."""
    if evidence is None or capture is None or is_sparse(capture):
        return RepairHint.MANUAL
    if kind in (DivergenceKind.IDENTITY_MISMATCH, DivergenceKind.IDENTITY_UNVERIFIABLE):
        return _BY_KIND[(DivergenceKind(kind), True)]  # the container does not matter for these
    if awaited and evidence.screen is not None and evidence.screen.path:
        if capture.screen.path != evidence.screen.path:
            return RepairHint.STATE_REPAIR
    container = awaited_container(evidence) if awaited else recorded_container(evidence)
    if container is None:
        return RepairHint.MANUAL
    return _BY_KIND[(DivergenceKind(kind), container_present(container, capture))]
