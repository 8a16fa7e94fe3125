"""`replay lint`, `fmt` and `digest`: the .ad script tools (no daemon, no browser)."""

from __future__ import annotations

import difflib
import os
import tempfile
from typing import TYPE_CHECKING

import click

from replay.cli.app import emit, handles_errors, json_option, main, platform_option
from replay.errors import FormatCheckFailed, InvalidArgs, ReplayError, ScriptErrors

if TYPE_CHECKING:
    from replay.script.ast import Script


@main.command()
@click.argument("files", nargs=-1, required=True)
@platform_option
@click.option("-e", "env_pairs", multiple=True, metavar="KEY=VALUE", help="Set a variable (checks ${VAR} resolution).")
@click.option("--effects", "show_effects", is_flag=True, help="Show what each step did when it was recorded.")
@json_option
@handles_errors
def lint(
    files: tuple[str, ...], platform: str | None, env_pairs: tuple[str, ...], show_effects: bool, as_json: bool
) -> None:
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
                    if show_effects:
                        results[-1]["effects"] = step_effects(script)
        except ReplayError as exc:
            errors = [exc]
        problems.extend(errors)
    if problems:
        raise ScriptErrors(problems)
    steps = sum(int(r["steps"]) for r in results)  # type: ignore[call-overload]
    text = f"ok: {len(results)} file(s), {steps} step(s)"
    for r in results if show_effects else ():
        text += f"\n{r['path']}:" + "".join(
            f"\n  line {e['line']:>4}  {e['step']}\n             effect: {e['effect']}"
            for e in r["effects"]  # type: ignore[attr-defined]
        )
    emit(as_json, {"files": results}, text)


def step_effects(script: Script) -> list[dict[str, object]]:
    """Each step that acts on an element, as a report shows it (typed text redacted, in its effect
    too), with its recorded effect in words (``none recorded``: an older script, or an action that
    changed nothing)."""
    from replay.script.effect import describe_all
    from replay.script.redact import action_text, scrub, secrets_of
    from replay.script.registry import PHASE_ACT, REGISTRY

    secrets = secrets_of(script.actions, script.env)
    out: list[dict[str, object]] = []
    for action in script.actions:
        spec = REGISTRY.get(action.command)
        if action.annotation is None or spec is None or spec.form(action.form).phase != PHASE_ACT:
            continue  # waits, assertions and reads have no effect (design §15)
        facts = action.annotation.effect
        out.append(
            {
                "line": action.line,
                "step": action_text(action),
                "effect": scrub(describe_all(facts), secrets) if facts else "none recorded",
            }
        )
    return out


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

    if check and to_stdout:
        raise InvalidArgs("--check and --stdout do not go together", hint="--check changes nothing; --stdout prints")
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
        _atomic_rewrite(os.path.realpath(file), text)  # through a symlink: the link stays, its target changes
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
