"""The interactive commands (drawn from the registry), `open`, `close`, and the session, daemon and MCP groups."""

from __future__ import annotations

import sys
from typing import Any

import click

from replay.cli.app import (
    PASSTHROUGH,
    emit,
    handles_errors,
    json_option,
    main,
    session_option,
    timeout_option,
)
from replay.cli.offline import snapshot_dump, wants_dump
from replay.cli.options import backend_flags, operation_options
from replay.cli.output import action_text
from replay.errors import EXIT_WRITE
from replay.session.protocol import shown_name

# interactive commands ------------------------------------------------------------------------


def _client(session: str | None) -> Any:
    from replay.client import Client

    return Client(session)


def _interactive(name: str, help_text: str) -> None:
    @main.command(name, context_settings=PASSTHROUGH, help=help_text, add_help_option=True)
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    @session_option
    @timeout_option
    @json_option
    @handles_errors
    def command(args: tuple[str, ...], session: str | None, timeout: int | None, as_json: bool) -> None:
        if name == "snapshot" and wants_dump(list(args)):  # a stored dump: no device, no session
            text, payload = snapshot_dump(list(args))
            emit(as_json, {"result": payload}, text)
            return
        options = {"timeout": timeout} if timeout else {}
        result = _client(session).command(name, *args, **options)
        emit(as_json, {"result": result}, action_text(result))


def _register_interactive() -> None:
    from replay.script.registry import REGISTRY

    for cmd in REGISTRY.commands.values():
        if cmd.foreign or cmd.name in ("open", "close"):
            continue
        _interactive(cmd.name, cmd.summary)


@main.command("open", context_settings=PASSTHROUGH)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@operation_options("command")
@backend_flags
@session_option
@json_option
@handles_errors
def open_cmd(
    args: tuple[str, ...], options: dict[str, Any], backend: dict[str, Any], session: str | None, as_json: bool
) -> None:
    """Open URL (web) or an app id or deep link (android) in a session (created on demand);
    --save-script records it."""
    result = _client(session).command("open", *args, **options, backend=backend)
    text = f"opened {args[0] if args else ''} in session {shown_name(result.session)}"
    if result.recording:
        text += " (recording)"
    emit(as_json, {"result": result}, text)


@main.command("close")
@operation_options("close")
@session_option
@json_option
@handles_errors
def close_cmd(options: dict[str, Any], session: str | None, as_json: bool) -> None:
    """Close the session: a complete repair publishes its healed script; a recording writes its script."""
    result = _client(session).close(**options)
    text = f"closed session {shown_name(result.closed)}"
    if result.script:
        text += f"\nscript written to {result.script}"
    if result.healed:
        text += f"\nhealed script written to {result.healed}"
    if result.rejected:
        text += f"\nnot verified: the heal was left for review as {result.rejected}"
    if result.aborted:
        text += f"\n{result.aborted}"
    if result.warning:
        text += f"\nwarning: {result.warning}"
    text += "".join(f"\nnot written: {said}" for said in result.unwritten)
    check = result.verify
    if check is not None:
        text += "\n" + (
            f"verified: the healed script passes in a fresh session ({check.steps} steps)"
            if check.passed
            else f"verification FAILED: {check.divergence_kind} at step {check.divergence_step}"
            if check.diverged
            else "verification FAILED: it replays, but a healed step is not proven to be the recorded one"
            if check.effects
            else f"verification did not run: {check.error_message}"
        )
        text += "".join(f"\n  {line}" for line in check.effects)
    emit(as_json, {"result": result}, text)
    if check is not None and not check.passed:
        sys.exit(3)
    if result.unwritten:  # published, the session closed: the exit code says a step is a comment only
        sys.exit(EXIT_WRITE)


@main.group("session")
def session_group() -> None:
    """Inspect sessions."""


@session_group.command("list")
@json_option
@handles_errors
def session_list(as_json: bool) -> None:
    """List the open sessions of the daemon."""
    from replay.client import Client

    sessions = Client().sessions()
    lines = [
        (
            f"{s.name}\torphaned recording of {s.actions} action(s), left by a stopped daemon: "
            f"`replay close --session {s.name}` publishes it, --discard drops it"
            if s.orphaned
            else f"{s.name}\t{s.url}\t{'recording' if s.recording else ''}\tidle {s.idle_seconds}s"
        )
        for s in sessions
    ]
    emit(as_json, {"sessions": sessions}, "\n".join(lines) or "no open sessions")


@main.command("devices")
@json_option
@handles_errors
def devices_cmd(as_json: bool) -> None:
    """The Android devices adb sees (`adb devices -l`): serial, state and what adb says of each."""
    import asyncio

    from replay.drivers.android.adb import COMMAND_S, SubprocessAdb, devices, listed

    listing = asyncio.run(SubprocessAdb("").run_global(devices(), COMMAND_S))
    found = [{"serial": s, "state": state, "about": about} for s, state, about in listed(listing)]
    lines = [f"{d['serial']}  {d['state']}  {d['about']}".rstrip() for d in found]
    emit(as_json, {"devices": found}, "\n".join(lines) or "no Android device (is it connected? `adb devices`)")


@main.command("mcp")
def mcp_cmd() -> None:
    """Serve the interactive commands and replay as MCP tools over stdio."""
    from replay.mcp.server import main as serve

    serve()


@main.group("daemon")
def daemon_group() -> None:
    """Inspect or stop the per-user session daemon."""


@daemon_group.command("status")
@json_option
@handles_errors
def daemon_status(as_json: bool) -> None:
    """Whether the daemon runs, its pid and session count."""
    from replay.client import Client

    info = Client().request({"op": "ping"}, start=False)
    emit(as_json, {"daemon": info}, f"daemon {info['pid']} serving {info['sessions']} session(s)")


@daemon_group.command("stop")
@json_option
@handles_errors
def daemon_stop(as_json: bool) -> None:
    """Stop the daemon; every session is torn down (recordings are written)."""
    from replay.client import Client

    stopped = Client().shutdown()
    emit(as_json, {"stopped": stopped}, "daemon stopped" if stopped else "no daemon was running")


_register_interactive()
