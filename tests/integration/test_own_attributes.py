"""Nameless controls of a real rich-text editor (Quill 1 and 2, from npm: fixtures/notes.py), recorded
through the CLI from snapshot refs: singled out by a word-like class, never by position (SPEC §5
item 6), and replayed on the next major version of the library."""

from __future__ import annotations

import json
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
    moved = tmp_path / f"{version}.ad"
    moved.write_text(flow.read_text().replace("/notes/q1/", f"/notes/{version}/"))
    proc = cli("run", str(moved), ok=None)
    assert proc.returncode == 0, proc.stdout + proc.stderr
