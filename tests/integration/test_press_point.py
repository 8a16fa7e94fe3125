"""`press X Y` on a page: a click at a point, in CSS px or as a percentage of the viewport."""

from __future__ import annotations

from .conftest import Cli


def ask_at(cli: Cli, web: str, session: str) -> tuple[float, float, float, float]:
    """The Ask button's centre on the page, and the viewport's size."""
    cli("open", f"{web}/shop/frame.html", "--session", session)
    snap = cli.json("snapshot", "--session", session)["result"]["snapshot"]
    ask = next(n for n in snap["nodes"] if n["label"] == "Ask")
    r = ask["rect"]
    doc = snap["nodes"][0]["rect"]
    return r["x"] + r["width"] / 2, r["y"] + r["height"] / 2, doc["width"], doc["height"]


def test_press_at_a_point_in_px_clicks_what_is_there(cli: Cli, web: str) -> None:
    x, y, _, _ = ask_at(cli, web, "px")
    cli("press", str(round(x)), str(round(y)), "--session", "px")
    assert "We will reply soon" in cli("get", "text", "id=answer", "--session", "px").stdout


def test_press_at_a_percentage_of_the_viewport_clicks_what_is_there(cli: Cli, web: str) -> None:
    x, y, width, height = ask_at(cli, web, "pc")
    cli("press", f"{100 * x / width:.2f}%", f"{100 * y / height:.2f}%", "--session", "pc")
    assert "We will reply soon" in cli("get", "text", "id=answer", "--session", "pc").stdout
