"""Repair transactions (design §7, R1–R7): armed by `run --save-script`, published only when complete.

The transaction lives on disk beside the session's journal, so a daemon restart finds it: a
complete one is committed, an incomplete one leaves a tombstone.

This module is the transaction's one owner: ``check_arming`` and ``arm`` open it, ``complete``
moves it along, ``end`` closes it (commit iff COMPLETE, else abort and, unless the user closed it,
a tombstone) for ``close``, the idle reaper and daemon shutdown alike, and ``recover`` ends the
ones a killed daemon left behind.
"""

from __future__ import annotations

import json
import logging
import os
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Protocol

from replay.engine.journal import JournalEntry, read_journal
from replay.errors import InvalidArgs, RepairSessionExpired, ReplayError, TargetExists
from replay.files import open_private
from replay.session import gate
from replay.session.protocol import JOURNAL_FILE, REPAIR_FILE, TOMBSTONE_FILE, session_dir, session_dirs, shown_name
from replay.session.publish import publish_exclusive
from replay.session.recorder import Recording, script_text

if TYPE_CHECKING:
    from replay.script.plan import Plan

log = logging.getLogger("replay.repair")


class RepairState(StrEnum):
    """Where a transaction is (design §7): armed by its run, complete once the plan ran through, committed
    once its healed script is published. Stored by value in ``repair.json``."""

    ARMED = "ARMED"
    COMPLETE = "COMPLETE"
    COMMITTED = "COMMITTED"


ARMED, COMPLETE, COMMITTED = RepairState.ARMED, RepairState.COMPLETE, RepairState.COMMITTED
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
    state: RepairState = ARMED
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
                stored = json.load(fh)
            return cls(**{**stored, "state": RepairState(stored.get("state", ARMED))})
        except (FileNotFoundError, json.JSONDecodeError, TypeError, ValueError):
            return None


def repair_path(home: str, session: str) -> str:
    """Where a session's transaction is stored."""
    return os.path.join(session_dir(home, session), REPAIR_FILE)


def tombstone_path(home: str, session: str) -> str:
    """Where a session's tombstone is stored."""
    return os.path.join(session_dir(home, session), TOMBSTONE_FILE)


def default_target(script_path: str) -> str:
    """``<stem>.healed.ad`` beside the original."""
    stem, _ = os.path.splitext(script_path)
    return stem + ".healed.ad"


def healed_text(tx: RepairTransaction, entries: list[JournalEntry]) -> str:
    """The healed script: the original's header, the journal's entries from the watermark on
    (``entries``), ``close``, the sentinel.

    Fails loudly (``UNMATERIALIZED_ACTION``, exit 4) naming an action with no portable selector.
    """
    body = script_text(entries, header=tx.header or [f"context platform={tx.platform}"]) + SENTINEL + "\n"
    return gate.staged_text(body) if gate.is_staged(tx.target) else body


def commit(tx: RepairTransaction, entries: list[JournalEntry], home: str | None = None) -> str:
    """Publish the healed script (exclusive create; an existing target is left unchanged)."""
    return publish_exclusive(tx.target, healed_text(tx, entries), home)


def write_tombstone(home: str, session: str, reason: str, tx: RepairTransaction | None) -> None:
    """Mark a session whose incomplete repair was reaped or crashed."""
    path = tombstone_path(home, session)
    os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
    data = {"reason": reason, "time": time.time(), "script": tx.display if tx else None}
    with open_private(path) as fh:
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
    shown = shown_name(session)
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


# the life of a transaction ------------------------------------------------------------------------


def refuse_full_rerun(tx: RepairTransaction | None, shown: str) -> None:
    """R2: after a divergence of an armed run the only continuation is ``--from``."""
    if tx is not None and tx.state in (ARMED, COMPLETE):
        raise InvalidArgs(
            f"session {shown!r} holds an armed repair of {tx.display}; a full re-run is refused",
            hint="continue it with --from N --plan-digest D from the divergence report, "
            "or `replay close` the session (publishing the healed script if it is complete)",
        )


def check_arming(plan: Plan, display: str, script_path: str, save_script: str) -> str:
    """R5 and the target: refuse (before any session exists) what could never be published; the target."""
    first = plan.steps[0].action.command if plan.steps else "nothing"
    if first != "open":
        raise InvalidArgs(  # R5: the healed script must be self-contained
            f"{display}: an armed run must start with `open` (step 1 is `{first}`)",
            hint="add an open URL step at the top so the healed script is self-contained",
        )
    target = os.path.abspath(save_script) if save_script else default_target(os.path.abspath(script_path))
    if os.path.exists(target):
        raise TargetExists(
            f"{target} already exists; it was left unchanged",
            hint="move it away or choose another path with --save-script=OUT",
        )
    return target


class Repairing(Protocol):
    """What a transaction reads and writes of its session (``replay.session.session.Session``)."""

    name: str
    home: str
    repair: RepairTransaction | None
    recording: Recording | None
    outstanding: bool


def arm(session: Repairing, tx: RepairTransaction) -> None:
    """R1: recording on and the watermark set before step 1; the transaction persisted, a tombstone cleared."""
    clear_tombstone(session.home, session.name)
    session.repair = tx
    session.recording = Recording(tx.target, tx.watermark)
    session.outstanding = False
    tx.save(repair_path(session.home, session.name))


def complete(session: Repairing) -> None:
    """R7: the plan ran through its last executable step with no outstanding divergence."""
    assert session.repair is not None
    session.repair.state = COMPLETE
    session.repair.save(repair_path(session.home, session.name))


@dataclass
class Ending:
    """How a transaction ended: the healed script's path, or why nothing was published."""

    healed: str | None = None
    aborted: bool = False  # it was incomplete: nothing was published (never a prefix)
    error: ReplayError | None = None  # a complete one that could not be written (logged)


def end(
    home: str,
    name: str,
    tx: RepairTransaction,
    entries: Sequence[JournalEntry],  # from the watermark on
    *,
    reason: str | None,
    discard: bool = False,
) -> Ending:
    """R7 teardown: commit iff COMPLETE, else abort and publish nothing — never a prefix.

    ``reason`` None means the user closed the session: a failed commit raises (the session
    stays), and an abort leaves no tombstone. Otherwise (reaped, shut down, crashed) failures are
    logged and an unpublished transaction leaves a tombstone in place of its record.
    """
    if tx.state == COMMITTED:
        return Ending()
    if tx.state == COMPLETE and not discard:
        try:
            path = commit(tx, list(entries), home)
        except ReplayError as err:
            if reason is None:
                raise
            log.warning("session %s: healed script not written: %s", name, err.code)
            _bury(home, name, f"{reason}; the healed script could not be written ({err.code})", tx)
            return Ending(error=err)
        tx.state = COMMITTED
        tx.save(repair_path(home, name))
        log.info("session %s: healed script written to %s", name, path)
        return Ending(healed=path)
    if reason is not None and not discard:
        _bury(home, name, reason, tx)
        log.info("session %s: incomplete repair aborted (%s); tombstone left", name, reason)
    return Ending(aborted=tx.state == ARMED)


def _bury(home: str, name: str, reason: str, tx: RepairTransaction) -> None:
    write_tombstone(home, name, reason, tx)
    try:
        os.unlink(repair_path(home, name))
    except FileNotFoundError:
        pass


def recover(home: str) -> dict[str, Ending]:
    """At daemon start: end every transaction a killed daemon left (COMPLETE → commit, else tombstone).

    Returns how each ended, by session: the ``close`` that started this daemon reports it.
    """
    ended: dict[str, Ending] = {}
    for name in session_dirs(home):
        tx = RepairTransaction.load(repair_path(home, name))
        if tx is None or tx.state == COMMITTED:
            continue
        journal = os.path.join(session_dir(home, name), JOURNAL_FILE)
        entries = read_journal(journal)[tx.watermark :] if os.path.exists(journal) else []
        ended[name] = end(home, name, tx, entries, reason="the daemon stopped during the repair")
    return ended
