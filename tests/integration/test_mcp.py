"""The MCP server over stdio, driven by a real MCP client: the same sessions and objects as the CLI."""

from __future__ import annotations

import asyncio
import json
import re
import shutil
from pathlib import Path
from typing import Any

import pytest
from mcp.client.session import ClientSession
from mcp.client.stdio import StdioServerParameters, stdio_client

from replay.script.registry import OLDER_SPELLINGS, REGISTRY

from .conftest import REPLAY, ROOT, Cli

FLOW = ROOT / "fixtures" / "flows" / "checkout.ad"


def mcp_session(cli: Cli) -> Any:
    params = StdioServerParameters(command=REPLAY, args=["mcp"], env=dict(cli.env), cwd=cli.cwd)
    return stdio_client(params)


def test_tools_are_the_documented_snake_case_set(cli: Cli) -> None:
    async def go() -> list[str]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return sorted(t.name for t in (await s.list_tools()).tools)

    derived = [
        c.name.replace("-", "_") for c in REGISTRY.commands.values() if not c.foreign and c.name not in OLDER_SPELLINGS
    ]
    assert asyncio.run(go()) == sorted(
        {*derived} - {"type", "is"}
        | {
            "open",
            "snapshot",
            "click",
            "fill",
            "type_text",
            "press",
            "wait",
            "is_check",
            "get",
            "scroll",
            "back",
            "screenshot",
            "replay_run",
            "heal",
            "close",
            "list_sessions",
        }
    )


def test_the_heal_tool_returns_a_typed_result_with_the_exit_code_and_paths(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "checkout.ad"
    flow.write_text((ROOT / "fixtures" / "flows" / "checkout.ad").read_text())

    async def go() -> Any:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            args = {"path": str(flow), "values": {"SHOP": f"{web}/drift/renamed"}, "timeout": 1500}
            return await s.call_tool("heal", args)

    result = asyncio.run(go())
    r = result.structured_content
    assert r["status"] == "healed" and r["exitCode"] == 5 and r["healed"] == str(tmp_path / "checkout.healed.ad")
    assert r["rounds"][0]["strategy"] == "DECOMPOSE" and r["report"].endswith("heal-report.md")


def test_an_agent_over_mcp_heals_a_broken_flow_to_a_verified_healed_script(cli: Cli, web: str, tmp_path: Path) -> None:
    flow = tmp_path / "checkout.ad"
    shutil.copy(FLOW, flow)
    values = {"SHOP": f"{web}/drift/renamed"}

    async def go() -> dict[str, Any]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            run = await s.call_tool(
                "replay_run",
                {"path": str(flow), "session": "agent", "save_script": "", "values": values, "timeout": 1500},
            )
            assert run.is_error is True
            d = run.structured_content
            assert d is not None and d["kind"] == "selector-miss" and d["repairHint"] == "record-and-heal"
            assert d["resume"]["repairSessionHeld"] is True
            # the same divergence, as the CLI projects it from the shared session
            assert cli.json("divergence", "--session", "agent")["divergence"] == d
            clicked = await s.call_tool("click", {"target": d["suggestions"][0]["ref"], "session": "agent"})
            assert clicked.is_error is False and clicked.structured_content["selector"].startswith('id="submit-order"')
            resumed = await s.call_tool(
                "replay_run",
                {
                    "path": str(flow),
                    "session": "agent",
                    "from_step": d["resume"]["from"],
                    "plan_digest": d["resume"]["planDigest"],
                },
            )
            assert resumed.is_error is False and resumed.structured_content["repair"]["state"] == "COMPLETE"
            closed = await s.call_tool("close", {"session": "agent", "verify": True})
            assert closed.is_error is False
            return dict(closed.structured_content)

    closed = asyncio.run(go())
    healed = tmp_path / "checkout.healed.ad"
    assert closed["healed"] == str(healed) and closed["verify"]["passed"] is True
    assert 'click id="submit-order"' in healed.read_text()


def test_sessions_are_shared_with_the_cli(cli: Cli, web: str) -> None:
    cli("open", f"{web}/shop/index.html", "--session", "both")

    async def go() -> Any:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            snap = await s.call_tool("snapshot", {"session": "both"})
            listed = await s.call_tool("list_sessions", {})
            return snap, listed

    snap, listed = asyncio.run(go())
    assert "Thumbs up" in snap.content[0].text
    assert "both" in {x["name"] for x in listed.structured_content["sessions"]}


def test_errors_are_tool_errors_with_our_error_object(cli: Cli) -> None:
    async def go() -> Any:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return await s.call_tool("click", {"target": "@e1", "session": "nobody"})

    result = asyncio.run(go())
    assert result.is_error is True and result.structured_content["error"]["code"] == "SESSION_NOT_FOUND"


def test_an_mcp_only_agent_answers_a_dialog_and_switches_tabs(cli: Cli, web: str) -> None:
    async def go() -> list[Any]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            at = {"session": "dialogs"}
            await s.call_tool("open", {"url": f"{web}/shop/checkout.html", **at})
            asked = await s.call_tool("click", {"target": 'id="empty-cart"', **at})
            said = await s.call_tool("alert", {**at})
            answered = await s.call_tool("alert", {"verb": "accept", "message": "Empty the cart?", **at})
            opened = await s.call_tool("click", {"target": 'role=link label="Help (opens a tab)"', **at})
            back = await s.call_tool("tab", {"number": 1, **at})
            listed = await s.call_tool("tab", {"verb": "list", **at})
            await s.call_tool("close", at)
            return [asked, said, answered, opened, back, listed]

    asked, said, answered, opened, back, listed = asyncio.run(go())
    results = (asked, said, answered, opened, back, listed)
    assert [r.is_error for r in results] == [False] * 6, [r.content[0].text for r in results]
    assert "Empty the cart?" in json.dumps(said.structured_content)
    tabs = json.dumps(listed.structured_content)
    assert "help.html" in tabs and "checkout.html" in tabs


def test_an_unknown_parameter_is_refused_naming_it_never_ignored(cli: Cli, web: str) -> None:
    async def go() -> list[Any]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            opened = await s.call_tool("open", {"url": f"{web}/shop/index.html", "save_scirpt": "", "session": "typo"})
            alerted = await s.call_tool("alert", {"verbb": "accept", "session": "typo"})
            return [opened, alerted]

    for result, name in zip(asyncio.run(go()), ["save_scirpt", "verbb"], strict=True):
        error = result.structured_content["error"]
        assert result.is_error and error["code"] == "INVALID_ARGS" and repr(name) in error["message"]
    assert "typo" not in {s["name"] for s in cli.json("session", "list")["sessions"]}  # refused before it opened


@pytest.mark.parametrize(
    ("tool", "arguments", "said"),
    [
        ("snapshot", {"depth": -5}, "flag -d takes a whole number"),
        ("snapshot", {"scope": ""}, "flag -s needs a value"),
        ("tab", {"number": -1}, "must be a whole number from 1"),
        ("tab", {"verb": "list", "number": 2}, "make none of `tab`'s forms"),
        ("alert", {"verb": "wait", "ms": 3_600_001}, "milliseconds up to 3600000"),
    ],
)
def test_mcp_parameters_have_the_clis_bounds(cli: Cli, tool: str, arguments: dict[str, Any], said: str) -> None:
    async def go() -> Any:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as s:
            await s.initialize()
            return await s.call_tool(tool, {**arguments, "session": "bounds"})

    result = asyncio.run(go())
    assert result.is_error and result.structured_content["error"]["code"] == "INVALID_ARGS"
    assert said in result.structured_content["error"]["message"]


def test_an_agent_over_mcp_heals_a_permanent_interstitial_by_recording_its_click_and_the_gate_defers_the_effect(
    cli: Cli, web: str, tmp_path: Path
) -> None:
    # docs/healing.md: an interstitial that is now part of the app is acknowledged *recorded*; the sign-in's
    # recorded effect (navigation to the dashboard) then holds one step later: deferred, not changed (SPEC §8)
    s = ("--session", "rec")
    cli("open", f"{web}/banking/v1/login.html", "--save-script", "bank.ad", *s)
    shown = cli("snapshot", "-i", *s).stdout
    for label, value in (("Email", "ada@example.com"), ("Password", "hunter2")):
        cli("fill", re.search(rf'(@e\d+) textbox "{label}"', shown)[1], value, *s)  # type: ignore[index]
    cli("click", re.search(r'(@e\d+) button "Sign in"', shown)[1], *s)  # type: ignore[index]
    cli("wait", "text", "Dashboard", *s)
    cli("close", *s)
    flow = tmp_path / "notice.ad"
    flow.write_text((tmp_path / "bank.ad").read_text().replace("/banking/v1/", "/banking/v2-notice/"))

    async def go() -> dict[str, Any]:
        async with mcp_session(cli) as (read, write), ClientSession(read, write) as m:
            await m.initialize()
            args = {"path": str(flow), "session": "agent", "save_script": "", "timeout": 1500}
            d = (await m.call_tool("replay_run", args)).structured_content
            assert d is not None and d["repairHint"] == "state-repair" and d["action"].startswith("wait")
            screen = (await m.call_tool("snapshot", {"session": "agent", "interactive": True})).structured_content
            cont = next(n["ref"] for n in screen["snapshot"]["nodes"] if n.get("label") == "Continue")
            assert (await m.call_tool("click", {"target": cont, "session": "agent"})).is_error is False
            resume = {"from_step": d["resume"]["from"], "plan_digest": d["resume"]["planDigest"]}
            resumed = await m.call_tool("replay_run", {"path": str(flow), "session": "agent", **resume})
            assert resumed.is_error is False
            return dict((await m.call_tool("close", {"session": "agent", "verify": True})).structured_content)

    closed = asyncio.run(go())
    assert closed["verify"]["passed"] is True and closed["healed"] == str(tmp_path / "notice.healed.ad")
    assert any("effect deferred by 1 step" in line for line in closed["verify"]["effects"])
    assert 'click role=button label="Continue"' in (tmp_path / "notice.healed.ad").read_text()
