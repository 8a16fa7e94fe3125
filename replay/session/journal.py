"""The action journal: append-only NDJSON on disk, flushed per action (SPEC §7).

It holds typed text (needed to re-type it), so the file is private (0600) and entries are never
printed: responses and logs carry the public ``describe`` and ``selector`` of an entry, never its line.
"""

from __future__ import annotations

import json
import os
import time
from dataclasses import asdict, dataclass, field

INTERACTIVE = "interactive"
PLAN = "plan"


@dataclass
class JournalEntry:
    """One executed action."""

    seq: int
    command: str
    provenance: str = INTERACTIVE
    record: bool = True  # written to a recorded/healed script
    line: str | None = None  # the canonical .ad line (materialized), None if unmaterialized
    evidence: str | None = None  # target-v1 payload JSON
    ref: str | None = None
    describe: str | None = None  # e.g. '@e7 button "Place order"' (no typed text)
    selector: str | None = None
    verification: str | None = None
    ts: float = field(default_factory=time.time)

    @property
    def materialized(self) -> bool:
        """False when an element action has no portable selector (R4)."""
        return self.line is not None


class Journal:
    """Append-only journal file of one session."""

    def __init__(self, path: str) -> None:
        self.path = path
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        self.entries: list[JournalEntry] = []
        if os.path.exists(path):
            self.entries = list(read_journal(path))

    def append(self, entry: JournalEntry) -> None:
        """Persist one entry before the action's response is sent.

        One unbuffered ``write`` of a whole line: once it returns, the kernel holds the entry, so a
        killed daemon loses nothing (an fsync would only add power-loss safety, at a cost per step).
        """
        data = json.dumps(asdict(entry), ensure_ascii=False) + "\n"
        fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, data.encode("utf-8"))
        finally:
            os.close(fd)
        self.entries.append(entry)

    def next_seq(self) -> int:
        """The sequence number of the next entry."""
        return len(self.entries) + 1


def read_journal(path: str) -> list[JournalEntry]:
    """Entries of a journal file; a torn last line (crash mid-write) is ignored."""
    out: list[JournalEntry] = []
    with open(path, encoding="utf-8") as fh:
        for raw in fh:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError:
                continue
            known = {k: v for k, v in data.items() if k in JournalEntry.__dataclass_fields__}
            out.append(JournalEntry(**known))
    return out


def written_to_script(*, provenance: str, command: str, observation: bool, record: bool, no_record: bool) -> bool:
    """The observation-exclusion rule, in one place (SPEC §7).

    Authored plan steps always survive (provenance, not command class); ``wait`` always records;
    an observation typed interactively (snapshot, get, is, read-only find) only with ``--record``;
    ``--no-record`` keeps a state fix out of the script.
    """
    if no_record:
        return False
    if provenance == PLAN or command == "wait":
        return True
    if observation:
        return record
    return True
