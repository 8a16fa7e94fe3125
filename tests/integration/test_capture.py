"""Tree capture on real Chromium against the fixture shop."""

from __future__ import annotations

from typing import Any

from replay.drivers.base import Check, Click, Fill, OpenRequest, Read
from replay.tree.identity import record_evidence
from replay.tree.model import F_DOM_ID, F_OVERLAY, Capture

from .conftest import Chromium


def _labels(cap: Capture) -> set[tuple[str, str | None]]:
    return {(n.role, n.label) for n in cap.nodes}


def test_capture_walks_open_shadow_roots(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/index.html") as d:
            return await d.capture(1)

    cap = chromium.run(go)
    assert ("group", "Rate us") in _labels(cap)
    up = next(n for n in cap.nodes if n.label == "Thumbs up")
    assert up.parent_node is not None and up.parent_node.label == "Rate us"


def test_capture_walks_same_origin_iframes_with_frame_offsets(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/index.html") as d:
            return await d.capture(1)

    cap = chromium.run(go)
    ask = next(n for n in cap.nodes if n.label == "Ask")
    frame = next(n for n in cap.nodes if n.label == "Support chat")
    assert ask.frame == 1 and frame in list(ask.iterancestors())
    fx, fy, fw, fh = frame.rect
    cx, cy = ask.center
    assert fx <= cx <= fx + fw and fy <= cy <= fy + fh


def test_capture_computes_roles_labels_ids_and_flags(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/checkout.html") as d:
            return await d.capture(1)

    cap = chromium.run(go)
    by = {n.label: n for n in cap.nodes if n.label}
    assert by["Email"].role == "textbox" and by["Email"].test_id == "email" and by["Email"].editable
    assert by["Full name"].placeholder == "Ada Lovelace"
    assert by["Country"].role == "combobox"
    assert by["I accept the terms"].role == "checkbox" and not by["I accept the terms"].checked
    assert by["Place order"].test_id == "place-order"
    assert by["Full name"].hittable and not by["Place order"].hittable  # clipped by its scrolling panel
    assert any(n.role == "region" and n.label == "Order form" and n.scrollable for n in cap.nodes)
    assert by["Delivery notes"].placeholder == "Notes for the courier"
    assert by["Checkout"].role in ("form", "heading")
    assert any(n.role == "form" and n.label == "Checkout" for n in cap.nodes)


def test_icon_only_button_is_named_by_aria_label(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/index.html") as d:
            return await d.capture(1)

    cart = next(n for n in chromium.run(go).nodes if n.test_id == "cart-button")
    assert cart.role == "button" and cart.label == "Cart"


def test_closed_dialog_and_layout_wrappers_are_pruned(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/index.html") as d:
            return await d.capture(1)

    cap = chromium.run(go)
    assert not any(n.label == "Newsletter" and n.role == "dialog" for n in cap.nodes)
    link = next(n for n in cap.nodes if n.test_id == "go-checkout")
    assert link.parent_node is not None and link.parent_node.role == "main"  # three wrapper divs lifted


def test_password_values_are_masked_in_the_capture(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/checkout.html") as d:
            cap = await d.capture(1)
            pw = next(n for n in cap.nodes if n.label == "Password")
            await d.act(1, pw.position, Fill("hunter2-secret"), 5000)
            return await d.capture(2)

    cap = chromium.run(go)
    pw = next(n for n in cap.nodes if n.label == "Password")
    assert pw.value == "•••"
    assert all("hunter2" not in (n.value or "") for n in cap.nodes)


def test_a_document_without_a_root_element_yet_captures_as_an_empty_tree(web: str, chromium: Chromium) -> None:
    # a navigation's first instant: the old document is being replaced (a wait polling then failed)
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/index.html") as d:
            await d.page.evaluate("() => document.documentElement.remove()")
            return await d.capture(1)

    cap = chromium.run(go)
    assert [n.role for n in cap.nodes] == ["document"]


def test_capture_never_mutates_the_dom(web: str, chromium: Chromium) -> None:
    async def go() -> tuple[str, str, int]:
        async with chromium.page(f"{web}/shop/index.html") as d:
            page = d.page
            await page.evaluate(
                "() => { window.__mut = 0; new MutationObserver(m => window.__mut += m.length)"
                ".observe(document, {subtree: true, childList: true, attributes: true, characterData: true}); }"
            )
            before = await page.evaluate("() => document.documentElement.outerHTML")
            await d.capture(1)
            await d.capture(2)
            after = await page.evaluate("() => document.documentElement.outerHTML")
            await page.wait_for_timeout(50)
            return before, after, await page.evaluate("() => window.__mut")

    before, after, mutations = chromium.run(go)
    assert before == after and mutations == 0


def test_role_and_name_agree_with_playwright_get_by_role(web: str, chromium: Chromium) -> None:
    async def go() -> list[Any]:
        problems = []
        for path in ("shop/index.html", "shop/checkout.html"):
            async with chromium.page(f"{web}/{path}") as d:
                cap = await d.capture(1)
                for n in cap.nodes[1:]:
                    if not n.label or n.role == "generic" or n.frame:
                        continue
                    ours = await (await d._located(1, n.position)).element_handle()
                    loc = d.page.get_by_role(n.role, name=n.label, exact=True)  # type: ignore[arg-type]
                    count = await loc.count()
                    same = False
                    for i in range(count):
                        theirs = await loc.nth(i).element_handle()
                        same = same or await d.page.evaluate("([a, b]) => a === b", [ours, theirs])
                    if not same:
                        problems.append((path, n.role, n.label, count))
        return problems

    assert chromium.run(go) == []


def test_identical_buttons_in_distinct_cards_get_distinct_ancestry(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:
        async with chromium.page(f"{web}/shop/index.html") as d:
            return await d.capture(1)

    cap = chromium.run(go)
    adds = [n for n in cap.nodes if n.label == "Add to cart"]
    assert len(adds) == 3
    cards = [record_evidence(cap, n).ancestry[0].label for n in adds]
    assert cards == ["Teapot", "Kettle", "Mug"]


FIXTURE_PAGES = (
    "shop/index.html",
    "shop/checkout.html",
    "shop/help.html",
    "members/v1/index.html",
    "members/table/index.html",
    "drift/duplicated/checkout.html",
    "ops/index.html",
)


def test_every_visible_actionable_node_of_every_fixture_page_materializes_to_exactly_itself(
    web: str, chromium: Chromium
) -> None:
    from replay.script.selector import format_selector
    from replay.tree.match import resolve
    from replay.tree.materialize import materialize

    async def go() -> tuple[int, list[str]]:
        checked, wrong = 0, []
        for path in FIXTURE_PAGES:
            async with chromium.page(f"{web}/{path}") as d:
                cap = await d.capture(1)
            for node in cap.nodes[1:]:
                if not (node.visible and node.actionable):
                    continue
                checked += 1
                m = materialize(cap, node)
                if m.selector is None or resolve(cap, m.selector).winner is not node:
                    wrong.append(f"{path} {node.ref} {format_selector(m.selector) if m.selector else None}")
        return checked, wrong

    checked, wrong = chromium.run(go)
    print(f"materialized {checked} visible actionable nodes on {len(FIXTURE_PAGES)} fixture pages")
    assert wrong == [] and checked >= 50  # 60 today: the loop must not pass by checking nothing


def test_a_browser_without_cdp_captures_the_same_tree_through_evaluate(web: str, chromium: Chromium) -> None:
    from lxml import etree

    async def go() -> tuple[bytes, bytes, bytes]:
        async with chromium.page(f"{web}/shop/index.html") as d:
            through_cdp = etree.tostring((await d.capture(1)).root)
            d._cdp, d._cdp_usable = None, False  # as on Firefox or WebKit
            through_evaluate = etree.tostring((await d.capture(1)).root)
            await d.navigate(OpenRequest(target=f"{web}/shop/checkout.html"), 5000)  # a new document: compiled again
            return through_cdp, through_evaluate, etree.tostring((await d.capture(2)).root)

    through_cdp, through_evaluate, after = chromium.run(go)
    assert through_cdp == through_evaluate and b"Place order" in after


def test_a_node_captured_through_evaluate_is_acted_on_in_the_main_world(web: str, chromium: Chromium) -> None:
    async def go() -> tuple[str, Any]:
        async with chromium.page(f"{web}/shop/checkout.html") as d:
            d._cdp_usable = False  # as on Firefox or WebKit
            cap = await d.capture(1)
            email = next(n for n in cap.nodes if n.label == "Email")
            await d.act(1, email.position, Fill("ada@example.com"), 5000)
            return d._world_of[1], await d.act(1, email.position, Read("value"), 5000)

    assert chromium.run(go) == ("main", "ada@example.com")


def test_page_scripts_that_replace_built_ins_cannot_break_a_capture(web: str, chromium: Chromium) -> None:
    async def go() -> tuple[str, Capture]:
        async with chromium.page(f"{web}/shop/checkout.html") as d:
            await d.page.evaluate(
                "() => { JSON.stringify = () => '{}'; Array.prototype.push = function () { throw new Error('no'); };"
                " window.Map = function () { throw new Error('no'); }; String.prototype.trim = () => 'x'; }"
            )
            cap = await d.capture(1)
            return d._world_of[1], cap

    world, cap = chromium.run(go)
    assert world == "utility"  # Playwright's isolated world: the page's globals are not ours
    assert ("button", "Place order") in _labels(cap)


def test_after_a_navigation_a_capture_finds_its_world_without_replaying_the_console(
    web: str, chromium: Chromium
) -> None:
    async def go() -> tuple[list[str], str, bool]:
        async with chromium.page(f"{web}/shop/index.html") as d:
            await d.capture(1)  # the first one learns the world's name and the main frame
            assert d._cdp is not None
            sent: list[str] = []
            send = d._cdp.send

            async def spy(method: str, params: dict[str, Any] | None = None) -> Any:
                sent.append(method)
                return await send(method, params)

            d._cdp.send = spy  # type: ignore[method-assign]
            await d.navigate(OpenRequest(target=f"{web}/shop/checkout.html"), 5000)
            cap = await d.capture(2)
            return sent, d._world_of[2], any(n.label == "Place order" for n in cap.nodes)

    sent, world, found = chromium.run(go)
    # Runtime.enable would replay every console message the new page has logged
    assert "Runtime.enable" not in sent and "Page.createIsolatedWorld" in sent
    assert world == "utility" and found


def test_a_node_in_an_iframe_is_acted_on_in_the_frame_at_its_url_without_asking_each_frame(
    web: str, chromium: Chromium, monkeypatch: Any
) -> None:
    from playwright.async_api import Locator

    counted: list[str] = []
    count = Locator.count

    async def spy(self: Locator) -> int:
        counted.append(str(self))
        return await count(self)

    monkeypatch.setattr(Locator, "count", spy)

    async def go() -> Any:
        async with chromium.page(f"{web}/shop/index.html") as d:
            cap = await d.capture(1)
            question = next(n for n in cap.nodes if n.label == "Question")
            await d.act(1, question.position, Fill("Where is my mug?"), 5000)
            return await d.page.frames[1].locator("#question").input_value()

    assert chromium.run(go) == "Where is my mug?"
    assert counted == []


def test_nodes_in_iframes_at_one_url_are_each_acted_on_in_their_own_frame(chromium: Chromium) -> None:
    # two srcdoc frames share the URL about:srcdoc: which frame holds a node is asked, not guessed
    frame = "<label>Note <input></label>"
    page = f"<iframe srcdoc='{frame}'></iframe><iframe srcdoc='{frame}'></iframe>"

    async def go() -> list[str]:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(page)
            await d.page.wait_for_function(
                "() => [...document.querySelectorAll('iframe')].every(f => f.contentDocument.querySelector('input'))"
            )
            cap = await d.capture(1)
            notes = [n for n in cap.nodes if n.role == "textbox"]
            assert len(notes) == 2 and [n.frame for n in notes] == [1, 2]
            for n, text in zip(notes, ("first", "second"), strict=True):
                await d.act(1, n.position, Fill(text), 5000)
            return [await f.locator("input").input_value() for f in d.page.frames[1:]]

    assert chromium.run(go) == ["first", "second"]


def test_text_of_any_script_leaves_the_page_one_byte_and_reads_back_unchanged(chromium: Chromium) -> None:
    # accents, CJK, an emoji (a surrogate pair), a lone surrogate (not text: U+FFFD), XML's own characters
    labels = ["Café ✎", "注文する", "Save 👋", "a < b & 'c'"]
    page = "".join(f"<button>{label}</button>" for label in ("Café ✎", "注文する", "Save 👋", "a &lt; b &amp; 'c'"))
    page += (
        "<button id='lone'></button><script>document.getElementById('lone').textContent = 'bad \\ud800 half';</script>"
    )

    async def go() -> tuple[str, Capture]:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(page)
            await d.capture(1)  # compiles the capture function in the utility world
            assert d._capture_id is not None
            text = await d._call(
                {"objectId": d._capture_id},
                "function (o) { return this(o); }",
                {"testIdAttributes": [], "generation": 2, "keep": None},
            )
            return text, await d.capture(3)

    text, cap = chromium.run(go)
    assert text.isascii()
    assert [n.label for n in cap.nodes if n.role == "button"] == [*labels, "bad \ufffd half"]


def test_an_editing_host_is_kept_and_actionable_without_an_id_or_text(chromium: Chromium) -> None:
    # Chromium gives a contenteditable element tabIndex -1; it is still a field an agent fills
    page = "<main><div contenteditable='true'></div><div contenteditable><p>inside</p></div></main>"

    async def go() -> list[tuple[str, bool, bool]]:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(page)
            cap = await d.capture(1)
            return [(n.tag_name, n.actionable, n.editable) for n in cap.nodes if n.editable]

    # the two hosts are actionable; the paragraph inside one is editable but not a field of its own
    assert chromium.run(go) == [("div", True, True), ("div", True, True), ("p", False, True)]


def test_slotted_light_children_are_walked_where_their_slot_renders_them(chromium: Chromium) -> None:
    # a web component's title is light DOM assigned to a slot inside its shadow heading: the tree
    # shows it in the heading (the flat tree), so two identical "Pay" buttons anchor on their card
    page = (
        "<x-card><span slot='title'>Invoice 7</span></x-card><x-card><span slot='title'>Invoice 8</span></x-card>"
        "<x-card></x-card><script>customElements.define('x-card', class extends HTMLElement { constructor() {"
        " super(); this.attachShadow({mode: 'open'}).innerHTML ="
        " '<article><h3><slot name=title>Untitled</slot></h3><button>Pay</button></article>'; } });</script>"
    )

    async def go() -> Capture:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(page)
            return await d.capture(1)

    cap = chromium.run(go)
    assert [(n.role, n.label) for n in cap.nodes if n.role in ("heading", "article")] == [
        ("article", None),
        ("heading", "Invoice 7"),
        ("article", None),
        ("heading", "Invoice 8"),
        ("article", None),
        ("heading", "Untitled"),  # nothing assigned: the slot's fallback content
    ]
    pay = [n for n in cap.nodes if n.role == "button"][1]
    ev = record_evidence(cap, pay)
    assert ev.anchor is not None and (ev.anchor.role, ev.anchor.text) == ("article", "Invoice 8")


def test_a_node_whose_frame_loaded_a_new_document_is_stale_at_once_not_waited_for(web: str, chromium: Chromium) -> None:
    # the frame reloads (a new document at the same URL, so the same frame is asked): the element
    # is still connected to the old document, which is dead — acting on it must say "gone" (the step
    # then looks again) instead of waiting out the timeout for a node that will never be there
    from replay.errors import StaleRef

    async def go() -> str:
        async with chromium.page(f"{web}/ops/index.html") as d:
            cap = await d.capture(1)
            save = next(n for n in cap.nodes if n.role == "button" and n.label == "Save" and n.frame)
            side = next(f for f in d.page.frames if f.url.endswith("/side.html"))
            await side.goto(f"{web}/ops/side.html")
            try:
                await d.act(1, save.position, Click(), 2000)
            except StaleRef as exc:
                return str(exc)
            return "acted"

    assert "no longer on the page" in chromium.run(go)


def test_a_name_that_prints_a_missing_value_is_no_name(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:  # Choices.js 9 writes aria-label="null" on its search input
        async with chromium.page(f"{web}/widgets/tags/c9/index.html") as d:
            return await d.capture(1)

    cap = chromium.run(go)
    inputs = [n for n in cap.nodes if n.role == "textbox"]
    assert len(inputs) == 2 and all(n.label is None for n in inputs)


def test_capture_tells_a_dom_id_from_a_test_id(web: str, chromium: Chromium) -> None:
    async def go() -> tuple[Capture, Capture]:
        async with chromium.page(f"{web}/widgets/combo/ts1/index.html") as d:
            widget = await d.capture(1)
        async with chromium.page(f"{web}/shop/checkout.html") as d:
            return widget, await d.capture(2)

    widget, shop = chromium.run(go)
    picker = next(n for n in widget.nodes if n.test_id == "from-tomselected")
    assert picker.has(F_DOM_ID) and "from-tomselected" in widget.derived_ids()
    assert not next(n for n in shop.nodes if n.test_id == "place-order").has(F_DOM_ID)  # data-testid


def test_a_positioned_layer_over_the_page_centre_is_kept_as_a_container(web: str, chromium: Chromium) -> None:
    async def go() -> Capture:  # tingle.js: a modal of plain divs, no role, no name, no tabindex
        async with chromium.page(f"{web}/widgets/modal/g13/index.html") as d:
            await d.page.locator("li", has_text="Phone").get_by_role("button").click()
            await d.page.get_by_role("heading", name="Sign out Phone?").wait_for()
            return await d.capture(1)

    cap = chromium.run(go)
    layer = next(n for n in cap.nodes if n.has(F_OVERLAY))
    inside = [n.label for n in layer.iterdescendants() if getattr(n, "role", None) == "button"]
    assert layer.key_text == "Sign out Phone?" and inside == ["Delete", "Cancel"]
    assert not any(n.has(F_OVERLAY) for n in cap.nodes if n.role == "main")


def test_check_clicks_through_a_box_its_own_label_paints_over_the_input(web: str, chromium: Chromium) -> None:
    async def go() -> bool:  # Bootstrap 4's custom checkbox: the label's box covers the hidden input
        async with chromium.page(f"{web}/widgets/terms/b4/index.html") as d:
            cap = await d.capture(1)
            box = next(n for n in cap.nodes if n.role == "checkbox")
            await d.act(1, box.position, Check(True), 1500)
            return bool(await d.page.locator("#agree").is_checked())

    assert chromium.run(go)


def test_a_random_token_or_two_numbers_in_a_row_in_a_dom_id_make_it_no_id(chromium: Chromium) -> None:
    # nanoid's rows (TodoMVC's web components: todo-item-AkTNBCXIfpXnhAYXTxbsT) differ on every load;
    # camelCase and numbered ids are words an author wrote
    ids = {
        "todo-item-AkTNBCXIfpXnhAYXTxbsT": False,
        "todo-item-1IwU-1in3L3ooM5oOE1-U": False,
        "V1StGXR8_Z5jdHi6B-myT": False,
        "el-id-85-0": False,  # Element Plus: a random number (here a short one) and a counter
        "saveChangesButton": True,
        "parseHTMLString": True,
        "step2Title": True,
        "address-line-2": True,
    }
    page = "".join(f"<button id='{i}'>{n}</button>" for n, i in enumerate(ids))

    async def go() -> dict[str, bool]:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(f"<main>{page}</main>")
            cap = await d.capture(1)
            return {i: any(n.test_id == i for n in cap.nodes) for i in ids}

    assert chromium.run(go) == ids


def test_an_editors_input_under_its_own_lines_is_on_top_through_them_and_never_under_another_control(
    chromium: Chromium,
) -> None:
    # CodeMirror 5's shape: a textarea clipped to nothing, the editor's lines drawn where it is
    editor = (
        "<div class='{cls}' style='position:relative;width:300px;height:40px'>"
        "<div style='overflow:hidden;position:absolute;width:3px;height:0'>"
        "<textarea aria-label='{cls}' style='position:absolute;width:280px;height:20px'></textarea></div>"
        "<pre style='position:absolute;top:0;left:0;width:300px;height:40px;margin:0'>code</pre>{more}</div>"
    )
    page = editor.format(cls="alone", more="") + editor.format(cls="shared", more="<button>Run</button>")

    async def go() -> dict[str, bool]:
        async with chromium.page("about:blank") as d:
            await d.page.set_content(page)
            cap = await d.capture(1)
            return {str(n.label): n.hittable and n.through for n in cap.nodes if n.role == "textbox"}

    # the editor holding only its input takes the click for it; one holding another control does not
    assert chromium.run(go) == {"alone": True, "shared": False}


def test_the_pages_next_frames_are_waited_for_whatever_its_own_request_animation_frame_does(
    web: str, chromium: Chromium
) -> None:
    async def go() -> tuple[int, int]:
        async with chromium.page(f"{web}/shop/index.html") as d:
            await d.page.evaluate(
                """() => {
                  const raf = window.requestAnimationFrame.bind(window);
                  window.__drawn = 0;
                  const tick = () => { window.__drawn += 1; raf(tick); };
                  raf(tick);
                  window.requestAnimationFrame = () => 0;  // a page that replaced it: nothing asked of it is drawn
                }"""
            )
            await d.capture(1, ())  # (as after any action: the page was looked at before it)
            before = int(await d.page.evaluate("window.__drawn"))
            await d.frames()
            return before, int(await d.page.evaluate("window.__drawn"))

    before, after = chromium.run(go)
    assert after - before >= 2


def test_an_overlay_that_came_and_went_between_two_looks_is_told_by_the_second(web: str, chromium: Chromium) -> None:
    # a toast shown and gone while nobody looked (a busy machine's late look): its role, last text and the
    # look before it came — and a page that replaced MutationObserver changes nothing (the isolated world's)
    async def go() -> tuple[tuple[tuple[str, str, int], ...], tuple[tuple[str, str, int], ...]]:
        async with chromium.page(f"{web}/pantry/index.html") as d:
            await d.page.evaluate("() => { window.MutationObserver = function () { return { observe() {} }; }; }")
            await d.capture(1, ())
            await d.page.evaluate(
                """() => new Promise((done) => {
                  const t = document.createElement('div'); t.setAttribute('role', 'alert');
                  document.body.appendChild(t); t.textContent = 'Shelf  saved';
                  setTimeout(() => { t.remove(); setTimeout(done, 0); }, 0);
                })"""
            )
            second = await d.capture(2, ())
            return second.passed, (await d.capture(3, ())).passed

    second, third = chromium.run(go)
    assert second == (("alert", "Shelf saved", 1),) and third == ()


def test_a_look_tells_whether_the_document_changed_since_the_last_out_of_the_trees_sight(
    web: str, chromium: Chromium
) -> None:
    # a popover's host added hidden, then filled (nothing the tree shows yet): the screen is not settled; an
    # element's style alone (a script's endless tween) and replay's own bar are not the page changing
    async def go() -> list[bool]:
        async with chromium.page(f"{web}/pantry/index.html") as d:
            told = [(await d.capture(1, ())).changed]
            await d.page.evaluate(
                "() => { const p = document.createElement('div'); p.hidden = true; p.id = 'pop';"
                " document.body.appendChild(p); }"
            )
            told.append((await d.capture(2, ())).changed)
            told.append((await d.capture(3, ())).changed)
            await d.page.evaluate("() => { document.getElementById('pop').className = 'presenting'; }")
            told.append((await d.capture(4, ())).changed)
            await d.page.evaluate(
                "() => { document.body.style.opacity = '0.99';"
                " const bar = document.createElement('replay-bar'); document.body.appendChild(bar);"
                " bar.style.top = '4px'; bar.setAttribute('data-said', 'x'); }"
            )
            told.append((await d.capture(5, ())).changed)
            return told

    assert chromium.run(go) == [False, True, False, True, False]
