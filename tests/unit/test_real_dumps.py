"""Real public uiautomator dumps as the tree, field by field (SPEC §9; issue 24).

Ten dumps nobody here wrote (fixtures/android/dumps/, MIT-licensed, sources in
fixtures/android/README.md): four Jetpack Compose screens of a chat app and six Flutter screens
of an IDE, the last two from a later version of it. Every node the tree keeps is checked against
the dump node it came from with agent-device's mapping, re-derived here from the raw attributes;
what pruning may drop and what it must keep is checked over every dump node. The two multi-window
forms (a ``--windows`` dump, and top-level nodes per window) are assembled here around a real
window, since no licensed real one was found.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from lxml import etree

from replay.drivers.android.uix import parse_dump
from replay.script.text import normalize
from replay.tree.model import Capture, Node

DUMPS = Path(__file__).resolve().parents[2] / "fixtures" / "android" / "dumps"
REAL = sorted(p.relative_to(DUMPS).as_posix() for p in DUMPS.glob("*/*.xml"))
COMPOSE = [d for d in REAL if d.startswith("nora/")]
KEY = ("tag", "rect", "label", "actionable", "scrollable")  # what tells a kept node from the wrappers it had
SCROLLING = ("scroll", "recyclerview", "listview", "gridview", "viewpager")


def read(name: str) -> str:
    return (DUMPS / name).read_text(encoding="utf-8")


def source_nodes(text: str) -> list[Any]:
    return list(etree.fromstring(text.encode("utf-8")).iter("node"))


def rect(raw: str) -> tuple[float, float, float, float]:
    left, top, right, bottom = (int(v) for v in raw.replace("][", ",").strip("[]").split(","))
    return (float(left), float(top), float(right - left), float(bottom - top))


def expected(src: Any) -> dict[str, Any]:
    """agent-device's table (../shared/research/android.md §2), from the raw attributes alone."""
    on = lambda name: src.get(name) == "true"  # noqa: E731
    klass = src.get("class")
    short = klass.rsplit(".", 1)[-1].lower()
    editable = ("edittext" in short or "autocompletetextview" in short) and on("enabled")
    return {
        "role": short,
        "tag": klass,
        "label": normalize(src.get("text")) or normalize(src.get("content-desc")) or None,
        "id": src.get("resource-id") or None,
        "rect": rect(src.get("bounds")),
        "enabled": on("enabled"),
        "checked": on("checked"),
        "selected": on("selected"),
        "focused": on("focused"),
        "editable": editable,
        "scrollable": on("scrollable") or any(c in short for c in SCROLLING),
        "actionable": on("clickable") or on("long-clickable") or on("checkable") or editable,
    }


def actual(node: Node) -> dict[str, Any]:
    return {
        "role": node.role,
        "tag": node.tag_name,
        "label": node.label,
        "id": node.test_id,
        "rect": node.rect,
        "enabled": node.enabled,
        "checked": node.checked,
        "selected": node.selected,
        "focused": node.focused,
        "editable": node.editable,
        "scrollable": node.scrollable,
        "actionable": node.actionable,
    }


def paired(sources: list[Any], tree: Capture) -> list[tuple[Node, Any]]:
    """Each kept tree node with the dump node it came from: pruning lifts, never reorders, so the
    kept nodes are a subsequence of the dump's nodes in document order."""
    pairs, at = [], 0
    for kept in tree.nodes[1:]:  # [0] is the document
        while (want := expected(sources[at])) and [want[k] for k in KEY] != [actual(kept)[k] for k in KEY]:
            at += 1
        pairs.append((kept, sources[at]))
        at += 1
    return pairs


def test_there_are_ten_real_dumps_and_compose_is_among_them() -> None:
    assert len(REAL) >= 10
    assert all("androidx.compose.ui.platform.ComposeView" in read(d) for d in COMPOSE) and len(COMPOSE) >= 4


@pytest.mark.parametrize("name", REAL)
def test_every_kept_node_carries_agent_devices_fields_from_its_dump_node(name: str) -> None:
    text = read(name)
    tree = parse_dump(text, generation=1)
    pairs = paired(source_nodes(text), tree)
    assert pairs, name
    for kept, src in pairs:
        assert actual(kept) == expected(src), (name, src.get("bounds"))


@pytest.mark.parametrize("name", REAL)
def test_nothing_a_person_can_name_or_act_on_is_pruned(name: str) -> None:
    text = read(name)
    sources = source_nodes(text)
    kept = {id(src) for _, src in paired(sources, parse_dump(text, generation=1))}
    for src in sources:
        want = expected(src)
        if want["label"] or want["id"] and "layout" not in want["role"] or want["actionable"] or want["scrollable"]:
            if want["id"] == "android:id/content":
                continue  # a layout's id says how the screen is built, not what it is
            assert id(src) in kept, (name, src.get("class"), src.get("bounds"))


@pytest.mark.parametrize("name", REAL)
def test_layout_wrappers_are_lifted(name: str) -> None:
    tree = parse_dump(read(name), generation=1)
    for kept in tree.nodes[1:]:
        named = kept.label or kept.actionable or kept.scrollable
        assert named or kept.parent_node is not None and kept.parent_node.scrollable, (name, kept.rect)


def test_a_compose_button_is_named_by_its_text_but_labelled_as_agent_device_does() -> None:
    tree = parse_dump(read("nora/window_dump.xml"), generation=1)
    load = next(n for n in tree.nodes if n.actionable and n.content == "Load Model & Start Chat")
    assert (load.role, load.label, load.hittable) == ("view", None, True)  # text on a child TextView


def test_a_disabled_compose_button_is_not_hittable() -> None:
    tree = parse_dump(read("nora/window_dump2.xml"), generation=1)
    send = next(n for n in tree.nodes if n.actionable and n.content == "Send")
    assert not send.enabled and not send.hittable


def test_a_flutter_tab_is_one_label_with_its_lines_joined_and_selected() -> None:
    tree = parse_dump(read("termux-flutter-ide/window_dump.xml"), generation=1)
    tab = next(n for n in tree.nodes if n.label == "Explorer Tab 1 of 3")
    assert tab.selected and tab.actionable and tab.role == "button"


def test_a_flutter_list_keeps_its_rows_inside_the_scrolling_region() -> None:
    tree = parse_dump(read("termux-flutter-ide/picker_dump.xml"), generation=1)
    row = next(n for n in tree.nodes if n.label == "verify_app")
    parent = row.parent_node
    assert parent is not None and parent.scrollable


def test_unnamed_flutter_buttons_are_kept_as_actionable_without_a_label() -> None:
    tree = parse_dump(read("termux-flutter-ide/window_dump.xml"), generation=1)
    unnamed = [n for n in tree.nodes if n.role == "button" and n.label is None]
    assert len(unnamed) == 2 and all(n.hittable for n in unnamed)  # NAF="true": no accessibility name


def test_a_later_version_of_the_app_has_a_smaller_screen_and_renamed_tabs() -> None:
    old = parse_dump(read("termux-flutter-ide/window_dump.xml"), generation=1)
    new = parse_dump(read("termux-flutter-ide/window_dump_2.xml"), generation=1)
    assert (old.viewport, new.viewport) == ((1080.0, 2400.0), (1080.0, 2220.0))
    assert "Search Tab 3 of 3" in {n.label for n in old.nodes}
    assert "Search Tab 2 of 2" in {n.label for n in new.nodes}


def windows_dump(app: str) -> str:
    """A ``uiautomator dump --windows`` document (windows listed top first) around a real app window:
    the status bar and the keyboard written here, the app's hierarchy as dumped."""
    hierarchy = app[app.index("<hierarchy") : app.rindex("</hierarchy>") + len("</hierarchy>")]
    status = (
        '<hierarchy rotation="0"><node index="0" text="12:30" resource-id="" class="android.widget.TextView"'
        ' package="com.android.systemui" content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,63]" />'
        "</hierarchy>"
    )
    keyboard = (
        '<hierarchy rotation="0"><node index="0" text="q" resource-id="" class="android.widget.Button"'
        ' package="com.google.android.inputmethod.latin" content-desc="" clickable="true" enabled="true"'
        ' bounds="[0,1600][108,1750]" /></hierarchy>'
    )
    win = '<window index="{}" title="" bounds="{}" active="{}" focused="{}" id="{}" layer="{}" type="{}">{}</window>'
    return (
        "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><displays><display id=\"0\">"
        + win.format(0, "[0,0][1080,63]", "false", "false", 1, 2, "TYPE_SYSTEM", status)
        + win.format(1, "[0,1500][1080,2400]", "false", "false", 3, 1, "TYPE_INPUT_METHOD", keyboard)
        + win.format(2, "[0,0][1080,2400]", "true", "true", 2, 0, "TYPE_APPLICATION", hierarchy)
        + "</display></displays>"
    )


def test_a_windows_dump_shows_the_focused_window_only() -> None:
    app = read("nora/window_dump2.xml")
    tree = parse_dump(windows_dump(app) + "\nUI hierchary dumped to: /dev/tty\n", generation=1)
    assert [actual(n) for n in tree.nodes[1:]] == [actual(n) for n in parse_dump(app, generation=1).nodes[1:]]
    assert not {"12:30", "q"} & {n.label for n in tree.nodes}


def test_a_dump_with_a_node_per_window_drops_the_system_ui() -> None:
    app = read("termux-flutter-ide/drawer_dump.xml")
    status = (
        '<node index="0" text="12:30" resource-id="" class="android.widget.TextView" package="com.android.systemui"'
        ' content-desc="" clickable="false" enabled="true" bounds="[0,0][1080,63]" />'
    )
    both = app.replace('<hierarchy rotation="0">', '<hierarchy rotation="0">' + status, 1)
    tree = parse_dump(both, generation=1)
    assert "12:30" not in {n.label for n in tree.nodes}
    assert len(tree.nodes) == len(parse_dump(app, generation=1).nodes)


def test_the_focused_key_selects_the_field_that_has_the_focus() -> None:
    from replay.script.selector import parse_selector
    from replay.tree.match import match_set

    focused = parse_dump(read("nora/ui.xml"), generation=1)  # the message field has the focus
    unfocused = parse_dump(read("nora/window_dump2.xml"), generation=1)  # the same field, without it
    wanted = parse_selector("role=edittext focused")
    assert [n.role for n in match_set(focused, wanted)[1]] == ["edittext"]
    assert match_set(unfocused, wanted)[1] == []
    assert [n.role for n in match_set(unfocused, parse_selector("role=edittext focused=false"))[1]] == ["edittext"]
