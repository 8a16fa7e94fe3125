"""The `replay` command line (click). Surfaces only project typed results and errors.

The client path must stay light: no Playwright or lxml import happens here.
"""

from replay.cli import runs, scripts, sessions, suite  # noqa: F401 - each module registers its commands
from replay.cli.app import main

__all__ = ["main"]
