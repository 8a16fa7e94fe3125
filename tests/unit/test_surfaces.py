"""The registry is the one command table: the CLI help, the MCP tools, the Client and the pipeline agree with it."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from click.testing import CliRunner

from replay.cli import main
from replay.client import Client
from replay.engine.step import PIPELINE_OPS
from replay.mcp.server import TOOL_COMMANDS
from replay.script.registry import GROUPS, REGISTRY

NATIVE = [REGISTRY.commands[n] for n in REGISTRY.native_names()]  # the commands a session performs


def test_every_form_a_session_performs_names_an_op_the_pipeline_runs() -> None:
    ops = {f.op for c in NATIVE for f in c.forms}
    assert ops - {None} <= PIPELINE_OPS
    unperformed = [(c.name, f.name) for c in NATIVE for f in c.forms if f.op is None]
    assert unperformed == []  # press X Y is a tap at a point (px or %), on a page as on a device


def test_every_mcp_session_tool_is_a_registry_command_described_by_its_summary() -> None:
    for tool, command in TOOL_COMMANDS.items():
        declared = REGISTRY.get(command)
        assert declared is not None and not declared.foreign, tool


def test_every_mcp_tool_that_acts_on_the_page_takes_a_timeout_and_the_record_switch() -> None:
    import asyncio

    from replay.mcp.server import build_server
    from replay.script.registry import REGISTRY

    tools = {t.name: set(t.input_schema.get("properties", {})) for t in asyncio.run(build_server().list_tools())}
    acting = [tool for tool in ("click", "fill", "type_text", "press", "select", "hover", "check") if tool in tools]
    assert len(acting) == 7 and REGISTRY.get("type") is not None
    for tool in acting:
        assert {"timeout", "no_record", "session"} <= tools[tool], (tool, tools[tool])
    assert "type" not in tools and not ("long_press" in tools and "longpress" in tools)


def test_client_shortcuts_are_registry_commands() -> None:
    shortcuts = {"open", "snapshot", "click", "fill", "press", "close"}
    assert shortcuts <= {name for name in dir(Client) if not name.startswith("_")}
    assert all(REGISTRY.get(name) is not None for name in shortcuts)


def test_typed_text_parameters_are_declared_in_the_registry() -> None:
    typed = {(c.name, p.name) for c in REGISTRY.commands.values() for f in c.forms for p in f.params if p.typed}
    assert typed == {("fill", "text"), ("type", "text"), ("find", "arg"), ("alert", "text")}


def test_help_lists_every_command_once_under_its_registry_group() -> None:
    out = CliRunner().invoke(main, ["--help"]).output
    titles = [title for _, title in GROUPS]
    assert [line[:-1] for line in out.splitlines() if line[:-1] in titles] == titles
    listed = re.findall(r"^  ([a-z][a-z-]*)  ", out, flags=re.M)
    assert sorted(listed) == sorted(main.commands) and len(listed) == len(set(listed))
    inspect = out.split("Look at the screen:")[1].split("\n\n")[0]
    assert {"snapshot", "is", "get", "screenshot"} <= set(re.findall(r"^  ([a-z]+)", inspect, flags=re.M))


def test_the_fast_path_serves_every_interactive_command_but_open_and_close() -> None:
    from replay.cli.fast import FAST_COMMANDS

    assert FAST_COMMANDS == {c.name for c in NATIVE} - {
        "open",
        "close",
    }


def test_the_fast_path_reads_options_as_click_does_and_leaves_the_rest_to_click() -> None:
    from replay.cli.fast import parse

    assert parse(["click", "@e3", "--session", "s", "--json"]) == ("click", ["@e3"], {"session": "s", "json": True})
    assert parse(["fill", "--timeout=900", "id=a", "x y"]) == ("fill", ["id=a", "x y"], {"timeout": 900})
    assert parse(["snapshot", "-i", "-s", "id=a"]) == ("snapshot", ["-i", "-s", "id=a"], {})
    for argv in (
        ["click", "@e3", "--help"],
        ["click", "--timeout", "0", "@e3"],
        ["click", "--timeout", "3600001"],
        ["click", "--timeout", "9" * 30],
        ["fill", "id=a", "--", "--json"],
        ["open", "http://x/"],
        ["lint", "f.ad"],
        [],
    ):
        assert parse(argv) is None, argv


def test_a_plain_run_takes_the_fast_path_and_anything_else_is_clicks(tmp_path: Path) -> None:
    from replay.cli.fast import parse_run

    flow = tmp_path / "flow.ad"
    flow.write_text("context platform=web\nopen http://x/\n", encoding="utf-8")
    f = str(flow)
    assert parse_run(["run", f]) == (f, {}, {})
    assert parse_run(
        ["run", "-e", "A=1", "-e", "A=2=3", f, "--session=s", "--timeout", "900", "--level", "full", "--json"]
    ) == (
        f,
        {"A": "2=3"},
        {"session": "s", "timeout": 900, "level": "full", "json": True},
    )
    assert parse_run(["run", f, "--headed", "--from", "3", "--no-effects", "--serial", "emulator-5554"]) == (
        f,
        {},
        {"headed": True, "from_step": 3, "effects": False, "serial": "emulator-5554"},
    )
    (tmp_path / "latin1.ad").write_bytes(b"open http://x/\xe9\n")
    for argv in (
        ["run", f, "--help"],
        ["run", f, "-e", "lower=1"],  # click says what is wrong with the key
        ["run", f, "-e", "REPLAY_X=1"],
        ["run", f, "-e", "NOVALUE"],
        ["run", f, "-eA=1"],
        ["run", f, "--headed=1"],
        ["run", f, "--save-script"],  # a value or none: click's reading
        ["run", f, "--browser", "netscape"],
        ["run", f, "--level", "loud"],
        ["run", f, "--timeout", "0"],
        ["run", f, f],
        ["run", str(tmp_path / "missing.ad")],
        ["run", str(tmp_path / "latin1.ad")],
        ["run", str(tmp_path)],
        ["run"],
        ["verify", f],
    ):
        assert parse_run(argv) is None, argv


def test_the_fast_path_imports_neither_click_nor_the_script_language_nor_typing() -> None:
    import subprocess
    import sys

    code = (
        "from replay.cli.fast import fast\nfast(['snapshot', '-i', '--session', 'none'])\nimport sys\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'lxml', 'playwright', 'typing')"
        " or m.startswith('replay.script') or m.startswith('replay.engine')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "LOADED []" in out.stdout, out.stdout + out.stderr


def test_a_fast_command_exits_at_once_with_its_code_and_its_output_flushed(tmp_path: Path) -> None:
    import subprocess
    import sys

    from replay.errors import SessionNotFound

    # ``os._exit`` skips the interpreter's teardown: what was written must still reach the pipe
    out = subprocess.run(
        [sys.executable, "-m", "replay", "snapshot", "-i", "--session", "none", "--json"],
        capture_output=True,
        text=True,
        timeout=60,
        env={"PATH": "/usr/bin:/bin", "REPLAY_HOME": str(tmp_path)},
    )
    assert out.returncode == SessionNotFound.exit_code
    assert json.loads(out.stdout)["error"]["code"] == "SESSION_NOT_FOUND"  # (a pipe: block-buffered)
    assert out.stderr.startswith("error: SESSION_NOT_FOUND: no session is open\n"), out.stderr


def test_a_fast_run_imports_neither_click_nor_the_script_language_nor_typing(tmp_path: Path) -> None:
    import subprocess
    import sys

    flow = tmp_path / "flow.ad"
    flow.write_text("open http://x/\n", encoding="utf-8")
    code = (
        "import sys\nimport replay.client\n"
        # the daemon's answer, so that no daemon starts: what is imported on the way is the point
        "replay.client.Client.run = lambda self, *a, **k: replay.client.RunResult(ran=1, elapsedSeconds=0.1)\n"
        f"from replay.cli.fast import fast\nfast(['run', {str(flow)!r}, '-e', 'A=1'])\n"
        "print('LOADED', sorted(m for m in sys.modules if m.split('.')[0] in ('click', 'lxml', 'playwright', 'typing')"
        " or m.startswith('replay.script') or m.startswith('replay.engine')))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert "replayed 1 step in 0.1 s" in out.stdout and "LOADED []" in out.stdout, out.stdout + out.stderr


def test_a_run_whose_own_session_published_the_healed_script_says_how_to_verify_it() -> None:
    # the session is gone with the run: `replay close --verify` has nothing to close
    from replay.cli.output import run_text
    from replay.results import RunResult

    text = run_text(RunResult(ran=2, elapsedSeconds=0.1, healed="/tmp/my flows/a.healed.ad", session="run-1"))
    assert text.splitlines()[1:] == [
        "healed script written to /tmp/my flows/a.healed.ad",
        "  the run's session is closed; check the script in a fresh one: replay verify '/tmp/my flows/a.healed.ad'",
    ]


@pytest.mark.parametrize("argv", [["run"], ["run", "--json"], ["verify"], ["verify", "--json"]])
def test_a_bad_variable_key_is_invalid_args_exit_2_never_a_traceback(tmp_path: Path, argv: list[str]) -> None:
    flow = tmp_path / "f.ad"
    flow.write_text("context platform=web\nopen about:blank\nclose\n")
    done = CliRunner().invoke(main, [argv[0], str(flow), "-e", "lower=1", *argv[1:]])
    assert done.exit_code == 2, done.output
    assert "INVALID_ARGS" in done.output and "lower" in done.output
    assert done.exception is None or isinstance(done.exception, SystemExit), done.exception


def test_an_mcp_call_with_a_bad_session_name_is_refused_invalid_args_never_an_unexpected_error() -> None:
    import asyncio

    from replay.mcp.server import build_server

    server = build_server()
    for name in ("../x", "-rf"):
        answer = asyncio.run(server.call_tool("open", {"url": "http://127.0.0.1:1/", "session": name}))
        assert answer.is_error and "INVALID_ARGS: invalid session name" in answer.content[0].text, answer


def test_mcp_scroll_refuses_a_direction_it_does_not_know_at_once_naming_the_four() -> None:
    import asyncio

    from replay.mcp.server import build_server

    with pytest.raises(Exception, match="'up', 'down', 'left' or 'right'"):  # (the SDK's own refusal)
        asyncio.run(build_server().call_tool("scroll", {"direction": "sideways", "session": "s"}))
