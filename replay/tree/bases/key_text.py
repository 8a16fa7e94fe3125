"""Basis ``keyText`` (docs/design.md §5 item 3): a nameless node singled out by its own key text — the
first text of its non-interactive descendants ("Bob" of a row) — which no other node of its role says."""

from __future__ import annotations

from replay.script.evidence import KEY_TEXT, TargetEvidence
from replay.script.text import normalize
from replay.tree.bases import Recording, Stage, Way
from replay.tree.model import Capture, Node
from replay.tree.naming import CELL_ROLES, ROW_ROLES


def singles_out(capture: Capture, node: Node) -> str | None:
    """The node's own key text when no other node of its role says the same."""
    text = normalize(node.key_text)
    if not text or not (node.role in ROW_ROLES | CELL_ROLES or node.role == "generic" or node.actionable):
        return None  # a landmark's first text is whatever its region shows first, not what it is
    same = [n for n in capture.by_value("role", node.role) if n is not node and normalize(n.key_text) == text]
    return None if same else text


class KeyText(Way):
    name = KEY_TEXT
    fields = ("key_text",)
    stage = Stage.OWN
    whole = True

    def record(self, r: Recording) -> bool:
        text = singles_out(r.capture, r.node)
        if text is None:
            return False
        r.payload["key_text"], r.found = text, None  # what it says is all of it: no anchor
        return True

    def carries(self, node: Node, ev: TargetEvidence) -> bool:
        return ev.key_text is not None and normalize(node.key_text) == ev.key_text

    def mismatch(self, node: Node, ev: TargetEvidence) -> str | None:
        found = normalize(node.key_text)
        return None if found == ev.key_text else f"key text: recorded {ev.key_text!r}, found {found!r}"


WAY = KeyText()
