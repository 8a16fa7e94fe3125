"""Maestro's selectors as `.ad` selector expressions, with Maestro's meaning (design §14):

- ``text`` is a regex that must match the whole text (Android: text, else content-desc) or the hint,
  or the exact string: a plain text becomes ``label="T" || placeholder="T"``; a regex becomes
  anchored ``~=`` alternatives beside the exact ones;
- ``id`` full-matches the resource-id or its part after the last ``/``: ``id="X" || id~="/X$"``;
- ``enabled``, ``checked``, ``selected``, ``focused`` are boolean terms on every alternative;
- ``index`` is ``at`` (the N-th match top to bottom, then left to right, as Maestro counts);
- ``childOf: P`` is ``P >> C`` (a descendant: broader than Maestro's direct parent; said too).

Refused, with the reason: relational (``above``, ``below``, ``leftOf``, ``rightOf``),
``containsChild``, ``containsDescendants``, ``traits``, sizes, and ``${…}`` that is not
a plain variable.
"""

from __future__ import annotations

import json
import re

from replay.formats.maestro.yaml_safe import Y

REGEX_CHARS = set(".^$*+?()[]{}|\\")
MAX_ALTERNATIVES = 32  # a selector's `||` alternatives (nested childOf multiplies them)
WHOLE = re.compile(r"[0-9]{1,9}")  # a count or a duration as `.ad` reads one (ASCII digits only)
VARIABLE = re.compile(r"\$\{([^}]*)\}")
PLAIN_NAME = re.compile(r"[A-Z][A-Z0-9_]*(:-[^}]*)?")
BOOLEANS = ("enabled", "checked", "selected", "focused")
RELATIONAL = ("above", "below", "leftOf", "rightOf")
NOT_MAPPED = {
    **{k: "a relational selector: replay has no place-relative terms" for k in RELATIONAL},
    "containsChild": "replay has no has-child term",
    "containsDescendants": "replay has no has-descendants term",
    "traits": "replay has no trait terms",
    "width": "replay does not select by size",
    "height": "replay does not select by size",
    "tolerance": "replay does not select by size",
    "css": "a CSS selector: replay selects by role, label, id and text",
    "optional": "a step that may fail silently: replay stops at every failure, by design",
}


class Refusal(Exception):
    """What the import cannot translate, where (a YAML value), and why."""

    def __init__(self, at: Y, message: str, hint: str | None = None) -> None:
        super().__init__(message)
        self.at, self.message, self.hint = at, message, hint


def quote(value: str) -> str:
    """A double-quoted selector value (JSON escapes, as the `.ad` format reads them)."""
    return json.dumps(value, ensure_ascii=False)


def checked_text(y: Y, what: str) -> str:
    """A scalar's text, its ``${…}`` plain variables only (Maestro's JS expressions are refused)."""
    if not y.is_scalar:
        raise Refusal(y, f"{what} must be a text")
    for m in VARIABLE.finditer(y.value):
        if not PLAIN_NAME.fullmatch(m.group(1)):
            raise Refusal(
                y,
                f"${{{m.group(1)}}}: only ${{NAME}} variables import (upper-case names); "
                "JavaScript expressions and outputs do not",
                hint="rename the variable in upper case, or compute the value before the run",
            )
    return str(y.value)


def whole_number(y: Y, what: str, raw: str | None = None) -> str:
    """A whole number written in ASCII digits (``²`` and ``٣`` are digits to Python, not to `.ad`)."""
    if raw is None and not y.is_scalar:
        raise Refusal(y, f"{what}: a whole number")
    text = str(y.value) if raw is None else raw
    if WHOLE.fullmatch(text) is None:
        raise Refusal(y, f"{what} {text!r}: a whole number (digits 0-9)")
    return text


def substituted(y: Y, values: dict[str, str]) -> Y:
    """``y`` with a sub-flow's own values (``runFlow``'s env) put in place of its ``${NAME}``s before
    anything is quoted, so a value is a value wherever it lands; the others stay variables."""
    if not values:
        return y
    if y.is_scalar:
        text = VARIABLE.sub(lambda m: values.get(m.group(1), m.group(0)), y.value)
        return y if text == y.value else Y(text, y.line, y.column, y.kind)
    if y.is_list:
        return Y([substituted(v, values) for v in y.value], y.line, y.column, y.kind)
    if y.is_map:
        return Y({k: substituted(v, values) for k, v in y.value.items()}, y.line, y.column, y.kind)
    return y


def _regex(y: Y, pattern: str) -> str:
    """``pattern`` when the `.ad` regex engine compiles it, else refused at ``y``."""
    from replay.errors import ReplayError
    from replay.script.selector import compile_regex

    try:
        compile_regex(VARIABLE.sub("x", pattern))
    except (ReplayError, ValueError) as exc:
        raise Refusal(y, f"{y.value!r} is not a regular expression replay reads ({exc})") from None
    return pattern


def app_shape(at: Y, text: str, what: str) -> str:
    """``text`` when it is an Android app id or deep link by its grammar (a ``${NAME}`` is checked
    when it is opened, resolved); else refused at ``at``."""
    from replay.script import apps

    if VARIABLE.fullmatch(text) is None and (problem := apps.app_problem(text)) is not None:
        raise Refusal(at, f"{what}: {problem}", apps.HINT)
    return text


def is_regex(text: str) -> bool:
    return any(c in REGEX_CHARS for c in VARIABLE.sub("", text))


def text_alternatives(text: str, at: Y | None = None) -> list[str]:
    if not is_regex(text):
        return [f"label={quote(text)}", f"placeholder={quote(text)}"]
    anchored = quote(_regex(at or Y(text, 0, 0), f"^(?:{text})$"))
    return [f"label~={anchored}", f"label={quote(text)}", f"placeholder~={anchored}", f"placeholder={quote(text)}"]


def id_alternatives(text: str, at: Y | None = None) -> list[str]:
    if not is_regex(text):
        return [f"id={quote(text)}", f"id~={quote('/' + text + '$')}"]
    return [f"id~={quote(_regex(at or Y(text, 0, 0), f'^(?:{text})$|/(?=[^/]*$)(?:{text})$'))}"]


def selector(y: Y, notes: list[str]) -> str:
    """The `.ad` selector expression of a Maestro selector (a text, or a map), or ``Refusal``;
    ``notes`` gets what the translation changes (said in a comment above the step)."""
    return " || ".join(_alternatives(y, notes))


def _alternatives(y: Y, notes: list[str]) -> list[str]:
    if y.is_scalar:
        return text_alternatives(checked_text(y, "a selector"), y)
    if not y.is_map:
        raise Refusal(
            y, "a selector is a text or a map (text, id, index, childOf, enabled, checked, selected, focused)"
        )
    fields = dict(y.value)
    for key, value in fields.items():
        if key in NOT_MAPPED:
            raise Refusal(value, f"{key}: {NOT_MAPPED[key]}")
        if key not in ("text", "id", "index", "childOf", "point", "label", *BOOLEANS):
            raise Refusal(value, f"{key}: not a Maestro selector field replay knows")
    if "label" in fields:
        raise Refusal(fields["label"], "label: agent-device's extension of Maestro, not Maestro's; use text")
    if "point" in fields:
        raise Refusal(fields["point"], "point: a coordinate is not a selector here (tapOn: {point} is)")
    groups = [text_alternatives(checked_text(fields["text"], "text"), fields["text"])] if "text" in fields else []
    if "id" in fields:
        groups.append(id_alternatives(checked_text(fields["id"], "id"), fields["id"]))
    if not groups and not any(k in fields for k in BOOLEANS):
        raise Refusal(y, "a selector needs text or id")
    alternatives = [""]
    for group in groups:
        alternatives = [f"{a} {g}".strip() for a in alternatives for g in group]
    for key in BOOLEANS:
        if key in fields:
            wanted = fields[key].truthy()
            if wanted is None:
                raise Refusal(fields[key], f"{key} must be true or false")
            alternatives = [f"{a} {key}{'' if wanted else '=false'}".strip() for a in alternatives]
    if "index" in fields:
        index = fields["index"]
        if not index.is_scalar or WHOLE.fullmatch(index.value) is None:
            raise Refusal(index, "index must be a whole number (digits 0-9)")
        alternatives = [f"{a} at={index.value}" for a in alternatives]  # reading order, as Maestro counts
    if "childOf" in fields:  # P >> C for every pair (``||`` binds looser than ``>>``)
        parents = _alternatives(fields["childOf"], notes)
        if len(parents) * len(alternatives) > MAX_ALTERNATIVES:  # checked before the product is built
            raise Refusal(y, f"the selector expands to more than {MAX_ALTERNATIVES} alternatives (nested childOf)")
        if "childOf: any ancestor (Maestro: the direct parent)" not in notes:
            notes.append("childOf: any ancestor (Maestro: the direct parent)")
        return [f"{p} >> {c}" for p in parents for c in alternatives]
    return alternatives


def point(y: Y) -> tuple[str, str]:
    """``"x,y"`` (px) or ``"x%,y%"`` as two `.ad` coordinates."""
    text = checked_text(y, "a point")
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2 or not all(re.fullmatch(r"[0-9]{1,6}(\.[0-9]{1,4})?%?", p) for p in parts):
        raise Refusal(y, f"{text!r} is not a point: x,y in px or x%,y%")
    return parts[0], parts[1]
