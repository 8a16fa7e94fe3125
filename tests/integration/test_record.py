"""`replay record` (SPEC §16): a person records by using the app — here a test's hands on the page
through the recorder's DevTools endpoint (trusted mouse and keyboard input, as a person's), never
`replay click`. Real Chromium, real daemon, the real fixture apps."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPLAY, Cli, wait_until
from .recording import Recording, replays_clean

pytestmark = pytest.mark.xdist_group("record")


def test_a_flow_recorded_by_clicking_and_typing_replays_on_its_app_and_three_other_implementations(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/todomvc/vanillajs/index.html", "todo")
    rec.click("#new-todo")
    rec.steps()
    rec.enter("milk")  # the field's text as one fill, then the key
    rec.enter("eggs")
    rec.click("#todo-list li:nth-child(1) .toggle")
    (ticked,) = rec.steps()
    assert ticked["line"].startswith("check ") and "milk" in ticked["line"] and "nth=" not in ticked["line"]
    rec.page.hover("#todo-list li:nth-child(2)")  # its delete button shows only while the row is hovered
    rec.click("#todo-list li:nth-child(2) .destroy")
    hovered, deleted = rec.steps(2)
    assert hovered["line"].startswith("hover ") and "eggs" in hovered["line"]
    assert deleted["line"].startswith("click ") and 'a listitem "eggs" disappeared' in deleted["effect"]
    rec.click("#todo-list li:nth-child(1) label", double=True)
    rec.steps(2)  # the double click's first click, then the double click (what the app heard, in order)
    rec.press("End")
    edited, _ = rec.enter(" and oats")
    assert edited["line"].startswith("fill ") and edited["line"].endswith('"milk and oats"')
    assert rec.stop()["script"] == str(out)
    script = out.read_text()
    assert script.count("press Enter") == 3 and "nth=" not in script
    for app in ("vanillajs", "backbone", "knockoutjs", "vue"):
        other = out.with_name(f"{app}.ad")
        other.write_text(script.replace("todomvc/vanillajs", f"todomvc/{app}"))
        assert cli("run", str(other), ok=None).returncode == 0, (app, cli("run", str(other), ok=None).stdout)


def test_the_app_hears_a_persons_click_once_as_replay_performs_it(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/pantry/index.html", "pantry")
    rec.click("#item")
    rec.steps()
    rec.type("jam")
    rec.click("button[type=submit]")
    filled, stocked = rec.steps(2)
    assert filled["line"].startswith("fill ") and stocked["line"].startswith("click ")
    assert rec.page.locator("#shelf li").count() == 1  # held from the app, then performed once by replay
    assert 'a listitem "jam" appeared' in stocked["effect"]
    rec.stop()
    assert cli("run", str(out), ok=None).returncode == 0


def test_a_typed_password_is_a_variable_and_appears_nowhere_on_disk(cli: Cli, web: str, recorder: Any) -> None:
    secret = "Zq9-hand-typed"
    rec, out = recorder(f"{web}/banking/v1/login.html", "bank")
    rec.click("#email")
    rec.steps()
    rec.type("ada@example.com")
    rec.click("#password")
    rec.steps(2)
    rec.type(secret)
    rec.click("button[type=submit]")
    rec.steps(2)
    stopped = rec.stop()
    assert stopped["variables"] == ["PASSWORD"]
    script = out.read_text()
    assert 'fill "id=\\"password\\"' in script and '"${PASSWORD}"' in script
    printed = json.dumps(rec.seen)
    assert secret not in printed
    for path in [*Path(cli.home).rglob("*"), *Path(cli.cwd).rglob("*")]:
        if path.is_file():
            assert secret.encode() not in path.read_bytes(), path
    assert cli("run", str(out), "-e", f"PASSWORD={secret}", ok=None).returncode == 0


def test_from_n_replays_the_steps_before_it_then_records_on_and_never_writes_the_flow(
    cli: Cli, web: str, recorder: Any
) -> None:
    url = f"{web}/todomvc/vanillajs/index.html"
    rec, flow = recorder(url, "first")
    rec.click("#new-todo")
    rec.steps()
    for item in ("milk", "eggs"):
        rec.enter(item)
    rec.stop()
    flow.write_text("# milk first\ncontext timeout=4000\n" + flow.read_text())  # (its header is the output's)
    before = flow.read_bytes()
    more, out = recorder(str(flow), "more", "--from", "5", url=url)  # open, click, fill "milk", Enter: replayed
    assert more.page.locator("#todo-list li").all_inner_texts() == ["milk"]
    filled, _ = more.enter("bread")
    assert filled["step"] == 5 and filled["line"].endswith('"bread"')  # numbered as the script numbers it
    more.stop()
    assert flow.read_bytes() == before
    text = out.read_text()
    assert '"milk"' in text and '"bread"' in text and '"eggs"' not in text
    assert text.startswith("# milk first\ncontext platform=web\ncontext timeout=4000\n") or text.startswith(
        "# milk first\ncontext timeout=4000\ncontext platform=web\n"
    ), text[:120]
    assert cli("run", str(out), ok=None).returncode == 0


def test_a_step_only_position_tells_apart_is_warned_about_as_it_is_recorded(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/todomvc/vanillajs/index.html", "twins")
    rec.click("#new-todo")
    rec.steps()
    for _ in range(2):
        rec.enter("milk")
    rec.click("#todo-list li:nth-child(2) .toggle")
    (ticked,) = rec.steps()
    assert "warning" in ticked and "recorded by position" in ticked["warning"]
    rec.stop()


def test_a_modal_dialog_a_component_an_iframe_and_a_select_are_recorded_and_replay(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/shop/index.html", "shop")
    rec.click("[data-testid=add-teapot]")
    rec.steps()
    rec.click("#open-newsletter")
    rec.steps()
    rec.click("#newsletter input")
    rec.steps()
    rec.type("ada@example.com")
    rec.click("#newsletter button[value=ok]")
    _, subscribed = rec.steps(2)
    assert 'a dialog "Newsletter" disappeared' in subscribed["effect"]
    rec.click("shop-rating >> internal:role=button[name='Thumbs up']")
    (rated,) = rec.steps()
    assert "Thumbs up" in rated["line"]
    frame = rec.page.frame_locator("iframe[title='Support chat']")
    box = frame.locator("#question").bounding_box()
    assert box is not None
    rec.page.mouse.click(box["x"] + 5, box["y"] + 5)
    rec.steps()
    rec.type("When?")
    ask = frame.locator("#ask").bounding_box()
    assert ask is not None
    rec.page.mouse.click(ask["x"] + 5, ask["y"] + 5)
    asked, _ = rec.steps(2)
    assert asked["line"].startswith("fill ") and asked["line"].endswith('"When?"')
    rec.click("#go-checkout")
    (went,) = rec.steps()
    assert "checkout.html" in went.get("effect", ""), json.dumps(rec.seen[-4:])
    rec.click("#country")  # a native select's list opens on the person's press (held: nothing)
    for key in ("ArrowDown", "ArrowDown", "Enter"):  # the choice is held from the app, put back, and
        rec.press(key)  # chosen again by replay
    (chosen,) = rec.steps()
    assert chosen["line"].startswith("select ") and chosen["line"].endswith('"France"')
    rec.stop()
    replays_clean(cli, out)


def test_closing_the_window_or_replay_close_publishes_and_the_recorder_ends(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/pantry/index.html", "window")
    rec.click("#save")
    rec.steps()
    rec.page.close()  # the person closes the window
    stopped = rec.next_event()
    assert stopped == {"event": "stopped", "script": str(out), "variables": []}
    assert rec.proc.wait(timeout=30) == 0 and "click" in out.read_text()
    rec.let_go()
    other, elsewhere = recorder(f"{web}/pantry/index.html", "elsewhere")
    other.click("#save")
    other.steps()
    cli("close", "--session", "elsewhere")  # from another terminal
    assert other.next_event()["event"] == "stopped" and other.proc.wait(timeout=30) == 0
    assert "click" in elsewhere.read_text()


def test_the_bar_picks_asserts_and_stops_and_no_capture_contains_it(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/pantry/index.html", "bar")
    rec.bar("pick")
    box = rec.page.locator("#save").bounding_box()
    assert box is not None
    rec.page.mouse.move(box["x"] + 5, box["y"] + 5)  # Pick says what replay would write, before any act
    assert wait_until(lambda: 'label=\\"Save shelf\\"' in rec.bar_says() or 'label="Save shelf"' in rec.bar_says())
    rec.page.mouse.click(box["x"] + 5, box["y"] + 5)  # a click while picking performs nothing
    rec.bar("pick")
    rec.bar("assert-text")
    rec.click("h1")
    (asserted,) = rec.steps()
    assert (asserted["line"] or "").startswith("is text "), rec.seen[-2:]
    assert asserted["line"].endswith('"Pantry"')
    seen = cli("snapshot", "--session", "bar").stdout
    assert "Pick" not in seen and "Assert" not in seen and "Stop" not in seen
    rec.bar("stop")
    assert rec.next_event()["event"] == "stopped" and rec.proc.wait(timeout=30) == 0
    script = out.read_text()
    assert "is text" in script and "click" not in script.split("is text")[0].split("open ")[1]
    assert cli("run", str(out), ok=None).returncode == 0


def test_an_app_that_acts_on_keyup_hears_a_held_key_once(cli: Cli, web: str, recorder: Any) -> None:
    rec, _ = recorder(f"{web}/todomvc/vue/index.html", "keyup")  # Vue's TodoMVC adds on keyup.enter
    rec.click("#new-todo")
    rec.steps()
    rec.enter("milk")
    assert rec.page.locator("#todo-list li").all_inner_texts() == ["milk"]
    rec.stop()


def test_a_recording_that_cannot_start_says_why_and_leaves_no_session(cli: Cli) -> None:
    started = cli("record", "http://127.0.0.1:1/nothing", "--headless", "--session", "nowhere", ok=None)
    assert started.returncode == 1 and "ACTION_FAILED" in started.stderr and "Traceback" not in started.stderr
    assert "nowhere" not in cli("session", "list").stdout


def test_a_confirm_dialog_the_person_answers_is_recorded_as_alert_accept_and_replays(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/shop/index.html", "confirm")
    rec.click("[data-testid=add-teapot]")
    added = rec.steps()[0]
    assert 'click id="add-teapot"' in added["line"] and rec.page.locator("#cart-count").inner_text() == "1 item", added
    rec.click("#go-checkout")
    assert 'click id="go-checkout"' in rec.steps()[0]["line"]
    with rec.page.expect_event("dialog") as shown:  # the person sees the confirm replay's click opened
        rec.click("#empty-cart")
    assert shown.value.message == "Empty the cart?"
    shown.value.accept()  # … and presses OK
    clicked, answered = rec.steps(2)
    assert "a confirm dialog opened: 'Empty the cart?'" in clicked["effect"], clicked
    assert answered["line"] == 'alert accept --message "Empty the cart?"', answered
    assert wait_until(lambda: rec.page.locator("#cart-count").inner_text() == "0 items")
    rec.bar("assert-text")
    rec.click("#cart-count")
    rec.steps()
    rec.stop()
    script = out.read_text(encoding="utf-8")
    assert 'click id="empty-cart"' in script and '\nalert accept --message "Empty the cart?"\n' in script, script
    assert cli("run", str(out), ok=None).returncode == 0
    out.write_text(script.replace("\nalert accept ", "\nalert dismiss "), encoding="utf-8")
    dismissed = cli("run", str(out), ok=None)  # the answer is what the script says: Cancel keeps the cart
    assert dismissed.returncode != 0 and '"1 item"' in dismissed.stdout + dismissed.stderr, (script, dismissed)


def test_a_dialog_in_a_tab_the_app_opened_is_heard_when_the_person_answers_it(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/shop/checkout.html", "popup-confirm")
    with rec.page.context.expect_page() as opened:
        rec.click("text=Help (opens a tab)")
    rec.steps()
    rec.page = opened.value
    rec.page.wait_for_load_state()
    with rec.page.expect_event("dialog") as shown:  # in the new tab, in front
        rec.click("#call-back")
    shown.value.accept()
    clicked, answered = rec.steps(2)
    assert "a confirm dialog opened: 'Call you back?'" in clicked["effect"], clicked
    assert answered["line"] == 'alert accept --message "Call you back?"', answered
    rec.stop()
    replays_clean(cli, out)


def test_a_drag_and_drop_is_recorded_by_both_ends_and_replays_with_another_drag_library(
    cli: Cli, web: str, recorder: Any, tmp_path: Path
) -> None:
    rec, out = recorder(f"{web}/board/sortable.html", "drag")  # SortableJS: HTML5 drag events
    rec.drag("#todo li:nth-child(2)", "#done")
    held, dropped = rec.steps(2)
    assert held["line"].startswith("drag ") and "Fix login" in held["line"], held
    assert dropped["line"].startswith("drop ") and "Done" in dropped["line"], dropped
    assert "Moved Fix login to Done" in dropped.get("effect", ""), dropped
    assert rec.page.locator("#done").inner_text().split() == ["Plan", "sprint", "Fix", "login"]
    rec.stop()
    assert cli("run", str(out), ok=None).returncode == 0
    other = tmp_path / "dragula.ad"  # dragula: mouse events and a mirror of its own, other markup
    other.write_text(out.read_text(encoding="utf-8").replace("board/sortable.html", "board/dragula.html"))
    replays_clean(cli, other)


def test_a_tab_the_app_opens_is_followed_and_going_back_to_the_first_is_recorded_as_tab_1(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/shop/checkout.html", "popup")
    first = rec.page
    with first.context.expect_page() as opened:  # a link to a new tab: it comes to the front
        rec.click("text=Help (opens a tab)")
    (clicked,) = rec.steps()
    assert clicked["line"].startswith("click ") and "Help (opens a tab)" in clicked["line"], clicked
    assert "a tab opened and came to the front: tab 2" in clicked["effect"], clicked  # (however late it came)
    rec.page = opened.value
    rec.page.wait_for_load_state()
    rec.click("text=Back to products")  # in the new tab
    (went,) = rec.steps()  # acted on in the new tab, in front: no `tab` step before it
    assert went["line"].startswith("click ") and "Back to products" in went["line"], went
    rec.page = first  # back in the first tab
    rec.click("#name")
    front, _ = rec.steps(2)
    assert front["line"] == "tab 1", front
    rec.type("Ada")
    rec.click("#terms")
    filled, checked = rec.steps(2)
    assert [filled["line"].split()[0], checked["line"].split()[0]] == ["fill", "check"]
    rec.stop()
    replays_clean(cli, out)


@pytest.mark.parametrize("name", ["banking", "material", "element-e2"])
def test_a_flow_recorded_by_hand_on_a_component_kit_replays_clean_on_its_own_and_its_other_major_version(
    cli: Cli, web: str, tmp_path: Path, name: str
) -> None:
    from playwright.sync_api import sync_playwright

    from fixtures.drift.by_hand import SECRETS, record_by_hand
    from fixtures.drift.corpus import Cli as CorpusCli
    from fixtures.drift.corpus import cases, run_case

    corpus = CorpusCli(REPLAY, cli.env["REPLAY_HOME"], tmp_path)
    corpus.env.update(SECRETS)
    mine = [c for c in cases() if c.recording.name == name and c.expect == "clean"]  # its versions, itself
    assert len(mine) >= 2, [c.name for c in mine]
    out = tmp_path / f"{name}.ad"
    with sync_playwright() as pw:
        record_by_hand(corpus, pw, f"{web}/{mine[0].recording.url}", name, out)
    outcomes = [run_case(corpus, case, out, tmp_path) for case in mine]
    assert [(o.case.name, o.result) for o in outcomes] == [(c.name, "clean") for c in mine]


def test_a_context_click_is_recorded_and_opens_the_apps_own_menu_on_replay(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/board/menu.html", "menu")  # Tabulator's row context menu
    box = rec.page.get_by_role("gridcell", name="Grace").bounding_box()
    assert box is not None
    rec.page.mouse.click(box["x"] + 5, box["y"] + 5, button="right")
    (opened,) = rec.steps()
    assert opened["line"].startswith("click ") and opened["line"].endswith(" --button right"), opened
    assert "Grace" in opened["line"]
    rec.click(".tabulator-menu-item:has-text('Archive')")
    (archived,) = rec.steps()
    assert "Archived Grace" in archived.get("effect", ""), archived
    rec.stop()
    replays_clean(cli, out)


class Chooser:
    """The browser's file chooser, answered as a person answers it: the chosen file with its path."""

    def __init__(self, rec: Recording) -> None:
        self.cdp = rec.page.context.new_cdp_session(rec.page)
        self.cdp.send("Page.enable")
        self.cdp.send("Page.setInterceptFileChooserDialog", {"enabled": True})
        self.opened: list[int] = []
        self.cdp.on("Page.fileChooserOpened", lambda e: self.opened.append(int(e["backendNodeId"])))

    def choose(self, path: Path) -> None:
        assert wait_until(lambda: bool(self.cdp.send("Runtime.evaluate", {"expression": "1"})) and bool(self.opened))
        self.cdp.send("DOM.setFileInputFiles", {"files": [str(path)], "backendNodeId": self.opened.pop()})


@pytest.mark.parametrize(
    ("page", "control", "clicks"),
    [("shop/checkout.html", "#receipt", 0), ("board/upload.html", "button:has-text('Attach receipt')", 1)],
    ids=["file input", "Element Plus el-upload"],
)
def test_a_file_chosen_in_the_browsers_chooser_is_recorded_as_upload_and_replays(
    cli: Cli, web: str, recorder: Any, page: str, control: str, clicks: int
) -> None:
    receipt = Path(cli.cwd) / "receipt.txt"
    receipt.write_text("paid\n", encoding="utf-8")
    rec, out = recorder(f"{web}/{page}", "upload")
    chooser = Chooser(rec)
    rec.click(control)  # a file input's press opens the chooser; a library's button is a step that opens it
    rec.steps(clicks)
    chooser.choose(receipt)
    (uploaded,) = rec.steps()
    assert uploaded["line"].startswith("upload ") and uploaded["line"].endswith(' "receipt.txt"'), uploaded
    assert "Attached receipt.txt" in uploaded.get("effect", ""), uploaded
    rec.stop()
    replays_clean(cli, out)


def test_typing_in_a_rich_text_editor_is_written_by_the_editor_not_its_new_text_and_the_last_text_at_stop(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/notes/q2/index.html", "editor")  # Quill 2
    rec.click(".ql-editor")
    rec.steps()
    rec.type("Ship it on Friday")
    rec.click("#save")
    typed, saved = rec.steps(2)
    assert typed["line"] == 'type "Ship it on Friday"', typed
    assert "Saved: <p>Ship it on Friday</p>" in saved.get("effect", ""), saved
    rec.click(".ql-editor")  # (its caret after the text)
    rec.steps()
    rec.type(" and Monday")  # … and Ctrl+C before the editor was left: the text is written, not lost
    stopped = rec.stop()
    assert stopped["script"] == str(out)
    script = out.read_text(encoding="utf-8")
    assert '\ntype "Ship it on Friday"\n' in script and '\ntype " and Monday"\n' in script, script
    first_click = next(line for line in script.splitlines() if line.startswith("click"))
    assert "Ship it" not in first_click, script  # the editor as it was before its text
    replays_clean(cli, out)


def test_a_click_on_the_label_a_component_paints_its_hidden_checkbox_on_is_that_checkbox(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/element/e2/index.html", "painted")  # Element: the native input hidden at 0×0
    rec.click("text=Admins only")
    (checked,) = rec.steps()
    assert checked["line"].startswith("check ") and 'role=checkbox label="Admins only"' in checked["line"], checked
    assert rec.page.locator("input[type=checkbox]").first.is_checked()  # the app got the person's click
    rec.stop()
    assert cli("run", str(out), ok=None).returncode == 0
    upgraded = out.with_name("painted-e3.ad")
    upgraded.write_text(out.read_text(encoding="utf-8").replace("/element/e2/", "/element/e3/"), encoding="utf-8")
    assert cli("run", str(upgraded), ok=None).returncode == 0


def test_text_typed_into_a_typeahead_that_navigates_by_itself_is_written_before_the_navigation(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/hostile/typeahead.html", "typeahead")
    rec.click("#q")
    rec.steps()
    rec.type("gre")  # … and the page goes to its results by itself
    (typed,) = rec.steps()
    assert typed["command"] == "fill" and typed["line"].endswith('"gre"'), typed
    assert wait_until(lambda: "Teas for gre" in rec.page.locator("h1").inner_text())
    rec.click("text=Green tea")
    (chosen,) = rec.steps()
    assert "Green tea" in chosen["line"]
    rec.stop()
    lines = [line for line in out.read_text(encoding="utf-8").splitlines() if not line.startswith("#")]
    assert [line.split()[0] for line in lines] == ["context", "open", "click", "fill", "click", "close"], lines
    replays_clean(cli, out)


def test_a_click_inside_a_label_in_a_components_shadow_root_is_the_control_it_labels(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/shadow/index.html", "shadow-label")  # Shoelace: label and input in its shadow root
    rec.page.locator("#terms").evaluate("el => el.updateComplete")
    rec.click("#terms [part~=control]")  # its box, drawn inside the label in its shadow root
    (checked,) = rec.steps()
    assert checked["line"].startswith("check ") and 'label="I accept the terms"' in checked["line"], checked
    assert 'id="x-' not in checked["line"] and "role=generic" not in checked["line"], checked
    rec.click("#go")
    (went,) = rec.steps()
    assert "Accepted" in went.get("effect", ""), went
    rec.stop()
    replays_clean(cli, out)


def test_typing_into_a_field_that_suggests_as_you_type_is_written_as_type_and_picks_on_replay(
    cli: Cli, web: str, recorder: Any
) -> None:
    rec, out = recorder(f"{web}/widgets/tags/c9/index.html", "suggests")  # Choices.js 9: it filters on keys
    rec.click("#order .choices input >> nth=0")  # the Toppings field
    rec.steps()
    rec.type("Onio")
    rec.press("Enter")  # the suggestion it shows is picked
    typed, _ = rec.steps(2)
    assert typed["line"] == 'type "Onio"', typed
    rec.press("Escape")
    rec.steps()
    rec.click("#save")
    (saved,) = rec.steps()
    assert "Saved: onions; none" in saved.get("effect", ""), [(e.get("step"), e.get("line")) for e in rec.seen]
    rec.stop()
    replays_clean(cli, out)


def test_an_edit_of_an_editors_text_is_a_fill_of_the_editor_as_it_was(cli: Cli, web: str, recorder: Any) -> None:
    rec, out = recorder(f"{web}/widgets/json/j9/index.html", "editor-edit")  # JSONEditor: contenteditable cells
    rec.click(".jsoneditor-value >> text=London")
    rec.steps()
    rec.press("Control+A")
    rec.type("Paris")  # London's text replaced, not added to
    rec.click("#save")
    filled, saved = rec.steps(2)
    assert filled["command"] == "fill" and filled["line"].endswith('"Paris"') and "London" in filled["line"], filled
    assert "Paris" in saved.get("effect", ""), saved
    rec.stop()
    replays_clean(cli, out)


def test_enter_in_a_one_line_editor_is_a_press_after_the_text_typed_there(cli: Cli, web: str, recorder: Any) -> None:
    # Tagify 3's tag input: a contenteditable span that says aria-multiline="false"; Enter makes the tag
    rec, out = recorder(f"{web}/widgets/labels/t3/index.html", "tag-enter")
    rec.click(".tagify__input")
    rec.steps()
    rec.page.keyboard.type("sauce", delay=60)
    rec.press("Enter")
    typed, pressed = rec.steps(2)
    assert typed["line"] == 'type "sauce"' and pressed["line"] == "press Enter", rec.seen  # (every event, in order)
    assert 'generic "sauce" appeared' in pressed.get("effect", ""), pressed  # the tag beside it: its effect
    rec.bar("assert-text")
    rec.click("tag[title=sauce]")
    rec.steps()
    rec.stop()
    replays_clean(cli, out)  # the tag is made again, and the assertion on it holds


def test_a_click_in_what_resting_on_an_element_showed_is_written_after_a_hover_of_it(
    cli: Cli, web: str, recorder: Any
) -> None:
    # Tippy.js 6: "Share"'s tooltip exists only while the pointer rests on it; "Copy link" is in it
    rec, out = recorder(f"{web}/tooltip/index.html", "tooltip")
    share = rec.page.locator("#share").bounding_box()
    assert share is not None
    rec.page.mouse.move(share["x"] + share["width"] / 2, share["y"] + share["height"] / 2)
    rec.page.locator("text=Copy link").wait_for()
    rec.click("text=Copy link")
    hovered, clicked = rec.steps(2)
    assert hovered["line"].startswith("hover ") and "Share" in hovered["line"], hovered
    assert "Copy link" in clicked["line"] and "Link copied" in clicked.get("effect", ""), clicked
    rec.stop()
    replays_clean(cli, out)


def test_text_typed_into_a_code_editors_lines_by_hand_is_written_and_replays(cli: Cli, web: str, recorder: Any) -> None:
    # CodeMirror 5: a person clicks into the editor's drawn lines (its real input is a hidden textarea)
    rec, out = recorder(f"{web}/firstsight/snippet.html", "code-editor")
    rec.click(".CodeMirror-lines")
    rec.steps()
    rec.page.keyboard.type("print(1)", delay=60)
    rec.click("#save")
    rec.steps(2)
    rec.stop()
    script = out.read_text()
    print(script)
    # the text goes into the editor's one textbox, by its role alone (the page is its scope): never by its
    # focus, which the unwritable click on the drawn lines gave it (said as a comment) and a replay has not
    assert 'fill role=textbox "print(1)"' in script and "focused" not in script, script
    replays_clean(cli, out)


def test_a_suggestion_re_rendered_before_its_click_is_performed_is_clicked_once(
    cli: Cli, web: str, recorder: Any
) -> None:
    # accessible-autocomplete 2: "Fr" typed, then the suggestion "France" clicked. The click first writes
    # the typing, whose keys replay types again — the list is drawn anew, so replay's click lands on a new
    # "France" element, which is replay's own input, not a second click of the person's
    rec, out = recorder(f"{web}/widgets/country/c2/index.html", "suggestion-once")
    rec.click("#country")
    rec.steps()
    rec.page.keyboard.type("Fr", delay=60)
    rec.click("#country__listbox li >> text=France")
    typed, picked = rec.steps(2)
    assert typed["line"] == 'type "Fr"' and "France" in picked["line"], (typed, picked)
    rec.click("#save")
    rec.steps()
    rec.stop()
    clicks = [line for line in out.read_text().splitlines() if line.startswith("click role=option")]
    assert len(clicks) == 1, out.read_text()
    replays_clean(cli, out)


def test_text_typed_into_a_field_whose_page_answers_each_key_is_written_as_keys(
    cli: Cli, web: str, recorder: Any
) -> None:
    # simple-datatables 3 filters its table on keyup: a fill sends no key, so the typing is written as keys
    rec, out = recorder(f"{web}/widgets/books/d3/index.html", "answers-keys")
    rec.click("input[placeholder='Search...']")
    rec.steps()
    rec.page.keyboard.type("Lem", delay=60)
    rec.click("#save")
    typed, _ = rec.steps(2)
    assert typed["line"] == 'type "Lem"', typed
    rec.stop()
    replays_clean(cli, out)  # (with a fill the table stays whole, and the effect "First: Solaris" is missing)


def test_a_click_on_a_tabs_text_is_written_as_a_click_on_the_tab(cli: Cli, web: str, recorder: Any) -> None:
    # jQuery UI 1.10: the tab's text is a link made presentational inside the <li role="tab">; 1.14 moved it
    rec, out = recorder(f"{web}/widgets/trip/q10/index.html", "tab-text")
    rec.click("a:text('Hotels')")
    (clicked,) = rec.steps()
    assert clicked["line"].split(" || ")[0] == 'click role=tab label="Hotels"', clicked  # (not `>> text="Hotels"`)
    rec.stop()
    replays_clean(cli, out)


def test_an_option_a_library_numbers_anew_each_time_it_draws_its_list_is_not_recorded_by_that_number(
    cli: Cli, web: str, recorder: Any
) -> None:
    # Select2 3.5 numbers every result it draws (select2-result-label-N): the one option left after "Lon" is
    # typed carries a count of the lists drawn on the way — the family its first list showed says made up
    rec, out = recorder(f"{web}/widgets/ship/s3/index.html", "numbered-options")
    rec.click("#s2id_from a")
    rec.steps()
    rec.page.keyboard.type("Lon", delay=60)
    rec.page.mouse.move(0, 0)
    rec.click(".select2-drop-active .select2-result-label >> text=London")
    *_, picked = rec.steps(2)
    assert "select2-result-label" not in picked["line"] and "London" in picked["line"], picked
    rec.click("#save")
    rec.steps()
    rec.stop()
    replays_clean(cli, out)


def test_a_press_on_a_part_of_a_composed_control_is_written_as_that_control_and_replays_on_its_next_major(
    cli: Cli, web: str, recorder: Any
) -> None:
    # Ionic 6: a hidden <input> lies over the ion-checkbox, a <label> over the ion-select's host button — the
    # person presses those; the control is the host the snapshot lists (Ionic 8 keeps the host, drops the input)
    rec, out = recorder(f"{web}/widgets/order/i6/index.html", "composed-parts")
    rec.click("#terms")
    (checked,) = rec.steps()
    assert checked["line"].startswith('check id="terms"') and " >> " not in checked["line"], checked  # (not inside it)
    rec.click("#size")
    (opened,) = rec.steps()
    assert opened["line"].startswith('click id="size"'), opened
    rec.page.keyboard.press("Escape")
    rec.stop()
    replays_clean(cli, out)
    upgraded = out.with_name("composed-parts-i8.ad")
    upgraded.write_text(out.read_text(encoding="utf-8").replace("/order/i6/", "/order/i8/"), encoding="utf-8")
    replays_clean(cli, upgraded)
