"""The recorder for people (SPEC §16): the rules it writes by, without a browser."""

from __future__ import annotations

from replay.session.by_hand import positional, variable_name


def test_a_secret_fields_variable_is_named_from_its_label_and_never_twice() -> None:
    assert variable_name("Password", set()) == "PASSWORD"
    assert variable_name("One-time code", set()) == "ONE_TIME_CODE"
    assert variable_name("", set()) == "PASSWORD"
    assert variable_name("Password", {"PASSWORD"}) == "PASSWORD_2"
    assert variable_name("2FA pin", set()) == "V_2FA_PIN"


def test_a_step_is_positional_only_when_every_alternative_picks_by_position() -> None:
    assert positional('id="todo-list" >> role=checkbox nth=1') == "1"
    assert positional('id="save" || role=button label="Save" nth=2') is None  # its id singles it out
    assert positional('role=listitem has-text="milk" >> role=checkbox') is None
    assert positional(None) is None
