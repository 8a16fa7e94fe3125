"""The acceptance gate's files (issue 32 §6): nothing unverified carries the healed name; a heal the
gate rejected, or never ran, stays as ``<stem>.rejected.ad`` whose first line says why."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from replay.errors import ReplayError, TargetExists
from replay.heal import orchestrator
from replay.heal.orchestrator import HealOptions, HealRun
from replay.results import Closed
from replay.session import gate
from replay.session.repair import RepairTransaction, healed_text

SCRIPT = "context platform=web\nopen http://127.0.0.1/\nclose\n# replay:heal-complete\n"


def staged(tmp_path: Path) -> Path:
    path = Path(gate.staged_target(str(tmp_path / "flow.healed.ad")))
    path.write_text(gate.staged_text(SCRIPT))
    return path


def test_a_gated_heal_is_committed_under_the_rejected_name_saying_it_is_not_verified(tmp_path: Path) -> None:
    assert gate.staged_target("/x/flow.healed.ad") == "/x/flow.rejected.ad"
    assert gate.staged_target("/x/out.ad") == "/x/out.rejected.ad"
    tx = RepairTransaction("/x/flow.ad", "flow.ad", "/x/flow.rejected.ad", "d", "web", 0, ["context platform=web"])
    assert healed_text(tx, []).startswith(gate.NOT_VERIFIED + "\n")
    assert not healed_text(RepairTransaction("/x/f.ad", "f.ad", "/x/f.healed.ad", "d", "web", 0), []).startswith("#")


def test_only_a_passing_heal_is_linked_to_the_healed_name_without_the_unverified_line(tmp_path: Path) -> None:
    copy = staged(tmp_path)
    final = tmp_path / "flow.healed.ad"
    assert gate.promote(str(copy), str(final)) == str(final)
    assert final.read_text() == SCRIPT and not copy.exists()


def test_promotion_never_writes_over_an_existing_healed_script(tmp_path: Path) -> None:
    copy = staged(tmp_path)
    final = tmp_path / "flow.healed.ad"
    final.write_text("mine")
    with pytest.raises(TargetExists):
        gate.promote(str(copy), str(final))
    assert final.read_text() == "mine" and copy.read_text().startswith(gate.NOT_VERIFIED)


def test_a_rejected_heal_says_why_on_its_first_line(tmp_path: Path) -> None:
    copy = staged(tmp_path)
    gate.reject(str(copy), "FAILED: selector-miss at step 3\nin a fresh session")
    assert copy.read_text() == "# replay heal: REJECTED: FAILED: selector-miss at step 3 in a fresh session\n" + SCRIPT


class _Closing:
    home = ""

    def __init__(self, path: str) -> None:
        self.path = path

    def close(self, **_: Any) -> Closed:
        return Closed(healed=self.path)


class _DeadDaemon:
    def __init__(self, **_: Any) -> None:
        pass

    def run(self, *_: Any, **__: Any) -> dict[str, Any]:
        raise ReplayError("the daemon stopped answering", hint="see daemon.log")


def test_a_heal_whose_gate_did_not_run_is_rejected_not_healed(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    flow = tmp_path / "flow.ad"
    flow.write_text("open http://127.0.0.1/\n")
    healer = HealRun(str(flow), HealOptions(artifacts_dir=str(tmp_path / "results")), home=str(tmp_path / "home"))
    copy = staged(tmp_path)
    healer.client = _Closing(str(copy))  # type: ignore[assignment]
    monkeypatch.setattr(orchestrator, "Client", _DeadDaemon)
    outcome = healer.publish_and_gate()
    assert (outcome.status, outcome.healed) == ("rejected", str(copy))
    assert not (tmp_path / "flow.healed.ad").exists()
    assert copy.read_text().startswith("# replay heal: REJECTED: not run: the acceptance replay did not complete")


@pytest.mark.parametrize("edited", [False, True])
def test_the_gate_publishes_the_text_it_replayed_never_an_edit_made_while_it_ran(tmp_path: Path, edited: bool) -> None:
    import asyncio

    copy = staged(tmp_path)
    final = tmp_path / "flow.healed.ad"
    planted = SCRIPT.replace("open http://127.0.0.1/", "open http://127.0.0.1/planted")

    async def replay(path: str) -> dict[str, Any]:
        if edited:  # a process that outlived the agent's turn edits the staged copy; the run reads that
            Path(path).write_text(gate.staged_text(planted))
        return {"passed": True, "steps": 2, "planDigest": gate.digest(Path(path).read_text(), path)}

    out = asyncio.run(gate.judge(str(copy), str(final), str(tmp_path), replay))
    if edited:
        assert "rejected" in out and not final.exists(), out
        assert "changed while its acceptance replay ran" in copy.read_text() and "planted" not in copy.read_text()
    else:
        assert out["healed"] == str(final) and final.read_text() == SCRIPT
