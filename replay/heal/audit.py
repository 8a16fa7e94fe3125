"""The heal's audit trail: ``heal.jsonl`` (one line per round) and ``heal-report.md`` (for a reviewer).

Notes are redacted the way divergences are (typed text never appears), kept to three of at most
256 bytes each (the orchestrator scrubs and bounds them as they arrive).
"""

from __future__ import annotations

import difflib
import json
import os
from dataclasses import asdict, dataclass, field
from enum import StrEnum
from typing import Any

from replay.script.redact import script_excerpt
from replay.scrubbing import printable


class Strategy(StrEnum):
    """What a repair round tried (the audit's word for it)."""

    RETRY = "RETRY"  # bring the app back to the recorded state, then the same step again
    DECOMPOSE = "DECOMPOSE"  # perform the step on the element the healer or agent chose
    PRUNE = "PRUNE"  # skip the step (the heal then cannot pass its gate)
    ESCALATE = "ESCALATE"  # hand the divergence to a person


class Outcome(StrEnum):
    """How a repair round ended."""

    RESOLVED = "resolved"
    UNRESOLVED = "unresolved"
    ESCALATED = "escalated"
    ABSTAINED = "abstained"
    FAILED = "failed"  # the run failed after it (not a divergence): the heal escalates


class HealStatus(StrEnum):
    """How a heal ended: no drift, healed (pending review), rejected by its gate, or escalated."""

    CLEAN = "clean"
    HEALED = "healed"
    REJECTED = "rejected"
    ESCALATED = "escalated"


RETRY, DECOMPOSE, PRUNE, ESCALATE = Strategy
MAX_NOTES = 3
MAX_NOTE_BYTES = 256


@dataclass
class Round:
    """One repair round of one divergence."""

    label: str  # "checkout.ad[step 7] repair 1/2"
    round: int
    of: int
    strategy: Strategy
    repairHint: str  # noqa: N815 - the JSON key of the spec
    kind: str
    step: int
    cause: str
    adjustment: str
    outcome: Outcome
    cost_usd: float = 0.0
    duration_ms: float = 0.0
    notes: list[str] = field(default_factory=list)
    trials: int = 0  # candidates the built-in tried in fresh sessions (design §8 heal by trial)
    trial_s: float = 0.0  # and the seconds they took

    def line(self) -> dict[str, Any]:
        """The ``heal.jsonl`` object."""
        out = asdict(self)
        out["notes"] = self.notes[:MAX_NOTES]
        out["duration_ms"] = round(self.duration_ms, 1)
        return out

    def report_line(self) -> str:
        """The fixed human line: ``[Repair - RETRY] step 7: <root cause> → <adjustment> — resolved``."""
        done = Outcome.RESOLVED if self.outcome == Outcome.RESOLVED else Outcome.ESCALATED
        return f"[Repair - {self.strategy}] step {self.step}: {self.cause} → {self.adjustment} — {done}"


class Audit:
    """Writes the rounds as they happen and the report at the end, into one folder (created 0700)."""

    def __init__(self, directory: str) -> None:
        self.directory = directory
        os.makedirs(directory, mode=0o700, exist_ok=True)
        self.log = os.path.join(directory, "heal.jsonl")
        self.report_path = os.path.join(directory, "heal-report.md")
        self.rounds: list[Round] = []
        # this heal's log, there from the start (empty when it escalates before any round), never
        # an earlier heal's lines with this one's appended
        os.close(os.open(self.log, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600))

    def add(self, r: Round) -> None:
        """Append one round to ``heal.jsonl`` at once (a crash keeps what was done)."""
        self.rounds.append(r)
        fd = os.open(self.log, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            os.write(fd, (json.dumps(r.line(), ensure_ascii=False) + "\n").encode("utf-8"))
        finally:
            os.close(fd)

    def report(self, *, flow: str, status: str, healed: str | None, acceptance: str) -> str:
        """Write ``heal-report.md``: status, the fixed round lines, the healed script's diff, acceptance."""
        lines = [f"# Heal report: {os.path.basename(flow)}", "", f"Status: **{status}**", ""]
        none = "- none: no drift" if status == HealStatus.CLEAN else "- none: nothing was tried (see Acceptance)"
        lines += ["## Rounds", ""] + ([f"- {r.report_line()}" for r in self.rounds] or [none]) + [""]
        if healed and os.path.exists(healed):
            lines += ["## Healed script", "", "```diff", script_diff(flow, healed), "```", ""]
            changed = effect_changes(flow, healed)
            lines += ["## Effects", ""] + ([f"- {c}" for c in changed] or ["- every step does what it did"]) + [""]
        lines += ["## Acceptance", "", acceptance, ""]
        fd = os.open(self.report_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "w", encoding="utf-8") as fh:  # (a reviewer's terminal acts on no ESC or C1 in it)
            fh.write(printable("\n".join(lines)))
        return self.report_path


def effect_changes(flow: str, healed: str) -> list[str]:
    """The healed steps whose effect is not the original's (design §15), redacted: "effect changed", and
    whether the gate counts it kept ("effect deferred by N steps") or lost ("none of what it did")."""
    from replay.script.redact import script_secrets, scrub
    from replay.session.gate import effect_notes

    secrets = script_secrets(flow, {})
    return [scrub(line, secrets) for line, _ in effect_notes(flow, healed)]


def script_diff(flow: str, healed: str) -> str:
    """The unified diff a reviewer reads: the original script against its healed one, both redacted
    (a report never shows typed text, design §6)."""
    with open(flow, encoding="utf-8") as a, open(healed, encoding="utf-8") as b:
        before, after = script_excerpt(a.read()), script_excerpt(b.read())
    diff = difflib.unified_diff(
        before.splitlines(True), after.splitlines(True), os.path.basename(flow), os.path.basename(healed)
    )
    return "".join(diff).rstrip()
