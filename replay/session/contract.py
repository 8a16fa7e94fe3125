"""The daemon's operations, each declared once: its name on the wire and its options (``Option``:
wire name, kind, default, environment fallback, CLI flag, help). Every surface is derived from
these declarations, as the `.ad` commands are from ``script/registry.py``: the daemon's request
reader (``requests.parse``), ``Client``'s payloads, the click options (``cli/options.py``), the
fast path's reader and the MCP tools' parameters. A new ``run`` option is one line in ``RUN``.

Each backend's options (web: browser, headed, connect; android: serial) are declared in its own
package and travel as one opaque ``backend`` object (``replay.options.check_backend``).

Light on purpose (no ``dataclasses``, no ``typing``): the fast path imports it on every command.
"""

from __future__ import annotations

from replay.errors import InvalidArgs
from replay.limits import LEVELS, check_level, check_values
from replay.options import Option, check_backend
from replay.platforms import DEFAULT_PLATFORM, PLATFORMS
from replay.session.protocol import check_session_name


def _session(value: object) -> str:
    return check_session_name(str(value or ""))


def _maybe_session(value: object) -> str | None:
    return check_session_name(str(value)) if value else None  # none: an ephemeral session


def _step(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgs(f"--from must be a step number, got {value!r}", hint="--from 7")
    return value


def _wait_ms(value: object) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise InvalidArgs("bad request: 'wait_ms' must be a whole number", hint="a JSON object per line")
    return min(max(value, 0), 30_000)


SESSION = Option("session", required=True, check=_session, flag=None, help="The session.")
BACKEND = Option("backend", "object", check=check_backend, flag=None, help="The backend's options (opaque here).")
TIMEOUT = Option("timeout", "ms", metavar="MS", help="Step timeout (default: the script's context, else 5000).")
VALUES = Option(
    "values", "values", check=check_values, flag="-e", metavar="KEY=VALUE", help="Set a variable (highest precedence)."
)
LEVEL = Option("level", default="default", choices=LEVELS, check=check_level, help="Divergence detail.")
CWD = Option("cwd", caller=False, flag=None, help="The caller's working directory: relative paths are theirs.")
SHELL = Option("shell", "values", caller=False, flag=None, help="The caller's REPLAY_VAR_* variables.")
FROM_STEP = Option(
    "from_step", "int", wire="from", flag="--from", metavar="N", check=_step, help="Resume at plan step N."
)

# how an interactive command or script line runs (`open`'s also say how its session is made)
COMMAND_OPTIONS = (
    CWD,
    TIMEOUT,
    Option("values", "values", flag=None, help="${VAR} values of a script line."),
    Option("text_only", "bool", False, wire="textOnly", flag=None, help="The caller prints the text only."),
    Option(
        "save_script",
        path=True,
        metavar="[PATH]",
        help="Record this session; `close` writes the script (default $REPLAY_HOME/scripts/NAME-<time>.ad).",
    ),
    Option("platform", default=DEFAULT_PLATFORM, choices=PLATFORMS, help="Where the session runs."),
    BACKEND,
)


def _command_options(value: object) -> dict[str, object]:
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise InvalidArgs("bad request: 'options' must be a JSON object", hint="a JSON object per line")
    return value


OPTIONS = Option("options", "object", check=_command_options, flag=None, help="How the command runs.")

# `replay run`: the options a caller may give (``caller``), and what the client fills in
RUN = (
    Option("path", required=True, caller=False, flag=None, help="The script (absolute)."),
    Option("display", caller=False, flag=None, help="The script's path as the caller typed it."),
    CWD,
    Option("session", check=_maybe_session, caller=False, flag=None, help="Its session (default: a new one)."),
    FROM_STEP,
    Option("plan_digest", metavar="D", help="The digest a resume expects."),
    VALUES,
    SHELL,
    TIMEOUT,
    Option("platform", choices=PLATFORMS, help="Override the script's platform."),
    LEVEL,
    Option(
        "save_script",
        path=True,
        metavar="[OUT]",
        help="Arm a repair: the session's actions become OUT (default <stem>.healed.ad) when complete.",
    ),
    Option(
        "trace_path",
        path=True,
        flag="--trace",
        metavar="PATH",
        help="Keep a Playwright trace there when the run does not pass.",
    ),
    Option("trace_always", "bool", False, help="Keep the trace (--trace) when it passes too."),
    Option("deadline_ms", "ms", flag="--deadline", metavar="MS", help="Bound the whole run (TIMEOUT beyond it)."),
    Option(
        "screenshot_path",
        path=True,
        flag="--screenshot",
        metavar="PATH",
        help="Save the screen where a run that does not pass stopped (PNG).",
    ),
    Option(
        "artifacts_dir",
        path=True,
        metavar="DIR",
        help="Where the run's reports go (default: $REPLAY_HOME/artifacts/SESSION).",
    ),
    Option("effects", "bool", True, flag="--no-effects", help="Do not check what each step did (design §15)."),
    BACKEND,
)

OPERATIONS: dict[str, tuple[Option, ...]] = {
    "ping": (),
    "sessions": (),
    "shutdown": (),
    "command": (
        SESSION,
        Option("argv", "words", flag=None, help="Shell words, literal."),
        Option("line", flag=None, help="A script line (${VAR}s are references)."),
        OPTIONS,
    ),
    "run": RUN,
    "close": (
        SESSION,
        Option("save_script", path=True, metavar="PATH", help="Write the script here instead."),
        Option("discard", "bool", False, help="Close without writing anything."),
        Option("verify", "bool", False, help="Replay the healed script in a fresh session (the acceptance gate)."),
    ),
    "divergence": (SESSION, LEVEL),
    "heal_builtin": (
        SESSION,
        Option("trial", "bool", False, help="Leave a renamed candidate to a trial: name it, do not act (design §8)."),
    ),
    "record": (
        SESSION,
        Option("url", help="Where the recording starts."),
        OPTIONS,
        Option("headless", "bool", False, help="No window: a program drives it over DevTools (tests, CI)."),
        Option("flow", help="A flow whose steps before --from replay first (design §16)."),
        FROM_STEP,
        SHELL,
    ),
    "record_events": (
        SESSION,
        Option("since", "int", 0, help="The first event number wanted."),
        Option("wait_ms", "int", 1000, check=_wait_ms, help="How long to wait for one."),
    ),
}


def caller_options(op: str) -> tuple[Option, ...]:
    """The options of ``op`` a caller gives, those of its ``options`` group included (every surface
    offers them; the session is each surface's own, the backends' come apart)."""
    declared = [c for o in OPERATIONS[op] for c in (COMMAND_OPTIONS if o is OPTIONS else (o,))]
    return tuple(o for o in declared if o.caller and o is not BACKEND and o is not SESSION)
