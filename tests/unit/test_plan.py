from __future__ import annotations

from pathlib import Path

import pytest

from replay.errors import ScriptErrors, UnsupportedCommand, UnsupportedPlatform
from replay.script import build_plan, parse
from replay.script.resolve import resolve_action, unresolved, variables_for
from replay.script.selector import format_selector

BASE = """context platform=web
env EMAIL="ada@example.com"
open http://127.0.0.1/index.html
# replay:target-v1 {"role":"button","label":"Go","verification":"verified"}
click role=button label="Go"
fill "label=\\"Email\\"" "${EMAIL}"
close
"""


def digest(text: str, platform: str | None = None, path: str = "flow.ad") -> str:
    return build_plan(parse(text, path), platform).digest


def test_steps_are_numbered_from_one_and_skip_non_actions() -> None:
    plan = build_plan(parse(BASE, "flow.ad"))
    assert [(s.index, s.action.command, s.action.line) for s in plan.steps] == [
        (1, "open", 3),
        (2, "click", 5),
        (3, "fill", 6),
        (4, "close", 7),
    ]


def test_digest_is_stable_across_parses() -> None:
    assert digest(BASE) == digest(BASE)
    assert len(digest(BASE)) == 64


def test_digest_changes_when_a_step_changes() -> None:
    assert digest(BASE) != digest(BASE.replace('label="Go"', 'label="Go!"'))


def test_digest_changes_when_an_annotation_changes() -> None:
    assert digest(BASE) != digest(BASE.replace('"label":"Go"', '"label":"Stop"'))


def test_digest_changes_when_the_platform_changes() -> None:
    assert digest(BASE, "web") != digest(BASE, "android")


def test_digest_changes_when_the_source_path_changes() -> None:
    assert digest(BASE, path="a.ad") != digest(BASE, path="b.ad")


def test_digest_ignores_variable_values() -> None:
    assert digest(BASE) == digest(BASE.replace("ada@example.com", "grace@example.com"))


def test_digest_ignores_comment_text_edited_in_place() -> None:
    text = "# one\n" + BASE
    assert digest(text) == digest(text.replace("# one", "# two, longer comment"))


def test_digest_covers_source_lines() -> None:
    assert digest(BASE) != digest("\n" + BASE)


def test_unsupported_command_is_rejected_at_plan_time_naming_file_and_line() -> None:
    script = parse("open http://x\nkeyboard dismiss\n", "flow.ad")  # parses fine
    with pytest.raises(ScriptErrors) as exc:
        build_plan(script, "web")
    err = exc.value.errors[0]
    assert isinstance(err, UnsupportedCommand)
    assert str(err.location) == "flow.ad:2"


def test_every_unsupported_step_is_reported() -> None:
    script = parse("home\nback\nswipe 1 2 3 4\n", "flow.ad")
    with pytest.raises(ScriptErrors) as exc:
        build_plan(script, "web")
    assert [e.location.line for e in exc.value.errors if e.location] == [1, 3]
    with pytest.raises(ScriptErrors) as exc:  # and a web page's dialog on a device
        build_plan(parse("context platform=android\nopen com.example.app\nalert accept\n", "flow.ad"))
    assert [str(e.location) for e in exc.value.errors] == ["flow.ad:3"]


def test_a_command_parsed_for_compatibility_but_never_performed_is_refused_before_step_one() -> None:
    script = parse("context platform=android\nopen com.example.app\npinch 2\nrotate 90\n", "flow.ad")
    with pytest.raises(ScriptErrors) as exc:
        build_plan(script)
    assert [(e.code, str(e.location)) for e in exc.value.errors] == [
        ("UNSUPPORTED_COMMAND", "flow.ad:3"),
        ("UNSUPPORTED_COMMAND", "flow.ad:4"),
    ]
    assert "agent-device's; this tool does not perform it" in exc.value.errors[0].message


def test_android_only_flag_is_unsupported_on_web() -> None:
    with pytest.raises(ScriptErrors) as exc:
        build_plan(parse('open app --launch-url "x://y"\n', "f.ad"), "web")
    assert isinstance(exc.value.errors[0], UnsupportedCommand)


def test_unknown_platform_is_rejected_at_plan_time() -> None:
    with pytest.raises(ScriptErrors) as exc:
        build_plan(parse("context platform=ios\nback\n", "f.ad"))
    assert isinstance(exc.value.errors[0], UnsupportedPlatform)


def test_platform_defaults_to_web_and_cli_overrides_context() -> None:
    script = parse("context platform=android\nback\n", "f.ad")
    assert build_plan(script).platform == "android"
    assert build_plan(script, "web").platform == "web"
    assert build_plan(parse("back\n", "f.ad")).platform == "web"


def test_variables_resolve_late_inside_one_argument() -> None:
    script = parse(BASE, "flow.ad")
    values = variables_for(script, platform="web", shell={}, cli={"EMAIL": "a b@example.com"})
    fill = resolve_action(script.actions[2], values, "flow.ad")
    assert fill.param("text") == "a b@example.com"


def test_variables_resolve_inside_selector_values() -> None:
    script = parse('click label="${WHO} order"\n', "f.ad")
    action = resolve_action(script.actions[0], {"WHO": 'My "big"'}, "f.ad")
    assert str(action.target.selector) == 'label="My \\"big\\" order"'  # type: ignore[union-attr]


def test_unresolved_variables_are_reported_with_file_and_line() -> None:
    script = parse("back\ntype ${NOPE}\n", "f.ad")
    errors = unresolved(script, variables_for(script, platform="web", shell={}))
    assert len(errors) == 1 and str(errors[0].location) == "f.ad:2"


def test_builtin_variables_are_available() -> None:
    script = parse('type "${REPLAY_PLATFORM}/${REPLAY_SESSION}/${REPLAY_FILENAME}"\n', "f.ad")
    values = variables_for(script, platform="web", session="s1", shell={})
    assert resolve_action(script.actions[0], values, "f.ad").param("text") == "web/s1/f.ad"


def test_shell_replay_var_overrides_script_env() -> None:
    script = parse(BASE, "flow.ad")
    values = variables_for(script, platform="web", shell={"REPLAY_VAR_EMAIL": "shell@example.com"})
    assert values["EMAIL"] == "shell@example.com"


def _counting_parse(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    import replay.script.parser as parser

    calls: list[str] = []
    real = parser.parse

    def counting(text: str, path: str) -> object:
        calls.append(path)
        return real(text, path)

    monkeypatch.setattr(parser, "parse", counting)
    return calls


def test_a_run_of_an_unchanged_script_reuses_its_plan(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.session.requests import make
    from replay.session.run_request import load_plan

    calls = _counting_parse(monkeypatch)
    flow = tmp_path / "cached.ad"
    flow.write_text(BASE)
    first = load_plan(make("run", {"path": str(flow)}))
    again = load_plan(make("run", {"path": str(flow)}))
    assert calls == [str(flow)] and again[1] is first[1]


def test_a_run_of_an_edited_script_plans_its_new_text(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from replay.session.requests import make
    from replay.session.run_request import load_plan

    calls = _counting_parse(monkeypatch)
    flow = tmp_path / "edited.ad"
    flow.write_text(BASE)
    before = load_plan(make("run", {"path": str(flow)}))[1]
    flow.write_text(BASE.replace('label="Go"', 'label="Go on"'))
    after = load_plan(make("run", {"path": str(flow)}))[1]
    assert len(calls) == 2 and before.digest != after.digest
    target = after.steps[1].action.target
    assert target is not None and target.selector is not None
    assert format_selector(target.selector) == 'role=button label="Go on"'


def test_a_drag_must_be_followed_by_its_drop_and_a_drop_must_follow_a_drag() -> None:
    script = parse(
        'open http://x\ndrag text="A"\nclick text="B"\ndrop text="C"\ndrag text="D"\ndrop text="E"\n', "f.ad"
    )
    with pytest.raises(ScriptErrors) as exc:
        build_plan(script, "web")
    assert [(e.code, str(e.location)) for e in exc.value.errors] == [
        ("INVALID_ARGS", "f.ad:2"),
        ("INVALID_ARGS", "f.ad:4"),
    ]
