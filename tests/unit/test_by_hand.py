"""The recorder for people (SPEC §16): the rules it writes by, without a browser."""

from __future__ import annotations

from replay.session.by_hand import variable_name


def test_a_secret_fields_variable_is_named_from_its_label_and_never_twice() -> None:
    assert variable_name("Password", set()) == "PASSWORD"
    assert variable_name("One-time code", set()) == "ONE_TIME_CODE"
    assert variable_name("", set()) == "PASSWORD"
    assert variable_name("Password", {"PASSWORD"}) == "PASSWORD_2"
    assert variable_name("2FA pin", set()) == "V_2FA_PIN"


def test_a_secret_fields_variable_is_never_a_reserved_or_built_in_name() -> None:
    from replay.keys import valid_key

    for label in ("Replay session", "AD password", "replay_var_x", "REPLAY"):
        name = variable_name(label, set())
        assert valid_key(name) and not name.startswith(("REPLAY_", "AD_")), (label, name)
    assert variable_name("Replay session", set()) == "SECRET_REPLAY_SESSION"


def test_an_echo_is_four_characters_of_a_secret_as_typed_case_folded_or_reversed() -> None:
    from replay.scrubbing import echoes

    secret = "Kp7-60ms-48213"
    assert echoes("Signed in with Kp7-…", secret)  # its first four characters
    assert echoes("KEY P7-60MS", secret)  # upper-cased
    assert echoes("Mirror 31284-sm06-7pK", secret)  # reversed
    assert not echoes("Signed in with Kp7…", secret)  # three are not an echo
    assert not echoes("Welcome ada", secret)
    assert not echoes("anything", "abc")  # a secret shorter than an echo has none


def test_two_secret_fields_of_one_label_and_two_values_are_two_variables_and_a_name_in_use_is_only_its_value() -> None:
    from replay.session.by_hand import ByHand

    rec = ByHand(None, None, None)  # type: ignore[arg-type]
    rec.in_use = {"SHOP": "acme", "PASSWORD": "first"}  # a suite's -e SHOP=acme: never typed where the page says SHOP
    assert rec.secret({"label": "Password"}, "first") == "PASSWORD"  # the suite's own value: the person says so
    assert rec.secret({"label": "Password"}, "first") == "PASSWORD"  # the same value again: the same variable
    assert rec.secret({"label": "Password"}, "second") == "PASSWORD_2"  # another field's value: its own
    assert rec.secret({"label": "SHOP"}, "x") == "SHOP_2"
    assert [e["name"] for e in rec.events] == ["PASSWORD", "PASSWORD_2", "SHOP_2"]


def test_a_recordings_names_in_use_are_the_given_the_shells_and_the_flows(tmp_path: object) -> None:
    from pathlib import Path

    from replay.session.by_hand import names_in_use
    from replay.session.requests import make

    flow = Path(str(tmp_path)) / "f.ad"
    flow.write_text('context platform=web\nenv SHOP=acme\nopen http://h/\nfill id=u "${USER}"\n')
    given = {"values": {"TOKEN": "t"}}
    request = make(
        "record", {"session": "s", "flow": str(flow), "from": 2, "options": given, "shell": {"REPLAY_VAR_PIN": "1"}}
    )
    assert names_in_use(request) == {"SHOP": None, "USER": None, "TOKEN": "t", "PIN": "1"}  # type: ignore[arg-type]
