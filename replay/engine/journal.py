"""The action journal: append-only NDJSON on disk, flushed per action (design §7).

It holds typed text (needed to re-type it), so the file is private (0600) and entries are never
printed: responses and logs carry the public ``describe`` and ``selector`` of an entry, never its line.
"""

from __future__ import annotations

import contextlib
import json
import os
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum

from replay.errors import CannotWrite, InvalidArgs


class Provenance(StrEnum):
    """Who performed a journaled action: a person or an agent at the command line, or a script's plan."""

    INTERACTIVE = "interactive"
    PLAN = "plan"


INTERACTIVE, PLAN = Provenance.INTERACTIVE, Provenance.PLAN


@dataclass
class JournalEntry:
    """One executed action."""

    seq: int
    command: str
    provenance: Provenance = INTERACTIVE
    record: bool = True  # written to a recorded/healed script
    line: str | None = None  # the canonical .ad line (materialized), None if unmaterialized
    evidence: str | None = None  # target-v1 payload JSON
    ref: str | None = None
    describe: str | None = None  # e.g. '@e7 button "Place order"' (no typed text)
    selector: str | None = None
    verification: str | None = None
    ts: float = field(default_factory=time.time)


RELEASE_BATCH = 64  # entries nobody needs are let go from memory this many at a time


class Journal:
    """Append-only journal file of one session.

    The file keeps every entry; memory keeps only those a recording or a repair may still write
    (from ``pinned()``, an absolute position, on): a long session that records nothing stays flat.
    Positions (``count``, ``since``) count every entry ever appended.
    """

    def __init__(self, path: str, pinned: Callable[[], int | None] = lambda: None) -> None:
        self.path = path
        self.pinned = pinned  # the first position still needed (None: none is)
        os.makedirs(os.path.dirname(path), mode=0o700, exist_ok=True)
        self.entries: list[JournalEntry] = []  # the entries from position ``offset`` on
        self.offset = 0
        if os.path.exists(path):
            self.entries = list(read_journal(path))
        self.recorded = sum(1 for e in self.entries if e.record)  # script-bound entries ever appended

    @property
    def count(self) -> int:
        """How many entries the journal holds (released ones included)."""
        return self.offset + len(self.entries)

    def since(self, position: int) -> list[JournalEntry]:
        """The entries from absolute ``position`` on (never released while pinned)."""
        assert position >= self.offset, "a pinned position is never released"
        return self.entries[position - self.offset :]

    def _release(self) -> None:
        """Let go of the entries before the pinned position (the latest always stays: it may be retracted)."""
        pin = self.pinned()
        upto = min(self.count - 1, self.count if pin is None else pin)
        if upto - self.offset >= RELEASE_BATCH:
            del self.entries[: upto - self.offset]
            self.offset = upto

    def append(self, entry: JournalEntry) -> None:
        """Persist one entry *before* its action is sent (journal before effect, design §12).

        One unbuffered ``write`` of a whole line: once it returns, the kernel holds the entry, so a
        killed daemon loses nothing (an fsync would only add power-loss safety, at a cost per step).
        An entry that cannot be written raises, and the caller sends nothing.
        """
        try:
            # the fields are flat (strings, numbers): written as they are, without asdict's deep copy
            data = (json.dumps(vars(entry), ensure_ascii=False) + "\n").encode("utf-8")
        except UnicodeEncodeError as exc:
            bad = exc.object[exc.start : exc.end] if isinstance(exc.object, str) else ""
            raise InvalidArgs(
                f"the text holds {bad.encode('unicode_escape').decode('ascii')!r}, which is not valid Unicode "
                "(a lone surrogate): nothing was sent",
                hint="write the character itself, or a surrogate pair such as \\ud83d\\ude00",
            ) from None
        self._write(data)
        self.entries.append(entry)
        self.recorded += entry.record
        self._release()

    def retract(self, entry: JournalEntry) -> None:
        """The entry's action failed before it took effect: drop it (on disk, a ``retract`` line)."""
        assert self.entries and self.entries[-1] is entry, "only the latest entry is retracted"
        self._write((json.dumps({"retract": entry.seq}) + "\n").encode("utf-8"))
        self.entries.pop()
        self.recorded -= entry.record

    def amend(self, entry: JournalEntry, evidence: str) -> None:
        """The entry's action took effect: its evidence now says what it did (design §15; on disk an
        ``amend`` line, so a script built from the file after a crash carries it too)."""
        self._write((json.dumps({"amend": entry.seq, "evidence": evidence}, ensure_ascii=False) + "\n").encode("utf-8"))
        entry.evidence = evidence

    def _write(self, data: bytes) -> None:
        """Append ``data`` whole, or not at all: a short write (a full disk) is cut back off the file,
        so the next entry never lands on a torn line; then nothing is sent (design §12)."""
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_APPEND | os.O_CREAT, 0o600)
        except OSError as exc:
            raise self._failed(exc.strerror) from None
        try:
            size = os.fstat(fd).st_size
            if size and os.pread(fd, 1, size - 1) != b"\n":
                data = b"\n" + data  # a line a crash tore: the next entry starts on a line of its own
            done = 0
            try:
                while done < len(data):
                    done += os.write(fd, data[done:])
            except OSError as exc:
                if done:
                    with contextlib.suppress(OSError):  # when even this fails, reading skips the torn line
                        os.ftruncate(fd, size)
                raise self._failed(exc.strerror) from None
        finally:
            os.close(fd)

    def _failed(self, why: str | None) -> CannotWrite:
        return CannotWrite(
            f"cannot write the session's journal ({why or 'write failed'}): nothing was sent",
            hint=f"check {os.path.dirname(self.path)} (disk space, permissions)",
        )

    def next_seq(self) -> int:
        """The sequence number of the next entry."""
        return (self.entries[-1].seq if self.entries else 0) + 1


def read_journal(path: str) -> list[JournalEntry]:
    """Entries of a journal file; a torn line (a crash or a full disk mid-write) is skipped."""
    return read_journal_checked(path)[0]


def read_journal_checked(path: str) -> tuple[list[JournalEntry], int]:
    """Entries of a journal file, and how many torn lines were skipped (for recovery to report)."""
    out: list[JournalEntry] = []
    torn = 0
    with open(path, encoding="utf-8", errors="replace") as fh:
        for raw in fh:
            try:
                data = json.loads(raw)
            except json.JSONDecodeError:
                torn += bool(raw.strip())
                continue
            if not isinstance(data, dict):
                torn += 1
                continue
            if isinstance(data, dict) and "retract" in data:  # its action failed: it never happened
                if out and out[-1].seq == data["retract"]:
                    out.pop()
                continue
            if "amend" in data:  # what its action did, learnt after it was sent
                amended = next((e for e in reversed(out) if e.seq == data["amend"]), None)
                if amended is not None and isinstance(data.get("evidence"), str):
                    amended.evidence = data["evidence"]
                continue
            known = {k: v for k, v in data.items() if k in JournalEntry.__dataclass_fields__}
            try:
                known["provenance"] = Provenance(known.get("provenance", INTERACTIVE))
                out.append(JournalEntry(**known))
            except (TypeError, ValueError):  # a line missing its fields, or holding another's: torn too
                torn += 1
    return out, torn


def written_to_script(
    *, provenance: Provenance, command: str, observation: bool, record: bool, no_record: bool
) -> bool:
    """The observation-exclusion rule, in one place (design §7).

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
