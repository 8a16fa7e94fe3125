"""The `replay` command line. ``replay.cli.fast.main`` is the console script: interactive commands
skip click; everything else is the click application, loaded on first use.

The client path must stay light: no Playwright or lxml import happens here.
"""

from __future__ import annotations

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from typing import Any


def cli_main() -> Any:
    """The click application with every command registered (each module registers its own)."""
    from replay.cli import maestro, record, replaying, scripts, sessions, suite  # noqa: F401
    from replay.cli.app import main

    return main()


def __getattr__(name: str) -> Any:
    if name == "main":  # ``from replay.cli import main``: the click group, commands registered
        from replay.cli import maestro, record, replaying, scripts, sessions, suite  # noqa: F401
        from replay.cli.app import main

        return main
    raise AttributeError(name)
