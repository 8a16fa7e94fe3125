"""Effect-confirmed heals (SPEC §8) on a real upgrade that moved roles: Parts, recorded through the CLI
on Element (Vue 2) and replayed on Element Plus (Vue 3) — the accordion's header was a button inside a
`tab` and its panel a `tabpanel`; now the header is a button of its own and the panel a `region`; the
switch's role moved from its track to a hidden input (fixtures/element.py)."""

from __future__ import annotations

import json
import re
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from .conftest import Cli

pytestmark = pytest.mark.xdist_group("effect-confirmed")
SESSION = "parts"


@pytest.fixture(scope="module")
def flow(shared_home: str, web: str) -> Iterator[Path]:
    """The accordion's Returns, the Reviews tab, the tree's Fruit and the switch, clicked by snapshot refs."""
    with tempfile.TemporaryDirectory() as tmp:
        cli = Cli(shared_home, tmp)
        out = Path(tmp) / "parts.ad"
        cli("open", f"{web}/element/parts2/index.html", f"--save-script={out}", "--session", SESSION)
        for pattern in (r'button "Returns"', r'tab "Reviews"', r'treeitem "Fruit"', r"@e\d+ switch"):
            seen = cli("snapshot", "-i", "--session", SESSION).stdout
            ref = next(line.split()[0] for line in seen.splitlines() if re.search(pattern, line))
            cli("click", ref, "--session", SESSION)
        cli("close", "--session", SESSION)
        yield out


def on(flow: Path, page: str) -> Path:
    """The flow replayed on another version of the page (a copy beside the cwd)."""
    copy = Path(tempfile.mkdtemp()) / "parts.ad"
    copy.write_text(flow.read_text().replace("element/parts2/", f"element/{page}/"))
    return copy


def test_every_step_of_the_flow_records_what_a_person_saw_it_do(flow: Path) -> None:
    effects = [
        json.loads(line.split(" ", 2)[2]).get("effect") for line in flow.read_text().splitlines() if "target-v1" in line
    ]
    assert effects[0] == [{"appeared": "tabpanel", "text": "Returns"}]  # the accordion's panel
    assert {"target": "expanded"} in effects[2]  # the tree's row opened
    assert all(effects), effects


def test_an_accordion_header_whose_role_moved_is_healed_effect_confirmed_and_replays(cli: Cli, flow: Path) -> None:
    assert cli("run", str(flow), "--timeout", "1500", ok=None).returncode == 0  # its own version first
    upgraded = on(flow, "parts3")
    healed = cli("heal", str(upgraded), "--agent", "builtin", "--timeout", "1500", ok=None)
    assert healed.returncode == 5, healed.stdout + healed.stderr
    report = (Path(cli.cwd) / "replay-results" / "parts" / "heal-report.md").read_text()
    assert "effect-confirmed" in report
    published = upgraded.with_name("parts.healed.ad").read_text()
    assert 'click role=button label="Returns"' in published and '"appeared":"region","text":"Returns"' in published
    assert cli("verify", str(upgraded.with_name("parts.healed.ad")), ok=None).returncode == 0


def test_a_candidate_that_does_not_do_what_the_step_did_is_never_a_heal(cli: Cli, flow: Path) -> None:
    regressed = on(flow, "parts3-inert")  # the accordion no longer opens: nothing the step did happens
    healed = cli("heal", str(regressed), "--agent", "builtin", "--timeout", "1500", ok=None)
    assert healed.returncode == 6 and "did not do what the step did" in healed.stdout + healed.stderr
    assert not regressed.with_name("parts.healed.ad").exists()
