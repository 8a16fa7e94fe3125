from __future__ import annotations

import pytest

from replay.errors import InvalidArgs, UnresolvedVariable
from replay.script.variables import (
    Literal,
    Reference,
    check_env_key,
    effective_values,
    parse_cli_assignment,
    parse_template,
    resolve,
)


def test_reference_and_default_are_parsed() -> None:
    assert parse_template("a${X}b${Y:-d e}") == (Literal("a"), Reference("X"), Literal("b"), Reference("Y", "d e"))


def test_backslash_dollar_brace_is_a_literal() -> None:
    assert resolve(r"\${X}", {"X": "no"}) == "${X}"


def test_default_is_used_only_when_unset() -> None:
    assert resolve("${X:-dflt}", {}) == "dflt"
    assert resolve("${X:-dflt}", {"X": "set"}) == "set"


def test_unresolved_variable_names_the_variable_and_location() -> None:
    from replay.errors import Location

    with pytest.raises(UnresolvedVariable) as exc:
        resolve("${MISSING}", {}, Location("f.ad", 4))
    assert "MISSING" in exc.value.message and str(exc.value.location) == "f.ad:4"


def test_unterminated_reference_is_invalid_args() -> None:
    with pytest.raises(InvalidArgs, match="unterminated"):
        parse_template("${X")


def test_substitution_never_splits_an_argument() -> None:
    assert resolve("${V}", {"V": 'a b "c"'}) == 'a b "c"'


@pytest.mark.parametrize("key", ["lower", "1ABC", "A-B", ""])
def test_env_key_must_match_upper_snake(key: str) -> None:
    with pytest.raises(InvalidArgs, match="invalid variable key"):
        check_env_key(key)


@pytest.mark.parametrize("key", ["REPLAY_X", "AD_X"])
def test_reserved_prefixes_are_refused(key: str) -> None:
    with pytest.raises(InvalidArgs, match="reserved"):
        check_env_key(key)


def test_precedence_is_cli_then_shell_then_script_then_builtins() -> None:
    values = effective_values(
        script_env={"A": "script", "B": "script", "C": "script"},
        builtins={"REPLAY_PLATFORM": "web", "D": "builtin"},
        shell={"REPLAY_VAR_A": "shell", "REPLAY_VAR_B": "shell", "A": "ignored-plain-shell-var"},
        cli={"A": "cli"},
    )
    assert values["A"] == "cli"
    assert values["B"] == "shell"
    assert values["C"] == "script"
    assert values["REPLAY_PLATFORM"] == "web"


def test_cli_assignment_needs_an_equals_sign() -> None:
    with pytest.raises(InvalidArgs):
        parse_cli_assignment("NOVALUE")
    assert parse_cli_assignment("EMAIL=a=b") == ("EMAIL", "a=b")
