"""The recorder for people (SPEC §16): the rules it writes by, without a browser."""

from __future__ import annotations

from replay.session.by_hand import variable_name


def test_a_secret_fields_variable_is_named_from_its_label_and_never_twice() -> None:
    assert variable_name("Password", set()) == "PASSWORD"
    assert variable_name("One-time code", set()) == "ONE_TIME_CODE"
    assert variable_name("", set()) == "PASSWORD"
    assert variable_name("Password", {"PASSWORD"}) == "PASSWORD_2"
    assert variable_name("2FA pin", set()) == "V_2FA_PIN"
