"""The UI tree model: lxml elements in document (pre-order) order, one per kept node (design §4)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from lxml import etree

from replay.script.evidence import Screen
from replay.script.text import normalize
from replay.tree.ids import Family, PageIds, made_up, take_off_made_up

F_VISIBLE = 1
F_ENABLED = 2
F_EDITABLE = 4
F_CHECKED = 8
F_SELECTED = 16
F_FOCUSED = 32
F_HITTABLE = 64
F_SCROLLABLE = 128
F_ACTIONABLE = 256
F_DOM_ID = 512  # the id is an element's DOM id (web), not a test id attribute
F_OVERLAY = 1024  # a positioned layer over the page's centre (web): a container, whatever its role
F_EXPANDED = 2048  # what it opens is open (aria-expanded; a <details>' summary)
F_THROUGH = 4096  # on top through a wrapper of its own that takes the pointer for it (web; design §5 composed controls)

# A node's attributes: i (document order), role, tag, x, y, w, h, f (flags), and when present
# label, id, value, text, placeholder, href, frame, name (a form control's name attribute), type (an input's),
# class (a control's word-like class tokens, space-separated: design §5 own attributes).


class Node(etree.ElementBase):
    """One node of the tree; fields live in the element's attributes."""

    @property
    def position(self) -> int:
        """Position in document order (0 is the document root)."""
        return int(self.get("i") or 0)

    @property
    def ref(self) -> str:
        """The ref this node has in its capture's generation."""
        return f"@e{self.position}"

    def _s(self, key: str) -> str | None:
        value = self.get(key)
        return value if value else None

    @property
    def role(self) -> str:
        """ARIA role, explicit or implicit; ``generic`` when none."""
        return self.get("role") or "generic"

    @property
    def label(self) -> str | None:
        """Accessible name (normalized), or None."""
        return self._s("label")

    @property
    def test_id(self) -> str | None:
        """Test id (data-testid …) else DOM id, or None."""
        return self._s("id")

    @property
    def value(self) -> str | None:
        """Form value (passwords masked), or None."""
        return self.get("value")

    @property
    def content(self) -> str | None:
        """Normalized rendered text of the subtree (capped), or None; the selector key ``text``."""
        return self._s("text")

    @property
    def placeholder(self) -> str | None:
        """Placeholder attribute, or None."""
        return self._s("placeholder")

    @property
    def classes(self) -> tuple[str, ...]:
        """A control's word-like class tokens (``ql-bold``), as the backend kept them."""
        value = self.get("class")
        return tuple(value.split(" ")) if value else ()

    @property
    def form_name(self) -> str | None:
        """A form control's ``name`` attribute (a secondary signal, design §5)."""
        return self._s("name")

    @property
    def input_type(self) -> str | None:
        """An input's ``type`` attribute, lower-cased."""
        return self._s("type")

    @property
    def tag_name(self) -> str:
        """The element's kind in its toolkit (web: the lower-case tag; a device: its widget class)."""
        return self.get("tag") or ""

    @property
    def href(self) -> str | None:
        """Where a link leads, as written (web: its ``href``), or None."""
        return self._s("href")

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """(x, y, width, height) in the top viewport's units (web: CSS px; a device: screen px)."""
        return (
            float(self.get("x") or 0),
            float(self.get("y") or 0),
            float(self.get("w") or 0),
            float(self.get("h") or 0),
        )

    @property
    def center(self) -> tuple[float, float]:
        """Centre of the rect."""
        x, y, w, h = self.rect
        return (x + w / 2, y + h / 2)

    @property
    def flags(self) -> int:
        """Bit set of the F_* flags."""
        return int(self.get("f") or 0)

    def has(self, flag: int) -> bool:
        """Whether flag is set."""
        return bool(self.flags & flag)

    visible = property(lambda self: self.has(F_VISIBLE), doc="Rendered with a size.")
    enabled = property(lambda self: self.has(F_ENABLED), doc="Not disabled.")
    editable = property(lambda self: self.has(F_EDITABLE), doc="Accepts text input.")
    checked = property(lambda self: self.has(F_CHECKED), doc="Checked checkbox/radio.")
    selected = property(lambda self: self.has(F_SELECTED), doc="Selected option/tab.")
    expanded = property(lambda self: self.has(F_EXPANDED), doc="What it opens is open (aria-expanded).")
    focused = property(lambda self: self.has(F_FOCUSED), doc="Has focus.")
    hittable = property(lambda self: self.has(F_HITTABLE), doc="Visible, enabled, in viewport, topmost at centre.")
    through = property(lambda self: self.has(F_THROUGH), doc="Pressed through a wrapper of its own (composed).")

    @property
    def covered(self) -> bool:
        """Visible, enabled and in view, yet another element is topmost at its centre (a modal layer,
        a backdrop, a banner): a person cannot click it (design §5 "Covered nodes"). In view: the centre
        lies inside the viewport and every scrollable ancestor (one scrolled out of a region is not
        covered: acting scrolls it in)."""
        if self.hittable or not self.visible or not self.enabled:
            return False
        cx, cy = self.center
        document = self.getroottree().getroot()  # its rect is the viewport
        boxes = [(0.0, 0.0, float(document.get("w") or 0), float(document.get("h") or 0))]
        boxes += [a.rect for a in self.ancestors() if a.scrollable]
        return all(x <= cx < x + w and y <= cy < y + h for x, y, w, h in boxes)

    scrollable = property(lambda self: self.has(F_SCROLLABLE), doc="Scrolls its content.")
    actionable = property(lambda self: self.has(F_ACTIONABLE), doc="An interactive control.")

    @property
    def covers_page(self) -> bool:
        """A dialog, or a positioned layer over the page's centre (design §5 "Overlays"): what it holds is
        what can be done now."""
        return self.get("role") in ("dialog", "alertdialog") or self.has(F_OVERLAY)

    @property
    def frame(self) -> int:
        """0 for the main document or window, else the number of the embedded one it lives in (web: a
        same-origin iframe)."""
        return int(self.get("frame") or 0)

    @property
    def parent_node(self) -> Node | None:
        """The parent in the pruned tree (None for the root)."""
        p = self.getparent()
        return p if isinstance(p, Node) else None

    def ancestors(self) -> list[Node]:
        """Ancestors, nearest first, excluding the document root."""
        out: list[Node] = []
        p = self.parent_node
        while p is not None and p.parent_node is not None:
            out.append(p)
            p = p.parent_node
        return out

    @property
    def key_text(self) -> str | None:
        """The first text of the non-interactive descendants (≤ 64 chars): a row's "Bob", a card's title.

        What tells one row, card or list item apart from its look-alikes (design §4, §5 "Row key text").
        A control's own label ("Toggle Todo", visually hidden in every row) is the control's name, never
        what the row says. Without such a text, the node's own text less its controls' texts — unless
        that is only its controls' labels and a nameless focusable text holder says something (a todo's
        focusable title): then that.
        """
        for holder, found in _texts(self):
            if holder.tag_name == "label" and self._names_a_control(found):
                continue  # a control's visible label ("Toggle Todo"), not what the row says
            return found[:KEY_TEXT_CHARS].rstrip()
        rest = self.rest_text
        if rest is None or self._rest_text(labels=True) is None:
            return self._focusable_text() or rest
        return rest

    def _names_a_control(self, text: str) -> bool:
        said = " ".join(text.split())
        return any(isinstance(d, Node) and _is_control(d) and d.get("label") == said for d in self.iterdescendants())

    def shows(self, text: str) -> bool:
        """Whether one of the node's own texts — a non-interactive descendant's, or a nameless focusable
        text holder's — is ``text`` (normalized)."""
        said = " ".join(text.split())
        holders = (t for _, t in _texts(self))
        focusable = (d.content for d in self.iterdescendants() if isinstance(d, Node) and d.get("role") == "generic")
        return any(" ".join(t.split()) == said for t in (*holders, *(f for f in focusable if f)))

    def _focusable_text(self) -> str | None:
        for d in self.iterdescendants():
            if isinstance(d, Node) and d.actionable and d.get("role") == "generic" and not d.get("label") and d.content:
                return " ".join(d.content.split())[:KEY_TEXT_CHARS].rstrip() or None
        return None

    @property
    def rest_text(self) -> str | None:
        """The node's text less its controls' texts (≤ 64 chars): a row's "Apollo cy" where another
        row's first text is "Apollo" too."""
        return self._rest_text()

    def _rest_text(self, *, labels: bool = False) -> str | None:
        """``rest_text``; ``labels``: less the labels naming its controls too."""
        if not self.content:
            return None
        rest = self.content
        for d in self.iterdescendants():
            if not isinstance(d, Node) or not d.content:
                continue
            if _is_control(d) or (labels and d.tag_name == "label" and self._names_a_control(d.content)):
                rest = rest.replace(d.content, " ", 1)
        found = " ".join(rest.split())
        return found[:KEY_TEXT_CHARS].rstrip() or None

    def field(self, key: str) -> str | None:
        """A selector field by its key (``id``, ``role``, ``label``, …)."""
        if key == "id":
            return self.test_id
        if key == "tag":
            return self.tag_name
        if key == "role":
            return self.role
        return self._s(key) if key != "value" else self.value

    def to_dict(self) -> dict[str, Any]:
        """The full JSON projection of the node (``snapshot --json``)."""
        x, y, w, h = self.rect
        return {
            "ref": self.ref,
            "role": self.role,
            "label": self.label,
            "id": self.test_id,
            "value": self.value,
            "text": self.content,
            "placeholder": self.placeholder,
            "name": self.form_name,
            "type": self.input_type,
            "tag": self.tag_name,
            "href": self.href,
            "class": self.get("class"),
            "rect": {"x": x, "y": y, "width": w, "height": h},
            "visible": self.visible,
            "enabled": self.enabled,
            "editable": self.editable,
            "checked": self.checked,
            "selected": self.selected,
            "focused": self.focused,
            "hittable": self.hittable,
            "scrollable": self.scrollable,
            "actionable": self.actionable,
            "frame": self.frame,
            "depth": len(self.ancestors()),
        }


KEY_TEXT_CHARS = 64


def _is_control(node: Node) -> bool:
    """An actionable node whose words name an action, not the data: not a grid's cell, which is
    focusable but holds the row's values (its "Printer jammed", "cy")."""
    return node.actionable and node.get("role") != "gridcell"


def _texts(node: Node) -> Iterator[tuple[Node, str]]:
    """The texts of the node's non-interactive descendants in reading order, each with the node that
    holds it: a child's own texts first, else the child's text (the first is the node's key text)."""
    for child in node:
        if not isinstance(child, Node) or _is_control(child):
            continue
        inner = False
        for found in _texts(child):
            inner = True
            yield found
        if not inner and child.content:
            yield child, child.content


_LOOKUP = etree.ElementDefaultClassLookup(element=Node)
_PARSER = etree.XMLParser(huge_tree=True, resolve_entities=False, no_network=True)
_PARSER.set_element_class_lookup(_LOOKUP)


# the text keys ``Capture.by_value`` answers besides ``role``: each an attribute of its own name
INDEXED_KEYS = ("id", "label", "text", "placeholder", "value", "href")
_LABELED_OR_ACTIONABLE = "\0labeled-or-actionable"  # (not a selector key) Capture._index's list of them
_GENERATED_IDS = "\0generated-ids"  # (not a selector key) Capture._index's set of made-up ids
_DERIVED_IDS = "\0derived-ids"  # (not a selector key) Capture._index's set of ids made from others


@dataclass
class Capture:
    """One capture of the screen: its tree, its nodes in document order, and its generation.

    ``_index``: what is looked up more than once: each field's values (``by_value``), the labeled-or-actionable nodes.
    """

    generation: int
    url: str  # where the screen is, as the backend says it (web: the page's URL): for people, not identity
    title: str
    viewport: tuple[float, float]
    root: Node
    nodes: list[Node] = field(default_factory=list)
    screen: Screen = field(default_factory=Screen)  # which screen this is (identity's page evidence)
    partial: bool = False  # a targeted view (design §13): the nodes a step named, not the whole screen
    moving: bool = False  # an animation or transition under way, or what an input asked for (web): not settled
    changed: bool = False  # the document changed since the look before, shown in the tree or not (web)
    passed: tuple[tuple[str, str, int], ...] = ()  # overlays that came and went (role, text, look before: web)
    made_up_alone: tuple[str, ...] = ()  # DOM ids the tree took off as made up alone (still in their families)
    followed: frozenset[Family] = frozenset()  # id families the page showed two of since it loaded (PageIds)
    _index: dict[str, dict[str, list[Node]]] = field(default_factory=dict, repr=False, compare=False)

    def node(self, index: int) -> Node:
        """The node at ``index`` (document order)."""
        return self.nodes[index]

    def select(self, xpath: str, **variables: str) -> list[Node]:
        """Nodes (root excluded, document order) an XPath predicate over ``.//node`` selects, in C."""
        return list(self.root.xpath(xpath, **variables))  # type: ignore[arg-type]

    def by_value(self, key: str, folded: str) -> list[Node]:
        """Nodes (document order, root excluded) whose field ``key`` folds to ``folded``.

        Built once per capture and key: recording and verification ask many equality questions
        of the same capture, and a lookup beats a scan of every node each time. (One Python pass
        reading the attribute: an XPath predicate per value is slower in libxml2.)
        """
        from replay.script.text import fold

        index = self._index.get(key)
        if index is None:
            index = {}
            if key == "role":  # lower-case ASCII tokens, "generic" when absent: their own fold
                for n in self.nodes[1:]:
                    index.setdefault(n.get("role") or "generic", []).append(n)
            else:  # the text keys are attributes of their own name
                assert key in INDEXED_KEYS, key
                for n in self.nodes[1:]:
                    value = n.get(key)
                    if value:
                        index.setdefault(fold(value), []).append(n)
            self._index[key] = index
        return index.get(folded, [])

    def labeled_or_actionable(self) -> list[Node]:
        """Nodes an agent can name or act on (label, or the actionable flag 256), in document order;
        found once per capture (the list is shared: do not change it)."""
        found = self._index.get(_LABELED_OR_ACTIONABLE)
        if found is None:
            nodes = [n for n in self.nodes[1:] if n.get("label") or int(n.get("f") or 0) & F_ACTIONABLE]
            found = self._index[_LABELED_OR_ACTIONABLE] = {"": nodes}
        return found[""]

    def generated_ids(self) -> frozenset[str]:
        """The ids a library made up (design §5): a shared prefix plus a counter that several ids on the
        page follow (``ag-58``, ``mat-input-4``, ``el-id-3002-0``), or a token of one length that is no
        word (nanoid's ``todo-item-AkTNBCXIfpXnhAYXTxbsT`` on every row), or React's ``:r1:`` inside one;
        found once per capture. They change with the order things were built in: no identity."""
        found = self._index.get(_GENERATED_IDS)
        if found is None:
            ids = [*self.values_of("id"), *self.made_up_alone]  # a family counts the members taken off too
            found = self._index[_GENERATED_IDS] = {v: [] for v in made_up(ids, self.followed)}
        return frozenset(found)

    def derived_ids(self) -> frozenset[str]:
        """The DOM ids a library made from the app's (design §5): another id on the page plus a suffix
        (``staff`` → ``staff_next``), or a suffix several ids share (``from-tomselected`` beside
        ``to-tomselected``). They follow the library's naming, which changes between its majors;
        found once per capture."""
        found = self._index.get(_DERIVED_IDS)
        if found is None:
            present = set(self.values_of("id"))
            ids = [v for n in self.nodes[1:] if int(n.get("f") or 0) & F_DOM_ID and (v := n.get("id"))]
            by_suffix: dict[str, set[str]] = {}
            derived: set[str] = set()
            splits = {
                value: [i for i, ch in enumerate(value) if ch in "-_" and 0 < i < len(value) - 1] for value in ids
            }
            for value, ats in splits.items():
                derived.update(value for at in ats if value[:at] in present)
                for at in ats:
                    by_suffix.setdefault(value[at:], set()).add(value[:at])
            derived.update(v for v, ats in splits.items() if any(len(by_suffix[v[at:]]) > 1 for at in ats))
            found = self._index[_DERIVED_IDS] = {v: [] for v in derived}
        return frozenset(found)

    def values_of(self, key: str) -> list[str]:
        """Every value of field ``key`` in the tree (as written, each once)."""
        return list(dict.fromkeys(v for n in self.nodes[1:] if (v := n.get(key))))

    def __len__(self) -> int:
        return len(self.nodes)


def build_capture(raw: dict[str, Any], screen_path: str | None = None, page_ids: PageIds | None = None) -> Capture:
    """Build the tree a backend captured: ``xml`` holds nested ``<node>`` elements in document order
    (the backend-neutral tree; ``generation``, ``url``, ``title`` and ``viewport`` beside it).
    ``screen_path``: the backend's place of this screen (web: the URL path relative to the opened base);
    ``page_ids``: the ids its ``document`` showed before, this look's added."""
    root: Node = etree.fromstring(raw["xml"].encode("utf-8"), _PARSER)  # type: ignore[assignment]
    (vw, vh), url, title = raw.get("viewport", [0, 0]), str(raw.get("url", "")), str(raw.get("title", ""))
    taken = capture_of(root, int(raw["generation"]), url, title, (vw, vh), screen_path)
    taken.moving, taken.changed = raw.get("moving") is True, raw.get("changed") is True
    passing = [p for p in raw.get("passed") or () if isinstance(p, list)]
    taken.passed = tuple((str(p[0]), str(p[1]), p[2]) for p in passing if len(p) == 3 and isinstance(p[2], int))
    taken.followed = page_ids.note(raw.get("document"), root, taken.made_up_alone) if page_ids else frozenset()
    return taken


def tree_root(attrib: dict[str, str]) -> Node:
    """The document node of a tree a backend builds in memory (its ``SubElement``s are ``Node``s too)."""
    return _PARSER.makeelement("node", attrib)  # type: ignore[no-any-return,return-value]


def capture_of(
    root: Node, generation: int, url: str, title: str, viewport: tuple[float, float], screen_path: str | None
) -> Capture:
    """The capture of a tree already built of ``Node``s (``tree_root``), as ``build_capture`` makes it."""
    taken_off = take_off_made_up(root, F_DOM_ID)  # a DOM id made up alone is no id (design §5)
    nodes: list[Node] = list(root.iter())  # type: ignore[arg-type]
    screen = Screen(screen_path, normalize(title))
    return Capture(generation, url, title, viewport, root, nodes, screen, made_up_alone=taken_off)
