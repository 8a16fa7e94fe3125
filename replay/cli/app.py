"""The `replay` group, its shared options, and how every command projects results and errors.

The client path must stay light: no Playwright or lxml import happens here.
"""

from __future__ import annotations

import os
import sys
from collections.abc import Callable
from functools import wraps
from typing import Any, TypeVar

import click

from replay import __version__
from replay.cli.output import emit, report_error
from replay.errors import InvalidArgs, ReplayError, from_os_error
from replay.limits import MAX_MS
from replay.platforms import PLATFORMS

__all__ = ["emit", "handles_errors", "main"]

F = TypeVar("F", bound=Callable[..., Any])

json_option = click.option("--json", "as_json", is_flag=True, help="Print one JSON object as the last stdout line.")
platform_option = click.option(
    "--platform", type=click.Choice(PLATFORMS), default=None, help="Override the script's platform."
)


session_option = click.option(
    "--session",
    "session",
    default=None,
    metavar="NAME",
    help="Session name (default: REPLAY_SESSION, else per directory).",
)


MS = click.IntRange(1, MAX_MS)  # a duration: 1 ms .. an hour
timeout_option = click.option("--timeout", type=MS, default=None, metavar="MS", help="Step timeout.")
PASSTHROUGH = {"ignore_unknown_options": True, "help_option_names": ["--help"]}


def handles_errors(fn: F) -> F:
    """Turn a ``ReplayError`` into its report and exit code; never a traceback."""

    @wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return fn(*args, **kwargs)
        except ReplayError as err:
            sys.exit(report_error(err, bool(kwargs.get("as_json"))))
        except OSError as exc:  # a report or folder that cannot be written (a full disk, a file in the way)
            sys.exit(report_error(from_os_error(exc), bool(kwargs.get("as_json"))))

    return wrapper  # type: ignore[return-value]


# the `replay --help` group of each command this module declares itself; the interactive commands
# take theirs from the registry, which also orders and names the groups
OWN_GROUPS = {
    "open": "interact",
    "close": "interact",
    "record": "interact",
    "lint": "scripts",
    "fmt": "scripts",
    "digest": "scripts",
    "import": "scripts",
    "export": "scripts",
    "run": "replay",
    "verify": "replay",
    "divergence": "replay",
    "heal": "replay",
    "test": "replay",
    "report": "replay",
    "session": "sessions",
    "daemon": "sessions",
    "mcp": "sessions",
    "devices": "sessions",
}


def help_group(name: str) -> str:
    """Where `replay --help` lists command ``name``."""
    from replay.script.registry import REGISTRY

    declared = REGISTRY.get(name)
    return OWN_GROUPS.get(name) or (declared.group if declared is not None else "interact")


class ReplayGroup(click.Group):
    """``replay FLOW.ad …`` is shorthand for ``replay run FLOW.ad …``; help lists commands in groups."""

    def main(  # type: ignore[override]
        self,
        args: Any = None,
        prog_name: str | None = None,
        complete_var: str | None = None,
        standalone_mode: bool = True,
        **extra: Any,
    ) -> Any:
        """Click's, but a usage error under ``--json`` is one JSON object too (``INVALID_ARGS``, exit 2):
        a program reading the last line gets the refusal of ``--timeout -5`` as it gets any other."""
        argv = sys.argv[1:] if args is None else list(args)
        if not standalone_mode or "--json" not in argv:
            return super().main(argv, prog_name, complete_var, standalone_mode, **extra)
        try:
            done = super().main(argv, prog_name, complete_var, False, **extra)
        except click.UsageError as err:
            command = err.ctx.command_path if err.ctx is not None else "replay"
            refused = InvalidArgs(err.format_message(), hint=f"see `{command} --help`")
            sys.exit(report_error(refused, True))
        except click.ClickException as err:
            err.show()
            sys.exit(err.exit_code)
        except click.Abort:
            sys.stderr.write("Aborted!\n")
            sys.exit(1)
        sys.exit(done if isinstance(done, int) else 0)

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
