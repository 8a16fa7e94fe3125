"""Recordings a stopped daemon left behind: listed, publishable, discardable — never silently deleted.

A recording keeps ``sessions/NAME/recording.json`` (where ``close`` writes the script, and from which
journal entry) beside the session's journal while it is on. When the daemon dies (``kill -9``, OOM,
reboot) both stay on disk, and the next daemon treats the pair as an orphaned recording (design §12):
``replay session list`` shows it, ``replay close --session NAME`` publishes what was journaled
(``--discard`` drops it), and opening that session again is refused until then.
"""

from __future__ import annotations

import json
import os
import shutil
import time
from dataclasses import dataclass
from typing import Any

from replay.engine.journal import JournalEntry, read_journal_checked
from replay.errors import SessionNotFound
from replay.files import open_private
from replay.platforms import DEFAULT_PLATFORM
from replay.session.protocol import JOURNAL_FILE, RECORDING_FILE, session_dir, session_dirs
from replay.session.publish import publish_exclusive
from replay.session.recorder import script_text
from replay.session.repair import Ending, check_tombstone


def save(home: str, name: str, *, target: str | None, start: int, platform: str) -> None:
    """Remember, beside the journal, that this session records (and where its script goes)."""
    os.makedirs(session_dir(home, name), mode=0o700, exist_ok=True)
    with open_private(os.path.join(session_dir(home, name), RECORDING_FILE)) as fh:
        json.dump({"target": target, "start": start, "platform": platform, "since": time.time()}, fh)


def forget(home: str, name: str) -> None:
    """The recording ended (published or dropped): its files go, typed text included."""
    for leaf in (RECORDING_FILE, JOURNAL_FILE):
        try:
            os.unlink(os.path.join(session_dir(home, name), leaf))
        except FileNotFoundError:
            pass


@dataclass
class Orphan:
    """A recording whose daemon stopped: what was journaled, and where it was to be written."""

    name: str
    target: str | None
    start: int
    platform: str
    entries: list[JournalEntry]
    torn: int = 0  # journal lines a crash or a full disk cut short: skipped, and said

    @property
    def actions(self) -> int:
        """How many journaled actions the recording holds."""
        return len(self.entries) - self.start

    def publish(self, home: str, path: str | None = None, unwritten: list[str] | None = None) -> str:
        """Write the recorded script (to ``path``, its own target, or the default), then forget it; a step
        it cannot write is a comment in its place, said in ``unwritten``."""
        target = path or self.target
        if not target:
            target = os.path.join(home, "scripts", f"{self.name}-{time.strftime('%Y%m%d-%H%M%S')}.ad")
        text = script_text(self.entries[self.start :], platform=self.platform, unwritten=unwritten)
        written = publish_exclusive(target, text, home)
        forget(home, self.name)
        return written


def load(home: str, name: str) -> Orphan | None:
    """The orphaned recording of session ``name`` (call only when no live session has that name)."""
    meta = os.path.join(session_dir(home, name), RECORDING_FILE)
    try:
        with open(meta, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    journal = os.path.join(session_dir(home, name), JOURNAL_FILE)
    entries, torn = read_journal_checked(journal) if os.path.exists(journal) else ([], 0)
    start, platform = int(data.get("start") or 0), str(data.get("platform") or DEFAULT_PLATFORM)
    return Orphan(name, data.get("target"), start, platform, entries, torn)


def find(home: str, live: set[str]) -> list[Orphan]:
    """Every orphaned recording of this home, by name."""
    return [o for n in session_dirs(home) if n not in live for o in [load(home, n)] if o is not None]


def close_left(home: str, ended: Ending | None, name: str, save_script: str | None, discard: bool) -> dict[str, Any]:
    """``close`` of a session a stopped daemon left: its recovered repair (``ended``), or its orphaned
    recording (published, or dropped with ``discard``)."""
    if ended is not None and ended.healed:
        shutil.rmtree(session_dir(home, name), ignore_errors=True)
        return {"closed": name, "script": None, "healed": ended.healed, "recovered": True}
    check_tombstone(home, name)
    left = load(home, name)
    if left is None:
        raise SessionNotFound(f"no session {name!r} is open", hint="`replay session list` shows the open sessions")
    if discard:
        forget(home, name)
        return {"closed": name, "script": None, "recovered": True}
    unwritten: list[str] = []
    written = left.publish(home, os.path.abspath(save_script) if save_script else None, unwritten)
    out: dict[str, Any] = {"closed": name, "script": written, "recovered": True}
    if unwritten:
        out["unwritten"] = unwritten
    if left.torn:
        out["warning"] = (
            f"{left.torn} journal line(s) were torn (a write cut short by a crash or a full disk) and skipped"
        )
    return out
