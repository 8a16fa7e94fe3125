"""The `replay` command line (click). Surfaces only project typed results and errors.

The client path must stay light: no Playwright or lxml import happens here.
"""

from __future__ import annotations

import difflib
import json
import os
import sys
import tempfile
from collections.abc import Callable
from functools import wraps
from typing import Any, NoReturn, TypeVar

import click

from replay import __version__
from replay.errors import FormatCheckFailed, InvalidArgs, ReplayError

F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last stdout line.")
platform_option = click.option(
    "--platform", type=click.Choice(["web", "android"]), default=None, help="Override the script's platform."
)


session_option = click.option(
    "--session",
    "session",
    default=None,
    metavar="NAME",
    help="Session name (default: REPLAY_SESSION, else per directory).",
)
timeout_option = click.option("--timeout", type=click.IntRange(1), default=None, metavar="MS", help="Step timeout.")
_PASSTHROUGH = {"ignore_unknown_options": True, "help_option_names": ["--help"]}


def _print_error(err: ReplayError) -> None:
    click.echo(f"error: {err}", err=True)
    if err.hint:
        click.echo(f"  hint: {err.hint}", err=True)


def _errors_of(err: ReplayError) -> list[ReplayError]:
    return list(getattr(err, "errors", [err]))


def handles_errors(fn: F) -> F:
    """Turn a ``ReplayError`` into its report and exit code; never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        as_json = bool(kwargs.get("as_json"))
        try:
            return fn(*args, **kwargs)
        except ReplayError as err:
            errors = _errors_of(err)
            for e in errors:
                _print_error(e)
            if as_json:
                payload: dict[str, Any] = {"ok": False, "error": errors[0].to_dict()}
                if len(errors) > 1:
                    payload["errors"] = [e.to_dict() for e in errors]
                click.echo(json.dumps(payload, ensure_ascii=False))
            sys.exit(err.exit_code)

    return wrapper  # type: ignore[return-value]


def emit(as_json: bool, payload: dict[str, Any], text: str | None) -> None:
    """Print the human text, or the JSON payload as the last stdout line."""
    if as_json:
        click.echo(json.dumps({"ok": True, **payload}, ensure_ascii=False))
    elif text:
        click.echo(text)


# the `replay --help` group of each command this module declares itself; the interactive commands
# take theirs from the registry, which also orders and names the groups
OWN_GROUPS = {
    "open": "interact",
    "close": "interact",
    "lint": "scripts",
    "fmt": "scripts",
    "digest": "scripts",
    "run": "replay",
    "verify": "replay",
    "divergence": "replay",
    "session": "sessions",
    "daemon": "sessions",
    "mcp": "sessions",
}


def help_group(name: str) -> str:
    """Where `replay --help` lists command ``name``."""
    from replay.script.registry import REGISTRY

    declared = REGISTRY.get(name)
    return OWN_GROUPS.get(name) or (declared.group if declared is not None else "interact")


class ReplayGroup(click.Group):
    """``replay FLOW.ad …`` is shorthand for ``replay run FLOW.ad …``; help lists commands in groups."""

    def resolve_command(self, ctx: click.Context, args: list[str]) -> Any:
        if args and args[0] not in self.commands and (args[0].endswith(".ad") or os.path.isfile(args[0])):
            args = ["run", *args]
        return super().resolve_command(ctx, args)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """One section per registry group (interact, inspect, scripts, replay, sessions), as `git help` does."""
        from replay.script.registry import GROUPS

        width = formatter.width - 6 - max((len(n) for n in self.commands), default=0)
        for key, title in GROUPS:
            rows = [
                (name, cmd.get_short_help_str(width))
                for name, cmd in self.commands.items()
                if not cmd.hidden and help_group(name) == key
            ]
            if rows:
                with formatter.section(title):
                    formatter.write_dl(rows)


@click.group(cls=ReplayGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, "--version", prog_name="replay")
def main() -> None:
    """Record, replay and heal UI flows; every element step is verified before it acts."""


@main.command()
@click.argument("files", nargs=-1, required=True)
@platform_option
@click.option("-e", "env_pairs", multiple=True, metavar="KEY=VALUE", help="Set a variable (checks ${VAR} resolution).")
@json_option
@handles_errors
def lint(files: tuple[str, ...], platform: str | None, env_pairs: tuple[str, ...], as_json: bool) -> None:
    """Parse and plan-check FILES; report every problem with file:line:col (exit 2)."""
    from replay.script.loader import load_collect
    from replay.script.plan import plan_problems
    from replay.script.resolve import unresolved, variables_for
    from replay.script.variables import parse_cli_assignment

    cli_vars = dict(parse_cli_assignment(p) for p in env_pairs)
    problems: list[ReplayError] = []
    results = []
    for path in files:
        try:
            script, errors = load_collect(path)
            if script is not None:
                effective, errors = plan_problems(script, platform)
                values = variables_for(script, platform=effective, cli=cli_vars)
                errors = sorted(
                    errors + unresolved(script, values), key=lambda e: e.location.line or 0 if e.location else 0
                )
                if not errors:
                    results.append({"path": path, "steps": len(script.actions), "platform": effective})
        except ReplayError as exc:
            errors = [exc]
        problems.extend(errors)
    if problems:
        raise _Many(problems)
    steps = sum(int(r["steps"]) for r in results)  # type: ignore[call-overload]
    emit(as_json, {"files": results}, f"ok: {len(results)} file(s), {steps} step(s)")


class _Many(InvalidArgs):
    def __init__(self, errors: list[ReplayError]) -> None:
        super().__init__(errors[0].message, hint=errors[0].hint, location=errors[0].location)
        self.errors = errors
        self.exit_code = max(e.exit_code for e in errors)


@main.command()
@click.argument("file")
@click.option("--check", is_flag=True, help="Exit 1 if the file is not in canonical form; change nothing.")
@click.option("--stdout", "to_stdout", is_flag=True, help="Print the canonical text instead of rewriting the file.")
@json_option
@handles_errors
def fmt(file: str, check: bool, to_stdout: bool, as_json: bool) -> None:
    """Rewrite FILE in canonical form (lossless: comments, header, env and annotations kept)."""
    from replay.script.formatter import format_script
    from replay.script.loader import load, read_text
    from replay.script.parser import parse

    original = read_text(file)
    script = load(file)
    text = format_script(script)
    # Safety net: the canonical text must mean exactly what the original meant.
    if parse(text, script.path).items != script.items:  # pragma: no cover - a formatter bug
        raise ReplayError("formatter would change the script's meaning; file left unchanged", hint="please report this")
    changed = text != original
    if to_stdout:
        click.echo(text, nl=False)
        return
    if check:
        if changed:
            diff = "".join(
                difflib.unified_diff(original.splitlines(True), text.splitlines(True), file, f"{file} (canonical)")
            )
            click.echo(diff, nl=False)
            raise FormatCheckFailed(f"{file} is not in canonical form", hint=f"run `replay fmt {file}`")
        emit(as_json, {"path": file, "changed": False}, f"{file}: already canonical")
        return
    if changed:
        _atomic_rewrite(file, text)
    emit(as_json, {"path": file, "changed": changed}, f"{file}: {'reformatted' if changed else 'unchanged'}")


def _atomic_rewrite(path: str, text: str) -> None:
    directory = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777
    fd, tmp = tempfile.mkstemp(prefix=".replay-fmt-", dir=directory)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        if os.path.exists(tmp):
            os.unlink(tmp)
        raise


@main.command()
@click.argument("file")
@platform_option
@json_option
@handles_errors
def digest(file: str, platform: str | None, as_json: bool) -> None:
    """Print the plan digest of FILE (what `run --from N --plan-digest D` checks)."""
    from replay.script.loader import load
    from replay.script.plan import build_plan

    plan = build_plan(load(file), platform)
    emit(
        as_json,
        {"path": file, "platform": plan.platform, "steps": len(plan.steps), "planDigest": plan.digest},
        plan.digest,
    )


def _exit_with_divergence(err: Any, file: str, as_json: bool, headline: str | None = None) -> NoReturn:
    """Project a divergence (JSON as the last stdout line, or the text report) and exit 3."""
    if as_json:
        click.echo(json.dumps({"ok": False, "error": err.to_dict()}, ensure_ascii=False))
    else:
        from replay.engine.report import render_text

        if headline:
            click.echo(headline)
        # the session keeps this run's -e values, so the resume command needs none
        click.echo(render_text(err.divergence, f"replay run {file} --session {err.divergence.get('session')}"))
    sys.exit(err.exit_code)


@main.command("run")
@click.argument("file")
@click.option("-e", "env_pairs", multiple=True, metavar="KEY=VALUE", help="Set a variable (highest precedence).")
@click.option("--session", "session", default=None, metavar="NAME", help="Run in this session (default: a new one).")
@click.option("--from", "from_step", type=int, default=None, metavar="N", help="Resume at plan step N (same session).")
@click.option("--plan-digest", "plan_digest", default=None, metavar="D", help="The digest the resume expects.")
@click.option(
    "--timeout", type=click.IntRange(1), default=None, metavar="MS", help="Step timeout (default: context, else 5000)."
)
@click.option("--level", type=click.Choice(["digest", "default", "full"]), default="default", help="Divergence detail.")
@platform_option
@click.option("--headed", is_flag=True, help="Show the browser window.")
@click.option(
    "--save-script",
    "save_script",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[OUT]",
    help="Arm a repair: the session's actions become OUT (default <stem>.healed.ad) when complete.",
)
@json_option
@handles_errors
def run_cmd(
    file: str,
    env_pairs: tuple[str, ...],
    session: str | None,
    from_step: int | None,
    plan_digest: str | None,
    timeout: int | None,
    level: str,
    platform: str | None,
    headed: bool,
    save_script: str | None,
    as_json: bool,
) -> None:
    """Replay FILE, verifying every element before acting; exit 3 with a divergence when the app drifted."""
    from replay.client import Client
    from replay.errors import DivergenceError
    from replay.script.loader import read_text
    from replay.script.variables import parse_cli_assignment

    values = dict(parse_cli_assignment(p) for p in env_pairs)
    read_text(file)  # a missing file is a usage error here, before any daemon
    client = Client(session)
    try:
        result = client.run(
            file,
            from_step=from_step,
            plan_digest=plan_digest,
            values=values,
            timeout=timeout,
            platform=platform,
            level=level,
            headed=headed,
            save_script=save_script,
        )
    except DivergenceError as err:
        _exit_with_divergence(err, file, as_json)
    ran = int(result["ran"])
    text = f"replayed {ran} step{'' if ran == 1 else 's'} in {result['elapsedSeconds']:.1f} s"
    if result.get("healed"):
        text += f"\nhealed script written to {result['healed']}"
    elif result.get("repair"):
        repair = result["repair"]
        text += f"\nrepair {repair['state']}: `replay close --session {result['session']}` publishes {repair['target']}"
    emit(as_json, {"result": result}, text)


@main.command("divergence")
@session_option
@click.option("--level", type=click.Choice(["digest", "default", "full"]), default="default")
@json_option
@handles_errors
def divergence_cmd(session: str | None, level: str, as_json: bool) -> None:
    """Show the session's latest divergence again (text, or --json)."""
    from replay.client import Client
    from replay.engine.report import render_text

    d = Client(session).divergence(level)
    if as_json:
        emit(True, {"divergence": d}, None)
        return
    click.echo(render_text(d, f"replay run {d['step']['source']['path']} --session {d.get('session')}"))


# interactive commands ------------------------------------------------------------------------


def _client(session: str | None) -> Any:
    from replay.client import Client

    return Client(session)


def _action_text(result: dict[str, Any]) -> str:
    cmd = result.get("command", "")
    if cmd == "snapshot":
        return str(result.get("text", ""))
    parts = [cmd]
    if result.get("target"):
        parts.append(str(result["target"]))
    if cmd == "is":
        parts = [f"{'pass' if result.get('pass') else 'FAIL'}: is {result.get('predicate')} — {result.get('observed')}"]
    res = result.get("resolution")
    if isinstance(res, dict):
        count = int(res.get("matchCount") or 1)
        parts.append(f"[{res.get('kind')}{f', {count} matches' if count > 1 else ''}]")
    text = " ".join(parts)
    if "value" in result:
        text += "\n" + (
            json.dumps(result["value"], ensure_ascii=False) if not isinstance(result["value"], str) else result["value"]
        )
    if result.get("recorded") and result.get("selector"):
        text += f"\n  recorded as: {result['selector']} ({result.get('verification')})"
    if result.get("path"):
        text += f"\n  saved {result['path']}"
    return text


def _interactive(name: str, help_text: str) -> None:
    @main.command(name, context_settings=_PASSTHROUGH, help=help_text, add_help_option=True)
    @click.argument("args", nargs=-1, type=click.UNPROCESSED)
    @session_option
    @timeout_option
    @json_option
    @handles_errors
    def command(args: tuple[str, ...], session: str | None, timeout: int | None, as_json: bool) -> None:
        options = {"timeout": timeout} if timeout else {}
        result = _client(session).command(name, *args, **options)
        emit(as_json, {"result": result}, _action_text(result))


def _register_interactive() -> None:
    from replay.script.registry import REGISTRY

    for cmd in REGISTRY.commands.values():
        if cmd.foreign or cmd.name in ("open", "close"):
            continue
        _interactive(cmd.name, cmd.summary)


@main.command("open", context_settings=_PASSTHROUGH)
@click.argument("args", nargs=-1, type=click.UNPROCESSED)
@click.option(
    "--save-script",
    "save_script",
    is_flag=False,
    flag_value="",
    default=None,
    metavar="[PATH]",
    help="Record this session; `close` writes the script (default $REPLAY_HOME/scripts/NAME-<time>.ad).",
)
@click.option("--headed", is_flag=True, help="Show the browser window.")
@click.option("--browser", type=click.Choice(["chromium", "firefox", "webkit"]), default="chromium")
@session_option
@timeout_option
@json_option
@handles_errors
def open_cmd(
    args: tuple[str, ...],
    save_script: str | None,
    headed: bool,
    browser: str,
    session: str | None,
    timeout: int | None,
    as_json: bool,
) -> None:
    """Open URL in a session (created on demand); --save-script records it."""
    options: dict[str, Any] = {"headed": headed, "browser": browser}
    if save_script is not None:
        options["save_script"] = os.path.abspath(save_script) if save_script else ""
    if timeout:
        options["timeout"] = timeout
    result = _client(session).command("open", *args, **options)
    text = f"opened {args[0] if args else ''} in session {result.get('session')}"
    if result.get("recording"):
        text += " (recording)"
    emit(as_json, {"result": result}, text)


@main.command("close")
@click.option("--save-script", "save_script", default=None, metavar="PATH", help="Write the script here instead.")
@click.option("--discard", is_flag=True, help="Close without writing anything.")
@click.option("--verify", is_flag=True, help="Replay the healed script in a fresh session (the acceptance gate).")
@session_option
@json_option
@handles_errors
def close_cmd(save_script: str | None, discard: bool, verify: bool, session: str | None, as_json: bool) -> None:
    """Close the session: a complete repair publishes its healed script; a recording writes its script."""
    result = _client(session).close(
        save_script=os.path.abspath(save_script) if save_script else None, discard=discard, verify=verify
    )
    text = f"closed session {result.get('closed')}"
    if result.get("script"):
        text += f"\nscript written to {result['script']}"
    if result.get("healed"):
        text += f"\nhealed script written to {result['healed']}"
    if result.get("aborted"):
        text += f"\n{result['aborted']}"
    check = result.get("verify")
    if check is not None:
        text += "\n" + (
            f"verified: the healed script passes in a fresh session ({check['steps']} steps)"
            if check["passed"]
            else f"verification FAILED: {check['divergence']['kind']} at step {check['divergence']['step']['index']}"
        )
    emit(as_json, {"result": result}, text)
    if check is not None and not check["passed"]:
        sys.exit(3)


@main.command("verify")
@click.argument("file")
@click.option("-e", "env_pairs", multiple=True, metavar="KEY=VALUE", help="Set a variable.")
@click.option("--timeout", type=click.IntRange(1), default=None, metavar="MS")
@click.option("--level", type=click.Choice(["digest", "default", "full"]), default="default")
@json_option
@handles_errors
def verify_cmd(file: str, env_pairs: tuple[str, ...], timeout: int | None, level: str, as_json: bool) -> None:
    """Replay FILE in a fresh session: the acceptance gate for a healed script (exit 0 pass, 3 divergence)."""
    from replay.client import Client
    from replay.errors import DivergenceError
    from replay.script.loader import read_text
    from replay.script.variables import parse_cli_assignment

    read_text(file)
    values = dict(parse_cli_assignment(p) for p in env_pairs)
    try:
        fresh = Client(None)
        fresh.explicit = False  # always a new session, whatever REPLAY_SESSION says
        result = fresh.run(file, values=values, timeout=timeout, level=level)
    except DivergenceError as err:
        _exit_with_divergence(err, file, as_json, f"verification FAILED: {file} diverges in a fresh session")
    emit(as_json, {"result": result}, f"verified: {file} passes in a fresh session ({result['ran']} steps)")


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
        f"{s['name']}\t{s.get('url') or ''}\t{'recording' if s.get('recording') else ''}\tidle {s.get('idleSeconds')}s"
        for s in sessions
    ]
    emit(as_json, {"sessions": sessions}, "\n".join(lines) or "no open sessions")


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

    Client().shutdown()
    emit(as_json, {"stopped": True}, "daemon stopped")


_register_interactive()


if __name__ == "__main__":  # pragma: no cover
    main()
