"""Build captures by hand for unit tests: the same raw rows capture.js produces."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from replay.drivers.web.capture import page_path
from replay.tree.model import (
    F_ACTIONABLE,
    F_CHECKED,
    F_DOM_ID,
    F_EDITABLE,
    F_ENABLED,
    F_EXPANDED,
    F_FOCUSED,
    F_HITTABLE,
    F_OVERLAY,
    F_SCROLLABLE,
    F_SELECTED,
    F_VISIBLE,
    Capture,
    build_capture,
)

INTERACTIVE = {"button", "link", "textbox", "checkbox", "radio", "combobox", "searchbox", "option", "tab"}


@dataclass
class N:
    role: str = "generic"
    label: str = ""
    id: str = ""
    text: str = ""
    placeholder: str = ""
    rect: tuple[float, float, float, float] = (0, 0, 10, 10)
    children: list[N] = field(default_factory=list)
    actionable: bool | None = None
    scrollable: bool = False
    visible: bool = True
    enabled: bool = True
    hittable: bool | None = None  # None: when visible and enabled
    checked: bool = False
    editable: bool = False
    value: str | None = None
    tag: str = "div"
    name: str = ""  # a form control's name attribute
    type: str = ""  # an input's type
    cls: str = ""  # word-like class tokens, space-separated (as capture.js keeps them)
    dom_id: bool = False  # the id is the element's DOM id, not a test id attribute
    overlay: bool = False  # a positioned layer over the page's centre
    expanded: bool = False  # what it opens is open (aria-expanded)
    selected: bool = False  # a chosen option or tab
    focused: bool = False  # it has the focus

    def __call__(self, *children: N) -> N:
        self.children = list(children)
        return self


def capture(
    *children: N,
    title: str = "Page",
    url: str = "http://127.0.0.1/page.html",
    generation: int = 1,
    base: str | None = None,
) -> Capture:
    """A capture as the web driver builds it, after opening ``base`` (None: nothing opened)."""
    return build_capture({**screen(*children, title=title, url=url), "generation": generation}, page_path(url, base))


def screen(*children: N, title: str = "Page", url: str = "http://127.0.0.1/page.html") -> dict[str, Any]:
    """The raw capture (what capture.js returns, without a generation) of a hand-built tree."""
    rows: list[list[Any]] = [[-1, "document", title, "", None, "", "", "html", None, 0, 0, 1280, 800, 3, 0]]

    def add(node: N, parent: int) -> None:
        actionable = node.role in INTERACTIVE if node.actionable is None else node.actionable
        flags = (F_VISIBLE if node.visible else 0) | (F_ENABLED if node.enabled else 0)
        flags |= (F_ACTIONABLE if actionable else 0) | (F_SCROLLABLE if node.scrollable else 0)
        flags |= F_CHECKED if node.checked else 0
        flags |= F_EDITABLE if node.editable else 0
        flags |= F_DOM_ID if node.dom_id else 0
        flags |= F_OVERLAY if node.overlay else 0
        flags |= F_EXPANDED if node.expanded else 0
        flags |= F_SELECTED if node.selected else 0
        flags |= F_FOCUSED if node.focused else 0
        flags |= F_HITTABLE if (node.visible and node.enabled if node.hittable is None else node.hittable) else 0
        x, y, w, h = node.rect
        rows.append(
            [
                parent,
                node.role,
                node.label,
                node.id,
                node.value,
                node.text or node.label,
                node.placeholder,
                node.tag,
                None,
                x,
                y,
                w,
                h,
                flags,
                0,
                node.name,
                node.type,
                node.cls,
            ]
        )
        me = len(rows) - 1
        for child in node.children:
            add(child, me)

    for child in children:
        add(child, 0)
    return {"url": url, "title": title, "viewport": [1280, 800], "xml": rows_to_xml(rows)}


def rows_to_xml(rows: list[list[Any]]) -> str:
    """The XML capture.js produces, from rows [parent, role, label, id, value, text, placeholder, tag, href, x, y, w, h,
    flags, frame, name?, type?]."""
    from lxml import etree

    elements: list[Any] = []
    for i, row in enumerate(rows):
        parent, role, label, tid, value, text, ph, tag, href, x, y, w, h, flags, frame = row[:15]
        name, input_type, cls = (row[15:18] + ["", "", ""])[:3]
        attrib = {
            "i": str(i),
            "role": role,
            "tag": tag,
            "x": str(x),
            "y": str(y),
            "w": str(w),
            "h": str(h),
            "f": str(flags),
        }
        pairs = (("label", label), ("id", tid), ("text", text), ("placeholder", ph), ("href", href))
        for key, val in (*pairs, ("name", name), ("type", input_type), ("class", cls)):
            if val:
                attrib[key] = str(val)
        if value is not None:
            attrib["value"] = str(value)
        if frame:
            attrib["frame"] = str(frame)
        el = etree.Element("node", attrib)
        if parent >= 0:
            elements[parent].append(el)
        elements.append(el)
    return etree.tostring(elements[0], encoding="unicode")


def by_label(cap: Capture, label: str, nth: int = 0) -> Any:
    return [n for n in cap.nodes if n.label == label][nth]
