"""Repair transactions (SPEC §7, R1–R7): armed by `run --save-script`, published only when complete.

The transaction lives on disk beside the session's journal, so a daemon restart finds it: a
complete one is committed, an incomplete one leaves a tombstone.
"""

from __future__ import annotations

import json
import os
import tempfile
import time
from dataclasses import asdict, dataclass, field

from replay.errors import RepairSessionExpired
from replay.session.journal import JournalEntry
from replay.session.publish import publish_exclusive
from replay.session.recorder import script_text

ARMED = "ARMED"
COMPLETE = "COMPLETE"
COMMITTED = "COMMITTED"
SENTINEL = "# replay:heal-complete"


@dataclass
class RepairTransaction:
    """One armed repair of one script on one session."""

    script: str  # absolute path of the original
    display: str  # the path as the user gave it
    target: str  # where the healed script is published
    plan_digest: str
    platform: str
    watermark: int  # journal length before step 1 (R1, R6)
    header: list[str] = field(default_factory=list)  # the original's context and env lines
    state: str = ARMED
    created: float = field(default_factory=time.time)

    def save(self, path: str) -> None:
        """Persist atomically (temp file + rename), private to the user."""
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".repair.", dir=os.path.dirname(path))
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            json.dump(asdict(self), fh)
        os.chmod(tmp, 0o600)
        os.replace(tmp, path)

    @classmethod
    def load(cls, path: str) -> RepairTransaction | None:
        """The transaction stored at ``path``, if any."""
        try:
            with open(path, encoding="utf-8") as fh:
                return cls(**json.load(fh))
        except (FileNotFoundError, json.JSONDecodeError, TypeError):
            return None


def repair_path(home: str, session: str) -> str:
    """Where a session's transaction is stored."""
    return os.path.join(home, "sessions", session, "repair.json")


def tombstone_path(home: str, session: str) -> str:
    """Where a session's tombstone is stored."""
    return os.path.join(home, "sessions", session, "tombstone.json")


def default_target(script_path: str) -> str:
    """``<stem>.healed.ad`` beside the original."""
    stem, _ = os.path.splitext(script_path)
    return stem + ".healed.ad"


def healed_text(tx: RepairTransaction, entries: list[JournalEntry]) -> str:
    """The healed script: the original's header, the post-watermark slice, ``close``, the sentinel.

    Fails loudly (``UNMATERIALIZED_ACTION``, exit 4) naming an action with no portable selector.
    """
    body = script_text(entries[tx.watermark :], header=tx.header or [f"context platform={tx.platform}"])
    return body + SENTINEL + "\n"


def commit(tx: RepairTransaction, entries: list[JournalEntry]) -> str:
    """Publish the healed script (exclusive create; an existing target is left unchanged)."""
    return publish_exclusive(tx.target, healed_text(tx, entries))


def write_tombstone(home: str, session: str, reason: str, tx: RepairTransaction | None) -> None:
    """Mark a session whose incomplete repair was reaped or crashed."""
    path = tombstone_path(home, session)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    data = {"reason": reason, "time": time.time(), "script": tx.display if tx else None}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh)


def check_tombstone(home: str, session: str) -> None:
    """Raise ``REPAIR_SESSION_EXPIRED`` for a session that has a tombstone."""
    path = tombstone_path(home, session)
    if not os.path.exists(path):
        return
    try:
        with open(path, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, json.JSONDecodeError):
        data = {}
    script = data.get("script") or "FLOW.ad"
    shown = "default" if session.startswith("default-") else session
    raise RepairSessionExpired(
        f"the repair on session {shown!r} ended before it completed ({data.get('reason', 'expired')}); "
        "nothing was published",
        hint=f"re-run it from the start: replay run {script} --session {shown} --save-script",
    )


def clear_tombstone(home: str, session: str) -> None:
    """A new armed run clears the tombstone."""
    try:
        os.unlink(tombstone_path(home, session))
    except FileNotFoundError:
        pass
