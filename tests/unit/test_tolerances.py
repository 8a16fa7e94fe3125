"""The tolerance table (replay.tree.tolerances; docs/design.md "Tolerances"): every drift identity accepts
is a named entry, asked where it is applied, and switched off it accepts nothing it accepted."""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path

import pytest

from replay.script.evidence import Anchor, TargetEvidence
from replay.tree import tolerances
from replay.tree.model import Node

from .treebuild import N, capture

PACKAGE = Path(__file__).resolve().parents[2] / "replay"
DESIGN = Path(__file__).resolve().parents[2] / "docs" / "design.md"


def _node(cap: object, role: str, nth: int = 0) -> Node:
    return [n for n in cap.nodes[1:] if n.role == role][nth]  # type: ignore[attr-defined]


def _lost_dom_id() -> bool:
    from replay.tree.identity import carries_identity

    ev = TargetEvidence(role="textbox", id="new-todo", dom_id=True, label="What needs to be done?")
    cap = capture(N("main")(N("textbox", label="What needs to be done?")))
    return carries_identity(_node(cap, "textbox"), ev)


def _container_lost_dom_id() -> bool:
    from replay.tree.anchors import find_anchor

    cap = capture(N("main")(N("list")(N("listitem", text="Pay rent"))))
    return find_anchor(_node(cap, "listitem"), Anchor("list", id="todo-list", dom_id=True)) is not None


def _gained_role() -> bool:
    from replay.tree.anchors import anchor_matches

    cap = capture(N("main")(N("group", id="cal", label="Start")(N("button", label="15"))))
    return anchor_matches(_node(cap, "group"), Anchor("generic", id="cal"))


def _placeholder_name() -> bool:
    from replay.tree.identity import carries_identity

    ev = TargetEvidence(role="searchbox", label="Search", placeholder="Search")
    cap = capture(N("main")(N("searchbox", label="Find a product", placeholder="Search")))
    return carries_identity(_node(cap, "searchbox"), ev)


def _composed_control() -> bool:
    from replay.tree.identity import composed_member

    ev = TargetEvidence(role="button", id="size")
    cap = capture(N("main")(N("generic", id="size", tag="ion-select")(N("button", id="ion-sel-0"))))
    return composed_member(_node(cap, "generic"), ev) is not None


def _made_up_ids() -> bool:
    from replay.tree.ids import made_up

    return made_up(["ag-58", "ag-59"]) == {"ag-58", "ag-59"}


def _drawn_elsewhere() -> bool:
    from replay.tree.roles import drawn_elsewhere

    cap = capture(N("main")(N("checkbox", label="Dark mode", visible=False)))
    return drawn_elsewhere(_node(cap, "checkbox"))


def _role_family() -> bool:
    from replay.tree.roles import kin_roles

    return kin_roles("checkbox", "switch")


def _moved_within_family() -> bool:
    from replay.tree.roles import moved_within

    cap = capture(N("main")(N("button", label="Next")))
    return moved_within("link", _node(cap, "button"))


def _row_shows_text() -> bool:
    from replay.tree.anchors import anchor_matches

    cap = capture(N("main")(N("list")(N("listitem")(N("generic", text="NEW"), N("generic", text="Pay rent")))))
    return anchor_matches(_node(cap, "listitem"), Anchor("listitem", text="Pay rent"))


CASES: dict[str, Callable[[], bool]] = {
    "lost-dom-id": _lost_dom_id,
    "container-lost-dom-id": _container_lost_dom_id,
    "gained-role": _gained_role,
    "placeholder-name": _placeholder_name,
    "composed-control": _composed_control,
    "made-up-ids": _made_up_ids,
    "drawn-elsewhere": _drawn_elsewhere,
    "role-family": _role_family,
    "moved-within-family": _moved_within_family,
    "row-shows-text": _row_shows_text,
}


def test_every_tolerance_has_a_case_it_accepts() -> None:
    assert sorted(CASES) == sorted(t.name for t in tolerances.TABLE)


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_tolerance_switched_off_no_longer_accepts_its_case(name: str) -> None:
    assert CASES[name]()
    with tolerances.without(name):
        assert not CASES[name]()
    assert CASES[name]()  # (switched back on after the block)


def test_every_tolerance_is_asked_where_it_is_applied_and_nowhere_asks_an_unknown_one() -> None:
    asked = {m for p in PACKAGE.rglob("*.py") for m in re.findall(r'allows\("([a-z-]+)"\)', p.read_text())}
    assert asked == {t.name for t in tolerances.TABLE}


def test_a_name_not_in_the_table_is_refused() -> None:
    with pytest.raises(KeyError):
        tolerances.allows("punctuation")
    assert tolerances.unknown("role-family, punctuation") == ["punctuation"]


def test_the_design_documents_table_is_the_generated_one() -> None:
    assert tolerances.markdown() in DESIGN.read_text()


def test_the_bench_refuses_a_tolerance_not_in_the_table_before_it_runs_anything() -> None:
    import sys

    sys.path.insert(0, str(PACKAGE.parent / "scripts"))
    from benchmarks.tolerances import bench_without  # type: ignore[import-not-found]

    with pytest.raises(SystemExit, match="no tolerance named 'punctuation'"):
        bench_without(["role-family,punctuation"])
    with pytest.raises(SystemExit, match="name the tolerances"):
        bench_without([])


def test_the_package_cites_its_own_design_document_never_a_file_outside_the_repository() -> None:
    cited = {
        int(n)
        for p in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")]
        for n in re.findall(r"design §(\d+)", p.read_text(encoding="utf-8"))
    }
    sections = {int(n) for n in re.findall(r"^## (\d+)\. ", DESIGN.read_text(encoding="utf-8"), re.M)}
    outside = [p.name for p in PACKAGE.rglob("*.py") if "SPEC §" in p.read_text(encoding="utf-8")]
    assert cited <= sections and outside == []
