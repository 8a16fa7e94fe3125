"""Agent-facing snapshot text and JSON: ``@e7 button "Place order" [disabled]``, indented by depth."""

from __future__ import annotations

import json
from typing import Any

from replay.errors import InvalidArgs
from replay.script.parser import parse_target
from replay.script.selector import ref_index
from replay.tree.match import resolve
from replay.tree.model import Capture, Node

MAX_TEXT = 80


def is_interactive_or_labeled(node: Node) -> bool:
    """What ``snapshot -i`` keeps: what an agent can act on or name, and an open dialog even unnamed
    (which controls sit in the modal tells what can be done now)."""
    return node.actionable or bool(node.label) or (node.covers_page and node.visible)


def line(node: Node) -> str:
    """One compact line for a node (no indentation)."""
    out = f"{node.ref} {node.role}"
    if node.label:
        out += " " + json.dumps(node.label, ensure_ascii=False)
    elif node.content:
        out += " text=" + json.dumps(node.content[:MAX_TEXT], ensure_ascii=False)
    if node.test_id:
        out += f" id={json.dumps(node.test_id, ensure_ascii=False)}"
    if node.editable and node.value is not None:
        out += " value=" + json.dumps((node.value or "")[:MAX_TEXT], ensure_ascii=False)
    flags = ["editable"] if node.editable else []  # where `fill` and `type` go (a rich-text editor has no value)
    if node.actionable and not node.enabled:
        flags.append("disabled")
    if node.checked:
        flags.append("checked")
    if node.selected:
        flags.append("selected")
    if node.focused:
        flags.append("focused")
    if not node.visible:
        flags.append("hidden")
    elif node.actionable and not node.hittable:
        flags.append("not hittable")
    if node.scrollable:
        flags.append("scrollable")
    if flags:
        out += " [" + ", ".join(flags) + "]"
    return out


def scope_root(capture: Capture, scope: str) -> Node:
    """The node a ``-s SCOPE`` selector or label names."""
    target = parse_target(scope, _where())
    if target.ref is not None:
        index = ref_index(target.ref)
        if index >= len(capture.nodes):
            raise InvalidArgs(f"-s {scope}: no such ref in this snapshot", hint="take a full snapshot first")
        return capture.nodes[index]
    assert target.selector is not None
    resolution = resolve(capture, target.selector)
    if resolution.winner is None:
        if resolution.match_count == 0:
            raise InvalidArgs(
                f"-s {scope}: nothing on screen matches", hint="check the label with `replay snapshot -i`"
            )
        raise InvalidArgs(
            f"-s {scope}: {resolution.match_count} distinct nodes match",
            hint="narrow the scope, e.g. -s 'role=form label=\"Checkout\"'",
            details={"candidates": resolution.to_dict().get("candidates", [])},
        )
    return resolution.winner


def _where() -> Any:
    from replay.errors import Location

    return Location("<scope>", 1)


def selected_nodes(capture: Capture, *, interactive: bool = False, scope: str | None = None) -> list[Node]:
    """The nodes a snapshot shows, in document order."""
    root = scope_root(capture, scope) if scope else capture.root
    nodes = [root] + [n for n in root.iterdescendants() if isinstance(n, Node)]
    if interactive:
        nodes = [n for n in nodes if n is root or is_interactive_or_labeled(n)]
    return nodes


def render_text(capture: Capture, *, interactive: bool = False, scope: str | None = None) -> str:
    """The compact text: one indented line per shown node."""
    nodes = selected_nodes(capture, interactive=interactive, scope=scope)
    shown = {n.position for n in nodes}
    lines = []
    for n in nodes:
        depth = sum(1 for a in n.iterancestors() if isinstance(a, Node) and a.position in shown)
        lines.append("  " * depth + line(n) + (_lives_in(capture, n) if interactive else ""))
    return "\n".join(lines)


def _lives_in(capture: Capture, node: Node) -> str:
    """For an unnamed control in ``snapshot -i``: the row or labeled ancestor it belongs to
    (``  in listitem "Pay rent"``), so the right ref can be picked without a full snapshot."""
    if node.label or node.test_id or not node.actionable:
        return ""
    from replay.tree.anchors import own_anchor

    found = own_anchor(capture, node)
    if found is None:
        return ""
    anchor = found[1]
    name = anchor.label or anchor.text or anchor.id
    return f"  in {anchor.role} " + json.dumps(name, ensure_ascii=False) if name else ""


def render_json(capture: Capture, *, interactive: bool = False, scope: str | None = None) -> dict[str, Any]:
    """All fields of the shown nodes."""
    nodes = selected_nodes(capture, interactive=interactive, scope=scope)
    return {
        "refsGeneration": capture.generation,
        "url": capture.url,
        "title": capture.title,
        "nodes": [n.to_dict() for n in nodes],
    }
