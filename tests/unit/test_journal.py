"""The journal: every entry on disk; in memory only what a recording or a repair may still write."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from replay.engine.journal import RELEASE_BATCH, Journal, JournalEntry, read_journal, read_journal_checked
from replay.errors import CannotWrite


def _fill(journal: Journal, n: int) -> None:
    for _ in range(n):
        journal.append(JournalEntry(seq=journal.next_seq(), command="click", line="click id=x"))


def test_a_journal_nothing_pins_stays_bounded_in_memory_and_whole_on_disk(tmp_path: Path) -> None:
    journal = Journal(str(tmp_path / "s" / "journal.ndjson"))
    _fill(journal, 1000)
    assert journal.count == 1000 and journal.recorded == 1000
    assert len(journal.entries) <= RELEASE_BATCH + 1
    assert journal.entries[-1].seq == 1000  # sequence numbers go on across releases
    assert len(read_journal(journal.path)) == 1000


def test_a_pinned_position_keeps_every_entry_from_it_on(tmp_path: Path) -> None:
    pin = [None, 300]
    journal = Journal(str(tmp_path / "s" / "journal.ndjson"), lambda: pin[-1])
    _fill(journal, 1000)
    assert [e.seq for e in journal.since(300)] == list(range(301, 1001))
    pin.pop()  # the recording ended: what it kept is let go at the next append
    _fill(journal, 1)
    assert len(journal.entries) <= RELEASE_BATCH + 1 and journal.count == 1001


def test_the_latest_entry_stays_to_be_retracted(tmp_path: Path) -> None:
    journal = Journal(str(tmp_path / "s" / "journal.ndjson"))
    _fill(journal, RELEASE_BATCH * 3)
    journal.retract(journal.entries[-1])
    assert journal.count == RELEASE_BATCH * 3 - 1 and journal.recorded == RELEASE_BATCH * 3 - 1
    assert len(read_journal(journal.path)) == RELEASE_BATCH * 3 - 1


def test_a_write_cut_short_by_a_full_disk_leaves_no_torn_line_and_raises(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    journal = Journal(str(tmp_path / "s" / "journal.ndjson"))
    _fill(journal, 1)
    real_write = os.write

    def full_disk(fd: int, data: bytes) -> int:
        if len(data) > 1000:  # the big entry: half of it fits, then the disk is full
            written = real_write(fd, data[: len(data) // 2])
            monkeypatch.setattr(os, "write", lambda fd, data: (_ for _ in ()).throw(OSError(errno.ENOSPC, "full")))
            return written
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    with pytest.raises(CannotWrite, match="nothing was sent"):
        journal.append(JournalEntry(seq=journal.next_seq(), command="fill", line='fill id=a "' + "x" * 60_000 + '"'))
    monkeypatch.setattr(os, "write", real_write)
    _fill(journal, 1)
    assert [e.seq for e in read_journal(journal.path)] == [1, 2] and journal.count == 2
    assert read_journal_checked(journal.path)[1] == 0


def test_a_torn_line_is_skipped_counted_and_never_glued_to_the_next_entry(tmp_path: Path) -> None:
    path = tmp_path / "s" / "journal.ndjson"
    journal = Journal(str(path))
    _fill(journal, 1)
    with open(path, "ab") as fh:
        fh.write(b'{"seq": 2, "command": "fill", "line": "fill id=a \\"xx')  # a crash mid-write
    _fill(journal, 1)
    entries, torn = read_journal_checked(str(path))
    assert [e.seq for e in entries] == [1, 2] and torn == 1
