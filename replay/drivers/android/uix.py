"""A ``uiautomator dump`` as the backend-neutral tree (design §9), with agent-device's mapping so its
Android scripts and target-v1 annotations read the same: role = the lower-cased last segment of
``class``; label = ``text``, else ``content-desc``; value = ``text``; id = the full ``resource-id``;
rect from ``bounds`` (device px, the space ``input tap`` takes); flags from the dump's booleans.

Pruned like the web tree, so ancestry is stable across layout wrappers: a node that is only layout
(no name, no id, no text of its own, not actionable, not scrollable) is lifted — its children hang
under its parent — unless it is a row of a list (a child of a scrolling container: what tells its
look-alike buttons apart). Pure: text in, ``Capture`` out (lxml, no network, no entities).
"""

from __future__ import annotations

import re
from typing import Any

from lxml import etree

from replay.errors import InvalidArgs
from replay.script.text import normalize
from replay.tree.model import (
    F_ACTIONABLE,
    F_CHECKED,
    F_EDITABLE,
    F_ENABLED,
    F_FOCUSED,
    F_HITTABLE,
    F_SCROLLABLE,
    F_SELECTED,
    F_VISIBLE,
    Capture,
    capture_of,
    tree_root,
)

MAX_DUMP_BYTES = 32 * 1024 * 1024  # far above a real screen (a long list: ~2 MB)
MAX_TEXT = 200  # a node's subtree text, as on the web
PASSWORD_MASK = "•••"  # a password field's value, as on the web
_BOUNDS = re.compile(r"\[(-?\d+),(-?\d+)\]\[(-?\d+),(-?\d+)\]")
_SCROLL_CLASSES = ("scroll", "recyclerview", "listview", "gridview", "viewpager")
_EDIT_CLASSES = ("edittext", "autocompletetextview")
_SYSTEM_UI = "com.android.systemui"
_PARSER = etree.XMLParser(resolve_entities=False, no_network=True, huge_tree=False, remove_comments=True)


def dump_xml(text: str) -> str:
    """The XML of a dump as ``uiautomator dump`` prints it (to ``/dev/tty`` its last line says where
    it dumped, "UI hierchary dumped to: /dev/tty"): from ``<?xml``/``<hierarchy`` to the last
    ``</hierarchy>`` — or, for ``uiautomator dump --windows``, to the last ``</displays>``."""
    if len(text) > MAX_DUMP_BYTES:
        limit = MAX_DUMP_BYTES // (1024 * 1024)
        raise InvalidArgs(f"the UI dump is over {limit} MiB", hint="is it a uiautomator dump?")
    starts = (text.find("<?xml"), text.find("<hierarchy"), text.find("<displays"))
    start = min((i for i in starts if i >= 0), default=-1)
    closing = "</displays>" if "</displays>" in text else "</hierarchy>"
    end = text.rfind(closing)
    if start < 0 or end < start:
        raise InvalidArgs(
            "not a uiautomator dump: no <hierarchy> element",
            hint="`adb exec-out uiautomator dump /dev/tty` prints one",
        )
    return text[start : end + len(closing)]


def role_of(klass: str) -> str:
    """agent-device's role: the lower-cased last segment of the class (``android.widget.Button`` →
    ``button``); ``generic`` for a node without one."""
    return klass.rsplit(".", 1)[-1].lower() or "generic"


def bounds_of(raw: str | None) -> tuple[float, float, float, float]:
    """``[l,t][r,b]`` as (x, y, width, height); a node without bounds has an empty rect."""
    m = _BOUNDS.fullmatch((raw or "").strip())
    if m is None:
        return (0.0, 0.0, 0.0, 0.0)
    left, top, right, bottom = (int(v) for v in m.groups())
    return (float(left), float(top), float(max(0, right - left)), float(max(0, bottom - top)))


def parse_dump(text: str, *, generation: int, screen_path: str | None = None) -> Capture:
    """The tree of a dump as capture ``generation``; ``screen_path``: the screen's place (package/activity)."""
    try:
        root = etree.fromstring(dump_xml(text).encode("utf-8"), _PARSER)
    except etree.XMLSyntaxError as exc:
        raise InvalidArgs(f"the UI dump is not well-formed XML: {exc}", hint="is it a uiautomator dump?") from None
    windows = _windows(root)
    width, height = _screen_size(windows)
    document = {"i": "0", "role": "document", "tag": "hierarchy", "x": "0", "y": "0", "w": _n(width), "h": _n(height)}
    out = tree_root({**document, "f": "3"})
    count = [1]  # the next node's index (pre-order, as a capture numbers its nodes)
    for window in windows:
        _add(window, out, count, (width, height))
    package = next((str(w.get("package")) for w in windows if w.get("package")), "")
    where = screen_path if screen_path is not None else package or None
    return capture_of(out, generation, package, "", (width, height), where)


def _windows(root: Any) -> list[Any]:
    """The windows to show. A ``--windows`` dump (``<displays><display><window …><hierarchy>``, windows
    listed top first) shows its focused window, else its active one, else the top application
    window. A plain dump shows the focused top-level node where the dump says which (agent-device's
    helper writes ``window-*``), else every top-level node but the system UI's when an app's is there."""
    if root.tag == "displays":
        return _focused_window(root)
    tops = [n for n in root if n.tag == "node"]
    focused = [n for n in tops if n.get("window-focused") == "true" or n.get("window-active") == "true"]
    if focused:
        return focused[-1:]
    apps = [n for n in tops if n.get("package") != _SYSTEM_UI]
    return apps or tops


def _focused_window(root: Any) -> list[Any]:
    windows = [w for display in root if display.tag == "display" for w in display if w.tag == "window"]
    for wanted in (
        lambda w: w.get("focused") == "true",
        lambda w: w.get("active") == "true",
        lambda w: w.get("type") == "TYPE_APPLICATION",
    ):
        chosen = next((w for w in windows if wanted(w)), None)
        if chosen is not None:
            return [n for h in chosen if h.tag == "hierarchy" for n in h if n.tag == "node"]
    return []


def _screen_size(windows: list[Any]) -> tuple[float, float]:
    rects = [bounds_of(w.get("bounds")) for w in windows]
    return (max((x + w for x, _, w, _ in rects), default=0.0), max((y + h for _, y, _, h in rects), default=0.0))


def _add(node: Any, parent: Any, count: list[int], screen: tuple[float, float], row: bool = False) -> list[str]:
    """Add ``node`` (and its subtree) under ``parent``, or lift its children there when it is layout
    only; ``row``: a child of a list (its rows are what tells their look-alike buttons apart). Returns
    the subtree's texts in order (enough of them for ``MAX_TEXT``): a node's text is its own and its
    descendants', gathered on the way back up (one pass over the dump)."""
    a = dict(node.items())  # read once: an lxml attribute lookup costs more than a dict's
    if a.get("visible-to-user") == "false":
        return []  # off screen, or hidden: agent-device drops it too
    fields, flags = _fields(a, screen)
    kept = parent
    element = None
    if row or _kept(fields, flags):
        fields["i"] = str(count[0])
        count[0] += 1
        element = kept = etree.SubElement(parent, "node", fields)
    own = fields.get("label")  # what the node says itself: its text (not a password's), else its description
    parts, size = ([own], len(own) + 1) if own else ([], 0)
    listing = bool(flags & F_SCROLLABLE)
    for child in node:
        if child.tag == "node":
            below = _add(child, kept, count, screen, row=listing)
            for part in below:
                if size > MAX_TEXT:
                    break
                parts.append(part)
                size += len(part) + 1
    if element is not None and parts:
        content = normalize(" ".join(parts)[:MAX_TEXT])
        if content:
            element.set("text", content)
    return parts


def _kept(fields: dict[str, str], flags: int) -> bool:
    """A node that can be named or acted on; a layout (``*Layout``, ``ViewGroup``, ``View``) only with
    a name or an action: its id alone (``text_frame``) says how the screen is built, not what it is."""
    if flags & (F_ACTIONABLE | F_SCROLLABLE) or "label" in fields:
        return True
    role = fields["role"]
    layout = "layout" in role or role in ("viewgroup", "view", "generic")
    return not layout and bool("id" in fields or fields.get("value"))


def _fields(a: dict[str, str], screen: tuple[float, float]) -> tuple[dict[str, str], int]:
    """A dump node's attributes ``a`` as the tree's fields, and its flags."""
    klass = a.get("class") or ""
    m = _BOUNDS.fullmatch((a.get("bounds") or "").strip())
    left, top, right, bottom = map(int, m.groups()) if m is not None else (0, 0, 0, 0)
    x, y, w, h = left, top, max(0, right - left), max(0, bottom - top)
    on = {k for k, v in a.items() if v == "true"}  # the dump's booleans
    password = "password" in on
    raw = a.get("text")
    text = normalize(raw) if not password else None  # what was typed stays out
    short = role_of(klass)
    enabled = "enabled" in on
    editable = enabled and any(c in short for c in _EDIT_CLASSES)
    scrollable = "scrollable" in on or any(c in short for c in _SCROLL_CLASSES)
    actionable = editable or "clickable" in on or "long-clickable" in on or "checkable" in on
    visible = w > 0 and h > 0 and x < screen[0] and y < screen[1] and x + w > 0 and y + h > 0
    on_screen = 0 <= x + w / 2 < screen[0] and 0 <= y + h / 2 < screen[1]
    flags = (F_VISIBLE if visible else 0) | (F_ENABLED if enabled else 0) | (F_EDITABLE if editable else 0)
    flags |= (F_CHECKED if "checked" in on else 0) | (F_SELECTED if "selected" in on else 0)
    flags |= (F_FOCUSED if "focused" in on else 0) | (F_SCROLLABLE if scrollable else 0)
    flags |= F_ACTIONABLE if actionable else 0
    flags |= F_HITTABLE if actionable and visible and enabled and on_screen else 0
    fields = {"role": short, "tag": klass, "x": str(x), "y": str(y), "w": str(w), "h": str(h), "f": str(flags)}
    label = text or normalize(a.get("content-desc"))
    if label:
        fields["label"] = label
    if a.get("resource-id"):
        fields["id"] = a["resource-id"]
    if raw is not None:
        fields["value"] = (PASSWORD_MASK if raw else "") if password else text or ""
    if password:
        fields["type"] = "password"  # as the web's <input type=password>: `get value` reads the mask
    hint = normalize(a.get("hint"))
    if hint:
        fields["placeholder"] = hint
    return fields, flags


def _n(v: float) -> str:
    return str(int(v)) if v == int(v) else str(v)
