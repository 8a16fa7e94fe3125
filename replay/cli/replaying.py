"""`replay run`, `verify` and `divergence`: replay on the daemon, and the divergence when it stops."""

from __future__ import annotations

import sys
from typing import Any

import click

from replay.cli.app import MS, emit, handles_errors, json_option, main, session_option
from replay.cli.options import backend_flags, operation_options
from replay.cli.output import exit_with_divergence, run_text
from replay.errors import ReplayError
from replay.limits import MAX_REPAIR, MAX_TRIALS, check_amount


def _amount(ctx: click.Context, param: click.Parameter, value: float | None) -> float | None:
    """A finite amount of at least 0 (``--budget-usd nan`` is not one), as MCP checks it."""
    try:
        return check_amount(f"--{param.name}".replace("_", "-"), value)
    except ReplayError as err:
        raise click.BadParameter(err.message) from None


@main.command("run")
@click.argument("file")
@click.option("--session", "session", default=None, metavar="NAME", help="Run in this session (default: a new one).")
@operation_options("run")
@backend_flags
@json_option
@handles_errors
def run_cmd(file: str, session: str | None, options: dict[str, Any], backend: dict[str, Any], as_json: bool) -> None:
    """Replay FILE, verifying every element before acting; exit 3 with a divergence when the app drifted."""
    from replay.client import Client
    from replay.errors import DivergenceError
    from replay.script.loader import read_text

    read_text(file)  # a missing file is a usage error here, before any daemon
    try:
        result = Client(session).run(file, **options, backend=backend)
    except DivergenceError as err:
        exit_with_divergence(err, file, as_json)
    emit(as_json, {"result": result}, run_text(result))


@main.command("divergence")
@session_option
@operation_options("divergence")
@json_option
@handles_errors
def divergence_cmd(session: str | None, options: dict[str, Any], as_json: bool) -> None:
    """Show the session's latest divergence again (text, or --json)."""
    from replay.client import Client
    from replay.engine.report import render_text

    d = Client(session).divergence(**options)
    if as_json:
        emit(True, {"divergence": d}, None)
        return
    click.echo(render_text(d, f"replay run {d['step']['source']['path']} --session {d.get('session')}"))


@main.command("verify")
@click.argument("file")
@operation_options("run", only=("values", "timeout", "level"))
@backend_flags
@json_option
@handles_errors
def verify_cmd(file: str, options: dict[str, Any], backend: dict[str, Any], as_json: bool) -> None:
    """Replay FILE in a fresh session: the acceptance gate for a healed script (exit 0 pass, 3 divergence)."""
    from replay.client import Client
    from replay.errors import DivergenceError
    from replay.script.loader import read_text

    read_text(file)
    try:
        result = Client(fresh=True, backend=backend).run(file, **options)
    except DivergenceError as err:
        exit_with_divergence(err, file, as_json, f"verification FAILED: {file} diverges in a fresh session")
    emit(as_json, {"result": result}, f"verified: {file} passes in a fresh session ({result['ran']} steps)")


@main.command("heal")
@click.argument("file")
@click.option(
    "--agent", default="builtin", metavar="builtin|CMD", help="Who repairs: the built-in healer or a command."
)
@click.option(
    "--repair", type=click.IntRange(0, MAX_REPAIR), default=2, metavar="N", help="Repair rounds per divergence (0..3)."
)
@click.option("--deadline", type=float, callback=_amount, default=None, metavar="S", help="Seconds for all rounds.")
@click.option(
    "--budget-usd", type=float, callback=_amount, default=None, metavar="X", help="Agent cost for all rounds."
)
@click.option("--allow-manual", is_flag=True, help="Let an external agent try manual divergences too.")
@click.option("-e", "env_pairs", multiple=True, metavar="KEY=VALUE", help="Set a variable (highest precedence).")
@click.option("--out", default=None, metavar="PATH", help="Where the healed script goes (default <stem>.healed.ad).")
@click.option(
    "--artifacts-dir", default=None, metavar="DIR", help="heal.jsonl and heal-report.md (default replay-results/STEM)."
)
@click.option("--timeout", type=MS, default=None, metavar="MS", help="Step timeout.")
@click.option(
    "--trials",
    type=click.IntRange(0, MAX_TRIALS),
    default=3,
    metavar="K",
    help="Candidates the built-in may try in fresh sessions when unsure (0: none).",
)
@backend_flags
@json_option
@handles_errors
def heal_cmd(
    file: str,
    agent: str,
    repair: int,
    deadline: float | None,
    budget_usd: float | None,
    allow_manual: bool,
    env_pairs: tuple[str, ...],
    out: str | None,
    artifacts_dir: str | None,
    timeout: int | None,
    trials: int,
    backend: dict[str, Any],
    as_json: bool,
) -> None:
    """Replay FILE armed and repair each divergence in bounded rounds; exit 0 clean, 5 healed, 6 escalated."""
    import os

    from replay.heal.orchestrator import HealOptions, HealRun
    from replay.script.loader import read_text
    from replay.script.variables import parse_cli_assignment

    read_text(file)  # a missing file is a usage error here, before any daemon
    _check_agent(agent)
    options = HealOptions(
        agent=agent,
        repair=repair,
        deadline_s=deadline,
        budget_usd=budget_usd,
        allow_manual=allow_manual,
        values=dict(parse_cli_assignment(p) for p in env_pairs),
        out=os.path.abspath(out) if out else None,
        artifacts_dir=artifacts_dir,
        timeout_ms=timeout,
        backend=backend,
        trials=trials,
    )
    outcome = HealRun(file, options, say=(lambda _: None) if as_json else click.echo).run()
    lines = {
        "clean": "no drift: the flow replays as recorded",
        "healed": f"healed, pending review: {outcome.healed}",
        "rejected": f"rejected: {outcome.healed} ({outcome.reason})",
        "escalated": f"escalated to a person: {outcome.reason}",
    }
    emit(as_json, {"result": outcome.to_dict()}, f"{lines[outcome.status]}\nreport: {outcome.report}")
    sys.exit(outcome.exit_code)


def _check_agent(agent: str) -> None:
    """An agent command that cannot run is a usage error now, not an escalation after a divergence."""
    import shlex
    import shutil

    from replay.errors import InvalidArgs

    if agent == "builtin":
        return
    try:
        words = shlex.split(agent)
    except ValueError as exc:
        raise InvalidArgs(f"--agent {agent!r}: {exc}", hint="quote the agent command as a shell would") from None
    if not words or shutil.which(words[0]) is None:
        raise InvalidArgs(
            f"--agent: no program {words[0] if words else agent!r} to run",
            hint="give `builtin`, or a command on PATH (or a path to an executable)",
        )
