"""The `replay` console script. Interactive commands (`replay snapshot -i`, `replay click @e3`) and
`replay run FILE` go straight to the daemon without importing click or the script language: a
command costs a Python start-up and one socket round trip. Anything else — `--help`, other commands,
an option or a value the fast path does not know — is click's (``replay.cli.app``), which also says
what is wrong with a bad one."""

from __future__ import annotations

import sys
from collections.abc import Iterator

from replay.limits import LEVELS, MAX_MS  # light: no click, no typing

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

# the registry's interactive commands but open and close (tests/unit/test_surfaces.py keeps them equal)
FAST_COMMANDS = frozenset(
    {
        "alert",
        "appstate",
        "back",
        "check",
        "click",
        "dblclick",
        "drag",
        "drop",
        "fill",
        "find",
        "forward",
        "get",
        "home",
        "hover",
        "is",
        "keyboard",
        "long-press",
        "longpress",
        "press",
        "reload",
        "screenshot",
        "scroll",
        "select",
        "snapshot",
        "swipe",
        "tab",
        "type",
        "upload",
        "uncheck",
        "wait",
    }
)


def _ms(value: str) -> int | None:
    """A duration in ms as click's ``MS`` type takes it, or None (click says what is wrong)."""
    if not value.isascii() or not value.isdigit() or len(value) > 8 or not 1 <= int(value) <= MAX_MS:
        return None
    return int(value)


Options = dict[str, str | int | bool]


def _option(word: str, rest: Iterator[str], options: Options, names: tuple[str, ...]) -> bool | None:
    """Read ``word`` (and its value from ``rest``) into ``options`` if it is ``--json`` or one of
    ``names`` (``--session``, ``--timeout``, ``--level``): True; False when it is none of them; None
    when its value is not one click would take (click then says what is wrong with it)."""
    if word == "--json":
        options["json"] = True
        return True
    name, eq, value = word.partition("=")
    if name not in names:
        return False
    if not eq:
        value = next(rest, "")
    if name == "--timeout":
        ms = _ms(value)
        if ms is None:
            return None
        options["timeout"] = ms
    elif name == "--level":
        if value not in LEVELS:
            return None
        options["level"] = value
    else:
        options["session"] = value
    return True


def parse(argv: list[str]) -> tuple[str, list[str], Options] | None:
    """(command, its arguments, --session/--timeout/--json) as click would read them; None when click
    must (help, an unknown or malformed option value, ``--``)."""
    if not argv or argv[0] not in FAST_COMMANDS or "--help" in argv or "--" in argv:
        return None
    if argv[0] == "snapshot":
        from replay.cli.offline import wants_dump  # (light: no click, no lxml)

        if wants_dump(argv[1:]):
            return None  # a stored dump: click's (replay.cli.offline), no daemon
    args: list[str] = []
    options: Options = {}
    rest = iter(argv[1:])
    for word in rest:
        read = _option(word, rest, options, ("--session", "--timeout"))
        if read is None:
            return None
        if not read:
            args.append(word)
    return argv[0], args, options


def parse_run(argv: list[str]) -> tuple[str, dict[str, str], Options] | None:
    """``run FILE`` with its declared options (``session.contract.RUN``'s and the backends', ``-e
    KEY=VALUE``), ``--session`` and ``--json`` as click would read them: (file, values, options by
    Python name); None for anything else, which click handles."""
    if not argv or argv[0] != "run" or "--help" in argv or "--" in argv:
        return None
    from replay.keys import valid_key
    from replay.options import backend_options
    from replay.session.contract import caller_options

    declared = {o.flag: o for o in (*caller_options("run"), *backend_options()) if o.flag and o.kind != "values"}
    file: str | None = None
    values: dict[str, str] = {}
    options: Options = {}
    rest = iter(argv[1:])
    for word in rest:
        read = _option(word, rest, options, ("--session",))
        if read is None:
            return None
        if read:
            continue
        if word == "-e":
            key, sep, val = next(rest, "").partition("=")
            if not sep or not valid_key(key):
                return None
            values[key] = val
        elif word.startswith("-"):
            if not _declared(word, rest, declared, options):
                return None  # an option the fast path does not read (-eKEY=VALUE, --save-script …)
        elif file is not None:
            return None  # a second argument
        else:
            file = word
    if file is None:
        return None
    from replay.files import read_regular

    try:
        read_regular(file).decode("utf-8")
    except (OSError, UnicodeDecodeError):
        return None  # click reports the file
    return file, values, options


def _declared(word: str, rest: Iterator[str], declared: dict[str, Any], options: Options) -> bool:
    """Read a declared option (``--timeout 5000``, ``--headed``, ``--level=full``) into ``options`` by
    its Python name, as click would: False when click must (an unknown one, a value it would refuse)."""
    flag, eq, value = word.partition("=")
    option = declared.get(flag)
    if option is None or (option.metavar or "").startswith("["):
        return False
    if option.kind == "bool":
        if eq:
            return False
        options[option.name] = not option.switched_off
        return True
    if not eq:
        value = next(rest, "")
    if option.kind in ("ms", "int"):
        number = _ms(value) if option.kind == "ms" else (int(value) if value.isascii() and value.isdigit() else None)
        if number is None:
            return False
        options[option.name] = number
    elif option.kind == "str" and (not option.choices or value in option.choices) and not value.startswith("-"):
        options[option.name] = value
    else:
        return False
    return True


def _run(file: str, values: dict[str, str], options: Options) -> None:
    from replay.cli.output import emit, exit_with_divergence, report_error, run_text
    from replay.client import Client
    from replay.errors import DivergenceError, ReplayError

    as_json = bool(options.pop("json", False))
    session = options.pop("session", None)
    try:
        result = Client(str(session) if session is not None else None).run(file, values=values, **options)
    except DivergenceError as err:
        exit_with_divergence(err, file, as_json)
    except ReplayError as err:
        sys.stdout.flush()
        sys.exit(report_error(err, as_json))
    emit(as_json, {"result": result}, run_text(result))


def main() -> None:
    """`replay …`: the fast path for an interactive command or a run, else the click application."""
    from replay.scrubbing import TerminalSafe

    sys.stdout, sys.stderr = TerminalSafe(sys.stdout), TerminalSafe(sys.stderr)  # type: ignore[assignment]
    code = fast(sys.argv[1:])
    if code is NOT_FAST:
        from replay.cli import cli_main

        cli_main()
        return
    _exit_now(code)


NOT_FAST = object()  # ``fast``'s answer for a command line that is click's


def fast(argv: list[str]) -> object:
    """Serve ``argv`` on the fast path: its exit code (what ``sys.exit`` was given), or ``NOT_FAST``."""
    run = parse_run(argv)
    parsed = parse(argv) if run is None else None
    if run is None and parsed is None:
        return NOT_FAST
    try:
        if run is not None:
            _run(*run)
        else:
            assert parsed is not None
            _command(*parsed)
    except SystemExit as done:
        return done.code
    return 0


def _command(command: str, args: list[str], options: Options) -> None:
    from replay.cli.output import action_text, emit, report_error
    from replay.client import Client
    from replay.errors import ReplayError

    as_json = bool(options.pop("json", False))
    try:
        session = options.pop("session", None)
        client = Client(str(session) if session is not None else None)
        extra: dict[str, int | bool] = {"timeout": int(options["timeout"])} if "timeout" in options else {}
        if not as_json:
            extra["textOnly"] = True  # only the text is printed: the daemon need not send the nodes
        result = client.command(command, *args, **extra)
    except ReplayError as err:
        sys.stdout.flush()
        sys.exit(report_error(err, as_json))
    emit(as_json, {"result": result}, action_text(result))


def _exit_now(code: object) -> None:
    """Exit with ``code`` once the output is out, without tearing the interpreter down: unloading
    the modules and collecting their objects costs ~6 ms of every fast command, and nothing here
    needs it (no atexit handler, no open file but the standard streams). If the output cannot be
    flushed (a closed pipe), or the code is a message, exit the ordinary way."""
    if code is not None and not isinstance(code, int):
        raise SystemExit(code)  # a message: Python prints it
    try:
        sys.stdout.flush()
        sys.stderr.flush()
    except OSError:
        raise SystemExit(code) from None
    import os

    os._exit(code or 0)
