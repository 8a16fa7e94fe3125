"""Recordings a stopped daemon left behind: listed, publishable, discardable — never silently deleted.

A recording keeps ``sessions/NAME/recording.json`` (where ``close`` writes the script, and from which
journal entry) beside the session's journal while it is on. When the daemon dies (``kill -9``, OOM,
reboot) both stay on disk, and the next daemon treats the pair as an orphaned recording (SPEC §12):
``replay session list`` shows it, ``replay close --session NAME`` publishes what was journaled
(``--discard`` drops it), and opening that session again is refused until then.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import dataclass

from replay.engine.journal import JournalEntry, read_journal_checked
from replay.files import open_private
from replay.session.publish import publish_exclusive
from replay.session.recorder import script_text

RECORDING = "recording.json"
JOURNAL = "journal.ndjson"


def _dir(home: str, name: str) -> str:
    return os.path.join(home, "sessions", name)


def save(home: str, name: str, *, target: str | None, start: int, platform: str) -> None:
    """Remember, beside the journal, that this session records (and where its script goes)."""
    os.makedirs(_dir(home, name), mode=0o700, exist_ok=True)
    with open_private(os.path.join(_dir(home, name), RECORDING)) as fh:
        json.dump({"target": target, "start": start, "platform": platform, "since": time.time()}, fh)


def forget(home: str, name: str) -> None:
    """The recording ended (published or dropped): its files go, typed text included."""
    for leaf in (RECORDING, JOURNAL):
        try:
            os.unlink(os.path.join(_dir(home, name), leaf))
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

    def publish(self, home: str, path: str | None = None) -> str:
        """Write the recorded script (to ``path``, its own target, or the default), then forget it."""
        target = path or self.target
        if not target:
            target = os.path.join(home, "scripts", f"{self.name}-{time.strftime('%Y%m%d-%H%M%S')}.ad")
        written = publish_exclusive(target, script_text(self.entries[self.start :], platform=self.platform), home)
        forget(home, self.name)
        return written


def load(home: str, name: str) -> Orphan | None:
    """The orphaned recording of session ``name`` (call only when no live session has that name)."""
    meta = os.path.join(_dir(home, name), RECORDING)
    try:
        with open(meta, encoding="utf-8") as fh:
            data = json.load(fh)
    except (OSError, ValueError):
        return None
    journal = os.path.join(_dir(home, name), JOURNAL)
    entries, torn = read_journal_checked(journal) if os.path.exists(journal) else ([], 0)
    start, platform = int(data.get("start") or 0), str(data.get("platform") or "web")
    return Orphan(name, data.get("target"), start, platform, entries, torn)


def find(home: str, live: set[str]) -> list[Orphan]:
    """Every orphaned recording of this home, by name."""
    root = os.path.join(home, "sessions")
    names = sorted(os.listdir(root)) if os.path.isdir(root) else []
    return [o for n in names if n not in live for o in [load(home, n)] if o is not None]
