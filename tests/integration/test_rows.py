"""Rows of look-alike controls on real Chromium: every element is recordable, no step acts on the wrong row.

The members fixture (fixtures/members.py, served at /members/NAME/): each row has an unlabeled
checkbox, a name, a star button with no accessible name and a "Delete" button; drifted versions
re-sort the rows, remove Bob's, rename Delete to Remove, or show the rows as a table.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import FAST, Cli, diverge

STEPS = ("check", "click", "click")  # Bob's checkbox, Bob's star, Bob's Delete


def bob_refs(snapshot: str, kind: str = "listitem") -> list[str]:
    """The refs of the controls in Bob's row, in document order (from a full snapshot)."""
    lines = snapshot.splitlines()
    start = next(i for i, line in enumerate(lines) if f"{kind} " in line and "Bob" in line)
    depth = len(lines[start]) - len(lines[start].lstrip())
    refs = []
    for line in lines[start + 1 :]:
        if len(line) - len(line.lstrip()) <= depth:
            break
        if re.search(r"@e\d+ (checkbox|button)", line):
            refs.append(line.split()[0])
    return refs


def record(cli: Cli, web: str, version: str, out: Path, kind: str = "listitem") -> list[str]:
    """Record ticking Bob's checkbox, starring him and deleting him; returns what each step printed."""
    session = f"rec-{version}"
    cli("open", f"{web}/members/{version}/index.html", f"--save-script={out}", "--session", session)
    checkbox, star, delete = bob_refs(cli("snapshot", "--session", session).stdout, kind)
    refs = (checkbox, star, delete)
    printed = [cli(cmd, ref, "--session", session).stdout for cmd, ref in zip(STEPS, refs, strict=True)]
    printed.append(cli("is", "visible", "Deleted Bob", "--record", "--session", session).stdout)
    cli("close", "--session", session)
    # replay it under any version of the app: the base URL becomes a variable
    text = out.read_text().replace(f"open {web}/members/{version}/index.html", "open ${BASE}/index.html")
    out.write_text(
        text.replace("context platform=web\n", f'context platform=web\nenv BASE="{web}/members/{version}"\n')
    )
    return printed


@pytest.fixture(scope="module")
def recorded(shared_home: str, web: str) -> Iterator[tuple[Path, list[str]]]:
    """The members flow, recorded once for the module on the list version."""
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp) / "bob.ad"
        yield out, record(Cli(shared_home, tmp), web, "v1", out)


def test_every_row_control_records_a_portable_selector_at_once_and_without_a_warning(
    recorded: tuple[Path, list[str]],
) -> None:
    flow, printed = recorded
    for out in printed[:3]:
        assert 'recorded as: role=listitem has-text="Bob" >> role=' in out and "warning" not in out, out
    text = flow.read_text()
    assert 'check role=listitem has-text="Bob" >> role=checkbox' in text
    assert 'click role=listitem has-text="Bob" >> role=button label="Delete"' in text
    assert '"anchor":{"role":"listitem","text":"Bob"}' in text and "unverifiable" not in text


def test_the_row_flow_replays_green_on_the_version_it_was_recorded_on(
    cli: Cli, web: str, recorded: tuple[Path, list[str]]
) -> None:
    assert cli("run", str(recorded[0]), "-e", f"BASE={web}/members/v1").stdout.startswith("replayed 5 steps")


def test_on_resorted_rows_every_step_acts_on_the_recorded_row(
    cli: Cli, web: str, recorded: tuple[Path, list[str]]
) -> None:
    result = cli.json("run", str(recorded[0]), "-e", f"BASE={web}/members/resorted", "--session", "resorted")
    assert result["result"]["ran"] == 5  # its last step asserts "Deleted Bob"
    for name in ("Alice", "Carol"):
        assert cli("is", "visible", name, "--session", "resorted").returncode == 0


def test_with_the_recorded_row_gone_replay_stops_before_acting(
    cli: Cli, web: str, recorded: tuple[Path, list[str]]
) -> None:
    d = diverge(cli, "run", str(recorded[0]), "-e", f"BASE={web}/members/removed", *FAST)
    assert (d["kind"], d["step"]["index"]) == ("selector-miss", 2)
    session = d["session"]
    assert cli.json("get", "text", "role=status", "--session", session)["result"]["value"] == ""  # nothing done
    for checkbox in re.findall(r"(@e\d+) checkbox", cli("snapshot", "-i", "--session", session).stdout):
        unticked = cli("is", "checked", checkbox, "--session", session, "--timeout", "200", ok=None)
        assert unticked.returncode == 1  # nothing ticked


def row_blind_delete(recorded: Path, tmp_path: Path) -> Path:
    """Only Bob's Delete step, its selector replaced by the row-blind "Delete", its anchored evidence kept."""
    lines = recorded.read_text().splitlines()
    at = next(i for i, line in enumerate(lines) if line.endswith('role=button label="Delete"'))
    head = [line for line in lines[:at] if line.startswith(("context", "env", "open"))]
    flow = tmp_path / "row-blind.ad"
    flow.write_text("\n".join([*head, lines[at - 1], 'click "Delete"', 'is visible "Deleted Bob"', ""]))
    return flow


def test_a_row_blind_selector_with_anchored_evidence_acts_on_the_recorded_row_after_a_resort(
    cli: Cli, web: str, recorded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    flow = row_blind_delete(recorded[0], tmp_path)
    result = cli.json("run", str(flow), "-e", f"BASE={web}/members/resorted")["result"]
    assert result["timings"][1]["resolution"]["kind"] == "evidence"  # three matches; the evidence picked Bob's


def test_a_row_blind_selector_with_anchored_evidence_stops_when_the_row_is_gone(
    cli: Cli, web: str, recorded: tuple[Path, list[str]], tmp_path: Path
) -> None:
    d = diverge(cli, "run", str(row_blind_delete(recorded[0], tmp_path)), "-e", f"BASE={web}/members/removed", *FAST)
    assert (d["kind"], d["step"]["index"]) == ("identity-mismatch", 2)
    assert any(m.startswith("anchor:") for m in d["targetBinding"]["mismatches"])
    assert cli("is", "visible", "Alice", "--session", d["session"]).returncode == 0  # Alice was not deleted


def test_on_renamed_and_resorted_rows_the_recorded_rows_control_is_the_top_suggestion(
    cli: Cli, web: str, recorded: tuple[Path, list[str]]
) -> None:
    d = diverge(cli, "run", str(recorded[0]), "-e", f"BASE={web}/members/renamed", *FAST)
    assert (d["kind"], d["step"]["index"], d["repairHint"]) == ("selector-miss", 4, "record-and-heal")
    top, second = d["suggestions"][:2]
    assert top["label"] == "Remove" and "anchor" in top["basis"] and top["score"] - second["score"] >= 0.1
    cli("click", top["ref"], "--session", d["session"])
    assert cli("is", "visible", "Deleted Bob", "--session", d["session"]).returncode == 0


def test_a_table_row_flow_records_and_replays_on_resorted_table_rows(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "table.ad"
    printed = record(cli, web, "table", flow, kind="row")
    assert all("recorded as: role=row" in out and "warning" not in out for out in printed[:3]), printed
    result = cli.json("run", str(flow), "-e", f"BASE={web}/members/table-resorted")
    assert result["result"]["ran"] == 5


def test_rows_that_all_say_toggle_todo_are_recorded_by_their_own_text_and_replay_reordered(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    """fixtures/web/rows/items.html: TodoMVC web-components' row shape, each in a shadow root."""
    out = tmp_path / "todo.ad"
    cli("open", f"{web}/rows/items.html", f"--save-script={out}", "--session", "todo-rows")
    seen = cli("snapshot", "-i", "--session", "todo-rows").stdout.splitlines()
    toggles = [line.split()[0] for line in seen if "checkbox" in line]
    said = cli("check", toggles[1], "--session", "todo-rows").stdout  # walk the dog's
    cli("close", "--session", "todo-rows")
    assert 'role=listitem has-text="walk the dog" >> role=checkbox' in said and "nth=" not in said, said
    for query in ("?order=reversed", "?add=feed%20cat"):
        moved = tmp_path / "moved.ad"
        moved.write_text(out.read_text().replace("rows/items.html", f"rows/items.html{query}"))
        ran = cli("run", str(moved), *FAST, "--json", ok=None)
        assert ran.returncode == 0, ran.stdout
