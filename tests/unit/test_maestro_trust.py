"""`replay import` trusts no value of the YAML (issue 32 §4, §5): every value is quoted or
shape-checked, so none becomes another command; the written script reads back and plans before it
is published, an error said at the YAML line; bounded in what it writes and what it reads."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from replay.errors import InvalidArgs, ScriptErrors
from replay.formats.maestro.importer import import_flow
from replay.formats.maestro.yaml_safe import MAX_DEPTH, load_documents
from replay.script import parse

APP = "appId: com.example.app"


def refused(flow: str, path: str = "flow.yaml") -> list[tuple[int | None, str]]:
    with pytest.raises(ScriptErrors) as err:
        import_flow(path, flow)
    return [(e.location.line if e.location else None, e.message) for e in err.value.errors]


HOSTILE = [
    ("appId in the config", 'appId: "com.example.app\\nopen http://evil.example/"\n---\n- launchApp\n'),
    ("appId in launchApp", f'{APP}\n---\n- launchApp:\n    appId: "x.y --clear-state"\n'),
    ("a shell word in appId", f'{APP}\n---\n- launchApp: "com.example.app;touch X"\n'),
    ("openLink", f'{APP}\n---\n- openLink: "myapp://x\\nopen http://evil.example/"\n'),
    ("swipe duration", f'{APP}\n---\n- swipe:\n    direction: UP\n    duration: "400\\nopen http://evil.example/"\n'),
    ("tags", f'{APP}\ntags:\n  - "nightly\\nopen http://evil.example/"\n---\n- back\n'),
    ("name", f'{APP}\nname: "n\\nopen http://evil.example/"\n---\n- back\n'),
]


@pytest.mark.parametrize(("where", "flow"), HOSTILE, ids=[h[0] for h in HOSTILE])
def test_an_imported_value_never_becomes_another_command(where: str, flow: str) -> None:
    try:
        text = import_flow("flow.yaml", flow)
    except ScriptErrors as err:
        assert all(e.location is not None and e.location.line for e in err.errors)
        return
    script = parse(text, "flow.ad")
    assert [a.command for a in script.actions] == ["back"]  # the one command the flow holds
    assert "evil.example" not in "\n".join(line for line in text.splitlines() if not line.startswith("#"))


def test_a_run_flows_env_value_is_a_value_wherever_it_lands() -> None:
    flow = (
        f"{APP}\n---\n- runFlow:\n    env:\n      ROW: 'milk\" id=\"delete-all'\n"
        "    commands:\n      - tapOn: ${ROW}\n      - inputText: ${ROW}\n"
    )
    script = parse(import_flow("flow.yaml", flow), "flow.ad")
    click, typed = script.actions
    target = click.param("target")
    alternatives = target.selector.alternatives  # type: ignore[attr-defined]
    assert [[(t.key, t.value) for t in a.terms] for a in alternatives] == [
        [("label", 'milk" id="delete-all')],
        [("placeholder", 'milk" id="delete-all')],
    ]
    assert typed.param("text") == 'milk" id="delete-all'


@pytest.mark.parametrize(
    ("commands", "said"),
    [
        ("- tapOn:\n    text: A\n    index: ²", "index must be a whole number"),
        ("- eraseText: ٣", "a whole number (digits 0-9)"),
        ('- repeat:\n    times: "²"\n    commands: [back]', "a whole number up to"),
        ("- tapOn:\n    point: ²,٣", "is not a point"),
        ("- tapOn: 'Save (draft'", "not a regular expression"),
        ("- tapOn:\n    id: 'row[0'", "not a regular expression"),
    ],
)
def test_what_would_not_lint_is_refused_at_its_yaml_line(commands: str, said: str) -> None:
    found = refused(f"{APP}\n---\n{commands}\n")
    assert len(found) == 1 and (found[0][0] or 0) >= 3 and said in found[0][1], found


def test_nested_child_of_is_refused_before_its_alternatives_grow() -> None:
    selector = "text: A"
    for _ in range(20):  # 2^21 alternatives if expanded
        selector = f"text: A\n    childOf:\n      {selector.replace(chr(10), chr(10) + '  ')}"
    found = refused(f"{APP}\n---\n- tapOn:\n    {selector}\n")
    assert len(found) == 1 and "more than 32 alternatives" in found[0][1]


def test_an_alias_chain_is_counted_as_the_depth_it_expands_to() -> None:
    lines = ["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 400)]
    with pytest.raises(InvalidArgs, match=f"deeper than {MAX_DEPTH} levels once its aliases are expanded"):
        load_documents("\n".join(lines), "chain.yaml")


def test_a_key_written_twice_in_one_map_is_refused() -> None:
    with pytest.raises(InvalidArgs, match="'text' is written twice") as err:
        load_documents("- tapOn:\n    text: A\n    text: B\n", "dup.yaml")
    assert err.value.location is not None and err.value.location.line == 3


def test_a_run_flow_outside_the_top_flows_folder_is_refused_unread(tmp_path: Path) -> None:
    (tmp_path / "top").mkdir()
    (tmp_path / "secret.yaml").write_text("appId: com.example.app\nenv:\n  KEY: s3cret\n---\n- inputText: ${KEY}\n")
    os.symlink(tmp_path / "secret.yaml", tmp_path / "top" / "link.yaml")
    top = tmp_path / "top" / "main.yaml"
    for name in ("../secret.yaml", str(tmp_path / "secret.yaml"), "link.yaml"):
        top.write_text(f"{APP}\n---\n- runFlow: {name}\n")
        found = refused(top.read_text(), str(top))
        assert len(found) == 1 and found[0][0] == 3 and "s3cret" not in found[0][1], found
        assert "outside the top flow's folder" in found[0][1] or "absolute path" in found[0][1]


def test_a_sub_flow_below_the_top_flows_folder_is_still_read(tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "a.yaml").write_text(f"{APP}\n---\n- runFlow: b.yaml\n")
    (tmp_path / "sub" / "b.yaml").write_text(f"{APP}\n---\n- back\n")
    top = tmp_path / "main.yaml"
    top.write_text(f"{APP}\n---\n- runFlow: sub/a.yaml\n")
    assert [a.command for a in parse(import_flow(str(top)), "m.ad").actions] == ["back"]


def test_the_written_script_is_planned_before_publishing_and_a_problem_said_at_its_yaml_line() -> None:
    found = refused("url: http://127.0.0.1/\n---\n- back\n- longPressOn:\n    point: 10,20\n")
    assert found == [(4, "the imported step would not run: `long-press` cannot be performed on web")]
