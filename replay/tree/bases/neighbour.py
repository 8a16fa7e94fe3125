"""Basis ``neighbour`` (docs/design.md §5 "Nameless beside a named neighbour"): a nameless control in the
small container it shares with a named neighbour ("June, 2026" between a calendar's arrows), told from
the container's other nameless controls of its role by its order among them (``namelessOrder``)."""

from __future__ import annotations

from replay.script.evidence import NEIGHBOUR, Anchor, TargetEvidence
from replay.tree.anchors import beside_neighbour, find_anchor, nameless_controls
from replay.tree.bases import Recording, Stage, Way
from replay.tree.model import Node


def nameless_order(node: Node, anchor: Anchor) -> int | None:
    """The node's order among its anchor's nameless controls of its role (None: not one of them)."""
    container = find_anchor(node, anchor)
    controls = nameless_controls(container, node.role) if container is not None else []
    return controls.index(node) if node in controls else None


class Neighbour(Way):
    name = NEIGHBOUR
    fields = ("nameless_order",)
    stage = Stage.NAMELESS

    def record(self, r: Recording) -> bool:
        beside = beside_neighbour(r.capture, r.node)
        if beside is None:
            return False
        r.found, r.payload["nameless_order"] = beside[:2], beside[2]  # its neighbour's container is its anchor
        return True

    def isolate(self, members: list[Node], ev: TargetEvidence) -> tuple[Node, str] | None:
        if ev.nameless_order is None or ev.anchor is None:
            return None
        anchor = ev.anchor
        by_order = [m for m in members if nameless_order(m, anchor) == ev.nameless_order]
        return (by_order[0], "namelessOrder") if len(by_order) == 1 else None


WAY = Neighbour()
