"""Every option of every operation in the contract (``replay/session/contract.py``), given a bad value on
every surface — the CLI (plain and ``--json``), MCP and ``Client`` — is refused as ``INVALID_ARGS``,
exit 2, never a traceback (SPEC §12). The bad values are drawn from each option's declaration, so a
new option is walked too. Everything is refused before a browser opens: no page is needed."""

from __future__ import annotations

import asyncio
import json
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession

from replay.client import Client
from replay.errors import ReplayError
from replay.options import Option
from replay.session.contract import caller_options

from .conftest import Cli
from .test_mcp import mcp_session

# the CLI command and MCP tool of each operation a caller gives options to (open: `command`'s)
SURFACES = {"command": (["open", "http://127.0.0.1:9/"], "open"), "run": (["run", "flow.ad"], "replay_run")}
SURFACES["close"] = (["close"], "close")
SURFACES["divergence"] = (["divergence"], None)


def bad(option: Option) -> tuple[str, Any] | None:
    """A value ``option`` refuses: as the CLI would say it, and as MCP or ``Client`` would pass it."""
    if option.kind == "ms":
        return "-5", -5
    if option.kind == "int":
        return "x", "x"
    if option.kind == "values":
        return "lower=1", {"lower": "1"}
    if option.choices:
        return "bogus", "bogus"
    if option.name == "plan_digest":  # a digest alone: it belongs to a resume (--from)
        return "abc", "abc"
    return None


WALK = [
    (op, option, *said)
    for op in SURFACES
    for option in caller_options(op)
    if (said := bad(option)) is not None and option.flag is not None
]


def ids(case: Any) -> str:
    return f"{case[0]}-{case[1].name}" if isinstance(case, tuple) else str(case)


@pytest.fixture
def flow(cli: Cli) -> Path:
    path = Path(cli.cwd) / "flow.ad"
    path.write_text("open http://127.0.0.1:9/\n")
    return path


@pytest.mark.parametrize("case", WALK, ids=ids)
def test_a_bad_option_on_the_cli_is_invalid_args_exit_2_plain_and_json(cli: Cli, flow: Path, case: Any) -> None:
    op, option, said, _ = case
    argv = [*SURFACES[op][0], option.flag, said, "--session", "walk"]
    plain = cli(*argv, ok=None)
    as_json = cli(*argv, "--json", ok=None)
    for proc in (plain, as_json):
        assert proc.returncode == 2 and "Traceback" not in proc.stderr + proc.stdout, (argv, proc.stderr)
    error = json.loads(as_json.stdout.strip().splitlines()[-1])["error"]
    assert error["code"] == "INVALID_ARGS" and error["exitCode"] == 2, error


def test_a_bad_option_on_mcp_is_a_tool_error_never_a_traceback(cli: Cli, flow: Path) -> None:
    cases = [(SURFACES[op][1], option.name, value) for op, option, _, value in WALK if SURFACES[op][1]]

    async def go() -> list[Any]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            out = []
            for tool, name, value in cases:
                given = (
                    {"url": "http://127.0.0.1:9/"} if tool == "open" else {"path": str(flow)} if tool != "close" else {}
                )
                out.append(await s.call_tool(tool, {**given, name: value, "session": "walk"}))
            return out

    for (tool, name, _), result in zip(cases, asyncio.run(go()), strict=True):
        text = result.content[0].text if result.content else ""
        assert result.is_error and "Traceback" not in text, (tool, name, text)
        error = (result.structured_content or {}).get("error")
        assert error is None or error["code"] == "INVALID_ARGS", (tool, name, error)


def test_a_bad_option_on_the_client_is_invalid_args(cli: Cli, flow: Path) -> None:
    client = Client("walk", home=cli.home)
    calls = {
        "command": lambda kw: client.command("open", "http://127.0.0.1:9/", **kw),
        "run": lambda kw: client.run(str(flow), **kw),
        "close": lambda kw: client.close(**kw),
        "divergence": lambda kw: client.divergence(**kw),
    }
    for op, option, _, value in WALK:
        with pytest.raises(ReplayError) as err:
            calls[op]({option.name: value})
        assert err.value.code == "INVALID_ARGS", (op, option.name, err.value)
