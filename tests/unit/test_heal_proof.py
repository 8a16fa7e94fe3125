"""What a heal must keep of a step's effect (SPEC §8, §15; replay.tree.proof): the gate's proof for every
healer — drift forms count, a dismissal alone proves nothing, a state fix right after defers it."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from replay.script import parse
from replay.script.effect import Change, Fact, changes
from replay.tree.proof import kept, same

HEAD = "context platform=web\nopen http://h/app/index.html\n"


def _step(label: str, effect: str, ancestry: str = '[{"role":"dialog","label":"Cancel order?"}]') -> str:
    return (
        f'# replay:target-v1 {{"role":"button","label":"{label}","ancestry":{ancestry},'
        f'"verification":"verified","effect":{effect}}}\n'
        f'click role=dialog label="Cancel order?" >> role=button label="{label}"\n'
    )


CANCELLED = '[{"disappeared":"dialog","text":"Cancel order?"},{"changed":"paragraph","text":"Order 7 was cancelled"}]'


def test_a_dismissal_alone_does_not_keep_an_effect_when_the_step_recorded_another_fact() -> None:
    original = parse(HEAD + _step("Yes, cancel it", CANCELLED), "a.ad")
    keep_it = parse(HEAD + _step("Keep it", '[{"disappeared":"dialog","text":"Cancel order?"}]'), "b.ad")
    (change,) = changes(original, keep_it)
    assert not kept(change).kept and kept(change).note() == " (none of what it did)"


def test_a_dismissal_keeps_an_effect_when_closing_was_all_the_step_did() -> None:
    original = parse(HEAD + _step("Close", '[{"disappeared":"dialog","text":"Cancel order?"}]'), "a.ad")
    renamed = parse(HEAD + _step("Dismiss", '[{"disappeared":"dialog","text":"Cancel order?"},{"target":"gone"}]'), "b")
    (change,) = changes(original, renamed)
    assert kept(change).kept


def test_a_dismissal_of_a_container_the_target_was_not_in_is_a_telling_fact() -> None:
    outside = '[{"role":"main"}]'  # a page button that closes a panel elsewhere: what it did
    original = parse(
        HEAD + _step("Hide", '[{"disappeared":"dialog","text":"Tips"},{"changed":"status","text":"x"}]', outside), "a"
    )
    healed = parse(HEAD + _step("Close tips", '[{"disappeared":"dialog","text":"Tips"}]', outside), "b")
    (change,) = changes(original, healed)
    assert kept(change).kept


def test_an_effect_held_by_a_state_fix_step_right_after_is_deferred_not_changed() -> None:
    sign_in = _step("Sign in", '[{"navigated":"accounts.html","title":"Accounts"}]', "[]")
    original = parse(HEAD + sign_in, "a.ad")
    notice = _step("Sign in", '[{"navigated":"notice.html","title":"Notice"}]', "[]")
    ack = _step("Continue", '[{"navigated":"accounts.html","title":"Accounts"}]', "[]").replace(
        'role=dialog label="Cancel order?" >> ', ""
    )
    healed = parse(HEAD + notice + ack, "b.ad")
    (change,) = changes(original, healed)
    assert kept(change).kept and kept(change).deferred == 1
    assert kept(change).note() == " (effect deferred by 1 step)"


def test_an_effect_held_nowhere_after_a_state_fix_is_still_lost() -> None:
    original = parse(HEAD + _step("Sign in", '[{"navigated":"accounts.html"}]', "[]"), "a.ad")
    healed = parse(
        HEAD
        + _step("Sign in", '[{"navigated":"notice.html"}]', "[]")
        + _step("Back", '[{"navigated":"login.html"}]', "[]").replace('role=dialog label="Cancel order?" >> ', ""),
        "b.ad",
    )
    (change,) = changes(original, healed)
    assert not kept(change).kept


def test_a_state_fix_before_the_step_never_defers_its_effect() -> None:
    c = Change(4, (Fact("navigated", "accounts.html"),), (Fact("navigated", "notice.html"),), ())
    assert not kept(c).kept  # (only steps inserted right after the healed step are read)


def test_drifted_forms_of_a_fact_keep_it() -> None:
    assert same(Fact("navigated", "a.html", "A"), Fact("navigated", "a.html", "A (2)"))
    assert same(Fact("appeared", "dialog", "Saved"), Fact("appeared", "status", "Saved"))
    assert same(Fact("appeared", "status", "Ref K7QWZP placed"), Fact("changed", "paragraph", "Ref 9XQ2LM placed"))
    assert same(Fact("count", "row", by=-1), Fact("count", "row", by=-2))
    assert not same(Fact("count", "row", by=-1), Fact("count", "row", by=1))
    assert not same(Fact("changed", "status", "Shared with Ada, Alan"), Fact("changed", "status", "Shared with Bo, Cy"))
    assert not same(Fact("appeared", "dialog", "Saved"), Fact("disappeared", "dialog", "Saved"))


def test_the_gate_names_what_a_heal_lost_and_passes_what_it_kept(tmp_path: Path) -> None:
    from replay.session.gate import effects_verdict

    (tmp_path / "a.ad").write_text(HEAD + _step("Yes, cancel it", CANCELLED))
    (tmp_path / "a.rejected.ad").write_text(
        HEAD + _step("Keep it", '[{"disappeared":"dialog","text":"Cancel order?"}]')
    )
    (tmp_path / "b.rejected.ad").write_text(HEAD + _step("Cancel it", CANCELLED))
    assert "none of what it did" in (effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "a.rejected.ad")) or "")
    assert effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "b.rejected.ad")) is None


def test_a_dialog_answered_records_what_its_answer_changed_beneath_not_only_that_it_closed() -> None:
    from replay.tree import effects as eff

    from .treebuild import N, capture

    def page(status: str, *dialog: N) -> object:
        return capture(N("main")(N("paragraph", text=status), *dialog), url="http://h/a/index.html")

    ask = N("dialog", "Cancel order?")(N("button", "Yes, cancel it"), N("button", "Keep it"))
    went = (eff.TargetState(True), eff.TargetState(False))  # the button went with its dialog
    facts = eff.observe(page("Order 7 is open", ask), [page("Order 7 was cancelled")], went, command="click")
    assert Fact("disappeared", "dialog", "Cancel order?") in facts
    assert Fact("changed", "paragraph", "Order 7 was cancelled") in facts


def test_two_names_with_nothing_in_common_are_evidence_against_not_a_neutral_difference() -> None:
    from replay.engine.heal_choice import decide
    from replay.tree.suggest import components, score

    from .rule_trees import deleted_answer

    dialog, yes = deleted_answer()
    keep = next(n for n in dialog.nodes if n.label == "Keep it")
    assert components(dialog, keep, yes)["label"] < 0  # "it" says nothing of what a control is
    assert score(dialog, keep, yes)[0] <= 0.5
    assert not decide("record-and-heal", yes, dialog).acts


def test_replay_heal_rejects_a_heal_whose_step_does_none_of_what_it_did_though_it_replays(
    tmp_path: Path, monkeypatch: object
) -> None:
    import pytest

    from replay.heal import orchestrator
    from replay.heal.orchestrator import HealOptions, HealRun, HealStatus
    from replay.results import RunResult
    from replay.session import gate

    assert isinstance(monkeypatch, pytest.MonkeyPatch)
    original = tmp_path / "a.ad"
    original.write_text(HEAD + _step("Yes, cancel it", CANCELLED))
    heal = HealRun(str(original), HealOptions(), home=str(tmp_path / "home"), cwd=str(tmp_path))
    staged = gate.check_free(heal.final)
    Path(staged).write_text(
        gate.staged_text(HEAD + _step("Keep it", '[{"disappeared":"dialog","text":"Cancel order?"}]'))
    )

    class Closed:  # the heal's session, closed: its staged script
        healed = staged

    class Fresh:  # the acceptance replay in a fresh session: it passes, every step verified
        def __init__(self, *args: object, **kwargs: object) -> None:
            pass

        def run(self, path: str, **options: object) -> RunResult:
            return RunResult({"ran": 2, "planDigest": gate.digest(gate.read(path), path)})

    monkeypatch.setattr(heal, "client", type("C", (), {"close": lambda self: Closed(), "home": str(tmp_path)})())
    monkeypatch.setattr(orchestrator, "Client", Fresh)
    out = heal.publish_and_gate()
    assert out.status == HealStatus.REJECTED and "none of what it did" in (out.reason or "")
    assert not Path(heal.final).exists() and Path(staged).read_text().startswith(gate.REJECTED)


# the deletion tier's findings (scripts/benchmarks/deletion.py), each a rule -------------------------------


def _two_pickers(*, from_link: bool) -> object:
    """Select2 3.5's shape: each field's link says its placeholder, told apart by its container."""
    from .treebuild import N, capture

    def field(name: str, y: int, link: bool) -> N:
        inner = (N("link", label="Pick a city", rect=(60, y, 240, 28)),) if link else ()
        return N("paragraph")(N("generic", text=name, rect=(20, y, 30, 20)), N("generic", id=f"s2id_{name}")(*inner))

    return capture(N("main")(N("form", label="Shipment")(field("from", 70, from_link), field("to", 120, True))))


def test_an_effect_confirmed_heal_never_acts_outside_the_recorded_anchor() -> None:
    from replay.engine.heal_choice import decide
    from replay.script.evidence import Ancestor, Anchor, Rect, TargetEvidence

    ev = TargetEvidence(
        role="link",
        label="Pick a city",
        anchor=Anchor("generic", text="from", id="s2id_from"),
        ancestry=(Ancestor("generic"), Ancestor("paragraph"), Ancestor("form", "Shipment"), Ancestor("main")),
        rect=Rect(60, 70, 240, 28),
        effect=(Fact("target", "expanded"),),
    )
    deleted = _two_pickers(from_link=False)  # "from"'s link was deleted: "to"'s says the same
    assert not decide("record-and-heal", ev, deleted).acts
    assert decide("record-and-heal", replace(ev, anchor=None), deleted).acts  # (what the anchor alone prevents)


def test_a_placeholder_two_fields_share_never_outweighs_names_that_contradict() -> None:
    from replay.script.evidence import Ancestor, TargetEvidence
    from replay.tree.suggest import score

    from .treebuild import N, capture

    ev = TargetEvidence(role="combobox", label="From", placeholder="Pick a city", ancestry=(Ancestor("form", "Trip"),))
    cap = capture(N("form", label="Trip")(N("combobox", label="To", placeholder="Pick a city", editable=True)))
    assert score(cap, cap.nodes[2], ev)[0] <= 0.5  # (was 0.998: the shared placeholder counted as the name)


def test_a_name_of_digits_contradicts_a_name_of_words() -> None:
    from replay.tree.suggest import contradicts

    assert contradicts("Next", ("2",)) and not contradicts("Page 2", ("2",)) and not contradicts("+", ("−",))


def _pager(label: str, extra: str = "") -> str:
    effect = '[{"count":"row","by":-3}]'
    return (
        f'# replay:target-v1 {{"role":"link","label":"{label}"{extra},"verification":"verified","effect":{effect}}}\n'
        f'click role=link label="{label}"\n'
    )


def test_a_heal_onto_an_element_named_against_the_recorded_one_is_rejected_though_it_does_the_same(
    tmp_path: Path,
) -> None:
    from replay.session.gate import effects_verdict

    (tmp_path / "a.ad").write_text(HEAD + _pager("Next"))
    (tmp_path / "a.rejected.ad").write_text(HEAD + _pager("2"))  # a report-trusting agent's pick: page 2
    said = effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "a.rejected.ad")) or ""
    assert 'shares nothing with the recorded "Next"' in said


def test_a_heal_named_anew_that_keeps_its_test_id_is_no_contradiction(tmp_path: Path) -> None:
    from replay.session.gate import effects_verdict

    (tmp_path / "a.ad").write_text(HEAD + _pager("Next", ',"id":"pager-next"'))
    (tmp_path / "a.rejected.ad").write_text(HEAD + _pager("Forward", ',"id":"pager-next"'))
    assert effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "a.rejected.ad")) is None


def _missed(action: str, suggestions: list[dict[str, object]]) -> object:
    """A selector-miss at step 2 with these suggestions, as the healer reads it from a run's report."""
    from replay.engine.report import Reported

    return Reported.from_dict(
        {
            "kind": "selector-miss",
            "step": {"index": 2},
            "repairHint": "record-and-heal",
            "resume": {"from": 3, "planDigest": "x"},
            "action": action,
            "suggestions": suggestions,
        }
    )


def test_a_trial_never_tries_a_covered_hidden_disabled_position_only_or_unrelated_role_candidate(
    tmp_path: Path,
) -> None:
    from replay.heal.trial import candidates

    flow = tmp_path / "a.ad"
    flow.write_text(HEAD + _pager("Next"))
    suggestions = [
        {"ref": "@e1", "role": "link", "label": "Next page", "basis": "role+label"},
        {"ref": "@e2", "role": "link", "label": "More", "basis": "role", "flags": ["covered"]},
        {"ref": "@e3", "role": "button", "label": "Onward", "basis": "role+ancestry+place"},  # moved within actionables
        {"ref": "@e4", "role": "link", "basis": "position"},
        {"ref": "@e5", "role": "textbox", "label": "Next name", "basis": "label"},
        {"ref": "@e6", "role": "link", "label": "Later", "basis": "role", "flags": ["disabled"]},
        {"ref": "@e7", "role": "link", "label": "Last", "basis": "role+ancestry+place"},
    ]
    d = _missed('click role=link label="Next"', suggestions)
    assert [c["ref"] for c in candidates(d, str(flow), 3)] == ["@e1", "@e3", "@e7"]
    assert [c["ref"] for c in candidates(d, str(flow), 2)] == ["@e1", "@e3"]


def test_two_candidates_that_pass_their_trials_are_no_heal_and_both_are_named() -> None:
    from replay.heal.trial import Trial, Tried

    both = Trial(
        [Tried({"role": "link", "label": "2"}, True, ""), Tried({"role": "link", "label": "Next »"}, True, "")]
    )
    assert both.winner is None and "more than one passed" in both.summary() and '"Next »"' in both.summary()
    one = Trial([Tried({"role": "link", "label": "2"}, False, "then selector-miss at step 3"), both.tried[1]])
    assert one.winner == {"role": "link", "label": "Next »"}


def test_a_nameless_recorded_field_is_still_ranked_by_its_placeholder() -> None:
    from replay.script.evidence import Ancestor, TargetEvidence
    from replay.tree.suggest import rank

    from .treebuild import N, capture

    ev = TargetEvidence(role="searchbox", placeholder="Search", ancestry=(Ancestor("form", "Trip"),))
    cap = capture(N("form", label="Trip")(N("searchbox", placeholder="Search", editable=True)))
    (best,) = rank(cap, ev)  # (the contradiction check once read a label that was never set: a KeyError)
    assert best.node.role == "searchbox" and "label" in best.basis


def test_a_heal_named_anew_in_the_recorded_row_is_no_contradiction(tmp_path: Path) -> None:
    from replay.session.gate import effects_verdict

    row = ',"anchor":{"role":"listitem","text":"Bob"}'
    (tmp_path / "a.ad").write_text(HEAD + _pager("Delete", row))
    (tmp_path / "a.rejected.ad").write_text(HEAD + _pager("Remove", row))  # the members fixture's rename
    (tmp_path / "b.rejected.ad").write_text(HEAD + _pager("Remove", ',"anchor":{"role":"listitem","text":"Ann"}'))
    assert effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "a.rejected.ad")) is None
    assert "shares nothing" in (effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "b.rejected.ad")) or "")


def test_a_provable_step_is_never_acted_on_a_candidate_named_otherwise_on_its_score_alone() -> None:
    from replay.engine.heal_choice import decide
    from replay.script.evidence import Ancestor, Rect, TargetEvidence

    from .treebuild import N, capture

    ev = TargetEvidence(
        role="button",
        label="Collapse all fields",
        ancestry=(Ancestor("toolbar", "Editor"),),
        rect=Rect(20, 10, 30, 24),
        effect=(Fact("disappeared", "treeitem", text="name"),),
    )
    deleted = capture(
        N("main")(N("toolbar", label="Editor")(N("button", label="Expand all fields", rect=(20, 10, 30, 24))))
    )
    on_score = decide("record-and-heal", ev, deleted)
    assert on_score.acts  # (what the rule prevents: the names share "all fields", the place is the recorded one)
    left = decide("record-and-heal", ev, deleted, trial=True)
    assert not left.acts and "a trial decides" in left.reason
    kept_name = capture(
        N("main")(N("toolbar", label="Editor")(N("button", label="Collapse all fields!", rect=(20, 10, 30, 24))))
    )
    assert decide("record-and-heal", ev, kept_name, trial=True).acts  # the same name: no trial needed


def test_a_step_recorded_by_its_place_among_look_alikes_is_never_healed_onto_the_one_left(tmp_path: Path) -> None:
    from replay.engine.heal_choice import decide
    from replay.heal.trial import provable
    from replay.script.evidence import Ancestor, Anchor, TargetEvidence

    from .treebuild import N, capture

    ev = TargetEvidence(
        role="generic",
        text="Pick a city",
        anchor=Anchor("form", label="Leg"),
        ancestry=(Ancestor("form", "Leg"),),
        effect=(Fact("count", "option", by=4),),
    )
    # Slim Select's two pickers both said "Pick a city"; "To"'s (nth=4) was deleted: "From"'s is left
    left = capture(N("main")(N("form", label="Leg")(N("generic", text="Pick a city", actionable=True))))
    assert decide("record-and-heal", ev, left).acts  # (what the rule prevents: it says all the recorded one said)
    assert not decide("record-and-heal", ev, left, positional=True).acts
    flow = tmp_path / "leg.ad"
    flow.write_text(
        HEAD + '# replay:target-v1 {"role":"generic","text":"Pick a city","anchor":{"role":"form","label":"Leg"},'
        '"verification":"verified","effect":[{"count":"option","by":4}]}\n'
        'click role=form label="Leg" >> role=generic nth=4\n'
    )
    assert not provable(str(flow), 2)  # a look-alike does what it did: no trial tells them apart


def test_a_candidate_named_otherwise_that_stands_elsewhere_is_another_control_not_a_rename() -> None:
    # a11y-dialog 5 with its "Keep it" deleted: the dialog's × does what "Keep it" did (the dialog goes,
    # "Booking kept") — a trial would pass it; where it stands says it is another control
    from replay.engine.heal_choice import stands_in_place
    from replay.script.evidence import Rect, TargetEvidence

    from .treebuild import N, capture

    ev = TargetEvidence(role="button", label="Keep it", sibling=3, rect=Rect(120, 200, 60, 24))

    def dialog(*buttons: N) -> object:
        return capture(N("dialog", label="Cancel this booking?")(N("heading", label="Cancel this booking?"), *buttons))

    deleted = dialog(
        N("button", label="Close this dialog window", rect=(300, 10, 20, 20)),
        N("button", label="Yes, cancel it", rect=(20, 200, 90, 24)),
    )
    assert not any(stands_in_place(ev, n) for n in deleted.nodes if n.role == "button")  # type: ignore[attr-defined]
    moved = dialog(N("button", label="Stay", rect=(118, 198, 64, 26)))  # renamed, its place among siblings not kept
    assert stands_in_place(ev, [n for n in moved.nodes if n.role == "button"][0])  # type: ignore[attr-defined]
    shifted = dialog(N("button"), N("button"), N("button", label="Stay", rect=(0, 0, 10, 10)))  # its sibling index kept
    assert stands_in_place(ev, [n for n in shifted.nodes if n.role == "button"][2])  # type: ignore[attr-defined]


def test_a_trial_never_tries_a_candidate_that_says_nothing_the_recorded_one_said_and_stands_elsewhere(
    tmp_path: Path,
) -> None:
    # a11y-dialog 5, "Keep it" deleted: the dialog's × (role+ancestry, top right) does the same and would pass
    from replay.heal.trial import candidates

    flow = tmp_path / "a.ad"
    flow.write_text(HEAD + _pager("Keep it"))
    suggestions = [
        {"ref": "@e6", "role": "button", "label": "Close this dialog window", "basis": "role+ancestry"},
        {"ref": "@e9", "role": "button", "label": "Stay", "basis": "role+ancestry+place"},
        {"ref": "@e4", "role": "button", "label": "Keep it open", "basis": "role+label"},
        {"ref": "@e5", "role": "button", "label": "Keep booking", "basis": "role+ancestry"},  # a word kept: a rename
    ]
    d = _missed('click role=button label="Keep it"', suggestions)
    assert [c["ref"] for c in candidates(d, str(flow), 3)] == ["@e9", "@e4", "@e5"]


def test_a_suggestion_standing_where_the_recorded_element_stood_says_so_in_its_basis() -> None:
    from replay.engine.divergence import build_suggestions
    from replay.script.evidence import Ancestor, Rect, TargetEvidence

    from .treebuild import N, capture

    ev = TargetEvidence(
        role="button", ancestry=(Ancestor("dialog", "Cancel?"),), rect=Rect(120, 200, 60, 24), sibling=1
    )
    icons = (N("button", id="x", rect=(300, 10, 20, 20)), N("button", id="stay", rect=(120, 200, 60, 24)))
    cap = capture(N("main")(N("dialog", label="Cancel?")(*icons, N("heading", label="Cancel?"))))
    said = {s["id"]: s["basis"] for s in build_suggestions(cap, ev)}  # type: ignore[arg-type]
    assert said == {"stay": "role+ancestry+place", "x": "role+ancestry"}, said


def test_a_heal_onto_another_control_of_the_recorded_dialog_standing_elsewhere_is_rejected(tmp_path: Path) -> None:
    # the report-trusting agent's pick with "Keep it" deleted: the dialog's ×, same anchor, top right
    from replay.session.gate import effects_verdict

    def keep(label: str, sibling: int, x: int) -> str:
        anchor = ',"anchor":{"role":"document","text":"Cancel this booking?"}'
        return _pager(label, f'{anchor},"sibling":{sibling},"rect":{{"x":{x},"y":200,"width":60,"height":24}}')

    (tmp_path / "a.ad").write_text(HEAD + keep("Keep it", 4, 120))
    (tmp_path / "x.rejected.ad").write_text(HEAD + keep("Close this dialog window", 0, 300))
    (tmp_path / "s.rejected.ad").write_text(HEAD + keep("Stay", 4, 120))  # renamed where it stood
    assert "shares nothing" in (effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "x.rejected.ad")) or "")
    assert effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "s.rejected.ad")) is None


def test_a_glyph_beside_a_name_says_nothing_either_way_in_a_contradiction() -> None:
    from replay.tree.suggest import contradicts

    assert contradicts("Keep it", ("Close this dialog window", "×"))  # the × button's label and its text
    assert not contradicts("Keep it", ("×",))  # a glyph alone: nothing to contradict with
    assert not contradicts("Keep it", ("Keep it open", "×"))


def test_a_candidate_is_another_control_only_when_named_against_the_recorded_one_and_nothing_was_kept() -> None:
    from replay.tree.suggest import another_control

    assert another_control("Keep it", ("Close this dialog window", "×"), kept=False)
    assert not another_control("Keep it", ("Close this dialog window",), kept=True)  # its place, an id, its row
    assert not another_control("Keep it", ("Keep booking",), kept=False)  # a word in common: maybe a rename
    assert not another_control(None, ("Close",), kept=False)  # a nameless recorded element contradicts nothing


def test_a_trial_never_tries_a_candidate_whose_only_shared_words_every_look_alike_says(tmp_path: Path) -> None:
    # Splide 3, "Next slide" deleted: the dot "Go to slide 2" does the same; "slide" is what every dot says
    from replay.heal.trial import candidates

    flow = tmp_path / "a.ad"
    flow.write_text(HEAD + _pager("Next slide"))
    dots = [{"ref": f"@e{n}", "role": "link", "label": f"Go to slide {n}", "basis": "role+ancestry"} for n in (3, 4, 2)]
    d = _missed('click role=link label="Next slide"', dots)
    assert candidates(d, str(flow), 3) == []
    renamed = {"ref": "@e7", "role": "link", "label": "Next", "basis": "role+ancestry"}  # keeps "next": maybe it
    d = _missed('click role=link label="Next slide"', [*dots, renamed])
    assert [c["ref"] for c in candidates(d, str(flow), 3)] == ["@e7"]


def test_a_glyph_alone_keeps_no_word_of_the_recorded_name_and_is_a_rename_only_where_it_stood() -> None:
    # simple-datatables 3, page link "2" deleted: "›" goes to page 2 too
    from replay.tree.suggest import another_control

    assert another_control("2", ("›",), kept=False) and another_control("Next", ("›",), kept=False)
    assert not another_control("Next", ("›",), kept=True)


def test_a_sibling_index_says_nothing_of_where_an_only_child_stands() -> None:
    # each pager link is its list item's only child: "›" is at index 0 as "2" was, one item along
    from replay.script.evidence import Rect, TargetEvidence
    from replay.tree.place import stands_in_place

    from .treebuild import N, capture

    ev = TargetEvidence(role="link", label="2", sibling=0, rect=Rect(707, 323, 34, 30))
    items = [N("listitem")(N("link", label=t, rect=(x, 323, 34, 30))) for t, x in (("1", 670), ("›", 743))]
    pager = capture(N("navigation")(N("list")(*items)))
    assert not any(stands_in_place(ev, n) for n in pager.nodes if n.role == "link")  # type: ignore[attr-defined]
    again = capture(N("navigation")(N("list")(N("listitem")(N("link", label="Two", rect=(709, 323, 34, 30))))))
    assert stands_in_place(ev, [n for n in again.nodes if n.role == "link"][0])  # type: ignore[attr-defined]


def test_the_gate_judges_where_a_heal_stands_by_its_box_when_both_boxes_are_known(tmp_path: Path) -> None:
    # the trusting agent's pick of "›" for a deleted "2": the same pager, the same sibling index (0), another item
    from replay.session.gate import effects_verdict

    def link(label: str, x: int) -> str:
        where = ',"anchor":{"role":"navigation","text":"Pages"},"sibling":0'
        return _pager(label, f'{where},"rect":{{"x":{x},"y":323,"width":34,"height":30}}')

    (tmp_path / "a.ad").write_text(HEAD + link("2", 707))
    (tmp_path / "n.rejected.ad").write_text(HEAD + link("›", 743))
    (tmp_path / "r.rejected.ad").write_text(HEAD + link("Page two", 709))  # renamed where it stood
    assert "shares nothing" in (effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "n.rejected.ad")) or "")
    assert effects_verdict(str(tmp_path / "a.ad"), str(tmp_path / "r.rejected.ad")) is None
