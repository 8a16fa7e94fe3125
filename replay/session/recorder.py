"""Serialize journal entries into an `.ad` script (recording; later healing)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from replay.engine.journal import JournalEntry
from replay.errors import Unmaterialized
from replay.platforms import DEFAULT_PLATFORM
from replay.script import evidence as ev_codec


@dataclass
class Recording:
    """Recording state: on, and where ``close`` writes the script."""

    path: str | None = None  # None: the default under $REPLAY_HOME/scripts
    start: int = 0  # journal position (``Journal.count``) when recording started
    header: tuple[str, ...] = ()  # the script's first lines (`record FLOW --from N`: the flow's); none: its platform


def script_text(
    entries: Sequence[JournalEntry],
    *,
    platform: str = DEFAULT_PLATFORM,
    header: Sequence[str] = (),
    unwritten: list[str] | None = None,
) -> str:
    """The script for ``entries`` (only those marked ``record``), ending with ``close``.

    An action without a portable selector fails loudly (``UNMATERIALIZED_ACTION``, a heal: never a
    prefix) — or, given ``unwritten`` (a recording: nothing a person did is lost), is kept in its place as
    a comment that says why, and said in ``unwritten``.
    """
    lines = list(header) or [f"context platform={platform}"]
    step = 0
    for entry in entries:
        if not entry.record or entry.command == "close":
            continue
        step += 1
        if entry.line is None:
            what = f"step {step} ({entry.command} {entry.describe or entry.ref or ''}".rstrip() + ")"
            if unwritten is None:
                raise Unmaterialized(
                    f"recorded {what} has no portable selector",
                    hint="nothing was written; redo that step on an element with a label, test id, placeholder or "
                    "text, or close with --discard",
                    details={"step": step, "seq": entry.seq},
                )
            said = f"{what} was not written: nothing portable names its element"
            unwritten.append(said)
            lines.append(f"# replay: {said} (redo it on an element with a label, test id, placeholder or text)")
            continue
        if entry.evidence is not None:
            lines.append(ev_codec.WRITE_PREFIX + entry.evidence)
        lines.append(entry.line)
    lines.append("close")
    return "\n".join(lines) + "\n"
