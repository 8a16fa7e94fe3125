"""A uiautomator dump as the tree (SPEC §9): agent-device's mapping, field by field, and the pruning.

The dump below is written here in the stock format (``uiautomator dump`` of a login screen); real
public dumps join it with the Android backend (fixtures/android/README.md says where each is from).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from replay.cli.offline import snapshot_dump
from replay.drivers.android.uix import PASSWORD_MASK, bounds_of, dump_xml, parse_dump, role_of
from replay.errors import FileNotFound, InvalidArgs
from replay.tree.model import Capture, Node

FLAGS = {
    "checkable": "false",
    "checked": "false",
    "clickable": "false",
    "enabled": "true",
    "focusable": "false",
    "focused": "false",
    "scrollable": "false",
    "long-clickable": "false",
    "password": "false",
    "selected": "false",
}


def node(klass: str, bounds: str, children: str = "", **attrs: str) -> str:
    """One ``<node>`` with every attribute a stock dump writes, in its order."""
    fields = {"index": "0", "text": "", "resource-id": "", "class": klass, "package": "com.example.shop"}
    fields |= {"content-desc": "", **FLAGS}
    fields |= {k.replace("_", "-"): v for k, v in attrs.items()}
    own = " ".join(f'{k}="{v}"' for k, v in fields.items())
    return f'<node {own} bounds="{bounds}">{children}</node>'


LOGIN = (
    "<?xml version='1.0' encoding='UTF-8' standalone='yes' ?><hierarchy rotation=\"0\">"
    + node(
        "android.widget.FrameLayout",
        "[0,0][1080,2400]",
        node(
            "android.widget.LinearLayout",
            "[0,88][1080,2284]",
            node("android.widget.TextView", "[40,120][600,200]", text="Sign in", resource_id="com.example.shop:id/t")
            + node(
                "android.widget.EditText",
                "[40,300][1040,420]",
                text="ada@example.com",
                resource_id="com.example.shop:id/email",
                clickable="true",
                focusable="true",
                focused="true",
                hint="Email",
            )
            + node(
                "android.widget.EditText",
                "[40,460][1040,580]",
                text="hunter22",
                resource_id="com.example.shop:id/password",
                clickable="true",
                password="true",
            )
            + node("android.widget.CheckBox", "[40,620][600,700]", text="Remember me", checkable="true", checked="true")
            + node(
                "android.widget.LinearLayout",
                "[40,760][1040,880]",
                node("android.widget.Button", "[40,760][1040,880]", text="Sign in", clickable="true"),
            )
            + node("android.widget.ImageButton", "[960,100][1040,180]", content_desc="Help", clickable="true")
            + node("android.widget.Button", "[40,3000][1040,3100]", text="Below the fold", clickable="true")
            + node("android.widget.Button", "[40,900][1040,1000]", text="Disabled", clickable="true", enabled="false"),
        ),
    )
    + "</hierarchy>"
    + "\nUI hierchary dumped to: /dev/tty\n"  # (sic) what a dump to /dev/tty prints after the XML
)


@pytest.fixture(scope="module")
def tree() -> Capture:
    return parse_dump(LOGIN, generation=4)


def by_label(tree: Capture, label: str, role: str | None = None) -> Node:
    return next(n for n in tree.nodes if n.label == label and (role is None or n.role == role))


def test_the_role_is_the_lower_cased_last_segment_of_the_class() -> None:
    assert [role_of(c) for c in ("android.widget.Button", "android.widget.EditText", "TextView", "")] == [
        "button",
        "edittext",
        "textview",
        "generic",
    ]


def test_bounds_are_device_pixels_as_x_y_width_height() -> None:
    assert bounds_of("[40,300][1040,420]") == (40.0, 300.0, 1000.0, 120.0)
    assert bounds_of("garbage") == (0.0, 0.0, 0.0, 0.0)


def test_the_xml_is_cut_from_what_a_dump_to_the_terminal_prints() -> None:
    assert dump_xml(LOGIN).endswith("</hierarchy>") and dump_xml(LOGIN).startswith("<?xml")


def test_a_text_that_is_no_dump_is_invalid_args() -> None:
    with pytest.raises(InvalidArgs, match="not a uiautomator dump"):
        parse_dump("ERROR: could not get idle state.", generation=1)


def test_label_is_the_text_else_the_content_description(tree: Capture) -> None:
    assert by_label(tree, "Help").role == "imagebutton"
    assert by_label(tree, "Sign in", "button").role == "button"


def test_id_is_the_full_resource_id_and_value_the_text(tree: Capture) -> None:
    email = by_label(tree, "ada@example.com")
    assert (email.test_id, email.value, email.placeholder) == ("com.example.shop:id/email", "ada@example.com", "Email")
    assert email.tag_name == "android.widget.EditText"


def test_a_password_field_shows_neither_its_text_nor_its_length(tree: Capture) -> None:
    field = next(n for n in tree.nodes if n.test_id == "com.example.shop:id/password")
    assert field.value == PASSWORD_MASK and "hunter22" not in (field.label or "") + (field.content or "")
    assert "hunter22" not in (tree.root.get("text") or "") + "".join(n.content or "" for n in tree.nodes)


def test_flags_come_from_the_dumps_booleans(tree: Capture) -> None:
    email = by_label(tree, "ada@example.com")
    assert email.editable and email.focused and email.actionable and email.hittable and email.enabled
    remember = by_label(tree, "Remember me")
    assert remember.checked and remember.actionable
    disabled = by_label(tree, "Disabled")
    assert not disabled.enabled and not disabled.hittable
    assert not by_label(tree, "Below the fold").hittable  # its centre is off the screen


def test_layout_only_nodes_are_lifted_so_ancestry_is_stable(tree: Capture) -> None:
    button = by_label(tree, "Sign in", "button")
    assert [a.role for a in button.ancestors()] == []  # both LinearLayouts and the FrameLayout lifted
    assert {n.role for n in tree.nodes} >= {"document", "textview", "edittext", "checkbox", "button", "imagebutton"}
    assert not any("layout" in n.role for n in tree.nodes)


def test_the_screen_is_the_package_unless_the_driver_says_where(tree: Capture) -> None:
    assert tree.screen.path == "com.example.shop"
    assert parse_dump(LOGIN, generation=1, screen_path="com.example.shop/.LoginActivity").screen.path == (
        "com.example.shop/.LoginActivity"
    )
    assert tree.generation == 4 and tree.viewport == (1080.0, 2400.0)


def test_a_stored_dump_is_rendered_offline_as_the_tool_would_see_it(tmp_path: Path) -> None:
    dump = tmp_path / "window_dump.xml"
    dump.write_text(LOGIN, encoding="utf-8")
    text, payload = snapshot_dump(["--platform", "android", "--dump", str(dump), "-i"])
    assert text.splitlines()[0] == "@e0 document" and 'button "Sign in"' in text and "hunter22" not in text
    assert payload["snapshot"]["nodes"][0]["role"] == "document" and payload["dump"] == str(dump)


def test_snapshot_dump_refuses_what_it_cannot_read(tmp_path: Path) -> None:
    with pytest.raises(InvalidArgs, match="platform 'web' has none"):
        snapshot_dump(["--platform", "web", "--dump", str(tmp_path / "x.xml")])
    with pytest.raises(InvalidArgs, match="does not take '--raw'"):
        snapshot_dump(["--dump", str(tmp_path / "x.xml"), "--raw"])
    with pytest.raises(FileNotFound):
        snapshot_dump(["--dump", str(tmp_path / "missing.xml")])


def test_snapshot_dump_goes_to_click_not_to_the_daemon() -> None:
    from replay.cli.fast import parse

    assert parse(["snapshot", "--dump", "window_dump.xml"]) is None
    assert parse(["snapshot", "-i"]) == ("snapshot", ["-i"], {})
