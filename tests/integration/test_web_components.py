"""A web-components kit's upgrade, on real Chromium through the CLI: Ionic 6 → 8 (fixtures/ionic.py), whose
select moved its button role from the custom element into its shadow root, and whose popover fades in
and out with animations of its shadow tree."""

from __future__ import annotations

import json
from pathlib import Path

from replay.script.parser import parse

from .conftest import Cli

SESSION = "ionic"


def _record_size(cli: Cli, web: str, out: Path) -> None:
    """Open the size select and pick Large on Ionic 6, as a person does it through the CLI."""
    cli("open", f"{web}/widgets/order/i6/index.html", f"--save-script={out}", "--session", SESSION)
    cli("wait", "text", "Pick one", "--session", SESSION)  # (the kit hydrates after load)
    cli("click", 'role=button label="Pick one, Size"', "--session", SESSION)
    cli("click", 'role=radio label="Large"', "--session", SESSION)
    cli("wait", "text", "Size: Large", "--session", SESSION)
    cli("close", "--session", SESSION)


def test_a_recording_waits_for_the_transitions_of_shadow_trees(cli: Cli, web: str, tmp_path: Path) -> None:
    # the popover's items appear after its enter animation, and it leaves by an animation after the pick:
    # a step's screen is settled only when no shadow root animates, so each step keeps what it did
    flow = tmp_path / "size.ad"
    _record_size(cli, web, flow)
    clicks = [i for i in parse(flow.read_text(), str(flow)).items if getattr(i, "command", None) == "click"]
    effects = [i.annotation.effect for i in clicks]
    assert [bool(e) for e in effects] == [True, True], effects
    assert any(f.kind == "appeared" and f.subject == "status" and f.text == "Size: Large" for f in effects[1])


def test_a_select_whose_role_moved_into_its_shadow_root_replays_on_the_next_major(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    flow = tmp_path / "size.ad"
    _record_size(cli, web, flow)
    upgraded = tmp_path / "size-on-8.ad"
    upgraded.write_text(flow.read_text().replace("/order/i6/", "/order/i8/"))
    ran = cli.json("run", str(upgraded), "--timeout", "3000", ok=None)
    # (all of it when it fails: the recorded script, and the divergence with what was expected and seen)
    assert ran["ok"] is True, upgraded.read_text() + json.dumps(ran["error"], indent=1)
