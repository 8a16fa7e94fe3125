from __future__ import annotations

import pytest

from replay.errors import InvalidArgs
from replay.script.selector import Alternative, Selector, Term, format_selector, parse_selector


def test_alternatives_are_separated_by_double_bar_and_terms_are_anded() -> None:
    sel = parse_selector('id="place-order" || role=button label="Place order"')
    assert sel == Selector(
        (
            Alternative(terms=(Term("id", "=", "place-order"),)),
            Alternative(terms=(Term("role", "=", "button"), Term("label", "=", "Place order"))),
        )
    )


def test_bare_boolean_key_means_true() -> None:
    assert parse_selector("role=button visible").alternatives[0].terms[1] == Term("visible", "=", True)


def test_boolean_key_accepts_false() -> None:
    assert parse_selector("role=button enabled=false").alternatives[0].terms[1] == Term("enabled", "=", False)


def test_single_quoted_values_take_json_style_escapes() -> None:
    assert parse_selector(r"label='It\'s \"x\" \u00e9'").alternatives[0].terms[0].value == 'It\'s "x" é'


def test_regex_operator_is_parsed() -> None:
    assert parse_selector('label~="^Place"').alternatives[0].terms[0] == Term("label", "~=", "^Place")


def test_quoted_string_is_a_bare_text_selector() -> None:
    sel = parse_selector('"Sign in"')
    assert sel.alternatives == (Alternative(bare="Sign in"),)
    assert sel.expanded() == (((Term("label", "=", "Sign in"),),), ((Term("text", "=", "Sign in"),),))


def test_unquoted_words_are_a_bare_text_selector() -> None:
    assert parse_selector("Sign   in").alternatives == (Alternative(bare="Sign in"),)


@pytest.mark.parametrize(
    "text, message",
    [
        ("foo=bar", "unknown selector key"),
        ('label=""', "empty value"),
        ("label=", "empty value"),
        ("|| id=x", "empty"),
        ("id=x ||", "empty alternative"),
        ("id=x || || id=y", "empty alternative"),
        ("", "empty selector"),
        ('label="abc', "unterminated"),
        ("visible=maybe", "boolean key"),
        ('label~="("', "regular expression"),
        ("role=button role=link", "repeated"),
        ('"Sign in" role=button', "cannot be combined"),
        ("role=button label", "needs a value"),
        ('label="a\\q"', "invalid escape"),
        ('label="${oops"', "unterminated variable"),
    ],
)
def test_malformed_selector_is_invalid_args(text: str, message: str) -> None:
    with pytest.raises(InvalidArgs, match=message):
        parse_selector(text)


def test_selector_error_points_at_the_column_of_the_bad_term() -> None:
    with pytest.raises(InvalidArgs) as exc:
        parse_selector("role=button foo=1", base_column=7)
    assert exc.value.location is not None and exc.value.location.column == 7 + 12


def test_format_is_canonical_and_parses_back_equal() -> None:
    sel = parse_selector("role='button'   label=\"Place order\" visible || 'Sign in' || enabled=false")
    text = format_selector(sel)
    assert text == 'role=button label="Place order" visible || "Sign in" || enabled=false'
    assert parse_selector(text) == sel


# scoped selectors, has-text and nth (SPEC §4)


def test_a_chain_scopes_each_link_inside_the_previous_one() -> None:
    sel = parse_selector('role=listitem has-text="Bob" >> role=button label="Delete"')
    (alt,) = sel.alternatives
    assert alt.scope == (Alternative(terms=(Term("role", "=", "listitem"), Term("has-text", "=", "Bob"))),)
    assert alt.terms == (Term("role", "=", "button"), Term("label", "=", "Delete"))


def test_double_bar_binds_looser_than_the_chain() -> None:
    sel = parse_selector('role=row >> "Edit" || id=edit')
    assert len(sel.alternatives) == 2 and sel.alternatives[0].scope and not sel.alternatives[1].scope
    assert format_selector(sel) == 'role=row >> "Edit" || id="edit"'


def test_a_bare_text_link_stops_at_the_chain() -> None:
    (alt,) = parse_selector("Bob >> Delete").alternatives
    assert alt.scope == (Alternative(bare="Bob"),) and alt.bare == "Delete"


def test_nth_is_an_integer_and_may_count_from_the_end() -> None:
    assert parse_selector("role=checkbox nth=-1").alternatives[0].terms[1] == Term("nth", "=", "-1")
    assert format_selector(parse_selector("role=checkbox nth=02")) == "role=checkbox nth=2"


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("role=button >>", "empty link"),
        (">> role=button", "empty link"),
        ("role=row >> >> role=button", "empty link"),
        ("role=checkbox nth=first", "nth takes an integer"),
        ('has-text~="B.b"', "has-text takes ="),
    ],
)
def test_malformed_scoped_selector_is_invalid_args(text: str, message: str) -> None:
    with pytest.raises(InvalidArgs, match=message):
        parse_selector(text)


def test_a_bad_link_error_names_its_column() -> None:
    with pytest.raises(InvalidArgs) as exc:
        parse_selector("role=row >> role=button nth=x")
    assert exc.value.location is not None and exc.value.location.column == 29
