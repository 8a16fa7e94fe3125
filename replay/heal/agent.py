"""The agent protocol (design §8): one JSON object in on stdin, one JSON line out, the session in between.

An agent is any command. It gets the redacted divergence, the session name, the commands it may
run, the resume command, what remains of the budget and deadline, the round ``k/N`` and the
conversation id of its previous round. It acts on the session through the ``replay`` CLI (or MCP)
and prints ``{"status", "notes", "cost_usd", "conversation_id"}`` as its last stdout line.
"""

from __future__ import annotations

import contextlib
import json
import logging
import math
import os
import shlex
import signal
import subprocess
import tempfile
import threading
import time
from dataclasses import dataclass, field
from typing import Any

from replay import processes
from replay.client import CANCELLING
from replay.errors import Cancelled
from replay.heal import sweep

log = logging.getLogger("replay.heal")

PROTOCOL_VERSION = 1
TRANSPORT_RETRIES = 2  # an agent that did not start, died or printed no result is tried this often again
STATUSES = ("done", "failed", "prune")


@dataclass
class Turn:
    """What one agent turn said (``transport`` set when the process itself failed)."""

    status: str
    notes: list[str] = field(default_factory=list)
    cost_usd: float = 0.0
    conversation_id: str | None = None
    transport: str | None = None  # why the process failed: did not start, died, no result, malformed
    cost_unknown: bool = False  # its cost could not be read: it counts as the whole budget (no new start)


def request(
    divergence: dict[str, Any],
    *,
    session: str,
    resume: str,
    round_label: str,
    budget_usd: float | None,
    deadline_s: float | None,
    conversation_id: str | None,
) -> dict[str, Any]:
    """The JSON object an agent gets on stdin."""
    s = f"--session {session}"
    return {
        "version": PROTOCOL_VERSION,
        "session": session,
        "divergence": divergence,
        "commands": [
            f"replay snapshot -i {s}",
            f"replay click @eN {s}",
            f"replay fill @eN TEXT {s}",
            f"replay press KEY {s}",
            f"replay ACTION ... --no-record {s}   # a state fix, kept out of the healed script",
            f"replay divergence --json {s}",
        ],
        "resume": resume,
        "round": round_label,
        "budget": {"remaining_usd": budget_usd, "remaining_s": deadline_s},
        "conversationId": conversation_id,
    }


def run_turn(command: str, payload: dict[str, Any], *, timeout_s: float | None, env: dict[str, str]) -> Turn:
    """Run the agent once, in a process group of its own, for at most ``timeout_s`` (else
    ``TURN_S``): at its deadline the whole group is killed, so nothing it started acts on. A
    transport failure — it did not start, died, ran past its deadline, printed no result, or a
    result that is not UTF-8, over ``MAX_RESULT`` bytes, or malformed — is a ``Turn`` with
    ``transport`` set, never an exception."""
    limit = TURN_S if timeout_s is None else max(0.0, min(timeout_s, TURN_S))
    name, mark = sweep.new_mark()  # on everything the turn starts: what left the group is found by it
    env = {**env, name: mark}
    try:
        proc = subprocess.Popen(
            processes.contained(
                shlex.split(command)
            ),  # a PID namespace where the machine allows: it ends with the agent
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=env,
            start_new_session=True,  # its own process group: killed whole at the deadline
        )
    except FileNotFoundError:
        return Turn("failed", transport="did not start (command not found)")
    except (OSError, ValueError) as exc:
        return Turn("failed", transport=f"did not start ({getattr(exc, 'strerror', None) or exc})")
    tail = _Tail(proc)
    request = json.dumps(payload, ensure_ascii=False).encode("utf-8")
    # written from a thread: an agent that never reads its request must not block us past its deadline
    threading.Thread(target=_send, args=(proc, request), daemon=True).start()
    try:
        code = _wait(proc, limit)
    except subprocess.TimeoutExpired:
        return Turn("failed", transport=f"ran past its deadline ({limit:g} s): it and what it started were stopped")
    except Cancelled:
        return Turn("failed", transport="was stopped: the heal was cancelled")
    finally:
        _kill_group(proc)
        if killed := sweep.sweep(mark):
            log.info("an agent's turn left %d process(es) outside its group: killed", killed)
        tail.join()
    return _result(tail, code)


TURN_S = 600.0  # a turn's deadline when ``replay heal`` has no --deadline: a silent agent never hangs it
MAX_RESULT = 64 * 1024  # the result line's bytes at most (the notes are bounded again, 256 bytes each)


def _send(proc: subprocess.Popen[bytes], request: bytes) -> None:
    assert proc.stdin is not None
    with contextlib.suppress(OSError):  # an agent that does not read its request, or died
        proc.stdin.write(request)
        proc.stdin.close()


def _wait(proc: subprocess.Popen[bytes], limit: float) -> int:
    """The agent's exit code; ``TimeoutExpired`` past ``limit``, ``Cancelled`` when the heal's caller
    withdrew it (MCP's ``notifications/cancelled``)."""
    cancel = CANCELLING.get()
    end = time.monotonic() + limit
    while True:
        try:
            return proc.wait(timeout=max(0.0, min(0.2, end - time.monotonic())))
        except subprocess.TimeoutExpired:
            cancel.check()
            if time.monotonic() >= end:
                raise


class _Tail:
    """Reads the agent's stdout in a thread, keeping only its last ``MAX_RESULT`` bytes: an agent
    that prints 10 GB costs that much reading, not that much memory."""

    def __init__(self, proc: subprocess.Popen[bytes]) -> None:
        self.data, self.total = b"", 0
        self._thread = threading.Thread(target=self._read, args=(proc,), daemon=True)
        self._thread.start()

    def _read(self, proc: subprocess.Popen[bytes]) -> None:
        assert proc.stdout is not None
        while chunk := proc.stdout.read(65536):
            self.total += len(chunk)
            self.data = (self.data + chunk)[-(MAX_RESULT + 1) :]

    def join(self) -> None:
        self._thread.join(timeout=5)


def _kill_group(proc: subprocess.Popen[bytes]) -> None:
    """Stop the agent's whole process group (what it started included), then reap it."""
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.killpg(proc.pid, signal.SIGKILL)
    with contextlib.suppress(subprocess.TimeoutExpired):
        proc.wait(timeout=5)


def _result(tail: _Tail, code: int) -> Turn:
    lines = [line for line in tail.data.split(b"\n") if line.strip()]
    if not lines:
        return Turn("failed", transport=f"printed no result (exit {code})")
    if len(lines[-1]) > MAX_RESULT or (len(lines) == 1 and tail.total > len(tail.data)):
        return Turn("failed", transport=f"printed a result line over {MAX_RESULT // 1024} KiB")
    try:
        out = json.loads(lines[-1].decode("utf-8"))
    except UnicodeDecodeError:
        return Turn("failed", transport="printed a result that is not UTF-8")
    except (ValueError, RecursionError):  # JSONDecodeError, a 5,000-digit number
        return Turn("failed", transport="printed a malformed result line")
    if not isinstance(out, dict) or out.get("status") not in STATUSES:
        return Turn("failed", transport=f"printed a result without a known status ({', '.join(STATUSES)})")
    cost = _cost(out.get("cost_usd"))
    if cost is None:
        return Turn(
            "failed", transport="printed a cost_usd that is not a finite number of at least 0", cost_unknown=True
        )
    notes = out.get("notes") or []
    conversation = out.get("conversation_id")
    return Turn(
        str(out["status"]),
        [n if isinstance(n, str) else json.dumps(n) for n in (notes if isinstance(notes, list) else [notes])][:3],
        cost,
        str(conversation)[:200] if conversation else None,
    )


def _cost(value: object) -> float | None:
    """A turn's cost in dollars: a finite number ≥ 0 (absent is 0), else None (NaN, -1, "abc")."""
    if value is None:
        return 0.0
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return None
    try:
        cost = float(value)
    except OverflowError:
        return None
    return cost if math.isfinite(cost) and cost >= 0 else None


def _entry_ok(entry: object) -> bool:
    """A ledger entry as replay writes it: a conversation id (text or none) and a turn count."""
    if not isinstance(entry, dict):
        return False
    conversation, turns = entry.get("conversation_id"), entry.get("turns", 0)
    counted = isinstance(turns, int) and not isinstance(turns, bool) and turns >= 0
    return (conversation is None or isinstance(conversation, str)) and counted


class Ledger:
    """Session → the agent's conversation id and its turn count; nothing else (0600, atomic writes)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def _read(self) -> dict[str, dict[str, Any]]:
        """The ledger's entries; what is not one (the agent owns this home too: a file it rewrote, a
        bad entry) is dropped and said, never a crash."""
        try:
            with open(self.path, encoding="utf-8") as fh:
                data = json.load(fh)
        except FileNotFoundError:
            return {}
        except (OSError, ValueError, RecursionError) as exc:  # (invalid JSON or UTF-8, nested 100k deep, a folder)
            log.warning("heal ledger %s unreadable (%s): starting afresh", self.path, type(exc).__name__)
            return {}
        kept = {k: v for k, v in data.items() if _entry_ok(v)} if isinstance(data, dict) else {}
        if not isinstance(data, dict) or len(kept) != len(data):
            log.warning(
                "heal ledger %s: %d bad entries dropped",
                self.path,
                len(data) - len(kept) if isinstance(data, dict) else 1,
            )
        return kept

    def get(self, session: str) -> tuple[str | None, int]:
        """The conversation id and turns so far of ``session``."""
        entry = self._read().get(session) or {}
        return entry.get("conversation_id"), int(entry.get("turns") or 0)

    def record(self, session: str, conversation_id: str | None) -> None:
        """One more turn of ``session``, continuing ``conversation_id`` (kept when the agent gave none)."""
        data = self._read()
        previous = data.get(session) or {}
        data[session] = {
            "conversation_id": conversation_id or previous.get("conversation_id"),
            "turns": int(previous.get("turns") or 0) + 1,
        }
        directory = os.path.dirname(self.path) or "."
        os.makedirs(directory, mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".ledger.", dir=directory)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(data, fh)
        os.chmod(tmp, 0o600)
        os.replace(tmp, self.path)
