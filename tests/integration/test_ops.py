"""An app nobody designed for replay (fixtures/web/ops): used as a new user would, through the CLI.

Rows of icon-only buttons where two rows share their first text, a menu in a portal, a rich-text
field, web components whose titles are slotted, a navigating iframe, a written about:blank iframe,
and (with ``?consent``) an interstitial over everything.
"""

from __future__ import annotations

import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import FAST, Cli


def ref_in(snapshot: str, container: str, control: str) -> str:
    """The ref of the first ``control`` line (a regex) under the first line matching ``container``."""
    lines = snapshot.splitlines()
    start = next(i for i, line in enumerate(lines) if re.search(container, line))
    depth = len(lines[start]) - len(lines[start].lstrip())
    for line in lines[start + 1 :]:
        if len(line) - len(line.lstrip()) <= depth:
            break
        if re.search(control, line):
            return line.split()[0]
    raise AssertionError(f"no {control!r} under {container!r} in:\n{snapshot}")


def top(snapshot: str, control: str) -> str:
    return next(line.split()[0] for line in snapshot.splitlines() if re.search(control, line))


@pytest.fixture(scope="module")
def recorded(shared_home: str, web: str) -> Iterator[tuple[Cli, Path, list[str]]]:
    """One flow over every hard part of the page, recorded once for the module."""
    with tempfile.TemporaryDirectory() as tmp:
        cli, out, s = Cli(shared_home, tmp), Path(tmp) / "ops.ad", ("--session", "ops-rec")
        cli("open", f"{web}/ops/index.html", f"--save-script={out}", *s)
        printed = []

        def do(*argv: str) -> None:
            printed.append(cli(*argv, *s).stdout)

        def snap() -> str:
            return cli("snapshot", *s).stdout

        cy = r'row "Printer jammed cy'  # the second of two rows whose first text is "Printer jammed"
        do("click", ref_in(snap(), cy, r'button "More actions"'))
        do("click", top(snap(), r'menuitem "Close ticket"'))  # the menu is a portal, outside the row
        do("fill", top(snap(), r'generic id="notes"'), "call the vendor")  # a contenteditable field
        do("click", ref_in(snap(), r'article text="Invoice 8', r'button "Pay"'))  # its title is slotted
        do("click", top(snap(), r'button "Save"'))  # inside the side iframe
        do("click", top(snap(), r'link "Next page"'))  # the iframe navigates
        do("click", top(snap(), r'button "Save"'))  # the same name, in the frame's new document
        do("click", top(snap(), r'button "Blank OK"'))  # a written about:blank frame
        do("click", ref_in(snap(), cy, r'button "🗑"'))
        cli("close", *s)
        yield cli, out, printed


def test_every_step_on_the_ops_app_records_a_verified_portable_selector_without_a_warning(
    recorded: tuple[Cli, Path, list[str]],
) -> None:
    _, out, printed = recorded
    assert len(printed) == 9 and all("(verified)" in p and "warning" not in p for p in printed), printed
    text = out.read_text()
    assert "@e" not in text
    # the row's text less its controls' (its first text repeats) anchors both row steps
    assert text.count('"anchor":{"role":"row","text":"Printer jammed cy"}') == 2
    assert 'role=article has-text="Invoice 8"' in text  # the slotted title anchors its card


def test_the_ops_flow_replays_clean_acting_on_the_recorded_rows_and_frames(
    recorded: tuple[Cli, Path, list[str]],
) -> None:
    cli, out, _ = recorded
    s = ("--session", "ops-replay")
    assert cli("run", str(out), *s, *FAST).returncode == 0
    log = cli("get", "text", "id=log", *s).stdout
    cli("close", *s)
    expected = ["closed Printer jammed cy", "paid Invoice 8", "side save", "side2 save", "blank ok"]
    assert all(e in log for e in expected) and "deleted Printer jammed cy" in log, log
    assert "ann" not in log  # the other "Printer jammed" row was never acted on


def test_behind_an_interstitial_the_report_says_the_target_is_covered_and_proposes_no_click(
    recorded: tuple[Cli, Path, list[str]], web: str
) -> None:
    cli, out, _ = recorded
    consent = out.with_name("consent.ad")
    consent.write_text(out.read_text().replace("/ops/index.html", "/ops/index.html?consent"))
    proc = cli("run", str(consent), *FAST, ok=None)
    assert proc.returncode == 3
    report = proc.stdout
    assert "action-failure at step 2" in report and "another element covers it" in report
    assert "is covered by another element" in report and "next:   replay click" not in report
