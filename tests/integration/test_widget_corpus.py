"""The widget corpus (fixtures/drift/widgets.py), a sample of it through the CLI: one flow per real
widget library, recorded on its oldest major and replayed on a later one (``scripts/bench drift`` runs
all of it, beside Playwright's selector generator)."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import pytest

from .conftest import REPLAY, ROOT

sys.path.insert(0, str(ROOT))

from fixtures.drift.corpus import run  # noqa: E402
from fixtures.drift.widgets import widget_cases  # noqa: E402

# each names the rule it exercises on the app that asked for it
SAMPLE = (
    "grid-delete on t6",  # a nameless cell, by its row (Tabulator 4 → 6)
    "table-sort on d2",  # a header named by what it shows, not its sort instruction (DataTables 1 → 2)
    "table-next-page on d2",  # a DOM id made from the table's id is no identity
    "confirm-delete on s11",  # the popup's Delete, not the page's (SweetAlert2 10 → 11)
    "tags-type on c11",  # a nameless field healed by the paragraph it sits in (Choices 9 → 11)
    "json-value on j10",  # an editable value in a tree editor's table (JSONEditor 9 → 10)
    "terms-agree on b5",  # check through the label Bootstrap 4 paints over its input (4 → 5)
    "modal-delete on g16, added",  # a modal of plain divs is a container: its Delete, not a row's (tingle.js)
    "grid-edit-ada on t6, added",  # a named cell is its row's: an added "Engineer" row is not Ada's
    "combo-pick on ts2",  # a library's id wiring changed under a labeled combobox (Tom Select 1 → 2)
    "dates-next-month on f4",  # held back: a nameless arrow by its own class (flatpickr 3 → 4)
    "overlay-delete on a14",  # a dialog's buttons, hidden while it fades in, are waited for (AlertifyJS 1.11 → 1.14)
    "shop-wrap on b5",  # a checkbox that became a switch is of its family (Bootstrap 3 → 5)
)
pytestmark = pytest.mark.xdist_group("widget-corpus")


@pytest.fixture(scope="module")
def outcomes(shared_home: str, web: str, tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    chosen = [c for c in widget_cases() if c.name in SAMPLE]
    return {o.case.name: o for o in run(REPLAY, web, shared_home, Path(tmp_path_factory.mktemp("widgets")), chosen)}


def test_the_corpus_spans_seven_libraries_in_two_or_three_majors() -> None:
    found = widget_cases()
    assert len({c.recording.name.split("-")[0] for c in found}) >= 7
    assert all(c in {x.name for x in widget_cases()} for c in SAMPLE)


@pytest.mark.parametrize("name", SAMPLE)
def test_a_widget_flow_records_verified_and_ends_as_expected_on_a_later_major(
    outcomes: dict[str, Any], name: str
) -> None:
    o = outcomes[name]
    assert o.verified and o.own_clean and o.correct and not o.false_heal, (o.case.expect, o.result, o.heal)
