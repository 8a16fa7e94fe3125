"""The journal: every entry on disk; in memory only what a recording or a repair may still write."""

from __future__ import annotations

from pathlib import Path

from replay.session.journal import RELEASE_BATCH, Journal, JournalEntry, read_journal


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
