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


def test_replay_test_runs_an_imported_value_as_a_value_and_survives_an_alias_chain(cli: Cli, web: str) -> None:
    suite = Path(cli.cwd) / "suite"
    suite.mkdir()
    # imported as text, the value would write `click label="Nothing here" || label="Products"`: a pass
    (suite / "quote.yaml").write_text(
        f"url: {web}/shop/index.html\n---\n- launchApp\n- runFlow:\n    env:\n"
        "      ROW: 'Nothing here\" || label=\"Products'\n    commands:\n      - tapOn: ${ROW}\n"
    )
    (suite / "ok.ad").write_text(f'open {web}/shop/index.html\nis visible role=heading label="Products"\n')
    done = cli("test", str(suite), "--step-timeout", "500", ok=None)
    assert done.returncode == 1 and "Traceback" not in done.stderr + done.stdout, done.stderr
    said = {Path(w[1]).name: w[0] for w in (line.split() for line in done.stdout.splitlines()) if w[0].isupper()}
    assert said == {"quote.yaml": "DIVERGED", "ok.ad": "PASS"}, done.stdout
    chain = "\n".join(["a0: &a0 [x]"] + [f"a{i}: &a{i} [*a{i - 1}]" for i in range(1, 300)])
    (suite / "chain.yaml").write_text(chain + "\n")  # 4 KB: a RecursionError that ended the suite
    done = cli("test", str(suite), ok=None)
    assert done.returncode == 2 and "Traceback" not in done.stderr, done.stderr
    assert "chain.yaml:1:10: INVALID_ARGS: the YAML nests deeper than 64 levels" in done.stderr
