"""An agent's whole process tree ends with its turn (design §8), not only its process group: a child
that called ``setsid`` (and forked again, so that init adopted it) left the group, but it still
carries the turn's mark in its environment — ``REPLAY_AGENT_TURN=<token>`` — and so does every
process it starts. After a turn, every process of ours that carries the mark is killed, with its
descendants, until none is left.

Where the machine allows it (Linux with util-linux's ``unshare`` and PID namespaces, a user namespace
too when not root), the turn runs in a **PID namespace of its own** (``contained``): when the agent's
process ends — it answered, or was killed at its deadline — the kernel kills every process left in the
namespace, whatever it did to its group, session or environment; nothing a child does takes it out.
Elsewhere a process that cleared its own environment escapes the mark; it can still change nothing that
is published: the acceptance gate publishes the bytes it replayed (``heal.gate``). Linux only
(``/proc``); elsewhere the process group is all that is stopped.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import time

MARK = "REPLAY_AGENT_TURN"
ROUNDS = 20  # sweeps at most: a process that forks as fast as it is killed is not chased forever
PAUSE_S = 0.02


def new_mark() -> tuple[str, str]:
    """A fresh turn's mark: the environment variable's name and value."""
    return MARK, secrets.token_hex(16)


def _pids() -> list[int]:
    try:
        return [int(name) for name in os.listdir("/proc") if name.isdigit()]
    except OSError:
        return []


def _carries(pid: int, needle: bytes) -> bool:
    try:
        with open(f"/proc/{pid}/environ", "rb") as fh:
            return needle in fh.read().split(b"\0")
    except OSError:  # gone, or another user's
        return False


def _parents() -> dict[int, int]:
    out = {}
    for pid in _pids():
        try:
            with open(f"/proc/{pid}/stat", "rb") as fh:
                stat = fh.read()
        except OSError:
            continue
        fields = stat[stat.rfind(b")") + 2 :].split()  # (the name may hold spaces and parentheses)
        out[pid] = int(fields[1])
    return out


def marked(value: str) -> set[int]:
    """The processes carrying the mark ``value``, and their descendants."""
    needle = f"{MARK}={value}".encode()
    me = os.getpid()
    found = {pid for pid in _pids() if pid != me and _carries(pid, needle)}
    parents = _parents()
    grew = True
    while grew:
        more = {pid for pid, parent in parents.items() if parent in found and pid not in found and pid != me}
        found |= more
        grew = bool(more)
    return found


def sweep(value: str) -> int:
    """Kill every process of the turn marked ``value`` (SIGKILL), again until none is left (a child
    forked meanwhile is found the next time round); how many were killed."""
    killed: set[int] = set()
    for _ in range(ROUNDS):
        alive = marked(value)
        if not alive:
            break
        for pid in alive:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        killed |= alive
        time.sleep(PAUSE_S)
    return len(killed)
