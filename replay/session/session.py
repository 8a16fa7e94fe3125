"""A session: the state of one browser context — refs generations, journal, recording, repair.

A session performs no steps; ``replay.engine.step.execute`` does, reading and writing this state.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import time
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from replay.drivers.base import Driver
from replay.engine import effects
from replay.engine.journal import Journal
from replay.engine.poll import SYSTEM_CLOCK, Clock
from replay.errors import InvalidArgs, ReplayError
from replay.platforms import DEFAULT_PLATFORM
from replay.session import orphans
from replay.session.protocol import JOURNAL_FILE, session_dir, shown_name
from replay.session.publish import publish_exclusive
from replay.session.recorder import Recording, script_text
from replay.session.repair import RepairTransaction
from replay.tree.effects import Watch
from replay.tree.model import Capture

if TYPE_CHECKING:
    from replay.engine.divergence import Divergence
    from replay.script.plan import Plan


CLOSE_TIMEOUT_S = 10.0
LOOK_TIMEOUT_S = 5.0  # the last look before a recording is published: a hung screen is not waited on longer


@dataclass
class Session:
    """One named session and everything it holds."""

    name: str
    home: str
    driver: Driver
    platform: str = DEFAULT_PLATFORM
    clock: Clock = SYSTEM_CLOCK
    generation: int = 0
    refs_capture: Capture | None = None
    cwd: str | None = None  # the working directory of the latest request's caller (relative paths)
    recording: Recording | None = None
    last_used: float = 0.0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    journal: Journal = field(init=False)
    last_divergence: Divergence | None = None  # the latest, shown again by `replay divergence`
    outstanding: bool = False  # the latest divergence is unresolved: a resume is judged against it
    recorded_at_divergence: int = 0  # recorded actions in the journal when it happened
    ephemeral: bool = False  # created by `replay run` without --session
    run_values: dict[str, dict[str, str]] = field(default_factory=dict)  # -e/shell values of the last diverged run
    repair: RepairTransaction | None = None
    plan: Plan | None = None  # the plan of the latest run (the built-in healer performs its steps)
    values: dict[str, str] = field(default_factory=dict)  # that run's effective variable values
    by_hand: Any = None  # a person records it by using the app (``by_hand.ByHand``, design §16)
    published: str | None = None  # where its recording was written
    unwritten: list[str] = field(default_factory=list)  # the steps it could not write (comments in their place)
    watch: Watch = field(default_factory=Watch)  # effects: the last settled screen, what changes by itself

    def __post_init__(self) -> None:
        self.journal = Journal(os.path.join(session_dir(self.home, self.name), JOURNAL_FILE), self._pinned)
        self.last_used = self.last_used or self.clock.now()

    def diverged(self, divergence: Divergence) -> None:
        """Remember an unresolved divergence (a blind resume is judged against it)."""
        self.last_divergence = divergence
        self.outstanding = True
        self.recorded_at_divergence = self.recorded_count()

    def _pinned(self) -> int | None:
        """The first journal position a recording or a repair may still write (None: none)."""
        starts = [self.recording.start] if self.recording is not None else []
        starts += [self.repair.watermark] if self.repair is not None else []
        return min(starts, default=None)

    def describe(self, now: float) -> dict[str, Any]:
        """What ``replay session list`` shows of this session (``recorded``: its script-bound actions,
        which a heal reads to tell whether an agent's turn recorded a corrective action)."""
        return {
            "name": self.name,
            "url": self.driver.location(),
            "recording": self.recording is not None,
            "actions": self.journal.count,
            "recorded": self.recorded_count(),
            "idleSeconds": round(now - self.last_used, 1),
        }

    def recorded_count(self) -> int:
        """Recorded (script-bound) actions in the journal: a corrective action raises it."""
        return self.journal.recorded

    def start_recording(self, path: str | None, others: Iterable[Session] = ()) -> None:
        """Turn recording on from the current journal position (on disk too: a crash keeps it); a
        session already recording is refused (a second recording would silently drop the first),
        and so is one whose screen (a device) another of ``others`` drives: its steps would be
        recorded with the other's mixed in, or act on a screen the other moved."""
        screen = self.driver.shared_screen()
        sharing = [
            o for o in others if o is not self and screen and o.driver.alive() and o.driver.shared_screen() == screen
        ]
        if sharing:
            other = shown_name(sharing[0].name)
            raise InvalidArgs(
                f"session {shown_name(self.name)!r} cannot record on {screen}: session {other!r} drives it too "
                "(the session stays open, not recording)",
                hint=f"close that session first (`replay close --session {other}`), or use another device (--serial)",
            )
        if self.recording is not None:
            shown = shown_name(self.name)
            flag = "" if shown == "default" else f" --session {shown}"
            where = f" to {self.recording.path}" if self.recording.path else ""
            raise InvalidArgs(
                f"session {shown!r} is already recording{where}",
                hint=f"`replay close{flag}` publishes that recording first, or open without --save-script",
            )
        self.recording = Recording(path, self.journal.count)
        orphans.save(self.home, self.name, target=path, start=self.recording.start, platform=self.platform)

    def recorded_script(self, unwritten: list[str] | None = None) -> str:
        """The script recording has produced so far: a step with no portable selector fails loudly, or,
        given ``unwritten``, is a comment in its place, said there."""
        assert self.recording is not None
        entries = self.journal.since(self.recording.start)
        return script_text(entries, platform=self.platform, header=self.recording.header, unwritten=unwritten)

    async def write_recording(self, path: str | None = None) -> str:
        """Publish the recorded script; returns its path. A live screen is looked at once more first:
        what changed by itself since the last step settled is no step's effect (design §15)."""
        assert self.recording is not None
        if self.driver.alive() and self.by_hand is None:  # (a person's hover since is no idle sample)
            with contextlib.suppress(ReplayError, TimeoutError):
                await asyncio.wait_for(effects.last_look(self), LOOK_TIMEOUT_S)
        self.unwritten = []
        text = self.recorded_script(self.unwritten)  # (nothing a person did is lost: what cannot be written says so)
        target = path or self.recording.path
        if not target:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            target = os.path.join(self.home, "scripts", f"{self.name}-{stamp}.ad")
        self.published = publish_exclusive(target, text, self.home)
        return self.published

    async def close(self) -> None:
        """Close the browser context (a dead browser may never answer: give up after a while)."""
        try:
            await asyncio.wait_for(self.driver.close(), CLOSE_TIMEOUT_S)
        except TimeoutError:
            pass
