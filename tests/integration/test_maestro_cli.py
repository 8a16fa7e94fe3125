"""`replay import` and `replay export` as a person types them: every refusal at once with
file:line:col and nothing written; never over an existing file; the reverse where shapes overlap."""

from __future__ import annotations

from pathlib import Path

from .conftest import Cli

FLOW = "appId: com.example.app\n---\n- launchApp\n- tapOn:\n    below: Total\n- runScript: pay.js\n- tapOn: Pay\n"


def test_import_reports_every_refusal_and_writes_nothing(cli: Cli) -> None:
    flow = Path(cli.cwd) / "pay.yaml"
    flow.write_text(FLOW)
    done = cli("import", str(flow), ok=None)
    assert done.returncode == 2, done.stderr
    assert f"{flow}:5:12: INVALID_ARGS: tapOn below" in done.stderr
    assert f"{flow}:6:3: INVALID_ARGS: runScript" in done.stderr
    assert "Traceback" not in done.stderr and not (Path(cli.cwd) / "pay.ad").exists()


def test_import_then_export_gives_back_the_flow_and_neither_writes_over_a_file(cli: Cli) -> None:
    flow = Path(cli.cwd) / "pay.yaml"
    flow.write_text(FLOW.replace("- tapOn:\n    below: Total\n- runScript: pay.js\n", ""))
    cli("import", str(flow))
    script = Path(cli.cwd) / "pay.ad"
    assert 'click label="Pay" || placeholder="Pay"' in script.read_text()
    again = cli("import", str(flow), ok=None)
    assert again.returncode == 4 and "already exists" in again.stderr
    cli("export", str(script), "--format", "maestro", "-o", str(Path(cli.cwd) / "back.yaml"))
    assert (Path(cli.cwd) / "back.yaml").read_text() == (
        "appId: com.example.app\n---\n- launchApp\n- tapOn:\n    text: Pay\n"
    )
