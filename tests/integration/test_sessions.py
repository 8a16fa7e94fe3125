"""Interactive sessions through the real daemon and CLI, driving real Chromium."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

from replay.script import parse
from replay.script.loader import load

from .conftest import Cli


def ref_of(snapshot_text: str, needle: str) -> str:
    for line in snapshot_text.splitlines():
        if needle in line:
            return line.split()[0]
    raise AssertionError(f"{needle!r} not in snapshot:\n{snapshot_text}")


def test_snapshot_prints_refs_with_roles_labels_and_flags(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html")
    text = cli("snapshot").stdout
    assert '@e0 document "Shop – Checkout"' in text
    assert any(
        line.strip().endswith('button "Place order" id="place-order" [not hittable]') for line in text.splitlines()
    )


def test_snapshot_interactive_keeps_interactive_and_labeled_nodes_only(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    full = cli("snapshot").stdout
    interactive = cli("snapshot", "-i").stdout
    assert "paragraph" in full and "paragraph" not in interactive
    assert 'button "Thumbs up"' in interactive


def test_snapshot_scope_keeps_the_named_subtree(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html")
    text = cli("snapshot", "-s", "role=form").stdout
    first = text.splitlines()[0]
    assert 'form "Checkout"' in first and "Place order" in text and "Shop" not in text


def test_snapshot_json_has_every_field(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html")
    data = cli.json("snapshot")["result"]["snapshot"]
    node = next(n for n in data["nodes"] if n["label"] == "Place order")
    for key in (
        "ref",
        "role",
        "label",
        "id",
        "value",
        "text",
        "placeholder",
        "tag",
        "href",
        "rect",
        "visible",
        "enabled",
        "editable",
        "checked",
        "selected",
        "focused",
        "hittable",
        "scrollable",
        "frame",
    ):
        assert key in node
    assert data["refsGeneration"] >= 1


def test_click_and_fill_by_ref_act_on_the_page(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    snap = cli("snapshot", "-i").stdout
    cli("fill", ref_of(snap, 'textbox "Question"'), "hello")
    cli("click", ref_of(snap, 'button "Ask"'))
    assert cli("is", "visible", "We will reply soon").returncode == 0
    cli("click", ref_of(snap, 'button "Thumbs up"'))
    assert cli("get", "text", "id=rating-result").stdout.strip().endswith("Thanks: Thumbs up")


def test_a_dialog_stays_open_until_alert_answers_it_and_nothing_else_runs_meanwhile(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    cli("click", 'label="Add to cart" nth=0')
    cli("open", f"{web}/shop/checkout.html")
    clicked = cli.json("click", 'role=button label="Empty cart"')["result"]
    assert clicked["dialog"] == {"type": "confirm", "message": "Empty the cart?"}
    refused = cli("snapshot", ok=None)
    assert refused.returncode == 1 and "DIALOG_OPEN" in refused.stderr and "alert accept" in refused.stderr
    assert json.loads(cli("alert").stdout.splitlines()[-1])["message"] == "Empty the cart?"
    other = cli("alert", "accept", "--message", "Empty the basket?", ok=None)  # not what it asks: unanswered
    assert other.returncode == 1 and "says 'Empty the cart?', not 'Empty the basket?'" in other.stderr
    assert cli("snapshot", ok=None).returncode == 1  # still open
    cli("alert", "accept", "--message", "Empty the cart?")
    assert cli("get", "text", "id=cart-count").stdout.strip().endswith("0 items")
    late = cli("alert", "dismiss", "--timeout", "300", ok=None)  # none is open now
    assert late.returncode == 1 and "no dialog opened within 300 ms" in late.stderr


def test_leaving_a_half_filled_form_is_not_held_by_its_leave_site_dialog(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html")
    cli("fill", 'label="Full name"', "Ada")
    cli("open", f"{web}/shop/index.html", "--timeout", "5000")  # its beforeunload asks; a step that leaves, leaves
    assert "Products" in cli("snapshot", "-i").stdout


def test_every_action_response_discloses_resolution(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    res = cli.json("click", 'role=button label="Thumbs up"')["result"]["resolution"]
    assert res == {"kind": "unique", "matchCount": 1, "alternative": 0}
    cli("snapshot")
    res = cli.json("click", "@e6")["result"]["resolution"]
    assert res["kind"] == "ref" and res["ref"] == "@e6"


def test_ambiguous_selector_fails_with_candidates_and_never_picks(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    out = cli.json("click", "Add to cart", ok=False)
    assert out["error"]["code"] == "AMBIGUOUS_MATCH"
    assert len(out["error"]["details"]["candidates"]) == 3
    assert cli("get", "text", "id=cart-count").stdout.strip().endswith("0 items")


def test_ref_from_before_a_navigation_is_stale_not_rebound(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    snap = cli("snapshot", "-i").stdout
    checkout = ref_of(snap, 'link "Checkout"')
    cli("click", ref_of(snap, 'button "Cart"'))  # navigates to checkout.html
    out = cli.json("click", checkout, ok=False)
    assert out["error"]["code"] == "STALE_REF" and "snapshot" in out["error"]["hint"]


def test_ref_whose_label_hint_no_longer_matches_is_stale(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    snap = cli("snapshot", "-i").stdout
    out = cli.json("click", ref_of(snap, 'button "Thumbs up"'), "Thumbs down", ok=False)
    assert out["error"]["code"] == "STALE_REF"


def test_command_without_an_open_session_is_session_not_found(cli: Cli) -> None:
    proc = cli("click", "@e1", ok=False)
    assert proc.returncode == 2 and "SESSION_NOT_FOUND" in proc.stderr and "Traceback" not in proc.stderr


def test_default_session_is_scoped_to_the_working_directory(home: str, web: str, tmp_path: Path) -> None:
    a, b = tmp_path / "a", tmp_path / "b"
    a.mkdir()
    b.mkdir()
    Cli(home, str(a))("open", f"{web}/shop/index.html")
    assert "SESSION_NOT_FOUND" in Cli(home, str(b))("snapshot", ok=False).stderr
    assert Cli(home, str(a))("snapshot").returncode == 0


def test_the_default_session_is_called_default_when_it_opens_and_closes(cli: Cli, web: str) -> None:
    assert cli("open", f"{web}/shop/help.html").stdout.strip().endswith("in session default")
    assert cli("close").stdout.strip() == "closed session default"


def test_named_sessions_have_separate_browser_contexts(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "one")
    cli("open", f"{web}/shop/index.html", "--session", "two")
    cli("click", "id=add-teapot", "--session", "one")
    assert cli("get", "text", "id=cart-count", "--session", "one").stdout.strip().endswith("1 item")
    # localStorage is per context: session two's cart is still empty after a reload
    cli("reload", "--session", "two")
    assert cli("get", "text", "id=cart-count", "--session", "two").stdout.strip().endswith("0 items")
    names = {s["name"] for s in cli.json("session", "list")["sessions"]}
    assert {"one", "two"} <= names


def test_every_action_is_journaled_with_provenance_before_the_response(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html", "--session", "j")
    cli("fill", "id=email", "ada@example.com", "--session", "j")
    cli("click", "id=place-order", "--session", "j")
    journal = Path(home) / "sessions" / "j" / "journal.ndjson"
    entries = [json.loads(line) for line in journal.read_text().splitlines()]
    assert [e["command"] for e in entries] == ["open", "fill", "click"]
    assert all(e["provenance"] == "interactive" for e in entries)
    assert entries[2]["selector"].startswith('id="place-order"') and entries[2]["evidence"]
    assert oct(journal.stat().st_mode & 0o777) == "0o600"


def test_typed_text_never_appears_in_responses_or_the_daemon_log(cli: Cli, home: str, web: str) -> None:
    cli("open", f"{web}/shop/checkout.html")
    out = cli("fill", "id=password", "hunter2-very-secret", "--json")
    snap = cli("snapshot", "--json")
    assert "hunter2" not in out.stdout + out.stderr + snap.stdout
    assert "hunter2" not in (Path(home) / "daemon.log").read_text()


def test_record_checkout_writes_materialized_selectors_with_evidence_and_no_refs(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    out = tmp_path / "checkout.ad"
    cli("open", f"{web}/shop/index.html", f"--save-script={out}")
    snap = cli("snapshot", "-i").stdout
    cli("click", ref_of(snap, "add-teapot"))
    cli("click", ref_of(snap, 'button "Cart"'))
    snap = cli("snapshot", "-i").stdout
    cli("fill", ref_of(snap, 'textbox "Full name"'), "Ada Lovelace")
    cli("fill", ref_of(snap, 'textbox "Email"'), "ada@example.com")
    cli("select", ref_of(snap, 'combobox "Country"'), "United Kingdom")
    cli("check", ref_of(snap, 'checkbox "I accept the terms"'))
    cli("click", ref_of(snap, 'button "Place order"'))
    cli("is", "visible", "Order placed")  # an observation: not written
    cli("snapshot")  # not written
    closed = cli("close").stdout
    assert str(out) in closed
    text = out.read_text()
    assert not re.search(r"(^|\s)@e[0-9]+", text)
    script = load(str(out))
    actions = script.actions
    assert [a.command for a in actions] == [
        "open",
        "click",
        "click",
        "fill",
        "fill",
        "select",
        "check",
        "click",
        "close",
    ]
    for a in actions:
        if a.target is not None:
            assert a.annotation is not None and a.annotation.verification == "verified"
    assert 'click id="add-teapot"' in text and 'id="place-order" || role=button label="Place order"' in text
    assert script.context == {"platform": "web"}


def test_recorded_script_replayed_by_hand_in_a_fresh_session_reaches_the_same_end_state(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    out = tmp_path / "flow.ad"
    cli("open", f"{web}/shop/index.html", f"--save-script={out}", "--session", "rec")
    snap = cli("snapshot", "-i", "--session", "rec").stdout
    cli("click", ref_of(snap, "add-kettle"), "--session", "rec")
    cli("click", ref_of(snap, 'heading "Order A-101"'), "--session", "rec")  # a label-less row
    cli("click", ref_of(snap, 'button "Cart"'), "--session", "rec")
    snap = cli("snapshot", "-i", "--session", "rec").stdout
    cli("fill", ref_of(snap, 'textbox "Full name"'), "Grace Hopper", "--session", "rec")
    cli("click", ref_of(snap, 'button "Place order"'), "--session", "rec")
    recorded_end = cli("get", "text", "id=order-number", "--session", "rec").stdout.strip().splitlines()[-1]
    cli("close", "--session", "rec")

    from replay.client import Client

    fresh = Client("fresh", home=cli.home, cwd=cli.cwd)
    for action in parse(out.read_text(), str(out)).actions:
        if action.command == "close":
            break
        from replay.script.formatter import format_action

        fresh.run_line(format_action(action))
    replayed_end = fresh.command("get", "text", "id=order-number")["value"]
    fresh.close()
    assert replayed_end == recorded_end == "Order #1001 for Grace Hopper"


def test_existing_target_is_refused_with_target_exists_and_left_unchanged(cli: Cli, web: str, tmp_path: Path) -> None:
    out = tmp_path / "taken.ad"
    out.write_bytes(b"# keep me\n")
    cli("open", f"{web}/shop/index.html", f"--save-script={out}")
    cli("click", "id=add-mug")
    proc = cli("close", ok=False)
    assert proc.returncode == 4 and "TARGET_EXISTS" in proc.stderr
    assert out.read_bytes() == b"# keep me\n"
    other = tmp_path / "other.ad"
    assert str(other) in cli("close", "--save-script", str(other)).stdout
    assert 'click id="add-mug"' in other.read_text()


def test_a_nameless_clickable_is_recorded_at_once_with_a_warning_and_written(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    out = tmp_path / "swatch.ad"
    cli("open", f"{web}/shop/index.html", f"--save-script={out}")
    cli("click", "id=add-teapot")
    snap = cli("snapshot").stdout
    swatch = next(  # the colour swatch: a clickable div with no label, id, placeholder or text
        line.split()[0]
        for line in snap.splitlines()
        if line.strip().split()[1:2] == ["generic"] and "text=" not in line and '"' not in line
    )
    said = cli("click", swatch).stdout
    assert "recorded as: " in said and "nth=" in said and "warning: " in said
    cli("close")
    assert "nth=" in out.read_text()  # written, never dropped: the warning came when it was done


def test_interactive_text_with_dollar_brace_is_recorded_literally(cli: Cli, web: str, tmp_path: Path) -> None:
    out = tmp_path / "lit.ad"
    cli("open", f"{web}/shop/checkout.html", f"--save-script={out}")
    cli("fill", "id=name", "Price ${AMOUNT}")
    assert cli("get", "value", "id=name").stdout.strip().endswith("Price ${AMOUNT}")
    cli("close")
    fill = load(str(out)).actions[1]
    from replay.script.variables import resolve

    assert resolve(str(fill.param("text")), {}) == "Price ${AMOUNT}"
    assert os.path.exists(out)


def test_opened_modal_dialog_appears_in_the_snapshot_and_is_actionable(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html")
    assert 'dialog "Newsletter"' not in cli("snapshot").stdout
    cli("click", "Newsletter")
    snap = cli("snapshot", "-i", "-s", "role=dialog").stdout
    assert snap.splitlines()[0].split(maxsplit=1)[1].startswith('dialog "Newsletter"')
    cli("click", 'role=button label="Close dialog"')
    assert cli("is", "absent", "role=dialog").returncode == 0


def test_an_element_inside_a_same_origin_iframe_is_acted_on(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "frames")
    cli("fill", "id=question", "Where is my mug?", "--session", "frames")
    cli("click", "id=ask", "--session", "frames")
    assert "We will reply soon" in cli("get", "text", "id=answer", "--session", "frames").stdout
    assert cli("get", "value", "id=question", "--session", "frames").stdout.strip().endswith("Where is my mug?")
    cli("close", "--session", "frames")
