"""Effect-confirmed heals (SPEC §8) and covered nodes (SPEC §5): the built-in healer's decision on
hand-built screens shaped like the real upgrades that moved roles (Element 2 → Element Plus's
accordion, a link that became a tab)."""

from __future__ import annotations

from dataclasses import replace

from replay.engine.heal_choice import decide
from replay.script.effect import Fact
from replay.script.evidence import Ancestor, Anchor, Rect, TargetEvidence
from replay.tree.model import Capture

from .treebuild import N, capture

SHOWS_REVIEWS = (Fact("target", "selected"), Fact("appeared", "tabpanel", "Reviews"))
REVIEWS = TargetEvidence(
    role="link",
    label="Reviews",
    ancestry=(Ancestor("navigation", "Product"), Ancestor("main")),
    sibling=1,
    rect=Rect(80, 40, 60, 20),
    effect=SHOWS_REVIEWS,
)


def tabs(*extra: N, reviews: N | None = None) -> Capture:
    """The next major: the links are tabs of a tablist (no navigation landmark any more)."""
    shown = reviews or N("tab", label="Reviews", rect=(80, 40, 60, 20))
    return capture(
        N("main")(
            N("tablist", label="Product")(N("tab", label="Details", rect=(10, 40, 60, 20)), shown),
            N("tabpanel", label="Details"),
            *extra,
        )
    )


def test_a_step_that_recorded_its_effect_is_healed_on_a_link_that_became_a_tab() -> None:
    d = decide("record-and-heal", REVIEWS, tabs())
    assert d.acts and d.confirm and d.node is not None and (d.node.role, d.node.label) == ("tab", "Reviews")
    assert "effect-confirmed" in d.reason


def test_without_a_recorded_effect_a_moved_role_is_still_refused() -> None:
    d = decide("record-and-heal", replace(REVIEWS, effect=()), tabs())
    assert not d.acts and "not a link" in d.reason


def test_a_label_that_differs_is_never_effect_confirmed() -> None:
    d = decide("record-and-heal", REVIEWS, tabs(reviews=N("tab", label="Ratings", rect=(80, 40, 60, 20))))
    assert not d.acts


def test_a_shown_rival_that_says_the_same_stops_an_effect_confirmed_heal() -> None:
    other = N("tablist", label="Seller")(N("tab", label="Reviews", rect=(80, 300, 60, 20)))
    assert not decide("record-and-heal", REVIEWS, tabs(other)).acts


def test_a_rival_scrolled_out_of_view_still_stops_it() -> None:
    away = N("tablist", label="Seller")(N("tab", label="Reviews", rect=(80, 2400, 60, 20), hittable=False))
    assert not decide("record-and-heal", REVIEWS, tabs(away)).acts


def test_a_covered_rival_behind_a_backdrop_is_no_rival() -> None:
    behind = N("tablist", label="Seller")(N("tab", label="Reviews", rect=(80, 300, 60, 20), hittable=False))
    d = decide("record-and-heal", REVIEWS, tabs(behind))
    assert d.acts and d.confirm and d.node is not None and d.node.rect[1] == 40


def test_a_covered_candidate_is_never_acted_on() -> None:
    covered = N("tab", label="Reviews", rect=(80, 40, 60, 20), hittable=False)
    assert not decide("record-and-heal", REVIEWS, tabs(reviews=covered)).acts


def test_a_role_outside_the_actionable_and_editable_families_is_never_effect_confirmed() -> None:
    checkbox = N("checkbox", label="Reviews", rect=(80, 40, 60, 20))
    assert not decide("record-and-heal", REVIEWS, tabs(reviews=checkbox)).acts


def test_a_part_of_the_same_control_is_no_rival() -> None:
    """Element 2's accordion header: a button inside a tab, both "Returns" — one control."""
    returns = TargetEvidence(
        role="button",
        label="Returns",
        ancestry=(Ancestor("tab", "Returns"), Ancestor("tablist"), Ancestor("main")),
        rect=Rect(8, 130, 1264, 49),
        effect=(Fact("appeared", "tabpanel", "Returns"),),
    )
    header = N("tab", label="Returns", rect=(8, 130, 1264, 49), actionable=True)(
        N("link", label="Returns", rect=(8, 130, 1264, 49))
    )
    cap = capture(N("main")(N("region", label="Shipping"), header))
    d = decide("caution", returns, cap)
    assert d.acts and d.confirm and d.node is not None and d.node.label == "Returns"


def test_a_covered_node_is_never_a_plausible_rival_of_a_hittable_best() -> None:
    """A popover over part of the recorded form covers the older "Save" beside the renamed one."""
    save = TargetEvidence(
        role="button", label="Save draft", ancestry=(Ancestor("form", "Note"),), rect=Rect(20, 400, 100, 20)
    )

    def screen(hidden: bool) -> Capture:
        return capture(
            N("main")(
                N("form", label="Note")(
                    N("textbox", label="Title"),
                    N("button", label="Save drafts", rect=(20, 400, 100, 20)),
                    N("button", label="Save draft copy", rect=(140, 400, 100, 20), hittable=not hidden),
                )
            )
        )

    assert not decide("record-and-heal", save, screen(False)).acts  # two shown: within the margin
    d = decide("record-and-heal", save, screen(True))
    assert d.acts and d.node is not None and d.node.label == "Save drafts" and not d.confirm


def test_a_nameless_control_keeps_its_own_class_across_a_role_change() -> None:
    """A calendar's next-month arrow: a clickable span in one major, a button in the next (both arrows moved
    to the heading's right), one class token: what tells it from the previous-month arrow."""
    arrow = TargetEvidence(
        role="generic",
        css_class="cal-next-month",
        basis="attribute",
        anchor=Anchor("generic", label="Calendar"),
        ancestry=(Ancestor("generic", "Calendar"),),
        rect=Rect(300, 10, 20, 20),
        effect=(Fact("appeared", "heading", "July 2024"), Fact("disappeared", "heading", "June 2024")),
    )
    cap = capture(
        N("generic", label="Calendar")(
            N("heading", label="June 2024", rect=(60, 10, 100, 20)),
            N("button", rect=(230, 10, 20, 20), cls="cal-prev-month"),  # now the nearer to where next was
            N("button", rect=(200, 10, 20, 20), cls="cal-next-month"),
        )
    )
    from replay.tree.suggest import rank

    assert rank(cap, arrow)[0].node.classes == ("cal-next-month",)  # ranked first, its role moved
    d = decide("record-and-heal", arrow, cap)
    assert d.acts and d.node is not None and d.node.classes == ("cal-next-month",)


DAY_20 = TargetEvidence(
    role="link",
    label="20",
    ancestry=(Ancestor("generic"), Ancestor("main")),
    sibling=25,
    rect=Rect(219, 224, 38, 22),
    effect=(Fact("appeared", "status", "Check-in: 2026-06-20"),),
)


def month(day_20: N) -> Capture:
    """Litepicker 2's month: its day links became clickable ``div``s whose text is the day (no name)."""
    days = [N("generic", text=str(d), rect=(10 + 40 * (d % 7), 100 + 25 * (d // 7), 38, 22), actionable=True)
            for d in (18, 19, 21, 22)]  # fmt: skip
    return capture(N("main")(N("generic")(*days[:2], day_20, *days[2:])))


def test_a_clickable_generic_says_its_own_text_when_a_link_became_one() -> None:
    d = decide("caution", DAY_20, month(N("generic", text="20", rect=(219, 224, 38, 22), actionable=True)))
    assert d.acts and d.confirm and d.node is not None and d.node.content == "20"


def test_a_generic_nobody_can_click_does_not_say_its_text() -> None:
    d = decide("caution", DAY_20, month(N("generic", text="20", rect=(219, 224, 38, 22), actionable=False)))
    assert not d.acts


def test_a_label_that_differs_only_by_punctuation_is_the_recorded_label() -> None:
    """Slim Select 3's search box says "Search..." where 1's said "Search"."""
    search = TargetEvidence(
        role="searchbox",
        label="Search",
        ancestry=(Ancestor("form", "Leg"), Ancestor("main")),
        rect=Rect(20, 80, 200, 30),
        effect=(Fact("target", "value", "<redacted>"),),
    )
    box = N("searchbox", label="Search...", rect=(20, 80, 200, 30), editable=True, focused=True)
    d = decide("record-and-heal", search, capture(N("main")(N("generic")(box))))
    assert d.acts and d.confirm and d.node is not None and d.node.label == "Search..."
