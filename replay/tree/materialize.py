"""Selector materialization: a portable selector for a node (SPEC §4), as an ordered table."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from replay.script.selector import Alternative, Selector, Term
from replay.tree.match import alternative_matches, resolve_matches
from replay.tree.model import Capture, Node

MAX_FALLBACKS = 1


def _id(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    if n.test_id and sum(1 for m in capture.nodes if m.test_id == n.test_id) == 1:
        return (Term("id", "=", n.test_id),)
    return None


def _role_label(capture: Capture, n: Node) -> tuple[Term, ...] | None:
    if n.label and n.role != "generic":
        return (Term("role", "=", n.role), Term("label", "=", n.label))
    return None


def _field(key: str) -> Callable[[Capture, Node], tuple[Term, ...] | None]:
    def candidate(capture: Capture, n: Node) -> tuple[Term, ...] | None:
        value = n.field(key)
        return (Term(key, "=", value),) if value else None

    return candidate


# The materialization order: the first candidate that singles the node out wins.
CANDIDATES: tuple[tuple[str, Callable[[Capture, Node], tuple[Term, ...] | None]], ...] = (
    ("id", _id),
    ("role+label", _role_label),
    ("label", _field("label")),
    ("placeholder", _field("placeholder")),
    ("text", _field("text")),
)


@dataclass
class Materialized:
    """A selector for a node, whether it singles the node out, and which candidates it used.

    Values are literal (as on screen); write them with ``escape_templates`` so a ``${`` in a
    label stays text.
    """

    selector: Selector | None
    unique: bool
    bases: tuple[str, ...] = ()


def materialize(capture: Capture, node: Node) -> Materialized:
    """The first unique candidate plus unique fallbacks; else the most specific matching candidate."""
    unique: list[tuple[str, tuple[Term, ...]]] = []
    matching: list[tuple[int, int, str, tuple[Term, ...]]] = []
    for order, (name, build) in enumerate(CANDIDATES):
        terms = build(capture, node)
        if terms is None:
            continue
        matches = alternative_matches(capture, terms)
        if node not in matches:
            continue
        resolution = resolve_matches(matches)
        if resolution.winner is node:
            unique.append((name, terms))
        else:
            matching.append((len(matches), order, name, terms))
    if unique:
        chosen = unique[: 1 + MAX_FALLBACKS]
        return Materialized(
            Selector(tuple(Alternative(terms=t) for _, t in chosen)), True, tuple(name for name, _ in chosen)
        )
    if matching:
        _, _, name, terms = min(matching)
        return Materialized(Selector((Alternative(terms=terms),)), False, (name,))
    return Materialized(None, False)
