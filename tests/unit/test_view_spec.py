"""Which targeted views the web driver's capture.js can take, told from the links alone (no round trip)."""

from __future__ import annotations

from replay.drivers.web.capture import viewable


def link(*terms: tuple[str, str, object]) -> list[dict[str, object]]:
    return [{"key": k, "op": op, "value": v} for k, op, v in terms]


def test_a_view_no_selector_can_narrow_to_is_refused_without_a_look() -> None:
    # a div's or a span's text (an effect's `changed generic "Thanks: Thumbs up"`): every element would be walked
    assert not viewable({"links": [link(("role", "=", "generic"), ("has-text", "=", "Thanks"))]})
    assert not viewable({"links": [link(("has-text", "=", "Thanks"))]})
    assert not viewable({"links": [link(("role", "in", ["dialog", "generic"]))]})
    assert not viewable({"links": [link(("role", "=", "button")), link(("role", "=", "généric"))]})


def test_a_view_by_roles_or_ids_is_taken() -> None:
    assert viewable({"links": [link(("role", "=", "button"), ("label", "=", "Save")), link(("id", "=", "save"))]})
    assert viewable({"links": [link(("role", "in", ["dialog", "alert"]))]})
    assert viewable({"links": []})


def test_a_generics_text_is_looked_for_in_the_named_container_it_was_recorded_in_else_on_the_whole_screen() -> None:
    from replay.engine.bind import effect_links
    from replay.script.effect import Fact
    from replay.script.evidence import Ancestor

    said = (Fact("appeared", "generic", "Thanks: Thumbs up"),)
    in_group = effect_links(said, (Ancestor("generic"), Ancestor("group", "Rate us"), Ancestor("main")))
    assert link(("role", "=", "group"), ("label", "=", "Rate us")) in in_group and viewable({"links": in_group})
    assert not viewable({"links": effect_links(said, (Ancestor("generic"), Ancestor("main")))})  # nothing named near
