"""How results and errors print — shared by the click commands and the fast path (no click here)."""

from __future__ import annotations

import json
import sys

from replay.errors import ReplayError

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from typing import Any, NoReturn

    from replay.results import RunResult, StepResult


def errors_of(err: ReplayError) -> list[ReplayError]:
    """The problems an error stands for (several for ``ScriptErrors``)."""
    return list(getattr(err, "errors", [err]))


def report_error(err: ReplayError, as_json: bool) -> int:
    """Print an error (``error: …`` and its hint on stderr; the JSON payload too with ``--json``);
    returns its exit code."""
    errors = errors_of(err)
    for e in errors:
        sys.stderr.write(f"error: {e}\n")
        if e.hint:
            sys.stderr.write(f"  hint: {e.hint}\n")
    if as_json:
        payload: dict[str, Any] = {"ok": False, "error": errors[0].to_dict()}
        if len(errors) > 1:
            payload["errors"] = [e.to_dict() for e in errors]
        sys.stdout.write(json.dumps(payload, ensure_ascii=False) + "\n")
    return err.exit_code


def emit(as_json: bool, payload: dict[str, Any], text: str | None) -> None:
    """Print the human text, or the JSON payload as the last stdout line."""
    if as_json:
        sys.stdout.write(json.dumps({"ok": True, **payload}, ensure_ascii=False) + "\n")
    elif text:
        sys.stdout.write(text + "\n")


def action_text(result: StepResult) -> str:
    """The human line(s) of an interactive command's result."""
    if result.command == "snapshot":
        return result.text
    parts = [result.command]
    if result.target:
        parts.append(result.target)
    if result.command == "is":
        parts = [f"{'pass' if result.passed else 'FAIL'}: is {result.predicate} — {result.observed}"]
    if result.resolution_kind is not None:
        count = result.match_count
        parts.append(f"[{result.resolution_kind}{f', {count} matches' if count > 1 else ''}]")
    text = " ".join(parts)
    if result.has_value:
        value = result.value
        text += "\n" + (json.dumps(value, ensure_ascii=False) if not isinstance(value, str) else value)
    if result.recorded and result.selector:
        text += f"\n  recorded as: {result.selector} ({result.verification})"
    if result.effect:
        text += f"\n  effect: {result.effect}"
    if result.warning:
        text += f"\n  warning: {result.warning}"
    if result.path:
        text += f"\n  saved {result.path}"
    return text


def run_text(result: RunResult) -> str:
    """The human lines of a passed ``replay run``."""
    ran = result.ran
    text = f"replayed {ran} step{'' if ran == 1 else 's'} in {result.elapsed_seconds:.1f} s"
    for timing in result.timings:  # what changed without stopping the run (design §5, §15)
        for said in timing.drift:
            text += f"\n  drift at step {timing.index} (line {timing.line}): {said}"
    if result.healed:  # the run's own session completed the repair and is closed
        from shlex import quote  # (only here: the fast path imports little)

        text += f"\nhealed script written to {result.healed}"
        text += (
            f"\n  the run's session is closed; check the script in a fresh one: replay verify {quote(result.healed)}"
        )
    elif result.repair is not None:
        repair = result.repair
        text += f"\nrepair {repair.state}: `replay close --session {result.session}` publishes {repair.target}"
    return text


def exit_with_divergence(err: Any, file: str, as_json: bool, headline: str | None = None) -> NoReturn:
    """Project a divergence (JSON as the last stdout line, or the text report) and exit 3."""
    if as_json:
        sys.stdout.write(json.dumps({"ok": False, "error": err.to_dict()}, ensure_ascii=False) + "\n")
    else:
        from replay.engine.report import render_text

        if headline:
            sys.stdout.write(headline + "\n")
        # the session keeps this run's -e values, so the resume command needs none
        sys.stdout.write(
            render_text(err.divergence, f"replay run {file} --session {err.divergence.get('session')}") + "\n"
        )
    sys.stdout.flush()
    sys.exit(err.exit_code)
