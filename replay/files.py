"""Private files: everything replay writes may hold typed text, so it is created 0600 (SPEC §12).

A stricter umask is honoured (``0600 & ~umask``); a file that existed is made private too.
"""

from __future__ import annotations

import os
from typing import IO

PRIVATE = 0o600


def umask() -> int:
    """The process's umask (read without changing it for longer than the call)."""
    mask = os.umask(0o077)
    os.umask(mask)
    return mask


def private_mode() -> int:
    """0600, or stricter where the umask says so."""
    return PRIVATE & ~umask()


def make_private(path: str) -> None:
    """Narrow an existing file (one a library wrote: a screenshot, a trace) to 0600."""
    os.chmod(path, private_mode())


def open_private(path: str, mode: str = "w") -> IO[str]:
    """``open(path, mode)`` for writing text, created 0600; an existing file is truncated and narrowed."""
    flags = os.O_WRONLY | os.O_CREAT | (os.O_APPEND if "a" in mode else os.O_TRUNC)
    fd = os.open(path, flags, PRIVATE)
    os.fchmod(fd, private_mode())
    return os.fdopen(fd, mode, encoding="utf-8")
