"""A field the action filled (design §15): a date picker's day puts its date into the field it belongs
to — the field's new value is the effect, compared as it is; typed text and passwords are never facts."""

from __future__ import annotations

from replay.script.effect import Fact
from replay.tree import effects as eff
from replay.tree.model import Capture, Node

from .treebuild import N, capture

SAME = (eff.TargetState(True), eff.TargetState(True))


def picker(day: str, *, password: str = "") -> Capture:
    days = (N("generic", label=f"March {d}, 2026", text=d) for d in ("14", "15", "16"))
    return capture(
        N("main")(
            N("textbox", "Arrival", value=day, id="day"),
            N("textbox", "Secret", value=password, type="password"),
            N("generic", cls="calendar")(*days),
        )
    )


def day(taken: Capture, d: str) -> Node:
    return next(n for n in taken.nodes[1:] if n.label == f"March {d}, 2026")


def test_the_value_a_click_put_into_another_field_is_its_effect() -> None:
    before = picker("2026-03-10")
    facts = eff.observe(before, [picker("2026-03-15")], SAME, command="click", acted=day(before, "15"))
    assert facts == (Fact("changed", "textbox", "2026-03-15"),)


def test_a_filled_fields_value_holds_only_as_it_was_recorded() -> None:
    fact = Fact("changed", "textbox", "2026-03-15")
    assert eff.judge(fact, picker("2026-03-10"), picker("2026-03-15"), SAME).status == eff.HELD
    # another day has the same shape ("#-#-#"): a run generates no date a person picked, so it is not this one
    assert eff.judge(fact, picker("2026-03-10"), picker("2026-03-16"), SAME).status == eff.MISSING


def test_no_other_field_tells_what_a_fill_did() -> None:  # (what was typed, copied or derived: never a fact)
    before = picker("2026-03-10")
    assert eff.observe(before, [picker("2026-03-15")], SAME, command="fill", value="<redacted>") == ()


def test_a_password_field_that_changed_is_no_fact() -> None:
    before = picker("2026-03-10")
    after = picker("2026-03-10", password="••••••")
    assert eff.observe(before, [after], SAME, command="click", acted=day(before, "15")) == ()


def test_more_fields_changing_at_once_than_an_effect_holds_are_a_reset_and_no_fact() -> None:
    def form(value: str) -> Capture:
        return capture(N("form", "Billing")(*(N("textbox", name, value=value) for name in ("Street", "City", "Zip"))))

    assert eff.observe(form(""), [form("x")], SAME, command="click") == ()
