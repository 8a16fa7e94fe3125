"""parse → write → parse is equal; the writer is canonical and idempotent (SPEC §3)."""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from replay.errors import ReplayError
from replay.script import Script, format_script, parse, parse_collect
from replay.script.plan import build_plan

from .strategies import scripts

SETTINGS = settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@SETTINGS
@given(scripts())
def test_written_script_parses_back_to_an_equal_script(script: Script) -> None:
    text = format_script(script)
    back = parse(text, script.path)
    assert back.items == script.items
    assert back.context == script.context and back.env == script.env


@SETTINGS
@given(scripts())
def test_formatting_is_idempotent(script: Script) -> None:
    once = format_script(script)
    assert format_script(parse(once, "gen.ad")) == once


@SETTINGS
@given(scripts())
def test_formatting_preserves_the_plan_digest(script: Script) -> None:
    text = format_script(script)
    assert build_plan(parse(text, "gen.ad")).digest == build_plan(script).digest


@settings(max_examples=1000, deadline=None)
@given(st.text())
def test_arbitrary_text_yields_a_script_or_our_own_errors(text: str) -> None:
    script, errors = parse_collect(text, "fuzz.ad")
    assert (script is None) == bool(errors)
    assert all(isinstance(e, ReplayError) for e in errors)


LINE_STARTS = st.sampled_from(
    [
        "click ",
        "fill ",
        "wait ",
        "is ",
        "get ",
        "find ",
        "press ",
        "scroll ",
        "open ",
        "env ",
        "context ",
        "# replay:target-v1 ",
        "snapshot ",
        "select ",
        "type ",
    ]
)
ALPHABET = st.sampled_from(
    list("\"'\\ =~|@${}-:#eE1ab\t\u00e9") + ["||", "${X}", "label=", "role=button", "--record", "-s"]
)


@settings(max_examples=1500, deadline=None)
@given(st.lists(st.tuples(LINE_STARTS, st.lists(ALPHABET, max_size=12).map("".join)), max_size=6))
def test_command_shaped_noise_yields_a_script_or_our_own_errors(lines: list[tuple[str, str]]) -> None:
    text = "\n".join(a + b for a, b in lines)
    script, errors = parse_collect(text, "fuzz.ad")
    assert all(isinstance(e, ReplayError) for e in errors)
    if script is not None:
        # whatever parses must also write and parse back equal
        assert parse(format_script(script), "fuzz.ad").items == script.items


def test_coordinates_are_written_bare_and_parse_back_to_the_same_steps() -> None:
    text = (
        "context platform=android\n"
        "press 540 50%\n"
        "long-press 100 200 1500\n"
        "longpress 10% 20%\n"
        "swipe 540 1800 540 600 300\n"
    )
    written = format_script(parse(text))
    assert written.splitlines()[1:] == text.splitlines()[1:]  # as typed: bare, so press X Y stays a point
    assert parse(written) == parse(text)


def test_a_value_with_an_unclosed_quote_is_written_quoted_so_the_next_token_stays_apart() -> None:
    # hypothesis found it: `open ' \'` is two tokens, "'" and "\'"; "'" written bare read on into the next
    script = parse("open ' \\'", "fuzz.ad")
    assert parse(format_script(script), "fuzz.ad").items == script.items
