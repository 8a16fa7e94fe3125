"""The bases of identity (docs/design.md §5): what singles a node out when it has neither id nor label.

Each basis is one implementation of one protocol (``Basis``), in a module of its own, registered here
in the order recording tries them and checked as it registers: its name is one of the evidence's
``Basis`` values, its payload fields are evidence fields no other basis owns, and its stage keeps the
order recording decides in. What each one does:

- ``record``: whether it singles the node out, filling its payload into the ``Recording``;
- ``carries``: whether a node says what the payload says (a candidate of the recorded role);
- ``holds``: whether it still singles the node out where it did (inside the recorded anchor);
- ``isolate``: which one of several nodes carrying the identity it tells apart, when it can;
- ``mismatch``: what a reader is told when a node does not carry it;
- ``shared``: what a candidate says that the payload said (the healer's "says the recorded class …");
- ``ranking``: the payload's agreement with a candidate, by the ranking's components (``tree.suggest``).

Verification (``tree.identity``) asks the basis the evidence names and nothing else: a new way of
telling a node apart is a new module here, not a new branch there.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from enum import IntEnum
from typing import ClassVar

from replay.script.evidence import Anchor, Basis, TargetEvidence
from replay.tree.model import Capture, Node


class Stage(IntEnum):
    """When recording tries a basis: for a node of its own (before a table's cell is known), for a
    nameless control in no cell, or by the self-check (only its place tells it apart)."""

    OWN = 1
    NAMELESS = 2
    PLACE = 3


@dataclass
class Recording:
    """What recording knows of a node while a basis decides (``found``: its anchor so far), and the
    payload the basis that singles it out fills in."""

    capture: Capture
    node: Node
    found: tuple[Node, Anchor] | None
    basis: Basis | None = None
    payload: dict[str, object] = dataclasses.field(default_factory=dict)


class Way:
    """One basis (the protocol): every method has the answer of a basis that adds nothing to it."""

    name: ClassVar[Basis]
    fields: ClassVar[tuple[str, ...]]  # the TargetEvidence fields that are its payload
    stage: ClassVar[Stage]
    whole: ClassVar[bool] = False  # what it records is all of the node's identity: no anchor, no column

    def record(self, r: Recording) -> bool:
        return False

    def carries(self, node: Node, ev: TargetEvidence) -> bool:
        return ev.anchor is not None or ev.scope is not None  # told by where it is: its anchor or scope

    def holds(self, node: Node, ev: TargetEvidence, container: Node | None) -> bool:
        return True

    def isolate(self, members: list[Node], ev: TargetEvidence) -> tuple[Node, str] | None:
        return None  # (the one member it tells apart, and the signal's name for the resolution)

    def mismatch(self, node: Node, ev: TargetEvidence) -> str | None:
        return None

    def shared(self, node: Node, ev: TargetEvidence) -> tuple[str, str] | None:
        return None  # (what it is called, what the node says of it: ``("class", "ql-bold")``)

    def ranking(self, ev: TargetEvidence, classes: str | None) -> dict[str, float]:
        return {}  # the components it speaks to, each 0..1 (``classes``: the candidate's class attribute)


REGISTERED: dict[Basis, Way] = {}
_EVIDENCE_FIELDS = frozenset(f.name for f in dataclasses.fields(TargetEvidence))


def register(way: Way) -> Way:
    """Add ``way`` after the bases registered so far; raises ``ValueError`` when it breaks a rule."""
    if way.name in REGISTERED:
        raise ValueError(f"basis {way.name.value!r} is registered twice")
    unknown = [f for f in way.fields if f not in _EVIDENCE_FIELDS]
    if unknown:
        raise ValueError(f"basis {way.name.value!r}: no evidence field {', '.join(unknown)}")
    owned = {f: w.name.value for w in REGISTERED.values() for f in w.fields}
    shared = [f"{f} ({owned[f]})" for f in way.fields if f in owned]
    if shared:
        raise ValueError(f"basis {way.name.value!r}: fields another basis owns: {', '.join(shared)}")
    last = max((w.stage for w in REGISTERED.values()), default=Stage.OWN)
    if way.stage < last:
        raise ValueError(f"basis {way.name.value!r} of stage {way.stage.name} registered after stage {last.name}")
    REGISTERED[way.name] = way
    return way


def of(ev: TargetEvidence) -> Way | None:
    """The registered implementation of the basis ``ev`` names (None: the id, the label or the anchor)."""
    return REGISTERED[ev.basis] if ev.basis is not None else None


def record(r: Recording, stage: Stage) -> Recording:
    """The first basis of ``stage``, in registered order, that singles ``r.node`` out fills ``r``."""
    for way in REGISTERED.values():
        if way.stage == stage and way.record(r):
            r.basis = way.name
            break
    return r


def _register_all() -> None:
    from replay.tree.bases import attribute, key_text, neighbour, position, structural

    for module in (key_text, structural, attribute, neighbour, position):
        register(module.WAY)


_register_all()
