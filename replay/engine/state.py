"""What a step runs on: the session state it reads and writes, the step itself, and how it stops.

Shared by the pipeline's stages (``step``, ``bind``, ``observe``); nothing here talks to a page
except ``capture``, through the driver.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any, Protocol

from replay.drivers.base import Driver, Interrupts, Views
from replay.engine.divergence import Binding
from replay.engine.journal import Journal, JournalEntry, Provenance, written_to_script
from replay.engine.poll import Clock
from replay.errors import ReplayError
from replay.script.ast import Action, Target
from replay.script.evidence import TargetEvidence
from replay.script.formatter import format_action
from replay.script.registry import Form
from replay.script.selector import format_selector
from replay.scrubbing import scrub
from replay.tree.effects import Watch
from replay.tree.model import Capture


class StepState(Protocol):
    """What a step reads and writes of its session (implemented by ``replay.session.Session``)."""

    name: str
    home: str
    platform: str
    driver: Driver
    clock: Clock
    generation: int
    refs_capture: Capture | None
    journal: Journal
    last_used: float
    cwd: str | None  # the caller's working directory: a relative path a step writes resolves against it
    watch: Watch  # what effects remember of the session: the last settled screen, what changes by itself

    @property
    def recording(self) -> object | None:
        """The recording, when the session records (None otherwise)."""
        ...


class StepStopped(Exception):
    """A step that could not bind its target: ``error`` for a person, ``binding`` for a divergence.

    ``capture`` is the screen the binding was judged on (None: take a fresh one).
    """

    def __init__(self, error: ReplayError, binding: Binding, capture: Capture | None = None) -> None:
        super().__init__(error.message)
        self.error = error
        self.binding = binding
        self.capture = capture

    def redacted(self, secrets: list[tuple[str, str]]) -> StepStopped:
        """This stop with each secret replaced in its error and in what its divergence will say (its
        cause, mismatches, candidates and effect): an adb answer that quotes a typed piece included."""
        self.error.redacted(secrets)
        if secrets:
            b = self.binding

            def said(text: str) -> str:
                return scrub(text, secrets)

            self.binding = replace(
                b,
                cause=said(b.cause),
                mismatches=[said(m) for m in b.mismatches],
                candidates=[said(c) for c in b.candidates],
                effect={k: said(v) for k, v in b.effect.items()} if b.effect is not None else None,
            )
        return self


@dataclass(frozen=True)
class Step:
    """One step as the pipeline runs it: as written (``raw``, ``${VAR}`` kept) and as dispatched."""

    raw: Action
    action: Action
    form: Form
    provenance: Provenance
    timeout_ms: int
    text_only: bool = False  # the caller shows only the text: a snapshot leaves out its structured nodes
    effects: bool = True  # a replayed step checks its recorded effect (design §15; off: --no-effects)

    @property
    def record_flag(self) -> bool:
        """``--record``: an observation typed interactively goes into the script."""
        return self.action.flag("--record") is True

    @property
    def no_record(self) -> bool:
        """``--no-record``: a state fix stays out of the script."""
        return self.action.flag("--no-record") is True

    def written(self, *, observation: bool) -> bool:
        """Whether this step's journal entry is written to a script (the one rule in ``written_to_script``)."""
        return written_to_script(
            provenance=self.provenance,
            command=self.action.command,
            observation=observation,
            record=self.record_flag,
            no_record=self.no_record,
        )

    def line(self, target: Target | None = None) -> str:
        """The canonical line as written (``${VAR}`` kept, record flags dropped), optionally retargeted."""
        return line_of(self.raw, target)


def keeps_its_annotation(raw: Action, fresh: TargetEvidence) -> bool:
    """Minimal diffs (design §7): a replayed step whose element still carries the recorded identity keeps
    its line and annotation byte for byte; diagnostic drift alone never changes a healed script."""
    return raw.annotation is not None and raw.annotation.identity() == fresh.identity()


def line_of(raw: Action, target: Target | None = None) -> str:
    """The canonical line of ``raw`` as written (``${VAR}`` kept, record flags dropped), optionally retargeted."""
    flags = tuple((k, v) for k, v in raw.flags if k not in ("--record", "--no-record"))
    params = raw.params if target is None else tuple((k, target if k == "target" else v) for k, v in raw.params)
    return format_action(replace(raw, params=params, flags=flags))


def _keep(state: StepState, hold: int | None = None) -> tuple[int, ...]:
    """The refs generation of the latest snapshot: its nodes stay actable whatever is looked at next;
    and ``hold`` (a step's own capture, while its effect settles)."""
    refs = (state.refs_capture.generation,) if state.refs_capture is not None else ()
    return refs if hold is None else (*refs, hold)


async def capture(state: StepState, hold: int | None = None) -> Capture:
    """A fresh capture under a new generation (the refs generation, and ``hold``, stay actable) — or the
    whole screen the last step's effect check looked at a moment ago, with nothing done since
    (``Watch.handoff``)."""
    if (handed := state.watch.handoff) is not None:
        state.watch.handoff = None
        if handed[1] == state.journal.count and not handed[0].partial:
            return handed[0]
    state.generation += 1
    return await state.driver.capture(state.generation, _keep(state, hold))


async def view(state: StepState, spec: dict[str, Any], hold: int | None = None) -> Capture | None:
    """A targeted view under a new generation (design §13), or None where the driver cannot take one
    (then no generation is used up: the full capture that follows is numbered as it always was). The
    last step's effect check may have taken it already, with this spec among its links (``ahead``).
    ``hold``: a capture whose elements stay known (a step's own, while its effect is checked)."""
    watch = state.watch
    # what the last check looked at, with nothing done since: a view with this spec among its links, or
    # the whole screen (a superset of any view)
    if (handed := watch.handoff) is not None and (handed[2] == spec or not handed[0].partial):
        watch.handoff = None
        if handed[1] == state.journal.count:
            return handed[0]
    if not isinstance(state.driver, Views):
        return None
    taken = await state.driver.view(state.generation + 1, _keep(state, hold), spec)
    if taken is not None:
        state.generation += 1
        taken.partial = True
    return taken


def journal(
    state: StepState,
    step: Step,
    *,
    record: bool,
    line: str | None,
    element: bool = False,
    **fields: Any,
) -> JournalEntry:
    """Append the step's journal entry (flushed before the response is sent) and return it.

    ``line`` None means the step's own line, unless it is an ``element`` step, whose missing line
    marks an action with no portable selector (R4).
    """
    entry = JournalEntry(
        seq=state.journal.next_seq(),
        command=step.action.command,
        provenance=step.provenance,
        record=record,
        line=line if (line is not None or element) else step.line(),
        **fields,
    )
    state.journal.append(entry)
    return entry


def brief(target: Target) -> str:
    """A short display of a target for messages."""
    if target.ref is not None:
        return target.ref
    assert target.selector is not None
    return format_selector(target.selector)


async def interrupt(driver: Driver) -> str:
    """Stop what keeps the app from answering, where the backend can; what it says of it."""
    return await driver.interrupt() if isinstance(driver, Interrupts) else "the app did not answer"
