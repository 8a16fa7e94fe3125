"""What a click or a key put into a field other than the one acted on (design §15): a date picker's day
fills its field, a stepper's "+" its number, "same as shipping" the billing fields. The field's new
value is what the action did — a person's choice, not text a run generates, so it is compared as it is:
another day picked is another effect.

Text a person typed is never a fact: after a fill or a type nothing is read off fields, and the acted-on
field is the target's facts' to tell. A password field (its value shown as bullets) tells nothing.
"""

from __future__ import annotations

from replay.script.effect import Fact
from replay.tree.model import Capture, Node

FIELD_ROLES = frozenset({"textbox", "searchbox", "combobox", "spinbutton"})
MAX_FIELDS = 2  # more fields than this changing at once: a form reset or re-rendered, no fact
TEXT_CHARS = 80

Key = tuple[str, str]


def field_facts(before: Capture, after: Capture, acted: Node | None) -> list[Fact]:
    """The fields (other than ``acted``, of ``before``) whose value the action changed, as ``changed``
    facts saying the value each holds now; nothing on views, or when more than ``MAX_FIELDS`` changed."""
    if before.partial or after.partial:
        return []
    pre, post = _fields(before), _fields(after)
    left_out = _key(acted) if acted is not None else None
    facts = [
        Fact("changed", key[0], now)
        for key, now in post.items()
        if key != left_out and key in pre and now != pre[key] and now and now.strip("•*")
    ]
    return facts if len(facts) <= MAX_FIELDS else []


def holds(node: Node, value: str) -> bool:
    """Whether ``node``, a visible field, holds ``value`` (as a fact wrote it: cut to 80 characters)."""
    return node.visible and node.role in FIELD_ROLES and _value(node) == value


def _fields(capture: Capture) -> dict[Key, str]:
    """The visible fields that a person can tell apart by role and name (or id), with their values; a
    name two fields share tells neither."""
    seen: dict[Key, str] = {}
    shared: set[Key] = set()
    for node in capture.nodes[1:]:
        if node.visible and node.role in FIELD_ROLES:
            key = _key(node)
            if not key[1]:
                continue
            if key in seen:
                shared.add(key)
            seen[key] = _value(node)
    return {k: v for k, v in seen.items() if k not in shared}


def _key(node: Node) -> Key:
    return (node.role, node.label or node.test_id or "")


def _value(node: Node) -> str:
    return (node.value or "")[:TEXT_CHARS].rstrip()
