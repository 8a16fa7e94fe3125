"""What an action did (SPEC §15): the facts a recording keeps and how a replay judges them."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from replay.errors import InvalidArgs, ReplayError
from replay.script import evidence as ev_codec
from replay.script.effect import MAX_EFFECT_BYTES, Fact
from replay.tree import effects as eff

from .treebuild import N, capture

SAME = (eff.TargetState(True), eff.TargetState(True))


def shelf(
    *items: str, extra: tuple[N, ...] = (), title: str = "Pantry", url: str = "http://h/app/index.html"
) -> object:
    rows = [N("listitem", text=t)(N("generic", text=t), N("button", "Discard")) for t in items]
    return capture(
        N("main")(N("list", "Shelf")(*rows), N("status", text=f"{len(items)} items"), *extra),
        title=title,
        url=url,
        base="http://h/app/index.html",
    )


def test_an_item_that_appears_is_the_effect_and_a_counter_in_place_is_not() -> None:
    facts = eff.observe(shelf("eggs"), [shelf("eggs", "milk")], SAME, command="click")
    assert facts == (Fact("appeared", "listitem", "milk"),)  # "1 items" → "2 items" is a counter


def test_a_dialog_is_preferred_to_the_rows_beside_it() -> None:
    dialog = N("dialog", "Discard milk?")(N("button", "Keep"))
    facts = eff.observe(shelf("eggs", "milk"), [shelf("eggs", extra=(dialog,))], SAME, command="click")
    assert facts[0] == Fact("appeared", "dialog", "Discard milk?")
    assert Fact("disappeared", "listitem", "milk") in facts


def test_another_page_is_a_navigation_and_nothing_it_shows() -> None:
    after = capture(
        N("heading", "Account"), title="Account", url="http://h/app/account.html", base="http://h/app/index.html"
    )
    facts = eff.observe(shelf("eggs"), [after], (eff.TargetState(True), eff.TargetState(False)), command="click")
    assert facts == (Fact("navigated", "account.html", "Account"),)


def test_the_target_going_and_its_check_are_facts() -> None:
    gone = eff.target_facts(eff.TargetState(True), eff.TargetState(False), "click", None)
    ticked = eff.target_facts(eff.TargetState(True), eff.TargetState(True, checked=True), "check", None)
    assert gone == [Fact("target", "gone")] and ticked == [Fact("target", "checked")]


def test_a_fill_says_its_value_redacted_never_the_text() -> None:
    facts = eff.target_facts(
        eff.TargetState(True, value=""), eff.TargetState(True, value="hunter22"), "fill", "<redacted>"
    )
    assert facts == [Fact("target", "value", value="<redacted>")]


def test_a_selects_fact_says_the_value_it_holds_not_the_label_it_was_chosen_by() -> None:
    before, after = eff.TargetState(True, value=""), eff.TargetState(True, value="fr")
    (fact,) = eff.target_facts(before, after, "select", "France")
    assert fact == Fact("target", "value", value="fr")
    assert eff.judge(fact, shelf(), shelf(), (before, after)).status == eff.HELD


def test_a_toast_seen_only_while_settling_appeared() -> None:
    toast = N("alert", text="Shelf saved")
    facts = eff.observe(shelf("eggs"), [shelf("eggs", extra=(toast,)), shelf("eggs")], SAME, command="click")
    assert facts == (Fact("appeared", "alert", "Shelf saved"),)


def test_what_changed_with_no_action_is_never_an_effect() -> None:
    idle = eff.Idle()
    idle.learn(shelf("eggs", extra=(N("heading", "Delivery 1"),)), shelf("eggs", extra=(N("heading", "Delivery 2"),)))
    after = shelf("eggs", "milk", extra=(N("heading", "Delivery 3"),))
    facts = eff.observe(shelf("eggs", extra=(N("heading", "Delivery 2"),)), [after], SAME, command="click", idle=idle)
    assert facts == (Fact("appeared", "listitem", "milk"),)


def test_many_rows_at_once_are_a_count() -> None:
    facts = eff.observe(shelf(), [shelf("a", "b", "c", "d")], SAME, command="click")
    assert facts == (Fact("count", "listitem", by=4),)


def test_a_step_that_changed_nothing_has_no_effect() -> None:
    assert eff.observe(shelf("eggs"), [shelf("eggs")], SAME, command="click") == ()


def test_an_expected_appearance_holds_only_when_new() -> None:
    fact = Fact("appeared", "listitem", "milk")
    assert eff.judge(fact, shelf("eggs"), shelf("eggs", "milk"), SAME).status == eff.HELD
    assert eff.judge(fact, shelf("milk"), shelf("milk"), SAME).status == eff.MISSING


def test_the_same_text_in_another_role_is_drift() -> None:
    fact = Fact("appeared", "dialog", "Shelf saved")
    before, after = shelf("eggs"), shelf("eggs", extra=(N("alert", text="Shelf saved"),))
    judged = eff.judge(fact, before, after, SAME, shown=None)
    assert judged.status == eff.CHANGED and judged.how == "appeared as a alert"


def test_another_form_is_told_only_in_roles_both_screens_show_whole() -> None:
    fact = Fact("appeared", "dialog", "Shelf saved")
    before, after = shelf("eggs"), shelf("eggs", extra=(N("heading", "Shelf saved"),))
    assert eff.judge(fact, before, after, SAME, shown=frozenset({"alert"})).status == eff.MISSING


def test_the_same_page_with_another_title_is_drift() -> None:
    fact = Fact("navigated", "account.html", "Account")
    after = capture(title="Your account", url="http://h/app/account.html", base="http://h/app/index.html")
    assert eff.judge(fact, shelf(), after, SAME).status == eff.CHANGED


def test_a_typed_value_holds_when_the_field_holds_what_was_typed() -> None:
    fact = Fact("target", "value", value="<redacted>")
    state = (eff.TargetState(True, value=""), eff.TargetState(True, value="eggs"))
    assert eff.judge(fact, shelf(), shelf(), state, typed="eggs").status == eff.HELD
    assert eff.judge(fact, shelf(), shelf(), state, typed="milk").status == eff.MISSING


def test_effect_round_trips_through_target_v1_and_is_never_identity() -> None:
    facts = (Fact("appeared", "dialog", "Saved"), Fact("count", "row", by=-1), Fact("target", "checked"))
    payload = ev_codec.encode(ev_codec.TargetEvidence(role="button", label="Save", effect=facts))
    decoded = ev_codec.decode(payload)
    assert decoded.effect == facts
    assert decoded.identity() == ev_codec.decode(payload.replace(',"effect"', ',"x"')).identity()


def test_an_effect_is_cut_to_512_bytes_by_its_last_facts() -> None:
    facts = tuple(Fact("appeared", "listitem", "x" * 200 + str(i)) for i in range(4))
    written = json.loads(ev_codec.encode(ev_codec.TargetEvidence(role="button", label="Add", effect=facts)))
    assert len(json.dumps(written["effect"], separators=(",", ":")).encode()) <= MAX_EFFECT_BYTES
    assert len(written["effect"]) == 2


@pytest.mark.parametrize(
    "effect",
    ['{"appeared":"dialog"', '[{"target":"exploded"}]', '[{"count":"row"}]', '[{"appeared":"a","target":"gone"}]'],
)
def test_a_malformed_effect_is_invalid_args(effect: str) -> None:
    with pytest.raises(InvalidArgs, match="effect|JSON"):
        ev_codec.decode('{"role":"button","label":"Add","effect":' + effect + "}")


def test_a_text_that_differs_only_in_its_numbers_is_the_same_fact() -> None:
    fact = Fact("appeared", "alert", "Order 1234 placed")
    after = shelf(extra=(N("alert", text="Order 1299 placed"),))
    assert eff.judge(fact, shelf(), after, SAME).status == eff.HELD


REFERENCE = st.text("ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789", min_size=6, max_size=6)


@given(recorded=REFERENCE, replayed=REFERENCE, tracking=st.uuids())
def test_text_a_run_generates_is_compared_by_its_shape(recorded: str, replayed: str, tracking: Any) -> None:
    said = "Order placed, reference {}, on {}, tracking {}"
    shown = said.format(recorded, "2026-12-04T19:55", "3f2a9c1e-8b7d-4e2a-9c1f-0a1b2c3d4e5f")
    fact = Fact("appeared", "alert", shown[: eff.TEXT_CHARS].rstrip())  # as a recording keeps it
    after = shelf(extra=(N("alert", text=said.format(replayed, "2027-01-31T08:05", tracking)),))
    assert eff.judge(fact, shelf(), after, SAME).status == eff.HELD


@pytest.mark.parametrize(
    ("recorded", "replayed"),
    [("Order placed", "Order failed"), ("Saved as JSON", "Saved as YAML"), ("SAVED", "ERROR")],
)
def test_words_a_run_does_not_generate_are_compared_as_they_are(recorded: str, replayed: str) -> None:
    after = shelf(extra=(N("alert", text=replayed),))
    assert eff.judge(Fact("appeared", "alert", recorded), shelf(), after, SAME).status == eff.MISSING


ORIGINAL = """context platform=web
open http://h/app/index.html
# replay:target-v1 {"role":"button","label":"Discard","anchor":{"role":"listitem","text":"milk"},\
"verification":"verified","effect":[{"target":"gone"},{"disappeared":"listitem","text":"milk"}]}
click role=listitem has-text="milk" >> role=button label="Discard"
"""


def healed_with(label: str, effect: str) -> str:
    return (
        ORIGINAL.replace('label="Discard"', f'label="{label}"')
        .replace('"label":"Discard"', f'"label":"{label}"')
        .replace('"effect":[{"target":"gone"},{"disappeared":"listitem","text":"milk"}]', effect)
    )


def test_a_healed_step_that_still_does_what_the_original_did_keeps_its_effect() -> None:
    from replay.script import parse
    from replay.script.effect import changes

    healed = healed_with("Remove", '"effect":[{"disappeared":"listitem","text":"milk"}]')
    from replay.tree.proof import kept

    found = changes(parse(ORIGINAL, "a.ad"), parse(healed, "a.healed.ad"))
    assert len(found) == 1 and kept(found[0]).kept  # said "effect changed" in the report, published


def test_a_healed_step_that_does_something_else_loses_its_effect(tmp_path: Any) -> None:
    from replay.session.gate import effects_lost

    (tmp_path / "a.ad").write_text(ORIGINAL)
    (tmp_path / "a.rejected.ad").write_text(
        healed_with("Archive", '"effect":[{"appeared":"dialog","text":"Archived"}]')
    )
    lost = effects_lost(str(tmp_path / "a.ad"), str(tmp_path / "a.rejected.ad"))
    assert lost == [
        'line 4: effect changed: was the target gone, a listitem "milk" gone; now a dialog "Archived" to appear'
        " (none of what it did)"
    ]


def test_the_heal_report_lists_a_step_whose_effect_changed_with_typed_text_hidden(tmp_path: Any) -> None:
    from replay.heal.audit import effect_changes

    typed = ORIGINAL.replace("open http://h/app/index.html\n", 'open http://h/app/index.html\nfill id=item "milk"\n')
    (tmp_path / "a.ad").write_text(typed)
    (tmp_path / "a.healed.ad").write_text(
        healed_with("Remove", '"effect":[{"target":"gone"}]').replace(
            "open http://h/app/index.html\n", 'open http://h/app/index.html\nfill id=item "milk"\n'
        )
    )
    said = effect_changes(str(tmp_path / "a.ad"), str(tmp_path / "a.healed.ad"))
    assert said == ['line 5: effect changed: was the target gone, a listitem "<redacted>" gone; now the target gone']


def test_the_gate_rejects_a_heal_that_replays_clean_but_lost_a_steps_effect(tmp_path: Any) -> None:
    import asyncio

    from replay.session import gate

    original, final = tmp_path / "a.ad", tmp_path / "a.healed.ad"
    original.write_text(ORIGINAL)
    staged = gate.check_free(str(final))
    Path(staged).write_text(
        gate.staged_text(healed_with("Archive", '"effect":[{"appeared":"dialog","text":"Archived"}]'))
    )

    async def passes(path: str) -> dict[str, Any]:  # (as a run says it: the digest of the plan it ran)
        return {"passed": True, "steps": 2, "planDigest": gate.digest(Path(path).read_text(), path)}

    said = asyncio.run(gate.judge(staged, str(final), str(tmp_path), passes, str(original)))
    assert "rejected" in said and not final.exists()
    assert Path(staged).read_text().startswith("# replay heal: REJECTED: FAILED: line 4: effect changed")


def test_context_effects_is_on_or_off_and_anything_else_is_invalid_args_at_its_column() -> None:
    from replay.script import parse
    from replay.script.plan import build_plan

    assert not build_plan(parse("context effects=off\nopen http://h/\n", "f.ad"), None).effects
    assert build_plan(parse("open http://h/\n", "f.ad"), None).effects
    with pytest.raises(ReplayError, match=r"f\.ad:1:9: INVALID_ARGS: context effects must be on or off, got 'maybe'"):
        parse("context effects=maybe\n", "f.ad")


def test_what_happened_is_said_in_a_readers_words_with_typed_text_redacted() -> None:
    facts = (Fact("target", "value", value="<redacted>"), Fact("appeared", "dialog", "Saved"))
    assert eff.past(facts) == 'the target holds <redacted>; a dialog "Saved" appeared'
    assert eff.past(()) == "nothing changed"


def test_a_navigation_that_led_to_another_page_is_drift_and_one_that_led_nowhere_is_missing() -> None:
    fact = Fact("navigated", "dashboard.html", "Dashboard")
    notice = capture(title="Notice", url="http://h/app/notice.html", base="http://h/app/index.html")
    assert eff.judge(fact, shelf(), notice, SAME).status == eff.CHANGED
    assert eff.judge(fact, shelf(), shelf(), SAME).status == eff.MISSING


def test_what_the_target_opens_opening_or_closing_is_a_fact_of_the_target() -> None:
    shut, opened = eff.TargetState(True), eff.TargetState(True, expanded=True)
    assert eff.target_facts(shut, opened, "click", None) == [Fact("target", "expanded")]
    assert eff.target_facts(opened, shut, "click", None) == [Fact("target", "collapsed")]
    header = N("button", label="Returns", expanded=True)
    assert eff.TargetState.of(capture(header).nodes[-1]).expanded


def test_a_disclosures_panel_a_tab_panel_and_a_trees_items_appearing_are_effects() -> None:
    before = capture(N("main")(N("button", label="Returns"), N("tree")(N("treeitem", text="Fruit"))))
    after = capture(
        N("main")(
            N("button", label="Returns"),
            N("region", label="Returns"),
            N("tabpanel", label="Reviews"),
            N("tree")(N("treeitem", text="Fruit")(N("treeitem", text="Apple"))),
        )
    )
    facts = eff.observe(before, [after], SAME, command="click")
    told = {(f.kind, f.subject, f.text) for f in facts}
    assert {("appeared", "region", "Returns"), ("appeared", "tabpanel", "Reviews")} <= told
    assert any(f.subject == "treeitem" for f in facts)


def test_a_layer_over_the_page_of_any_role_appearing_is_an_effect() -> None:
    modal = N("generic", overlay=True)(N("paragraph", text="Delete Laptop?"), N("button", label="Delete"))
    facts = eff.observe(shelf("eggs"), [shelf("eggs", extra=(modal,))], SAME, command="click")  # type: ignore[arg-type]
    assert facts and facts[0].kind == "appeared" and facts[0].subject == "generic"
    assert "Delete Laptop?" in (facts[0].text or "")


def test_an_option_a_list_keeps_selected_instead_of_removing_is_the_same_effect_in_another_form() -> None:
    """Choices 9 takes a picked option out of its list; Choices 11 keeps it there, selected."""
    gone = Fact("target", "gone")
    kept = (eff.TargetState(True), eff.TargetState(True, selected=True))
    judged = eff.judge(gone, shelf(), shelf(), kept)
    assert judged.status == eff.CHANGED and judged.how == "the target stayed, selected"
    unchanged = (eff.TargetState(True), eff.TargetState(True))
    assert eff.judge(gone, shelf(), shelf(), unchanged).status == eff.MISSING


def test_a_tab_that_says_it_is_shown_by_selection_instead_of_expansion_is_the_same_effect() -> None:
    """Bootstrap 3's tab link says aria-expanded; Bootstrap 5's tab button says aria-selected."""
    became = (eff.TargetState(True), eff.TargetState(True, selected=True))
    judged = eff.judge(Fact("target", "expanded"), shelf(), shelf(), became)
    assert judged.status == eff.CHANGED and judged.how == "the target became selected"


def test_a_panel_is_told_by_its_name_or_by_what_it_shows() -> None:
    """Bootstrap 3's tab panel has no name ("Reviews pane", its text); Bootstrap 5's is named "Reviews"."""
    panel = N("tabpanel", label="Reviews")(N("paragraph", text="Reviews pane"))
    fact = Fact("appeared", "tabpanel", "Reviews pane")
    assert eff.judge(fact, shelf(), shelf(extra=(panel,)), SAME).status == eff.HELD


def test_a_layer_that_appeared_holds_when_it_shows_the_recorded_text_among_its_own() -> None:
    # Ionic 6's popover said "Small" (its first item); 8's says "Small Large" whole: the same popover
    fact = Fact("appeared", "generic", "Small")

    def popover(*said: str) -> N:  # Ionic 8's: a list of items, each a radio that holds its text
        items = (N("generic", text=t, actionable=True, tag="ion-item")(N("radio", label=t, text=t)) for t in said)
        return N("generic", text=" ".join(said), overlay=True)(N("list", text=" ".join(said))(*items))

    assert eff.judge(fact, shelf(), shelf(extra=(popover("Small", "Large"),)), SAME).status == eff.HELD
    assert eff.judge(fact, shelf(), shelf(extra=(popover("Medium", "Large"),)), SAME).status == eff.MISSING


def _calendar(month: str, clock: str = "10:01", banner: str | None = None) -> Any:
    nav = N("navigation")(N("generic"), N("generic", text=month), N("generic"))
    extra = (N("generic", text=banner),) if banner else ()
    return capture(N("main")(nav, N("generic", text=clock), *extra))


def test_a_node_in_place_whose_own_text_changed_is_a_fact_and_a_clock_is_not() -> None:
    facts = eff.observe(_calendar("June, 2026"), [_calendar("July, 2026", clock="10:02")], SAME, command="click")
    assert facts == (Fact("changed", "generic", "July, 2026"),)


def test_texts_that_change_all_at_once_are_a_re_render_not_a_fact() -> None:
    before = capture(N("main")(*(N("generic", text=f"Cell {c}") for c in "abc")))
    after = capture(N("main")(*(N("generic", text=f"Cell {c}x") for c in "abc")))
    assert eff.observe(before, [after], SAME, command="click") == ()


def test_a_text_that_changed_by_itself_is_never_a_fact() -> None:
    idle = eff.Idle()
    idle.learn(_calendar("June, 2026", banner="Sale!"), _calendar("June, 2026", banner="New!"))
    after = _calendar("July, 2026", banner="Sale!")
    facts = eff.observe(_calendar("June, 2026", banner="New!"), [after], SAME, command="click", idle=idle)
    assert facts == (Fact("changed", "generic", "July, 2026"),)


def test_a_text_that_shows_what_was_typed_is_not_a_fact() -> None:
    def form(preview: str) -> Any:
        return capture(N("main")(N("textbox", "Name", value=preview[6:]), N("generic", text=preview)))

    facts = eff.observe(form("Hello "), [form("Hello Ada")], SAME, command="fill", value="<redacted>", typed="Ada")
    assert not any(f.kind == "changed" for f in facts)


def test_places_in_a_targeted_view_are_not_the_pages() -> None:
    before, after = _calendar("June, 2026"), _calendar("July, 2026")
    before.partial = True
    assert eff.text_changes(before, after) == []


def test_a_changed_text_holds_on_replay_where_a_node_of_its_role_says_it_now() -> None:
    fact = Fact("changed", "generic", "July, 2026")
    assert eff.judge(fact, _calendar("June, 2026"), _calendar("July, 2026"), SAME).status == eff.HELD
    assert eff.judge(fact, _calendar("June, 2026"), _calendar("June, 2026"), SAME).status == eff.MISSING


def test_a_changed_fact_is_written_with_its_text_and_refused_without() -> None:
    from replay.script import effect as effect_codec

    facts = effect_codec.decode([{"changed": "generic", "text": "July, 2026"}], None)
    assert facts == (Fact("changed", "generic", "July, 2026"),) and effect_codec.encode(facts) == [
        {"changed": "generic", "text": "July, 2026"}
    ]
    with pytest.raises(InvalidArgs, match="changed"):
        effect_codec.decode([{"changed": "generic"}], None)


def test_a_text_whose_number_moved_is_a_counter_not_a_changed_text() -> None:
    # "2 items left" → "1 item left": the word follows the number (TodoMVC's footer)
    before = capture(N("main")(N("generic", text="2 items left"), N("generic", text="June, 2026")))
    after = capture(N("main")(N("generic", text="1 item left"), N("generic", text="June, 2026")))
    assert eff.text_changes(before, after) == []


def test_a_text_that_changed_because_a_node_deep_inside_it_came_is_not_a_changed_text() -> None:
    # the pantry's feed: a row comes three levels down; the main's text is cut at the capture's cap
    # (200 characters), so the row's number is cut off it and only the half word after it shows
    def page(rows: int, main_text: str) -> Any:
        items = (N("listitem", text=f"Delivery {i}") for i in range(1, rows + 1))
        feed = N("region", "Deliveries", text=" ".join(f"Delivery {i}" for i in range(1, rows + 1)))
        return capture(N("main", text=main_text)(N("generic", text="June, 2026"), feed(N("list")(*items))))

    head = "Save shelf Deliveries " + " ".join(f"Delivery {i}" for i in range(1, 15))
    assert eff.text_changes(page(14, head), page(15, head + " Deli")) == []


def test_a_changed_text_said_now_by_another_role_is_drift_not_a_missing_effect() -> None:
    # flatpickr 3 showed the month as a text, 4 as a select's chosen option
    def picker(month: str) -> Any:
        months = (N("option", text=m, selected=m == month, visible=False) for m in ("March", "April"))
        return capture(N("main")(N("combobox", "Month")(*months)))

    judged = eff.judge(Fact("changed", "generic", "April"), picker("March"), picker("April"), SAME)
    assert (judged.status, judged.how) == (eff.CHANGED, "said by a option")
    assert eff.judge(Fact("changed", "generic", "April"), picker("March"), picker("March"), SAME).status == eff.MISSING


def test_no_text_in_place_is_a_fact_once_the_target_went_with_its_screen() -> None:
    # Android: a tap whose screen moved on leaves another screen's title where the old one's was
    gone = (eff.TargetState(True), eff.TargetState(False))
    facts = eff.observe(_calendar("Sign in"), [_calendar("Orders")], gone, command="click")
    assert facts == (Fact("target", "gone"),)


def test_a_value_moved_by_keys_or_a_drag_is_the_targets_fact_but_typed_text_never_is() -> None:
    slid = eff.target_facts(eff.TargetState(True, value="50"), eff.TargetState(True, value="51"), "press", None)
    assert slid == [Fact("target", "value", value="51")]
    typed = eff.target_facts(
        eff.TargetState(True, value="sau", editable=True),
        eff.TargetState(True, value="sauce", editable=True),
        "press",
        None,
    )
    assert typed == []
