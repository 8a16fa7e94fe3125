"""Read a script file into a ``Script``; missing or unreadable files are our error."""

from __future__ import annotations

import os

from replay.errors import FileNotFound, InvalidArgs, Location, ReplayError
from replay.files import MAX_INPUT, NotRegular, read_regular
from replay.script.ast import Script
from replay.script.parser import parse_collect


def read_text(path: str, *, what: str = ".ad script") -> str:
    """The UTF-8 text of the regular file ``path`` (a FIFO, a device or a directory is refused, never
    read: reading one could block or never end); ``what`` it should be, for the errors' words."""
    plural = what.rsplit(" ", 1)[-1] + "s"
    try:
        data = read_regular(path)
    except NotRegular as exc:
        raise InvalidArgs(
            f"{exc}: {plural} are read from regular files only",
            hint=f"give a {what} of at most {MAX_INPUT // (1024 * 1024)} MiB",
            location=Location(path),
        ) from None
    except ValueError:  # "embedded null byte"
        raise InvalidArgs(
            "the path holds a NUL character", hint="give the script's path as it is on disk", location=Location(path)
        ) from None
    except FileNotFoundError:
        raise FileNotFound(
            f"no such file: {path}", hint="check the path (globs are expanded by your shell)", location=Location(path)
        ) from None
    except IsADirectoryError:
        raise FileNotFound(f"{path} is a directory", hint=f"give a {what}", location=Location(path)) from None
    except OSError as exc:
        raise FileNotFound(
            f"cannot read {path}: {exc.strerror}", hint="check the file's permissions", location=Location(path)
        ) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise InvalidArgs(
            f"{path} is not valid UTF-8", hint=f"{what}s are UTF-8 text", location=Location(path, line)
        ) from None


def load_collect(path: str) -> tuple[Script | None, list[ReplayError]]:
    """Parse the file at ``path``, collecting every problem."""
    text = read_text(path)
    script, errors = parse_collect(text, path)
    if script is not None:
        script = Script(script.path, script.items, script.context, script.env, os.path.realpath(path))
    return script, errors


def load(path: str) -> Script:
    """Parse the file at ``path``; raise the problems found."""
    from replay.errors import ScriptErrors

    script, errors = load_collect(path)
    if errors:
        raise ScriptErrors(errors)
    assert script is not None
    return script
