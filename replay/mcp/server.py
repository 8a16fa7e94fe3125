"""`replay mcp`: the same operations as the CLI, as MCP tools over stdio (design §11).

Every tool is a thin projection of a daemon request: the result is ``structuredContent`` plus a
text rendering; an error (a divergence included) is ``isError: true`` with the same object the CLI
prints under ``--json``. Logs go to stderr only: stdout is the protocol.
"""

from __future__ import annotations

import asyncio
import contextvars
import inspect
import json
import logging
import sys
import threading
from collections.abc import Callable
from typing import Any, Literal

from mcp.server.mcpserver import MCPServer
from mcp.types import CallToolResult, TextContent

from replay.client import CANCELLING, Cancel, Client
from replay.errors import DivergenceError, InvalidArgs, ReplayError
from replay.limits import check_amount, check_ms, check_repair, check_trials, check_values
from replay.mcp.derived import Derived
from replay.mcp.params import given, takes
from replay.options import backend_options
from replay.script.registry import OLDER_SPELLINGS, REGISTRY
from replay.session.contract import caller_options

log = logging.getLogger("replay.mcp")


def _text(payload: dict[str, Any]) -> str:
    return json.dumps(payload, ensure_ascii=False)


IN_FLIGHT: set[Cancel] = set()  # the calls under way: withdrawn when the client goes


async def _in_thread(fn: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """``fn`` in a thread of its own — not a pool a few slow calls could fill (a `wait` on one session
    never holds up `list_sessions`), and a daemon thread the server never waits for at exit. When
    the call is cancelled (``notifications/cancelled``, the client gone), its daemon requests are
    withdrawn: their connections are shut, so the daemon cancels them too."""
    loop = asyncio.get_running_loop()
    done: asyncio.Future[dict[str, Any]] = loop.create_future()
    cancel = Cancel()

    def settle(result: dict[str, Any] | None, error: BaseException | None) -> None:
        if done.done():
            return
        if error is not None:
            done.set_exception(error)
        else:
            done.set_result(result or {})

    def work() -> None:
        CANCELLING.set(cancel)
        try:
            result = fn()
        except BaseException as exc:  # noqa: BLE001 - handed to the awaiting coroutine
            loop.call_soon_threadsafe(settle, None, exc)
        else:
            loop.call_soon_threadsafe(settle, result, None)

    IN_FLIGHT.add(cancel)
    try:
        threading.Thread(target=contextvars.copy_context().run, args=(work,), daemon=True).start()
        return await done
    except asyncio.CancelledError:
        cancel.cancel()
        raise
    finally:
        IN_FLIGHT.discard(cancel)


async def _call(fn: Callable[[], dict[str, Any]], render: Callable[[Any], str] | None = None) -> CallToolResult:
    """Run one blocking client call off the event loop and project its outcome."""
    try:
        result = await _in_thread(fn)
    except DivergenceError as err:
        from replay.engine.report import render_text

        d = err.divergence
        text = render_text(d, f"replay_run(path={d['step']['source']['path']!r}, session={d.get('session')!r})")
        return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=d, is_error=True)
    except ReplayError as err:
        return _refused(err)
    text = render(result) if render is not None else _text(result)
    return CallToolResult(content=[TextContent(type="text", text=text)], structured_content=result)


def _refused(err: ReplayError) -> CallToolResult:
    """An error as a tool error: its text, and the object the CLI prints under ``--json``."""
    data = {"error": err.to_dict()}
    return CallToolResult(content=[TextContent(type="text", text=str(err))], structured_content=data, is_error=True)


class _Checked(Client):
    """A client whose commands are read before they are sent: bad input is ``INVALID_ARGS`` whether or not a
    daemon (and so a session) is there to say so (the CLI's fast path stays free of the script language)."""

    def command(self, *argv: str, **options: Any) -> Any:
        from replay.script.parser import parse_argv

        parse_argv([str(a) for a in argv])
        return super().command(*argv, **options)


def _client(session: str | None) -> Client:
    return _Checked(session)


# the registry command behind each session tool (checked against the registry by the tests); its
# summary is the tool's description, so the two surfaces cannot drift apart
TOOL_COMMANDS = {
    "open": "open",
    "snapshot": "snapshot",
    "wait": "wait",
    "is_check": "is",
    "get": "get",
    "scroll": "scroll",
    "back": "back",
    "screenshot": "screenshot",
    "close": "close",
}


def _about(tool: str, extra: str = "") -> str:
    declared = REGISTRY.get(TOOL_COMMANDS[tool])
    assert declared is not None
    return declared.summary + extra


class Server(MCPServer):
    """MCPServer, checking a call's parameters as the CLI checks its options: an unknown one is refused
    (``INVALID_ARGS`` naming it), never silently dropped (``save_scirpt=`` would quietly not record)."""

    async def list_tools(self) -> list[Any]:
        tools = await super().list_tools()
        for tool in tools:
            tool.input_schema = {**tool.input_schema, "additionalProperties": False}
        return tools

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        schema = next((t.input_schema for t in await super().list_tools() if t.name == name), None)
        known = set((schema or {}).get("properties", {}))
        unknown = sorted(set(arguments) - known) if schema is not None else []
        if unknown:
            err = InvalidArgs(
                f"{name}: unknown parameter{'s' if len(unknown) > 1 else ''} {', '.join(map(repr, unknown))}",
                hint=f"{name} takes: {', '.join(sorted(known)) or 'no parameters'}",
            )
            return _refused(err)
        try:
            return await super().call_tool(name, arguments, context)
        except Exception as exc:  # noqa: BLE001 - a refusal raised before a tool's call began (a bad session name)
            if isinstance(exc.__cause__, ReplayError):
                return _refused(exc.__cause__)
            raise


def _add_derived(server: MCPServer, derived: Derived) -> None:
    """``derived``'s tool: its parameters from the registry, its call the CLI's command line."""

    async def tool(**arguments: Any) -> CallToolResult:
        session, timeout = arguments.pop("session", None), arguments.pop("timeout", None)

        def act() -> dict[str, Any]:
            options = {"timeout": check_ms("timeout", timeout)} if timeout is not None else {}
            return _client(session).command(*derived.argv(arguments), **options)

        return await _call(act)

    tool.__signature__ = inspect.Signature(derived.parameters(), return_annotation=CallToolResult)  # type: ignore[attr-defined]
    server.add_tool(tool, name=derived.name, description=derived.command.summary)


# Longer than ~60 lines on purpose: one declaration per tool, since MCPServer derives each tool's
# input schema from its Python signature (the registry check lives in tests/unit/test_surfaces.py).
def build_server() -> MCPServer:
    """The server with one tool per operation."""
    server = Server(
        name="replay",
        instructions=(
            "Drive a browser or Android session (open, snapshot, click @eN …), replay .ad flows with replay_run, "
            "and heal a divergence by doing the failed step in the same session, then resuming with from_step and "
            "plan_digest from the divergence. Never edit .ad text; close the session to publish the healed script."
        ),
    )

    @server.tool(
        description=_about(
            "open",
            " The session is created on demand; save_script records it. platform=android opens an app id or deep"
            " link on the device serial (else ANDROID_SERIAL, else the only one attached); relaunch restarts the app.",
        )
    )
    @takes([o for o in caller_options("command") if o.flag], backend_options())
    async def open(url: str, session: str | None = None, relaunch: bool = False, **options: Any) -> CallToolResult:  # noqa: A001
        own, backend = given(options)
        opening = _client(session).open
        return await _call(lambda: opening(url, relaunch=relaunch, **own, backend=backend))

    @server.tool(description=_about("snapshot", " Issues refs (@eN) under a new generation."))
    async def snapshot(
        session: str | None = None,
        interactive: bool = True,
        scope: str | None = None,
        depth: int | None = None,
        compact: bool = False,
    ) -> CallToolResult:
        argv = ["snapshot"] + (["-i"] if interactive else []) + (["-c"] if compact else [])
        argv += (["-s", scope] if scope is not None else []) + (["-d", str(depth)] if depth is not None else [])
        return await _call(lambda: _client(session).command(*argv), lambda r: str(r.text))

    @server.tool(description=_about("wait"))
    async def wait(
        target: str | None = None,
        text: str | None = None,
        absent: bool = False,
        ms: int | None = None,
        session: str | None = None,
    ) -> CallToolResult:
        argv = ["wait"]
        if text is not None:
            argv += ["text", text]
        elif target is not None:
            argv += (["absent"] if absent else []) + [target]
        if ms is not None:
            argv.append(str(ms))

        def waited() -> dict[str, Any]:
            check_ms("ms", ms, low=0)  # as the CLI refuses it: a wait of -5 ms is no wait
            return _client(session).command(*argv)

        return await _call(waited)

    @server.tool(description=_about("is_check"))
    async def is_check(
        predicate: str, target: str, value: str | None = None, session: str | None = None, record: bool = False
    ) -> CallToolResult:
        argv = ["is", predicate, target] + ([value] if value is not None else []) + (["--record"] if record else [])
        return await _call(lambda: _client(session).command(*argv))

    @server.tool(description=_about("get"))
    async def get(what: str, target: str, session: str | None = None) -> CallToolResult:
        return await _call(lambda: _client(session).command("get", what, target))

    @server.tool(description=_about("scroll"))
    async def scroll(
        direction: Literal["up", "down", "left", "right"] | None = None,  # (a JSON-schema enum: "sideways" refused)
        amount: float | None = None,
        target: str | None = None,
        session: str | None = None,
    ) -> CallToolResult:
        argv = (
            ["scroll", target]
            if target
            else ["scroll", direction or "down"] + ([str(amount)] if amount is not None else [])
        )
        return await _call(lambda: _client(session).command(*argv))

    @server.tool(description=_about("back"))
    async def back(session: str | None = None) -> CallToolResult:
        return await _call(lambda: _client(session).command("back"))

    @server.tool(description=_about("screenshot", " Returns its path."))
    async def screenshot(path: str | None = None, session: str | None = None) -> CallToolResult:
        return await _call(lambda: _client(session).command("screenshot", *([path] if path else [])))

    @server.tool(
        description=(
            "Replay an .ad script, verifying each element before acting. save_script arms a repair (the healed "
            "script is published on close); from_step + plan_digest resume after a divergence; serial names the "
            "Android device; effects=false skips checking what each step did (a missing effect is a divergence)."
        )
    )
    @takes(caller_options("run"), backend_options())
    async def replay_run(path: str, session: str | None = None, **options: Any) -> CallToolResult:
        own, backend = given(options)
        return await _call(lambda: _client(session).run(path, **own, backend=backend))

    @server.tool(
        description=(
            "Replay an .ad script armed and repair each divergence in bounded rounds (agent: builtin or a command); "
            "the healed script is replayed in a fresh session before it counts. Exit codes: 0 no drift, 5 healed "
            "(pending review), 6 escalated or rejected."
        )
    )
    @takes(backend_options())
    async def heal(
        path: str,
        agent: str = "builtin",
        repair: int = 2,
        deadline_s: float | None = None,
        budget_usd: float | None = None,
        allow_manual: bool = False,
        values: dict[str, str] | None = None,
        out: str | None = None,
        timeout: int | None = None,
        trials: int = 3,
        **backend: Any,
    ) -> CallToolResult:
        from replay.heal.orchestrator import HealOptions, HealRun

        def healed() -> dict[str, Any]:
            options = HealOptions(  # checked as the CLI checks them (replay.limits): refused, never clamped
                agent=agent,
                repair=check_repair(repair),
                deadline_s=check_amount("deadline_s", deadline_s),
                budget_usd=check_amount("budget_usd", budget_usd),
                allow_manual=allow_manual,
                values=check_values(values),
                out=out,
                timeout_ms=check_ms("timeout", timeout),
                backend=given(backend)[1],
                trials=check_trials(trials),
            )
            return HealRun(path, options).run().to_dict()

        return await _call(healed)

    @server.tool(description=_about("close", " A complete repair publishes its healed script (verify=True gates it)."))
    @takes(caller_options("close"))
    async def close(session: str | None = None, **options: Any) -> CallToolResult:
        own, _ = given(options)
        return await _call(lambda: _client(session).close(**own))

    @server.tool(description="List the open sessions.")
    async def list_sessions() -> CallToolResult:
        return await _call(lambda: {"sessions": Client().sessions()})

    written = set(TOOL_COMMANDS.values())
    for command in REGISTRY.commands.values():
        if not command.foreign and command.name not in written and command.name not in OLDER_SPELLINGS:
            _add_derived(server, Derived(command))
    return server


async def serve_stdio(server: MCPServer) -> None:
    """``server`` over stdio, answering a line that is not JSON-RPC with a ``-32700`` parse error
    (JSON-RPC 2.0 §5.1) instead of dropping it without a word, as the transport alone does."""
    import anyio
    from mcp.server.stdio import stdio_server
    from mcp.shared.message import SessionMessage
    from mcp.types import INVALID_REQUEST, PARSE_ERROR, ErrorData, JSONRPCError

    lowlevel = server._lowlevel_server  # noqa: SLF001 - MCPServer.run_stdio_async, with the filter between
    async with stdio_server() as (read_stream, write_stream):
        forward, messages = anyio.create_memory_object_stream[Any](0)

        async def answer_parse_errors() -> None:
            async with forward:
                async for item in read_stream:
                    if isinstance(item, Exception):
                        error = ErrorData(code=PARSE_ERROR, message=f"Parse error: {str(item).splitlines()[0]}")
                        await write_stream.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))
                    elif _lost_request(item.message):
                        error = ErrorData(
                            code=INVALID_REQUEST,
                            message=f"Invalid Request: {item.message.method} needs a string or integer id",
                        )
                        await write_stream.send(SessionMessage(JSONRPCError(jsonrpc="2.0", id=None, error=error)))
                    else:
                        await forward.send(item)

        try:
            async with anyio.create_task_group() as tg:
                tg.start_soon(answer_parse_errors)
                await lowlevel.run(messages, write_stream, lowlevel.create_initialization_options())
                tg.cancel_scope.cancel()
        finally:  # the client hung up: what it asked for stops too, in the daemon as here
            for cancel in list(IN_FLIGHT):
                cancel.cancel()


def _lost_request(message: Any) -> bool:
    """A request whose id JSON-RPC does not allow (an object, a list): the SDK reads it as a
    notification and would never answer. Every MCP notification's method is ``notifications/…``."""
    from mcp.types import JSONRPCNotification

    return isinstance(message, JSONRPCNotification) and not message.method.startswith("notifications/")


def main() -> None:
    """Serve over stdio until the client hangs up."""
    logging.basicConfig(level=logging.WARNING, stream=sys.stderr)
    asyncio.run(serve_stdio(build_server()))
