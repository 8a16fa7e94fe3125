from __future__ import annotations

from replay.script.selector import parse_selector
from replay.tree.match import MAX_CANDIDATES, match_set, resolve

from .treebuild import N, by_label, capture


def test_equality_is_normalized_and_case_insensitive() -> None:
    cap = capture(N("button", label="Place  Order"))
    assert resolve(cap, parse_selector('label="place order"')).kind == "unique"


def test_regex_is_a_search() -> None:
    cap = capture(N("link", label="Order #123"))
    assert resolve(cap, parse_selector('label~="#[0-9]+"')).winner is by_label(cap, "Order #123")


def test_boolean_keys_filter_on_flags() -> None:
    cap = capture(N("button", label="Go", enabled=False), N("button", label="Go", id="b"))
    res = resolve(cap, parse_selector('label="Go" enabled'))
    assert res.kind == "unique" and res.winner is not None and res.winner.test_id == "b"
    assert resolve(cap, parse_selector('label="Go" enabled=false')).winner.test_id is None  # type: ignore[union-attr]


def test_at_counts_matches_in_reading_order_and_nth_in_document_order() -> None:
    cap = capture(
        N("button", label="Go", id="lower", rect=(0, 100, 10, 10)),
        N("button", label="Go", id="upper-right", rect=(50, 0, 10, 10)),
        N("button", label="Go", id="upper-left", rect=(0, 0, 10, 10)),
    )
    assert [n.test_id for n in match_set(cap, parse_selector('label="Go" at=0'))[1]] == ["upper-left"]
    assert [n.test_id for n in match_set(cap, parse_selector('label="Go" at=-1'))[1]] == ["lower"]
    assert [n.test_id for n in match_set(cap, parse_selector('label="Go" nth=0'))[1]] == ["lower"]


def test_first_alternative_with_a_match_is_the_match_set() -> None:
    cap = capture(N("button", label="A", id="a"), N("button", label="B", id="b"))
    res = resolve(cap, parse_selector('id="missing" || label="B" || label="A"'))
    assert res.winner is by_label(cap, "B") and res.alternative == 1


def test_bare_text_means_label_then_text() -> None:
    cap = capture(N("paragraph", text="Sign in"), N("button", label="Sign in"))
    assert resolve(cap, parse_selector('"Sign in"')).winner is by_label(cap, "Sign in")


def test_single_match_resolves_uniquely() -> None:
    cap = capture(N("button", label="Go"))
    assert resolve(cap, parse_selector("role=button")).to_dict() == {
        "kind": "unique",
        "matchCount": 1,
        "alternative": 0,
    }


def test_chain_around_one_actionable_node_collapses_and_is_disclosed() -> None:
    cap = capture(N("listitem", text="Add")(N("button", label="Add")))
    res = resolve(cap, parse_selector('text="Add"'))
    assert res.winner is by_label(cap, "Add")
    assert res.to_dict()["kind"] == "disambiguated"
    assert res.to_dict()["tiebreak"] == "structural-equivalence" and res.match_count == 2


def test_chain_with_two_actionable_nodes_is_ambiguous() -> None:
    cap = capture(N("option", label="Tea", text="Tea")(N("button", label="Tea", text="Tea")))
    assert resolve(cap, parse_selector('text="Tea"')).kind == "ambiguous"


def test_matches_in_distinct_subtrees_are_ambiguous_never_a_geometric_pick() -> None:
    cap = capture(
        N("article", label="A")(N("button", label="Add to cart", rect=(0, 0, 100, 40))),
        N("article", label="B")(N("button", label="Add to cart", rect=(0, 100, 10, 10))),
    )
    res = resolve(cap, parse_selector('role=button label="Add to cart"'))
    assert res.kind == "ambiguous" and res.winner is None


def test_ambiguity_lists_at_most_five_candidates() -> None:
    cap = capture(*[N("article", label=f"P{i}")(N("button", label="Add")) for i in range(7)])
    res = resolve(cap, parse_selector('label="Add"'))
    assert res.match_count == 7 and len(res.to_dict()["candidates"]) == MAX_CANDIDATES


def test_no_match_is_none() -> None:
    assert resolve(capture(N("button", label="Go")), parse_selector('label="Stop"')).kind == "none"


def test_a_chain_keeps_the_matches_inside_a_match_of_the_scope() -> None:
    cap = capture(
        N("listitem", text="Alice")(N("button", label="Delete")),
        N("listitem", text="Bob")(N("button", label="Delete")),
    )
    res = resolve(cap, parse_selector('role=listitem has-text="bob" >> role=button label="Delete"'))
    assert res.kind == "unique" and res.winner is by_label(cap, "Delete", 1)


def test_has_text_is_a_case_insensitive_contains() -> None:
    cap = capture(N("listitem", text="Buy  Milk today"), N("listitem", text="Bread"))
    assert resolve(cap, parse_selector('has-text="buy milk"')).matches == [cap.nodes[1]]


def test_nth_picks_from_the_links_match_set_in_document_order() -> None:
    cap = capture(N("checkbox"), N("checkbox"), N("checkbox", checked=True))
    assert resolve(cap, parse_selector("role=checkbox nth=-1")).winner is cap.nodes[3]
    assert resolve(cap, parse_selector("role=checkbox nth=1")).winner is cap.nodes[2]
    assert resolve(cap, parse_selector("role=checkbox nth=3")).kind == "none"


def test_a_chain_whose_scope_matches_nothing_matches_nothing() -> None:
    cap = capture(N("listitem", text="Alice")(N("button", label="Delete")))
    assert resolve(cap, parse_selector('role=listitem has-text="Bob" >> "Delete"')).match_count == 0
