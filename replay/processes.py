"""Processes replay starts, and how long they live (design §12): whether one still runs, and the Linux
means by which what replay starts ends with what started it — a PID namespace of its own (``unshare``:
when its first process ends, the kernel ends everything in it) and a parent-death signal (``setpriv``)."""

from __future__ import annotations

import functools
import os


def running(pid: int) -> bool:
    """Whether ``pid`` still runs: a child of this process that ended is reaped (not left a zombie), a
    zombie is gone, another user's process runs."""
    try:
        if os.waitpid(pid, os.WNOHANG)[0] == pid:
            return False
    except ChildProcessError:
        pass  # not our child: ask the kernel below
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except (OSError, IndexError):
        return True


@functools.cache
def namespace() -> tuple[str, ...]:
    """The ``unshare`` command line that runs a program as the first process of a PID namespace of its
    own here (a user namespace too when not root: it stays the same user), found by trying it once;
    empty where the machine cannot (no util-linux, no namespaces)."""
    import shutil
    import subprocess

    unshare = shutil.which("unshare")
    if unshare is None:
        return ()
    wrapper = (unshare, *(() if os.geteuid() == 0 else ("--map-current-user",)), "--pid", "--kill-child")
    try:
        tried = subprocess.run([*wrapper, "--", "true"], capture_output=True, timeout=10, check=False)
    except (OSError, subprocess.SubprocessError):
        return ()
    return wrapper if tried.returncode == 0 else ()


def contained(argv: list[str]) -> list[str]:
    """``argv`` as the first process of a PID namespace of its own where the machine allows (everything
    it starts ends with it, and ``unshare``'s death ends it), else as it is. A program that is not there
    or not executable raises as ``Popen`` would (``unshare`` would hide it)."""
    import errno
    import shutil

    wrapper = namespace()
    if not wrapper or not argv:
        return argv
    program = argv[0] if "/" in argv[0] else shutil.which(argv[0])
    if program is None or not os.path.exists(program):
        raise FileNotFoundError(errno.ENOENT, os.strerror(errno.ENOENT), argv[0])
    if not os.access(program, os.X_OK):
        raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), argv[0])
    return [*wrapper, "--", *argv]


def dies_with_this_process(argv: list[str]) -> list[str]:
    """``argv`` killed with everything it starts when this process dies, however (a ``kill -9``): a
    parent-death signal on ``unshare``, which then ends the namespace the program runs in — a browser's
    wrapper script's child and its renderers included. Where the machine has neither, ``argv``."""
    import shutil

    guard = shutil.which("setpriv")
    if guard is None or not namespace():
        return argv
    return [guard, "--pdeathsig", "KILL", "--", *contained(argv)]
