"""Basis ``structural`` (docs/design.md §5 item 5): a nameless node that is the only one of its role
inside its anchor — else inside its ``scope``, the nearest landmark holding no other, or the page."""

from __future__ import annotations

from replay.script.evidence import STRUCTURAL, TargetEvidence
from replay.tree.anchors import alone_in, only_of_role, own_anchor, scope_of
from replay.tree.bases import Recording, Stage, Way
from replay.tree.model import Node


class Structural(Way):
    name = STRUCTURAL
    fields = ("scope",)
    stage = Stage.OWN

    def record(self, r: Recording) -> bool:
        r.found = r.found or own_anchor(r.capture, r.node)  # always one for a node with neither id nor label
        if r.found is not None:
            return only_of_role(r.found[0], r.node)
        in_scope = scope_of(r.node)
        if in_scope is None:
            return False
        r.payload["scope"] = in_scope[1]
        return True

    def holds(self, node: Node, ev: TargetEvidence, container: Node | None) -> bool:
        return alone_in(node, ev.anchor or ev.scope)

    def mismatch(self, node: Node, ev: TargetEvidence) -> str | None:
        where = ev.anchor or ev.scope
        if where is None or alone_in(node, where):
            return None
        return f"structural: no longer the only {node.role} in its {where.role}"


WAY = Structural()
