"""The agent protocol (SPEC §8): one JSON object in on stdin, one JSON line out, the session in between.

An agent is any command. It gets the redacted divergence, the session name, the commands it may
run, the resume command, what remains of the budget and deadline, the round ``k/N`` and the
conversation id of its previous round. It acts on the session through the ``replay`` CLI (or MCP)
and prints ``{"status", "notes", "cost_usd", "conversation_id"}`` as its last stdout line.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import tempfile
from dataclasses import dataclass, field
from typing import Any

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
    """Run the agent once; a transport failure is a ``Turn`` with ``transport`` set, never an exception."""
    try:
        proc = subprocess.run(
            shlex.split(command),
            input=json.dumps(payload, ensure_ascii=False),
            capture_output=True,
            text=True,
            timeout=timeout_s,
            env=env,
        )
    except FileNotFoundError:
        return Turn("failed", transport="did not start (command not found)")
    except subprocess.TimeoutExpired:
        return Turn("failed", transport="ran past the deadline")
    except OSError as exc:
        return Turn("failed", transport=f"did not start ({exc.strerror})")
    lines = [line for line in proc.stdout.splitlines() if line.strip()]
    if not lines:
        return Turn("failed", transport=f"printed no result (exit {proc.returncode})")
    try:
        out = json.loads(lines[-1])
    except json.JSONDecodeError:
        return Turn("failed", transport="printed a malformed result line")
    if not isinstance(out, dict) or out.get("status") not in STATUSES:
        return Turn("failed", transport=f"printed a result without a known status ({', '.join(STATUSES)})")
    notes = out.get("notes") or []
    return Turn(
        str(out["status"]),
        [str(n) for n in (notes if isinstance(notes, list) else [notes])][:3],
        float(out.get("cost_usd") or 0.0),
        str(out["conversation_id"]) if out.get("conversation_id") else None,
    )


class Ledger:
    """Session → the agent's conversation id and its turn count; nothing else (0600, atomic writes)."""

    def __init__(self, path: str) -> None:
        self.path = path

    def _read(self) -> dict[str, dict[str, Any]]:
        try:
            with open(self.path, encoding="utf-8") as fh:
                data = json.load(fh)
        except (FileNotFoundError, json.JSONDecodeError):
            return {}
        return data if isinstance(data, dict) else {}

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
