"""The drift corpus (fixtures/drift/corpus.py) through the CLI — all of it but most of TodoMVC's
apps (below): every flow records with every step verified and replays clean on its own app, and every
case ends as expected — with no false heal anywhere (issue 21)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPLAY, ROOT

sys.path.insert(0, str(ROOT))

from fixtures.drift.corpus import SHARED_MARKUP, cases, run  # noqa: E402

# `scripts/bench drift` runs every case; the suite records one of the four TodoMVC apps that share their
# markup (Backbone: its cases replay it on the other three, on its upgrade to TodoMVC 2.0 and on its own
# rows re-sorted, added, removed, renamed and doubled — the other three record the same markup, at a
# third of the suite's browser time) and, of TodoMVC 2.0's own apps, the web components one: its rows
# repeat their checkbox's label ("Toggle Todo Pay rent") and its ids are random tokens. A "same version"
# case replays a flow on the app it was recorded on: the fixture does that for every flow (``own_clean``)
IN_SUITE = {f"todomvc-{app}" for app in (SHARED_MARKUP[0], "web-components")}
SUITE = [
    c
    for c in cases()
    if (not c.recording.name.startswith("todomvc-") or c.recording.name in IN_SUITE) and c.kind != "same version"
]
NAMES = [c.name for c in SUITE]
pytestmark = pytest.mark.xdist_group("drift-corpus")  # one worker runs the corpus once, not each worker


@pytest.fixture(scope="module")
def outcomes(shared_home: str, web: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    return {o.case.name: o for o in run(REPLAY, web, shared_home, Path(tmp_path_factory.mktemp("drift")), SUITE)}


def test_the_corpus_has_sixty_cases_of_ten_kinds_or_more_on_four_apps() -> None:
    found = cases()
    assert len(found) >= 60 and len({c.kind for c in found}) >= 10
    assert {c.recording.name.split("-")[0] for c in found} == {"todomvc", "banking", "material", "element"}


def test_every_flow_records_with_every_step_verified_and_replays_on_its_own_app(outcomes: dict[str, Any]) -> None:
    assert all(o.verified and o.own_clean for o in outcomes.values())


def test_the_builtin_healer_never_heals_falsely(outcomes: dict[str, Any]) -> None:
    assert [name for name, o in outcomes.items() if o.false_heal] == []


@pytest.mark.parametrize("name", NAMES)
def test_a_drift_case_ends_as_expected(outcomes: dict[str, Any], name: str) -> None:
    o = outcomes[name]
    assert o.correct, (o.case.expect, o.result, o.heal)
