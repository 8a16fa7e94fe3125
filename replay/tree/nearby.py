"""What changed beside the target (design §15, the container-diff fallback): where no telling fact fits —
a tag input's Enter added a ``<tag>``, a chip's × took its chip — the effect is what appeared in, or went
from, the target's container or overlay, by role and key text, bounded like the rest of an effect.

The container is the nearest ancestor of the target in which something changed, climbing at most
``CLIMB`` levels and never past a container a person would name (a form, a list, a toolbar, a layer over
the page): a change farther away is not this action's doing as far as the screen can tell.
"""

from __future__ import annotations

from collections import Counter

from replay.script.effect import MAX_FACTS, Fact
from replay.tree.generated import masked
from replay.tree.model import F_OVERLAY, Capture, Node

CLIMB = 3
STOP_AT = frozenset(
    {
        "form",
        "dialog",
        "alertdialog",
        "list",
        "listbox",
        "grid",
        "table",
        "tree",
        "toolbar",
        "group",
        "menu",
        "menubar",
        "tablist",
        "radiogroup",
        "region",
        "navigation",
        "search",
        "main",
    }
)
TEXT_CHARS = 80

Place = tuple[tuple[str, int], ...]


def said_by(node: Node) -> str | None:
    """What a node says in a container: its name, else its key text, else its own text (cut to 80)."""
    said = node.label or node.key_text or node.content
    return said[:TEXT_CHARS].rstrip() if said else None


def container_facts(before: Capture, after: Capture, target: Node, volatile: set[tuple[str, str]]) -> list[Fact]:
    """What appeared in or went from ``target``'s container (``target`` of ``before``), appearances first;
    ``volatile``: (role, masked text) seen changing by itself, never a fact. Nothing when the captures are
    views, the container is gone, or more than ``MAX_FACTS`` things changed (a re-render tells nothing)."""
    if before.partial or after.partial:
        return []
    # the target's own name is no fact of its container (a sort header's "activate to sort descending":
    # wording an upgrade changes), nor the names its ancestors compose of it (the header row's); its state
    # is the target's facts' to say
    there_now = _at(after, _place(target))
    itself = (target, *target.ancestors(), *((there_now, *there_now.ancestors()) if there_now is not None else ()))
    for container in target.ancestors()[:CLIMB]:
        there = _at(after, _place(container))
        if there is None:
            return []
        pre, post = _says(container, itself), _says(there, itself)
        appeared = [k for k in post if post[k] > pre[k]]
        gone = [k for k in pre if post[k] < pre[k]]
        paired = {masked(t) for _, t in appeared} & {masked(t) for _, t in gone}  # a counter in place
        keys = [
            (kind, k)
            for kind, found in (("appeared", appeared), ("disappeared", gone))
            for k in found
            if masked(k[1]) not in paired and (k[0], masked(k[1])) not in volatile and k not in volatile
        ]
        if keys:
            return [Fact(kind, role, said) for kind, (role, said) in keys] if len(keys) <= MAX_FACTS else []
        if container.get("role") in STOP_AT or container.has(F_OVERLAY):
            break
    return []


def _says(container: Node, leave: tuple[Node | None, ...]) -> Counter[tuple[str, str]]:
    """The visible nodes under ``container`` that say something, by (role, what they say), ``leave`` left
    out; a field's text is what was typed, never a fact."""
    found: Counter[tuple[str, str]] = Counter()
    for node in container.iterdescendants():
        if not isinstance(node, Node) or not node.visible or node.editable or node in leave:
            continue
        if any(a.editable for a in node.ancestors()):
            continue
        if said := said_by(node):
            found[(node.role, said)] += 1
    return found


def _place(node: Node) -> Place:
    """The roles and child indices down from the root to ``node``."""
    out: list[tuple[str, int]] = []
    while (parent := node.parent_node) is not None:
        index = next(i for i, c in enumerate(c for c in parent if isinstance(c, Node)) if c is node)
        out.append((node.role, index))
        node = parent
    return tuple(reversed(out))


def _at(capture: Capture, place: Place) -> Node | None:
    """The node at ``place`` in ``capture`` (None: the screen has no such place any more)."""
    node = capture.nodes[0]
    for role, index in place:
        children = [c for c in node if isinstance(c, Node)]
        if index >= len(children) or children[index].role != role:
            return None
        node = children[index]
    return node
