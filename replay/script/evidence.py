"""The ``target-v1`` identity-evidence codec (design §5): parse, normalize, canonical write.

The writer never emits what the parser rejects: ``encode`` output always round-trips
through ``decode``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, replace
from enum import StrEnum
from typing import Any, NamedTuple

from replay.errors import Location
from replay.script import effect as effect_codec
from replay.script.effect import Fact
from replay.script.evidence_fields import (
    MAX_DEPTH,
    MAX_STRING_BYTES,
    PREFIXES,
    bad,
    dump,
    integer,
    member,
    normalize_string,
    number,
    role_of,
    string,
    too_deep,
)
from replay.script.evidence_fields import match_annotation as match_annotation  # (the parser reads it here)
from replay.script.text import normalize

WRITE_PREFIX = PREFIXES[0]
MAX_PAYLOAD_BYTES = 4096
MAX_ANCESTRY = 8


class Verification(StrEnum):
    """What recorded evidence says of its element: ``verified`` (its identity tells it apart) or
    ``unverifiable`` (nothing does: a replay stops there)."""

    VERIFIED = "verified"
    UNVERIFIABLE = "unverifiable"


VERIFIED, UNVERIFIABLE = Verification.VERIFIED, Verification.UNVERIFIABLE


class Basis(StrEnum):
    """What singled the node out when it has neither id nor label (design §5); each one's behaviour is a
    registered implementation in ``replay.tree.bases``, its payload the evidence fields it names there."""

    KEY_TEXT = "keyText"  # its own key text (``keyText``)
    STRUCTURAL = "structural"  # the only node of its role inside its anchor, or its ``scope``
    ATTRIBUTE = "attribute"  # a control with no name singled out by a word-like class token (``class``)
    NEIGHBOUR = "neighbour"  # a nameless control in its named neighbour's small container (``namelessOrder``)
    POSITION = "position"  # nothing but its place among look-alikes (``lookAlikes``: acted on while they are the same)


KEY_TEXT, STRUCTURAL, ATTRIBUTE, NEIGHBOUR, POSITION = Basis
BASES = tuple(Basis)


class Ancestor(NamedTuple):
    """One ancestry entry, nearest first: ``{role, label?}`` (a tuple: built for every node when ranking)."""

    role: str
    label: str | None = None


@dataclass(frozen=True)
class Region:
    """The identity of a scroll region (the nearest scrollable ancestor)."""

    role: str
    label: str | None = None
    id: str | None = None


@dataclass(frozen=True)
class Anchor:
    """The nearest ancestor that tells a node apart from look-alikes: a row, a card, a list item.

    Identified by its test id, its label, or its key text (the first text of its non-interactive
    descendants, as ``has-text`` finds it).
    """

    role: str
    label: str | None = None
    text: str | None = None
    id: str | None = None
    dom_id: bool = False  # the id is the ancestor's DOM id, not a test id attribute (JSON ``domId``)


@dataclass(frozen=True)
class Rect:
    """A diagnostic rectangle in CSS px."""

    x: float
    y: float
    width: float
    height: float


@dataclass(frozen=True)
class Screen:
    """Which screen of the app an element was on (diagnostic, and the container of last resort):
    ``path`` is the backend's place — web: the URL path relative to the opened base; a device: its
    package/activity — and ``title`` the screen's title. Written as ``page`` (the web's word)."""

    path: str | None = None
    title: str | None = None


@dataclass(frozen=True)
class TargetEvidence:
    """Recorded identity evidence of one element step."""

    role: str | None = None
    id: str | None = None
    label: str | None = None
    anchor: Anchor | None = None  # part of the identity when recorded
    placeholder: str | None = None  # secondary signals for suggestions and healing, never compared
    text: str | None = None
    name: str | None = None  # a form control's name attribute (secondary, never compared)
    input_type: str | None = None  # an input's type (secondary, never compared)
    ancestry: tuple[Ancestor, ...] = ()
    sibling: int | None = None
    viewport_order: int | None = None
    scroll_region: Region | None = None
    rect: Rect | None = None
    screen: Screen | None = None
    verification: str = VERIFIED
    basis: Basis | None = None  # None: the id, the label or the anchor
    key_text: str | None = None  # its own key text (design §4), compared exactly when basis is KEY_TEXT
    scope: Anchor | None = None  # STRUCTURAL without an anchor: the labeled or landmark ancestor it is alone in
    css_class: str | None = None  # ATTRIBUTE: the class token that singles it out (JSON ``class``)
    column: str | None = None  # a nameless node in a table's cell: its column's header (with the row as anchor)
    nameless_order: int | None = None  # NEIGHBOUR: its order among its anchor's nameless controls of its role
    look_alikes: str | None = None  # POSITION: "N:DIGEST" of the look-alikes it was told from (``tree.bases.position``)
    effect: tuple[Fact, ...] = ()  # what the action did (design §15): checked after acting, never identity
    dom_id: bool = False  # the id is the element's DOM id, not a test id attribute (JSON ``domId``)

    @property
    def verified(self) -> bool:
        """True when replay should check identity before acting."""
        return self.verification == VERIFIED

    def identity(self) -> tuple[object, ...]:
        """The identity and disambiguation fields: what a healed script's diff may change a line for.

        Diagnostics (``rect``, ``screen``) and secondary signals (``placeholder``, ``text``, ``name``,
        ``input_type``) drift without making the element another one.
        """
        return (
            self.id,
            self.role,
            self.label,
            self.anchor,
            self.ancestry,
            self.sibling,
            self.viewport_order,
            self.scroll_region,
            self.verification,
            self.basis,
            self.key_text,
            self.scope,
            self.css_class,
            self.column,
            self.nameless_order,
            self.look_alikes,
        )

    @property
    def identifiable(self) -> bool:
        """A verified annotation needs a role and at least one of id, label, anchor (design §5)."""
        return self.role is not None and (
            self.id is not None
            or self.label is not None
            or self.anchor is not None
            or (self.basis == KEY_TEXT and self.key_text is not None)
            or (self.basis == STRUCTURAL and self.scope is not None)
            or (self.basis == ATTRIBUTE and self.css_class is not None)
        )


# Longer than ~60 lines on purpose: a flat walk of the target-v1 schema, one check per field.
def decode(payload: str, where: Location | None = None) -> TargetEvidence:
    """Parse the JSON payload of an annotation; keys in any order, unknown keys ignored."""
    if len(payload.encode("utf-8")) > MAX_PAYLOAD_BYTES:
        raise bad(f"payload is larger than {MAX_PAYLOAD_BYTES} bytes", where)
    if too_deep(payload):
        raise bad(f"the JSON is nested more than {MAX_DEPTH} levels deep", where)
    try:
        obj = json.loads(payload)
    except json.JSONDecodeError as exc:
        raise bad(f"malformed JSON ({exc.msg} at column {exc.colno})", where) from None
    if not isinstance(obj, dict):
        raise bad("payload must be a JSON object", where)
    ancestry: list[Ancestor] = []
    raw_ancestry = obj.get("ancestry")
    if raw_ancestry is not None:
        if not isinstance(raw_ancestry, list):
            raise bad("'ancestry' must be a list", where)
        if len(raw_ancestry) > MAX_ANCESTRY:
            raise bad(f"'ancestry' has more than {MAX_ANCESTRY} entries", where)
        for entry in raw_ancestry:
            if not isinstance(entry, dict):
                raise bad("ancestry entries must be objects", where)
            role = role_of(entry, "every ancestry entry", where)
            ancestry.append(Ancestor(role, string(entry, "label", where, label=True)))
    region = None
    raw_region = member(obj, "scrollRegion", where)
    if raw_region is not None:
        role = role_of(raw_region, "'scrollRegion'", where)
        region = Region(role, string(raw_region, "label", where, label=True), string(raw_region, "id", where))
    rect = None
    raw_rect = member(obj, "rect", where)
    if raw_rect is not None:
        nums = []
        for k in ("x", "y", "width", "height"):
            v = raw_rect.get(k)
            if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v):
                raise bad(f"'rect.{k}' must be a finite number", where)
            nums.append(float(v))
        rect = Rect(*nums)
    anchor = _anchor(obj, "anchor", where)
    scope = _anchor(obj, "scope", where)
    basis = obj.get("basis")
    if basis is not None and basis not in BASES:
        raise bad(f"'basis' must be one of {', '.join(BASES)}", where)
    screen = None
    raw_screen = member(obj, "page", where)
    if raw_screen is not None:
        screen = Screen(string(raw_screen, "path", where), string(raw_screen, "title", where, label=True))
    dom_id = obj.get("domId", False)
    if not isinstance(dom_id, bool):
        raise bad("'domId' must be true or false", where)
    verification = obj.get("verification", VERIFIED)
    if verification not in (VERIFIED, UNVERIFIABLE):
        raise bad('\'verification\' must be "verified" or "unverifiable"', where)
    evidence = TargetEvidence(
        role=string(obj, "role", where),
        id=string(obj, "id", where),
        label=string(obj, "label", where, label=True),
        anchor=anchor,
        placeholder=string(obj, "placeholder", where, label=True),
        text=string(obj, "text", where, label=True),
        name=string(obj, "name", where),
        input_type=string(obj, "type", where),
        ancestry=tuple(ancestry),
        sibling=integer(obj, "sibling", where),
        viewport_order=integer(obj, "viewportOrder", where),
        nameless_order=integer(obj, "namelessOrder", where),
        look_alikes=string(obj, "lookAlikes", where),
        scroll_region=region,
        rect=rect,
        screen=screen,
        verification=verification,
        basis=Basis(basis) if basis is not None else None,
        key_text=string(obj, "keyText", where, label=True),
        scope=scope,
        css_class=string(obj, "class", where),
        column=string(obj, "column", where, label=True),
        effect=effect_codec.decode(obj.get("effect"), where),
        dom_id=dom_id and obj.get("id") is not None,
    )
    if evidence.verified and not evidence.identifiable:
        raise bad(
            "a verified annotation needs 'role' and an 'id', a 'label', an 'anchor', a 'keyText', a 'scope' "
            "or a 'class'",
            where,
            'record it again, or mark it "verification":"unverifiable"',
        )
    return evidence


def _anchor(obj: dict[str, Any], key: str, where: Location | None) -> Anchor | None:
    raw = member(obj, key, where)
    if raw is None:
        return None
    dom_id = raw.get("domId", False)
    if not isinstance(dom_id, bool):
        raise bad(f"'{key}.domId' must be true or false", where)
    anchor_id = string(raw, "id", where)
    return Anchor(
        role_of(raw, repr(key), where),
        string(raw, "label", where, label=True),
        string(raw, "text", where, label=True),
        anchor_id,
        dom_id and anchor_id is not None,
    )


def _anchor_json(a: Anchor) -> dict[str, Any]:
    return {
        "role": a.role,
        **({"label": a.label} if a.label is not None else {}),
        **({"text": a.text} if a.text is not None else {}),
        **({"id": a.id} if a.id is not None else {}),
        **({"domId": True} if a.id is not None and a.dom_id else {}),
    }


def _to_json(ev: TargetEvidence) -> dict[str, Any]:
    out: dict[str, Any] = {}
    if ev.id is not None:
        out["id"] = ev.id
        if ev.dom_id:
            out["domId"] = True
    if ev.role is not None:
        out["role"] = ev.role
    if ev.label is not None:
        out["label"] = ev.label
    if ev.key_text is not None:
        out["keyText"] = ev.key_text
    if ev.anchor is not None:
        out["anchor"] = _anchor_json(ev.anchor)
    if ev.scope is not None:
        out["scope"] = _anchor_json(ev.scope)
    if ev.basis is not None:
        out["basis"] = ev.basis.value
    if ev.css_class is not None:
        out["class"] = ev.css_class
    if ev.column is not None:
        out["column"] = ev.column
    if ev.placeholder is not None:
        out["placeholder"] = ev.placeholder
    if ev.text is not None:
        out["text"] = ev.text
    if ev.name is not None:
        out["name"] = ev.name
    if ev.input_type is not None:
        out["type"] = ev.input_type
    if ev.ancestry:
        out["ancestry"] = [{"role": a.role, **({"label": a.label} if a.label is not None else {})} for a in ev.ancestry]
    if ev.sibling is not None:
        out["sibling"] = ev.sibling
    if ev.viewport_order is not None:
        out["viewportOrder"] = ev.viewport_order
    if ev.nameless_order is not None:
        out["namelessOrder"] = ev.nameless_order
    if ev.look_alikes is not None:
        out["lookAlikes"] = ev.look_alikes
    if ev.scroll_region is not None:
        r = ev.scroll_region
        out["scrollRegion"] = {
            "role": r.role,
            **({"label": r.label} if r.label is not None else {}),
            **({"id": r.id} if r.id is not None else {}),
        }
    if ev.rect is not None:
        out["rect"] = {k: number(getattr(ev.rect, k)) for k in ("x", "y", "width", "height")}
    if ev.screen is not None and (ev.screen.path is not None or ev.screen.title is not None):
        out["page"] = {
            **({"path": ev.screen.path} if ev.screen.path is not None else {}),
            **({"title": ev.screen.title} if ev.screen.title is not None else {}),
        }
    out["verification"] = ev.verification
    if ev.effect and (facts := effect_codec.encode(ev.effect)):
        out["effect"] = facts
    return out


def _fits_strings(ev: TargetEvidence) -> bool:
    strings = [ev.role, ev.id, ev.label, ev.placeholder, ev.text, ev.key_text, ev.name, ev.input_type, ev.css_class]
    strings.append(ev.column)
    for a in (ev.anchor, ev.scope):
        if a:
            strings += [a.role, a.label, a.text, a.id]
    strings += [s for a in ev.ancestry for s in (a.role, a.label)]
    if ev.scroll_region:
        strings += [ev.scroll_region.role, ev.scroll_region.label, ev.scroll_region.id]
    if ev.screen:
        strings += [ev.screen.path, ev.screen.title]
    return all(s is None or len(s.encode("utf-8")) <= MAX_STRING_BYTES for s in strings)


def normalized(ev: TargetEvidence) -> TargetEvidence:
    """Apply the normalization rules to every string of ``ev``."""
    region = ev.scroll_region
    screen = ev.screen

    def anchor_of(anchor: Anchor | None) -> Anchor | None:
        if anchor is None:
            return None
        return Anchor(
            normalize_string(anchor.role) or "generic",
            normalize(anchor.label),
            normalize(anchor.text),
            normalize_string(anchor.id),
            anchor.dom_id,
        )

    return replace(
        ev,
        role=normalize_string(ev.role),
        id=normalize_string(ev.id),
        label=normalize(ev.label),
        anchor=anchor_of(ev.anchor),
        scope=anchor_of(ev.scope),
        key_text=normalize(ev.key_text),
        placeholder=normalize(ev.placeholder),
        text=normalize(ev.text),
        name=normalize_string(ev.name),
        input_type=normalize_string(ev.input_type),
        css_class=normalize_string(ev.css_class),
        column=normalize(ev.column),
        ancestry=tuple(Ancestor(normalize_string(a.role) or "generic", normalize(a.label)) for a in ev.ancestry),
        scroll_region=(
            Region(normalize_string(region.role) or "generic", normalize(region.label), normalize_string(region.id))
            if region
            else None
        ),
        screen=Screen(normalize_string(screen.path), normalize(screen.title)) if screen else None,
    )


def encode(ev: TargetEvidence) -> str:
    """Canonical payload JSON within the size bounds.

    Ancestry is dropped from the root side until the payload fits; evidence that still does
    not fit, or holds an over-long string, is written as ``unverifiable``.
    """
    ev = normalized(ev)
    if ev.verified and not ev.identifiable:
        ev = replace(ev, verification=UNVERIFIABLE)
    if not _fits_strings(ev):
        ev = TargetEvidence(
            role=ev.role if ev.role and len(ev.role.encode()) <= MAX_STRING_BYTES else None,
            verification=UNVERIFIABLE,
            effect=ev.effect,
        )
    ev = replace(ev, ancestry=ev.ancestry[:MAX_ANCESTRY])
    while True:
        text = dump(_to_json(ev))
        if len(text.encode("utf-8")) <= MAX_PAYLOAD_BYTES:
            return text
        if ev.ancestry:
            ev = replace(ev, ancestry=ev.ancestry[:-1])
            continue
        return dump(_to_json(TargetEvidence(role=ev.role, verification=UNVERIFIABLE, effect=ev.effect)))


def annotation_line(ev: TargetEvidence) -> str:
    """The full comment line written before an element step."""
    return WRITE_PREFIX + encode(ev)
