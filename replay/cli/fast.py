"""The `replay` console script. Interactive commands (`replay snapshot -i`, `replay click @e3`) go
straight to the daemon without importing click or the script language: a command costs a Python
start-up and one socket round trip. Anything else — `--help`, scripts, runs, an option the fast path
does not know — is click's (``replay.cli.app``)."""

from __future__ import annotations

import sys

# the registry's interactive commands but open and close (tests/unit/test_surfaces.py keeps them equal)
FAST_COMMANDS = frozenset(
    {
        "back",
        "check",
        "click",
        "dblclick",
        "fill",
        "find",
        "forward",
        "get",
        "hover",
        "is",
        "press",
        "reload",
        "screenshot",
        "scroll",
        "select",
        "snapshot",
        "type",
        "uncheck",
        "wait",
    }
)
MAX_MS = 3_600_000


def parse(argv: list[str]) -> tuple[str, list[str], dict[str, str | int | bool]] | None:
    """(command, its arguments, --session/--timeout/--json) as click would read them; None when click
    must (help, an unknown or malformed option value, ``--``)."""
    if not argv or argv[0] not in FAST_COMMANDS or "--help" in argv or "--" in argv:
        return None
    args: list[str] = []
    options: dict[str, str | int | bool] = {}
    rest = iter(argv[1:])
    for word in rest:
        name, eq, value = word.partition("=")
        if name in ("--session", "--timeout"):
            if not eq:
                value = next(rest, "")
            if name == "--timeout":
                if not value.isascii() or not value.isdigit() or not 1 <= int(value[:8]) <= MAX_MS or len(value) > 8:
                    return None  # click says what is wrong with it
                options["timeout"] = int(value)
            else:
                options["session"] = value
        elif word == "--json":
            options["json"] = True
        else:
            args.append(word)
    return argv[0], args, options


def main() -> None:
    """`replay …`: the fast path for an interactive command, else the click application."""
    parsed = parse(sys.argv[1:])
    if parsed is None:
        from replay.cli import cli_main

        cli_main()
        return
    from replay.cli.output import action_text, emit, report_error
    from replay.client import Client
    from replay.errors import ReplayError

    command, args, options = parsed
    as_json = bool(options.get("json"))
    try:
        session = options.get("session")
        client = Client(str(session) if session is not None else None)
        extra = {"timeout": options["timeout"]} if "timeout" in options else {}
        result = client.command(command, *args, **extra)
    except ReplayError as err:
        sys.stdout.flush()
        sys.exit(report_error(err, as_json))
    emit(as_json, {"result": result}, action_text(result))
