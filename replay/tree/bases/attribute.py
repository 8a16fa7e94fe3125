"""Basis ``attribute`` (docs/design.md §5 item 6): a nameless control singled out by a word-like class
token of its own (``ql-bold``, ``flatpickr-next-month``) that no other node of its role carries — on the
page, else inside its anchor."""

from __future__ import annotations

from replay.script.evidence import ATTRIBUTE, TargetEvidence
from replay.tree.anchors import class_holders, singling_class
from replay.tree.bases import Recording, Stage, Way
from replay.tree.model import Node


class Attribute(Way):
    name = ATTRIBUTE
    fields = ("css_class",)
    stage = Stage.NAMELESS

    def record(self, r: Recording) -> bool:
        token = singling_class(r.node, r.found[0] if r.found is not None else None)
        if token is None:
            return False
        r.payload["css_class"] = token
        return True

    def carries(self, node: Node, ev: TargetEvidence) -> bool:
        return ev.css_class is not None and ev.css_class in node.classes

    def holds(self, node: Node, ev: TargetEvidence, container: Node | None) -> bool:
        # the attribute must still single it out, where it did (its anchor, else the page)
        return ev.css_class is None or class_holders(node, ev.css_class, container) == [node]

    def mismatch(self, node: Node, ev: TargetEvidence) -> str | None:
        if ev.css_class is None or ev.css_class in node.classes:
            return None
        return f"class: recorded {ev.css_class!r}, not on the {node.role} found"

    def shared(self, node: Node, ev: TargetEvidence) -> tuple[str, str] | None:
        return ("class", ev.css_class) if ev.css_class and ev.css_class in node.classes else None

    def ranking(self, ev: TargetEvidence, classes: str | None) -> dict[str, float]:
        # a nameless control's own class token is as good as an id, and kept across a role change
        return {"id": float(ev.css_class in (classes or "").split())} if ev.css_class else {}


WAY = Attribute()
