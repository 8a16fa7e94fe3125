"""Nameless controls of real libraries from npm, recorded through the CLI from snapshot refs and
replayed on the libraries' next major: a rich-text editor's toolbar (Quill 1 and 2, fixtures/notes.py)
singled out by a word-like class (SPEC §5 item 6); a calendar's month arrows (Air Datepicker 2 and 3,
fixtures/widgets.py's ``stay``) by the month's title beside them (SPEC §5 "Nameless beside a named
neighbour"); a dropdown's search box and option among look-alikes of the closed dropdowns (Choices 9,
fixtures/widgets.py's ``route``) as the focused field and the shown option — never by position."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from .conftest import Cli
from .test_real_apps import ref

SAVED = "Saved: <p><strong>hello world</strong></p>"


@pytest.fixture(scope="module")
def recorded(shared_home: str, web: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, Path, str]:
    root = tmp_path_factory.mktemp("notes")
    cli = Cli(shared_home, str(root))
    s = ("--session", "notes")
    cli("open", f"{web}/notes/q1/index.html", "--save-script", "flow.ad", *s)
    shown = cli("snapshot", "-i", *s).stdout
    cli("fill", ref(shown, r"generic \[editable\]"), "hello world", *s)
    cli("press", "Control+a", *s)
    said = cli("click", ref(shown, r"^\s*@e\d+ button$"), *s).stdout  # Quill's first toolbar button: Bold
    cli("click", ref(shown, r'button "Save"'), *s)
    cli("is", "text", "role=status", SAVED, "--record", *s)
    cli("close", *s)
    return cli, root / "flow.ad", said


def test_a_toolbar_button_with_no_name_is_recorded_by_its_word_like_class_and_verified(
    recorded: tuple[Cli, Path, str],
) -> None:
    _, flow, said = recorded
    assert "recorded as: role=button class=ql-bold (verified)" in said
    lines = flow.read_text().splitlines()
    at = lines.index("click role=button class=ql-bold")
    ev = json.loads(lines[at - 1].split(" ", 2)[2])
    assert ev["basis"] == "attribute" and ev["class"] == "ql-bold" and ev["verification"] == "verified"
    assert "nth=" not in flow.read_text()


@pytest.mark.parametrize("version", ["q1", "q2"])
def test_a_flow_recorded_by_own_attributes_replays_on_its_app_and_the_next_major(
    recorded: tuple[Cli, Path, str], tmp_path: Path, version: str
) -> None:
    cli, flow, _ = recorded
    _replays_on(cli, flow, "/notes/q1/", f"/notes/{version}/", tmp_path)


def _replays_on(cli: Cli, flow: Path, recorded: str, version: str, tmp_path: Path) -> None:
    """The flow, pointed at another version of its app (``recorded`` → ``version`` in its URL), replays."""
    moved = tmp_path / "moved.ad"
    moved.write_text(flow.read_text().replace(recorded, version))
    proc = cli("run", str(moved), ok=None)
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.fixture(scope="module")
def calendar(shared_home: str, web: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, Path, str]:
    root = tmp_path_factory.mktemp("stay")
    cli = Cli(shared_home, str(root))
    s = ("--session", "stay")
    cli("open", f"{web}/widgets/stay/a2/", "--save-script", "flow.ad", *s)
    shown = cli("snapshot", "-i", *s).stdout
    said = cli("click", _arrow_after(shown, "June, 2026"), *s).stdout
    shown = cli("snapshot", "-i", *s).stdout
    cli("click", ref(shown, r'generic text="15"'), *s)
    cli("close", *s)
    return cli, root / "flow.ad", said


def _arrow_after(shown: str, title: str) -> str:
    """The ref of the first nameless line after the month's title (the next-month arrow)."""
    lines = shown.splitlines()
    at = next(i for i, line in enumerate(lines) if f'text="{title}"' in line)
    return next(line.split()[0] for line in lines[at + 1 :] if re.match(r"\s*@e\d+ generic\s+in ", line))


def test_a_calendars_nameless_arrow_is_recorded_beside_the_months_title_and_verified(
    calendar: tuple[Cli, Path, str],
) -> None:
    _, flow, said = calendar
    assert 'recorded as: role=navigation text="June, 2026" >> role=generic (verified)' in said
    assert "warning" not in said and 'effect: a generic now says "July, 2026"' in said
    lines = flow.read_text().splitlines()
    ev = json.loads(lines[lines.index('click role=navigation text="June, 2026" >> role=generic') - 1].split(" ", 2)[2])
    assert ev["basis"] == "neighbour" and ev["namelessOrder"] == 1 and ev["verification"] == "verified"
    assert "nth=" not in flow.read_text()


@pytest.mark.parametrize("version", ["a2", "a3"])
def test_a_flow_recorded_beside_a_named_neighbour_replays_on_its_app_and_the_next_major(
    calendar: tuple[Cli, Path, str], tmp_path: Path, version: str
) -> None:
    cli, flow, _ = calendar
    _replays_on(cli, flow, "/stay/a2/", f"/stay/{version}/", tmp_path)


@pytest.fixture(scope="module")
def route(shared_home: str, web: str, tmp_path_factory: pytest.TempPathFactory) -> tuple[Cli, Path, dict[str, str]]:
    root = tmp_path_factory.mktemp("route")
    cli = Cli(shared_home, str(root))
    s = ("--session", "route")
    cli("open", f"{web}/widgets/route/c9/", "--save-script", "flow.ad", *s)
    shown = cli("snapshot", "-i", *s).stdout
    to = [line.split()[0] for line in shown.splitlines() if re.match(r'\s*@e\d+ combobox text="Pick a city"', line)][1]
    cli("click", to, *s)
    said = {"fill": cli("fill", ref(cli("snapshot", "-i", *s).stdout, r"\[editable, focused\]"), "Par", *s).stdout}
    said["click"] = cli("click", ref(cli("snapshot", "-i", *s).stdout, r'option "Paris" (?!.*hidden)'), *s).stdout
    cli("click", ref(shown, r'button "Save"'), *s)
    cli("close", *s)
    return cli, root / "flow.ad", said


def test_the_search_box_an_opened_dropdown_focuses_is_recorded_as_the_focused_field(
    route: tuple[Cli, Path, dict[str, str]],
) -> None:
    _, flow, said = route
    assert 'recorded as: role=textbox label="Pick a city" focused (verified)' in said["fill"]
    line = next(x for x in flow.read_text().splitlines() if x.startswith("fill "))
    assert "warning" not in said["fill"] and line == 'fill "role=textbox label=\\"Pick a city\\" focused" "Par"'


def test_the_option_a_person_sees_among_hidden_look_alikes_is_recorded_as_the_shown_one(
    route: tuple[Cli, Path, dict[str, str]],
) -> None:
    cli, flow, said = route
    assert 'recorded as: role=option label="Paris" visible (verified)' in said["click"]
    proc = cli("run", str(flow), ok=None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
