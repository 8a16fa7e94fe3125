from __future__ import annotations

import pytest

from replay.errors import InvalidArgs, Location
from replay.script.tokens import quote, tokenize

W = Location("f.ad", 3)


def texts(line: str) -> list[str]:
    return [t.text for t in tokenize(line, W)]


def test_bare_token_runs_to_next_whitespace_and_keeps_literal_quotes() -> None:
    assert texts('fill id="field-name" x') == ["fill", 'id="field-name"', "x"]


def test_token_starting_with_quote_is_a_json_string_literal() -> None:
    assert texts(r'type "a \"b\" \\ \n \u00e9"') == ["type", 'a "b" \\ \n é']


def test_quoted_token_records_that_it_was_quoted() -> None:
    toks = tokenize('wait "text" text', W)
    assert [t.quoted for t in toks] == [False, True, False]


def test_columns_are_one_based() -> None:
    toks = tokenize('  click  "Sign in"', W)
    assert [t.column for t in toks] == [3, 10]


def test_unterminated_quote_is_invalid_args_with_line_and_column() -> None:
    with pytest.raises(InvalidArgs) as exc:
        tokenize('open "http://x', W)
    assert exc.value.location == Location("f.ad", 3, 6)


def test_invalid_json_escape_is_invalid_args() -> None:
    with pytest.raises(InvalidArgs, match="escape"):
        tokenize(r'type "\q"', W)


def test_quoted_string_glued_to_text_is_invalid_args() -> None:
    with pytest.raises(InvalidArgs) as exc:
        tokenize('type "a"b', W)
    assert exc.value.location is not None and exc.value.location.column == 9


@pytest.mark.parametrize("text", ["", "a b", '"x', "-flag", "@e1", "#c", "tab\there", "back\\slash", "new\nline"])
def test_quote_produces_a_token_that_reads_back_identically(text: str) -> None:
    toks = tokenize(quote(text), W)
    assert len(toks) == 1 and toks[0].text == text
