"""Private files: everything replay writes may hold typed text, so it is created 0600 (design §12).

A stricter umask is honoured (``0600 & ~umask``); a file that existed is made private too.
"""

from __future__ import annotations

import os
import stat

TYPE_CHECKING = False  # (the CLI's fast path reads scripts through here: typing stays off it)
if TYPE_CHECKING:
    from typing import IO

PRIVATE = 0o600
MAX_INPUT = 16 * 1024 * 1024  # a script, a flow, a YAML file: far above any real one (design §12 bounds)


class NotRegular(OSError):
    """The path is not a regular file (a FIFO, a device, a directory, a socket), or is over the bound."""


def read_regular(path: str, limit: int = MAX_INPUT) -> bytes:
    """The bytes of the regular file at ``path``, at most ``limit`` of them.

    Opened without blocking (a FIFO with no writer must not hang us) and checked on the open file
    (no race with a rename): anything but a regular file, or a file over ``limit``, is ``NotRegular``.
    Other failures raise their ``OSError``.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            kind = "a directory" if stat.S_ISDIR(info.st_mode) else "not a regular file"
            raise NotRegular(f"{path} is {kind}")
        if info.st_size > limit:
            raise NotRegular(f"{path} is over {limit // (1024 * 1024)} MiB")
        os.set_blocking(fd, True)
        chunks, size = [], 0
        while chunk := os.read(fd, 1 << 20):
            chunks.append(chunk)
            size += len(chunk)
            if size > limit:  # it grew while being read
                raise NotRegular(f"{path} is over {limit // (1024 * 1024)} MiB")
        return b"".join(chunks)
    finally:
        os.close(fd)


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


def refuse_existing(target: str, *, hint: str) -> None:
    """``TARGET_EXISTS`` (with ``hint``) when something is at ``target``: nothing is ever written over."""
    if os.path.lexists(target):
        from replay.errors import TargetExists

        raise TargetExists(f"{target} already exists; it was left unchanged", hint=hint)


def link_new(done: str, target: str, *, hint: str) -> None:
    """Put the finished file ``done`` at ``target`` with one hard link, only where nothing is: the
    target appears whole or not at all, and an existing file is never touched (``TARGET_EXISTS``,
    with ``hint``). The one exclusive publish: recordings, healed scripts, screenshots."""
    try:
        os.link(done, target)
    except FileExistsError:
        from replay.errors import TargetExists

        raise TargetExists(f"{target} already exists; it was left unchanged", hint=hint) from None


def local_file(given: str, cwd: str | None) -> str:
    """The file a step reads (``upload PATH``): relative to the caller's directory; it must exist."""
    from replay.errors import FileNotFound, InvalidArgs

    if not given.strip():
        raise InvalidArgs("upload: the file's path is empty", hint="give the path of a regular file to upload")
    path = os.path.abspath(os.path.join(cwd or os.getcwd(), os.path.expanduser(given)))
    if not os.path.exists(path):
        raise FileNotFound(f"{given}: no such file", hint="a relative path is read from the directory replay runs in")
    if not os.path.isfile(path):  # a device (/dev/zero), a pipe, a folder: no end, or nothing to give
        kind = "a folder" if os.path.isdir(path) else "not a regular file (a device, a pipe or a socket)"
        raise InvalidArgs(f"{given}: {kind}, so it cannot be uploaded", hint="upload a regular file")
    return path
