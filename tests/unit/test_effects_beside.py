"""The container-diff fallback (design §15): where no telling fact fits, what appeared in or went from the
target's container is the effect — a tag input's Enter added a tag — bounded like the rest."""

from __future__ import annotations

from replay.script.effect import Fact
from replay.tree import effects as eff
from replay.tree.model import Capture, Node

from .treebuild import N, capture

SAME = (eff.TargetState(True), eff.TargetState(True))


def tag_input(*tags: str, outside: tuple[str, ...] = ()) -> Capture:
    made = [N("generic", label=t)(N("generic", text=t), N("button", "remove tag")) for t in tags]
    field = N("generic", label="Labels", editable=True, focused=True, id="typing")
    return capture(
        N("main")(
            N("form", "Recipe")(N("generic", cls="tagify")(*made, field)),
            *(N("generic", text=t) for t in outside),
        )
    )


def typing_in(taken: Capture) -> Node:
    return next(n for n in taken.nodes[1:] if n.editable)


def test_what_appeared_beside_the_target_is_the_effect_where_nothing_telling_changed() -> None:
    before = tag_input()
    facts = eff.observe(before, [tag_input("sauce")], SAME, command="press", acted=typing_in(before))
    assert Fact("appeared", "generic", "sauce") in facts
    assert Fact("appeared", "button", "remove tag") in facts
    assert all(f.kind == "appeared" for f in facts)


def test_what_went_from_beside_the_target_is_the_effect_too() -> None:
    before = tag_input("salt", "sauce")  # (the last tag: the others keep their places and texts)
    facts = eff.observe(before, [tag_input("salt")], SAME, command="press", acted=typing_in(before))
    assert Fact("disappeared", "generic", "sauce") in facts


def test_a_change_past_the_targets_named_container_is_not_its_doing() -> None:
    before = tag_input("sauce")
    after = tag_input("sauce", outside=("Saved",))  # beside the form, not in it
    assert eff.observe(before, [after], SAME, command="press", acted=typing_in(before)) == ()


def test_more_changes_beside_the_target_than_an_effect_holds_are_a_rerender_and_no_fact() -> None:
    before = tag_input()
    after = tag_input("a1x", "b", "c", "d", "e")
    assert eff.observe(before, [after], SAME, command="press", acted=typing_in(before)) == ()


def test_what_appeared_beside_the_target_holds_on_replay_by_what_it_says() -> None:
    fact = Fact("appeared", "generic", "sauce")
    assert eff.judge(fact, tag_input(), tag_input("sauce"), SAME).status == eff.HELD
    assert eff.judge(fact, tag_input(), tag_input(), SAME).status == eff.MISSING
    assert eff.judge(fact, tag_input("sauce"), tag_input("sauce"), SAME).status == eff.MISSING


def test_a_telling_fact_leaves_what_changed_beside_the_target_out() -> None:
    before = tag_input()
    after = capture(
        N("main")(
            N("form", "Recipe")(N("generic", cls="tagify")(N("generic", label="sauce")(N("generic", text="sauce")))),
            N("status", text="Tag added"),
        )
    )
    assert eff.observe(before, [after], SAME, command="press", acted=typing_in(before)) == (
        Fact("appeared", "status", "Tag added"),
    )


def test_the_targets_own_name_is_no_fact_of_its_container() -> None:
    # DataTables: a sort header's aria-label says what the next click does ("… ascending" → "… descending"),
    # and its row's name is its headers' names
    def header(said: str) -> Capture:
        heads = (N("columnheader", said, text="Name"), N("columnheader", "Age", text="Age"))
        return capture(N("main")(N("table", "Staff")(N("rowgroup")(N("row", f"{said} Age")(*heads)))))

    before = header("Name: activate to sort column ascending")
    acted = next(n for n in before.nodes[1:] if n.role == "columnheader")
    after = header("Name: activate to sort column descending")
    assert eff.observe(before, [after], SAME, command="click", acted=acted) == ()
