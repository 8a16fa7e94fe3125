"""The divergence object: levels and byte ceilings, truncation, overflow, redaction, resume."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from replay.engine.divergence import SIZES, Binding, build_divergence, resume_for
from replay.engine.hint import RepairHint
from replay.engine.report import render_text
from replay.script import parse
from replay.script.evidence import Ancestor, TargetEvidence
from replay.tree.verdict import DivergenceKind

from .treebuild import N, capture

SELECTOR_MISS = DivergenceKind.SELECTOR_MISS
RECORD_AND_HEAL, STATE_REPAIR = RepairHint.RECORD_AND_HEAL, RepairHint.STATE_REPAIR
CAUTION, MANUAL = RepairHint.CAUTION, RepairHint.MANUAL

EV = TargetEvidence(role="button", label="Place order", ancestry=(Ancestor("form", "Checkout"),))


def big_capture(n: int = 400):  # type: ignore[no-untyped-def]
    return capture(
        N("form", label="Checkout")(*[N("button", label=f"Place order number {i} " + "x" * 300) for i in range(n)])
    )


def make(level_capture=None, action_line: str = 'click role=button label="Place order"', evidence=EV):  # type: ignore[no-untyped-def]
    action = parse(action_line + "\n", "flow.ad").actions[0]
    return build_divergence(
        Binding(SELECTOR_MISS, "no node matches the selector", 0),
        index=3,
        path="flows/checkout.ad",
        action=action,
        capture=level_capture if level_capture is not None else big_capture(),
        capture_error=None,
        evidence=evidence,
        plan_len=10,
        plan_digest="d" * 64,
        held=None,
        session="s1",
    )


def size(obj: object) -> int:
    return len(json.dumps(obj, ensure_ascii=False).encode("utf-8"))


@pytest.mark.parametrize("level", ["digest", "default", "full"])
def test_each_level_stays_under_its_byte_ceiling(level: str) -> None:
    d = make().to_dict(level)
    assert size(d) <= SIZES[level][0]


def test_digest_level_has_at_most_8_refs_no_suggestion_entries_and_a_suggestion_count() -> None:
    d = make().to_dict("digest")
    assert len(d["screen"]["refs"]) <= 8 and d["screen"]["truncated"] is True
    assert "suggestions" not in d and d["suggestionCount"] == 5
    assert d["repairHint"] == RECORD_AND_HEAL


def test_full_level_has_at_most_20_refs_and_5_suggestions() -> None:
    d = make().to_dict("full")
    assert len(d["screen"]["refs"]) <= 20 and len(d["suggestions"]) <= 5


def test_repair_hint_is_present_at_every_level() -> None:
    div = make()
    assert all(div.to_dict(level)["repairHint"] == RECORD_AND_HEAL for level in SIZES)


def test_every_string_field_is_cut_to_256_bytes_with_a_marker() -> None:
    d = make().to_dict("full")
    label = d["screen"]["refs"][1]["label"]
    assert len(label.encode("utf-8")) <= 256 and label.endswith("…[truncated]")


def test_what_a_level_cuts_goes_to_an_overflow_file(tmp_path: Path) -> None:
    div = make()
    div.write_overflow(str(tmp_path), "digest")
    d = div.to_dict("digest")
    full = json.loads(Path(d["overflow"]).read_text())
    assert len(full["screen"]["refs"]) == 401 and len(full["suggestions"]) == 5


def test_typed_literal_text_is_redacted_in_the_action() -> None:
    d = make(action_line='fill id="password" "hunter2"').to_dict()
    assert "hunter2" not in json.dumps(d) and d["action"] == 'fill id="password" <redacted>'


def test_text_from_a_variable_appears_as_its_name() -> None:
    d = make(action_line='fill id="password" "${PASSWORD}"').to_dict()
    assert d["action"] == 'fill id="password" <var:PASSWORD>'


def test_screen_refs_never_carry_field_values() -> None:
    cap = capture(N("form", label="F")(N("textbox", label="Email", value="ada@example.com"), N("button", label="Go")))
    assert "ada@example.com" not in json.dumps(make(cap).to_dict("full"))


def test_open_dialog_refs_rank_first() -> None:
    cap = capture(
        N("button", label="Behind"),
        N("main")(N("button", label="Also behind")),
        N("dialog", label="Cookies")(N("button", label="Accept")),
    )
    refs = make(cap).to_dict("full")["screen"]["refs"]
    assert [r["label"] for r in refs[:2]] == ["Cookies", "Accept"]


def test_sparse_capture_makes_the_screen_unavailable_with_a_reason() -> None:
    d = make(capture(N("generic"))).to_dict()
    assert d["screen"]["state"] == "unavailable" and "sparse" in d["screen"]["reason"]
    assert d["repairHint"] == MANUAL and d["suggestions"] == []


def test_failed_capture_makes_the_screen_unavailable_without_masking_the_cause() -> None:
    action = parse('click "Go"\n', "f.ad").actions[0]
    div = build_divergence(
        Binding(SELECTOR_MISS, "no node matches the selector", 0),
        index=1,
        path="f.ad",
        action=action,
        capture=None,
        capture_error="page crashed",
        evidence=EV,
        plan_len=1,
        plan_digest="d",
        held=None,
        session=None,
    )
    d = div.to_dict()
    assert d["cause"] == "no node matches the selector" and "page crashed" in d["screen"]["reason"]


def _with_a_dialog_open(line: str, cause: str, index: int) -> dict[str, object]:
    """The divergence of step ``index`` (``line``) stopped while a confirm dialog stands open."""
    return build_divergence(
        Binding(DivergenceKind.ACTION_FAILURE, cause, None),
        index=index,
        path="f.ad",
        action=parse(line + "\n", "f.ad").actions[0],
        capture=None,
        capture_error="DIALOG_OPEN: a confirm dialog is open: 'Empty the cart?'",
        evidence=None,
        plan_len=6,
        plan_digest="d",
        held=None,
        session="s",
    ).to_dict()


def test_a_dialog_the_script_does_not_answer_is_a_state_to_repair_before_the_same_step() -> None:
    div = _with_a_dialog_open('is text id="count" "0 items"', "a confirm dialog is open: 'Empty the cart?'", 4)
    assert div["repairHint"] == RepairHint.STATE_REPAIR and div["resume"]["from"] == 4  # type: ignore[index]


def test_an_alert_step_whose_dialog_asks_something_else_is_for_a_person() -> None:
    said = "the confirm dialog says 'Empty the cart?', not 'Empty the basket?'"
    div = _with_a_dialog_open('alert accept --message "Empty the basket?"', said, 5)
    assert div["repairHint"] == RepairHint.MANUAL


def test_resume_is_the_next_step_after_record_and_heal_else_the_same_step() -> None:
    assert resume_for(RECORD_AND_HEAL, 4, 9, "d", held=None).to_dict()["from"] == 5
    assert resume_for(STATE_REPAIR, 4, 9, "d", held=None).to_dict()["from"] == 4
    assert "alternateFrom" not in resume_for(STATE_REPAIR, 4, 9, "d", held=None).to_dict()


def test_caution_and_manual_offer_the_next_step_as_an_alternate() -> None:
    assert resume_for(CAUTION, 4, 9, "d", held=None).to_dict()["alternateFrom"] == 5
    assert resume_for(MANUAL, 9, 9, "d", held=None).to_dict()["alternateFrom"] == 10


def test_text_report_names_kind_step_line_cause_hint_and_the_resume_command() -> None:
    d = make().to_dict()
    text = render_text(d, "replay run flows/checkout.ad --session s1")
    assert text.splitlines()[0] == "DIVERGENCE selector-miss at step 3 (flows/checkout.ad:1)"
    assert "cause:  no node matches the selector" in text and "record-and-heal" in text
    assert "replay run flows/checkout.ad --session s1 --from 4 --plan-digest " + "d" * 64 in text


def test_the_text_report_renders_without_importing_lxml_or_playwright() -> None:
    import subprocess
    import sys

    code = (
        "import json, sys\n"
        "from replay.engine.report import render_text\n"
        "text = render_text(json.load(sys.stdin), 'replay run flow.ad')\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('lxml', 'playwright'))\n"
        "print('HEAVY', heavy, text.splitlines()[0])\n"
    )
    report = json.dumps(make().to_dict())
    out = subprocess.run([sys.executable, "-c", code], input=report, capture_output=True, text=True, timeout=60)
    assert "HEAVY [] DIVERGENCE selector-miss at step 3" in out.stdout, out.stdout + out.stderr


def test_the_text_report_proposes_no_element_when_no_suggestion_is_close() -> None:
    d = make().to_dict()
    d["suggestions"] = [{"ref": "@e5", "role": "checkbox", "score": 0.56, "basis": "role"}]
    text = render_text(d, "replay run flow.ad")
    assert "replay click @e5" not in text and "no element on screen is close" in text
    d["suggestions"][0]["score"] = 0.83
    assert "next:   replay click @e5" in render_text(d, "replay run flow.ad")


def test_a_covered_best_suggestion_is_flagged_and_not_proposed_as_the_next_click() -> None:
    # a consent dialog over the page: the recorded "Place order" is there, but another element is on top
    under = capture(
        N("dialog", label="Cookies")(N("button", label="Accept", rect=(600, 300, 80, 20))),
        N("form", label="Checkout")(
            N("button", label="Place order", rect=(10, 10, 80, 20), hittable=False),
            N("button", label="Place order", rect=(10, 5000, 80, 20), hittable=False),  # below the fold: not covered
        ),
        N("region", label="Order form", rect=(0, 100, 400, 100), scrollable=True)(  # scrolled out of it: not covered
            N("button", label="Place order", rect=(10, 300, 80, 20), hittable=False)
        ),
    )
    d = make(under).to_dict()
    best, others = d["suggestions"][0], d["suggestions"][1:3]
    assert best["flags"] == ["covered"] and len(others) == 2 and not any("flags" in o for o in others)
    text = render_text(d, "replay run flow.ad")
    assert "replay click" not in text and f"next:   {best['ref']}, the best suggestion, is covered" in text
