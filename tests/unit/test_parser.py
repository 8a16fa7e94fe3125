from __future__ import annotations

import pytest

from replay.errors import InvalidArgs, Location, ReplayError, ScriptErrors
from replay.script import Action, Comment, Context, Env, Target, parse
from replay.script.parser import parse_collect
from replay.script.selector import Alternative, Selector, Term


def one(line: str) -> Action:
    actions = parse(line + "\n", "t.ad").actions
    assert len(actions) == 1
    return actions[0]


def error_of(text: str) -> ReplayError:
    _, errors = parse_collect(text, "t.ad")
    assert errors, "expected a parse error"
    return errors[0]


def loc(err: ReplayError) -> tuple[int | None, int | None]:
    assert err.location is not None
    return err.location.line, err.location.column


# comments, blanks, header, env


def test_comment_and_blank_lines_are_kept_as_items() -> None:
    script = parse("# hello\n\nback\n", "t.ad")
    assert script.items[0] == Comment(1, "# hello")
    assert [type(i).__name__ for i in script.items] == ["Comment", "Blank", "Action"]


def test_context_header_is_merged_across_lines() -> None:
    script = parse("context platform=web\ncontext timeout=9000 retries=2\nback\n", "t.ad")
    assert script.context == {"platform": "web", "timeout": "9000", "retries": "2"}
    assert script.items[1] == Context(2, (("timeout", "9000"), ("retries", "2")))


def test_context_device_may_be_quoted() -> None:
    assert parse('context platform=android device="Pixel 8"\n').context["device"] == "Pixel 8"


def test_duplicate_context_key_is_invalid_args() -> None:
    err = error_of("context platform=web\ncontext platform=web\n")
    assert "duplicate" in err.message and loc(err)[0] == 2


def test_conflicting_context_key_is_invalid_args() -> None:
    assert "conflicting" in error_of("context platform=web timeout=1 platform=android\n").message


@pytest.mark.parametrize(
    "line, message",
    [
        ("context platform=windows", "unknown platform"),
        ("context timeout=soon", "timeout"),
        ("context retries=9", "retries"),
        ("context colour=blue", "unknown context key"),
        ("context", "empty context"),
    ],
)
def test_bad_context_value_is_invalid_args(line: str, message: str) -> None:
    assert message in error_of(line + "\n").message


def test_context_after_first_action_is_invalid_args() -> None:
    err = error_of("back\ncontext platform=web\n")
    assert "before the first action" in err.message and loc(err)[0] == 2


def test_env_values_bare_and_json_quoted() -> None:
    script = parse('env A=plain\nenv B="two words \\u00e9"\nenv C=""\nback\n')
    assert script.env == {"A": "plain", "B": "two words é", "C": ""}
    assert script.items[1] == Env(2, "B", "two words é")


def test_env_after_first_action_is_invalid_args() -> None:
    assert "before the first action" in error_of("back\nenv A=1\n").message


def test_duplicate_env_key_is_invalid_args() -> None:
    assert "duplicate env key" in error_of("env A=1\nenv A=2\n").message


@pytest.mark.parametrize("line", ["env lower=1", "env REPLAY_X=1", "env AD_X=1", "env NOEQUALS", "env A=two words"])
def test_bad_env_line_is_invalid_args(line: str) -> None:
    assert isinstance(error_of(line + "\n"), InvalidArgs)


# commands


def test_click_joins_remaining_tokens_into_one_selector() -> None:
    action = one('click role=button label="Place   order" || id=x')
    assert action.target == Target(
        selector=Selector(
            (
                Alternative(terms=(Term("role", "=", "button"), Term("label", "=", "Place   order"))),
                Alternative(terms=(Term("id", "=", "x"),)),
            )
        )
    )


def test_click_on_a_json_string_token_parses_its_content_as_a_selector() -> None:
    assert one('click "label=\\"Form\\""').target == Target(
        selector=Selector((Alternative(terms=(Term("label", "=", "Form"),)),))
    )


def test_click_on_a_plain_string_is_a_bare_text_selector() -> None:
    assert one('click "Sign in"').target == Target(selector=Selector((Alternative(bare="Sign in"),)))


def test_ref_with_label_hint() -> None:
    assert one('click @e13 "Continue"').target == Target(ref="@e13", hint="Continue")


def test_fill_takes_one_target_token_then_text() -> None:
    action = one('fill id="field-name" "Ada Lovelace"')
    assert action.target == Target(selector=Selector((Alternative(terms=(Term("id", "=", "field-name"),)),)))
    assert action.param("text") == "Ada Lovelace"


def test_fill_with_an_unquoted_multiword_selector_is_refused_with_a_hint() -> None:
    err = error_of('fill role=textbox label="Email" "ada"\n')
    assert "unexpected argument" in err.message and "quote" in (err.hint or "")


@pytest.mark.parametrize(
    "line, form",
    [
        ("wait 500", "ms"),
        ('wait text "Checkout" 2000', "text"),
        ("wait absent role=dialog 100", "absent"),
        ('wait "Checkout form" 5000', "target"),
        ('wait "text"', "target"),
        ("press Enter", "key"),
        ("press Control+Shift+A", "key"),
        ("press @e3", "target"),
        ('press "Submit"', "target"),
        ("press 300 500", "point"),
        ("scroll down 0.6", "direction"),
        ("scroll up", "direction"),
        ('scroll role=region label="Reviews"', "target"),
        ('is text id=total "12.00"', "text"),
        ('is visible role=button label="Sign out"', "state"),
        ("get attrs @e5", "read"),
        ('find label "Wi-Fi" click', "act"),
        ('find "Sign in"', "read"),
        ('find text "No results" exists', "read"),
    ],
)
def test_form_is_chosen_from_the_arguments(line: str, form: str) -> None:
    assert one(line).form == form


def test_flags_are_parsed_with_values() -> None:
    action = one('snapshot -i -s "Cart panel" --record')
    assert action.flags == (("-i", True), ("-s", "Cart panel"), ("--record", True))


def test_record_and_no_record_are_mutually_exclusive() -> None:
    assert "mutually exclusive" in error_of("click @e1 --record --no-record\n").message


def test_unknown_flag_is_invalid_args() -> None:
    err = error_of("open http://x --fast\n")
    assert "unknown flag --fast" in err.message and loc(err) == (1, 15)


def test_unknown_command_suggests_a_close_name() -> None:
    err = error_of("clik @e1\n")
    assert "unknown command" in err.message and "click" in (err.hint or "")


def test_missing_argument_is_invalid_args_with_usage() -> None:
    err = error_of("fill @e1\n")
    assert "missing text" in err.message and "usage: fill TARGET TEXT" in (err.hint or "")


def test_extra_argument_is_invalid_args() -> None:
    assert "unexpected argument" in error_of("back now\n").message


def test_non_numeric_wait_is_invalid_args() -> None:
    assert "whole number" in error_of('wait text "x" soon\n').message


def test_bad_key_is_invalid_args() -> None:
    assert "not a key" in error_of("press enter\n").message


def test_invalid_ref_is_invalid_args() -> None:
    assert "invalid ref" in error_of("fill @x1 hi\n").message


def test_unterminated_quote_reports_line_and_column() -> None:
    err = error_of('back\nfill @e1 "abc\n')
    assert isinstance(err, InvalidArgs) and loc(err) == (2, 10)


def test_a_selector_in_a_flag_is_checked_when_the_script_is_read() -> None:
    err = error_of('scroll down --until "|| label=Go"\n')
    assert isinstance(err, InvalidArgs) and loc(err)[0] == 1


def test_foreign_agent_device_commands_parse() -> None:
    action = one("pinch 2 --x 10")
    assert action.command == "pinch" and action.param("args") == ("2", "--x", "10")


def test_variables_in_arguments_are_validated_at_parse_time() -> None:
    assert "unterminated variable" in error_of('fill @e1 "${X"\n').message


# annotations


ANN = '# replay:target-v1 {"role":"button","label":"Go","verification":"verified"}'


def test_annotation_binds_to_the_next_physical_line() -> None:
    script = parse(f"{ANN}\nclick role=button\n")
    assert script.actions[0].annotation is not None
    assert script.actions[0].annotation.label == "Go"


def test_agent_device_annotation_prefix_binds_too() -> None:
    text = ANN.replace("replay:", "agent-device:") + "\nclick role=button\n"
    assert parse(text).actions[0].annotation is not None


def test_blank_line_between_annotation_and_action_is_invalid_args() -> None:
    err = error_of(f"{ANN}\n\nclick role=button\n")
    assert "immediately followed" in err.message and loc(err)[0] == 1


def test_comment_between_annotation_and_action_is_invalid_args() -> None:
    assert "immediately followed" in error_of(f"{ANN}\n# note\nclick role=button\n").message


def test_annotation_before_a_non_element_action_is_invalid_args() -> None:
    assert "targets no element" in error_of(f"{ANN}\nback\n").message


def test_annotation_at_end_of_file_is_invalid_args() -> None:
    assert "binds to nothing" in error_of(f"back\n{ANN}\n").message


def test_malformed_annotation_json_is_invalid_args_at_its_line() -> None:
    err = error_of("back\n# replay:target-v1 {oops\nclick @e1\n")
    assert "malformed JSON" in err.message and loc(err)[0] == 2


def test_every_bad_line_is_reported() -> None:
    _, errors = parse_collect("clik\nback\nfill @e1\nwait text\n", "t.ad")
    assert [e.location.line for e in errors if e.location] == [1, 3, 4]


def test_parse_raises_script_errors_with_the_first_error_as_its_message() -> None:
    with pytest.raises(ScriptErrors) as exc:
        parse("back\nclik\n", "t.ad")
    assert exc.value.location == Location("t.ad", 2, 1)
    assert exc.value.exit_code == 2


def test_crlf_line_endings_and_bom_are_accepted() -> None:
    assert len(parse("\ufeffback\r\nforward\r\n").actions) == 2


def test_agent_devices_alert_forms_parse_and_accept_takes_a_prompts_answer() -> None:
    lines = ("alert", "alert get", "alert wait 3000", "alert accept", "alert dismiss")
    forms = {line: one(line).form for line in lines}
    assert forms == {
        "alert": "get",
        "alert get": "get",
        "alert wait 3000": "wait",
        "alert accept": "accept",
        "alert dismiss": "dismiss",
    }
    assert one('alert accept "Ada Lovelace"').param("text") == "Ada Lovelace"
    assert isinstance(error_of("alert maybe\n"), InvalidArgs)


def test_a_flag_with_choices_takes_only_them() -> None:
    assert one('click "Grace" --button right').flag("--button") == "right"
    err = error_of('click "Grace" --button side\n')
    assert isinstance(err, InvalidArgs) and "left, right, middle" in err.message


@pytest.mark.parametrize("line", ["tab -1", "tab 0", "tab close x", 'tab "2"'])
def test_a_tabs_number_is_a_whole_number_and_never_said_to_be_milliseconds(line: str) -> None:
    with pytest.raises(ScriptErrors) as err:
        parse(f"{line}\n", "f.ad")
    assert "must be a whole number from 1" in err.value.message and "milliseconds" not in err.value.message
