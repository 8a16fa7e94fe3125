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
