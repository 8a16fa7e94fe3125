"""``replay heal``: run a flow armed, repair each divergence in bounded rounds, gate the result (design §8).

Each divergence is routed by its ``repairHint``: ``record-and-heal``, ``state-repair`` and
``caution`` get repair rounds (the built-in healer never acts on ``state-repair``); ``manual``
escalates unless an external agent is allowed to try it. Up to ``repair`` rounds per divergence
continue one agent conversation; all rounds share one deadline and one cost budget. After a round
the run resumes with ``--from``; a round that did nothing is a failed round. When the plan
completes, the healed script is published and replayed end to end in a fresh session: only then is
it healed (exit 5); otherwise it is left for review as rejected, or the heal escalates (exit 6).
"""

from __future__ import annotations

import contextlib
import os
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Any

from replay.client import Client
from replay.engine.hint import RepairHint
from replay.engine.report import Reported
from replay.errors import EXIT_ESCALATED, EXIT_HEALED_PENDING, EXIT_OK, DivergenceError, InvalidArgs, ReplayError
from replay.heal import agent as protocol
from replay.heal.audit import (
    DECOMPOSE,
    ESCALATE,
    MAX_NOTE_BYTES,
    PRUNE,
    RETRY,
    Audit,
    HealStatus,
    Outcome,
    Round,
    Strategy,
)
from replay.results import StepResult
from replay.script.redact import bounded, script_secrets, scrub
from replay.scrubbing import printable
from replay.session import gate
from replay.session.repair import default_target

BUILTIN = "builtin"


@dataclass
class HealOutcome:
    """How a heal ended: ``clean`` (no drift), ``healed`` (pending review), ``rejected`` or ``escalated``."""

    status: HealStatus
    exit_code: int
    session: str
    rounds: list[Round] = field(default_factory=list)
    healed: str | None = None
    report: str | None = None
    log: str | None = None
    reason: str | None = None
    phases: dict[str, float] = field(default_factory=dict)  # ms spent replaying, healing, resuming, gating

    def to_dict(self) -> dict[str, Any]:
        """The JSON result (CLI ``--json`` and the MCP tool)."""
        return {
            "status": self.status,
            "exitCode": self.exit_code,
            "session": self.session,
            "rounds": [r.line() for r in self.rounds],
            "healed": self.healed,
            "report": self.report,
            "log": self.log,
            "reason": self.reason,
            "phasesMs": {k: round(v, 1) for k, v in self.phases.items()},
        }


@dataclass
class HealOptions:
    """What ``replay heal`` was asked for."""

    agent: str = BUILTIN
    repair: int = 2
    deadline_s: float | None = None
    budget_usd: float | None = None
    allow_manual: bool = False
    values: dict[str, str] = field(default_factory=dict)
    out: str | None = None
    artifacts_dir: str | None = None
    timeout_ms: int | None = None
    backend: dict[str, Any] = field(default_factory=dict)  # the backends' options (e.g. serial: an Android device)
    trials: int = 3  # candidates the built-in healer may try in fresh sessions when its checks abstain (0: none)


@dataclass(frozen=True)
class Move:
    """What one repair round did: its strategy (audit), how, where the run resumes, the agent's turn, and
    the trials it took (how many, seconds)."""

    strategy: Strategy
    adjustment: str
    resume_from: int
    turn: protocol.Turn | None = None
    trials: tuple[int, float] = (0, 0.0)


class _Escalate(Exception):
    def __init__(self, reason: str) -> None:
        super().__init__(reason)
        self.reason = reason


class HealRun:
    """One heal of one flow, on its own named session of the daemon."""

    def __init__(
        self,
        path: str,
        options: HealOptions,
        *,
        home: str | None = None,
        cwd: str | None = None,
        say: Callable[[str], None] = lambda _: None,
    ) -> None:
        self.path = path
        self.options = options
        self.say = say
        self.session = f"heal-{secrets.token_hex(3)}"
        self.client = Client(self.session, home=home, cwd=cwd, backend=options.backend)
        self.cwd = cwd or os.getcwd()
        stem = os.path.splitext(os.path.basename(path))[0]
        artifacts = options.artifacts_dir or os.path.join(self.cwd, "replay-results", stem)
        self.audit = Audit(os.path.abspath(artifacts))
        self.ledger = protocol.Ledger(os.path.join(self.client.home, "heal-ledger.json"))
        self.started = time.monotonic()
        self.spent_usd = 0.0
        self.pruned = False
        self.phases: dict[str, float] = {}
        self.secrets = script_secrets(path, options.values)  # what no note may repeat
        self.final = os.path.abspath(options.out) if options.out else default_target(os.path.abspath(path))

    @contextlib.contextmanager
    def _timed(self, phase: str) -> Iterator[None]:
        t0 = time.monotonic()
        try:
            yield
        finally:
            self.phases[phase] = self.phases.get(phase, 0.0) + (time.monotonic() - t0) * 1000

    # the whole heal ------------------------------------------------------------------------

    def run(self) -> HealOutcome:
        """Run, repair, publish, gate; never raises for a divergence (that is this loop's input)."""
        save = gate.check_free(self.final)  # committed under the rejected name until the gate passes
        try:
            with self._timed("replay"):
                self.client.run(
                    self.path, save_script=save, values=self.options.values, timeout=self.options.timeout_ms
                )
        except DivergenceError as err:
            try:
                self._repair(Reported.from_dict(err.divergence))
            except _Escalate as esc:
                return self._escalate(esc.reason)
        else:
            self.client.close(discard=True)
            report = self.audit.report(
                flow=self.path, status=HealStatus.CLEAN, healed=None, acceptance="not needed: no drift"
            )
            return self._outcome(HealStatus.CLEAN, EXIT_OK, report)
        return self.publish_and_gate()

    def _repair(self, d: Reported) -> None:
        """Repair divergences until the plan completes (``_Escalate`` when it cannot)."""
        attempt = 0
        while True:
            attempt += 1
            hint, index = d.repair_hint, d.index
            if attempt > self.options.repair:
                raise _Escalate(f"step {index}: {self.options.repair} repair round(s) spent")
            self._route(hint, index)
            started = time.monotonic()
            move = self._round(d, attempt)
            strategy, adjustment, frm, turn = move.strategy, move.adjustment, move.resume_from, move.turn
            counted = move.trials
            try:
                with self._timed("resume"):
                    self.client.run(self.path, from_step=frm, plan_digest=d.plan_digest)
            except DivergenceError as err:
                next_one = Reported.from_dict(err.divergence)
                again = next_one.index == index
                outcome = Outcome.UNRESOLVED if again else Outcome.RESOLVED
                self._record(d, attempt, strategy, adjustment, outcome, started, turn, trials=counted)
                attempt = attempt if again else 0
                d = next_one
                continue
            except InvalidArgs as err:  # a blind resume: the round did nothing
                self._record(
                    d,
                    attempt,
                    strategy,
                    f"{adjustment} (nothing was done: {err.message})",
                    Outcome.UNRESOLVED,
                    started,
                    turn,
                )
                continue
            except ReplayError as err:  # not a divergence: an assertion failed, the browser died …
                self._record(d, attempt, strategy, adjustment, Outcome.FAILED, started, turn)
                raise _Escalate(f"step {index}: after the repair the run failed: {err}") from None
            self._record(d, attempt, strategy, adjustment, Outcome.RESOLVED, started, turn, trials=counted)
            return

    def _route(self, hint: RepairHint, index: int) -> None:
        external = self.options.agent != BUILTIN
        if hint == RepairHint.MANUAL and not (external and self.options.allow_manual):
            raise _Escalate(f"step {index}: repairHint manual — a person must look")
        if hint == RepairHint.STATE_REPAIR and not external:
            raise _Escalate(f"step {index}: state-repair — the built-in healer never changes the app's state")
        if self.options.deadline_s is not None and time.monotonic() - self.started >= self.options.deadline_s:
            raise _Escalate(f"step {index}: the deadline of {self.options.deadline_s} s is spent")
        if self.options.budget_usd is not None and self.spent_usd >= self.options.budget_usd:
            raise _Escalate(f"step {index}: the budget of ${self.options.budget_usd} is spent")

    # one round -----------------------------------------------------------------------------

    def _round(self, d: Reported, k: int) -> Move:
        """Let the healer or the agent act; what it did and where the run resumes."""
        hint = d.repair_hint
        if self.options.agent == BUILTIN:
            try:
                with self._timed("healer"):
                    acted = self.client.heal_builtin(trial=self._triable(d))
            except ReplayError as err:  # it acted, and the step failed (a disabled button): not a heal
                acted = StepResult(acted=False, reason=f"performing the step failed: {err.message}")
            label = f"{self._label(d, k)}: built-in healer"
            if not acted.acted:
                return self._by_trial(d, k, acted.reason, acted.pick)
            self.say(f"{label} performed the step on {acted.target} ({acted.reason})")
            skip = d.alternate_from if d.alternate_from is not None else d.resume_from
            frm = d.resume_from if hint == RepairHint.RECORD_AND_HEAL else skip
            how = ", effect-confirmed" if acted.confirmed else ""  # (heal-report.md says it, design §8)
            return Move(DECOMPOSE, f"performed on {acted.target} (score {acted.score}{how})", frm)
        before = self._recorded()
        turn = self._agent_turn(d, k)
        if turn.cost_unknown:  # what it spent is unknown: counted as the whole budget, no further start
            why = f"the agent {turn.transport}: what it spent is unknown, counted as the whole budget"
            self._record(d, k, ESCALATE, why, Outcome.ESCALATED, time.monotonic(), turn)
            raise _Escalate(f"step {d.index}: {why}")
        if turn.transport is not None:  # its retries spent: another round would only start it again
            tries = 1 + protocol.TRANSPORT_RETRIES
            self._record(d, k, ESCALATE, f"the agent {turn.transport}", Outcome.ESCALATED, time.monotonic(), turn)
            raise _Escalate(f"step {d.index}: the agent {turn.transport} ({tries} tries)")
        if turn.status == "prune" and d.alternate_from:
            self.pruned = True
            return Move(PRUNE, "; ".join(turn.notes) or "skipped", d.alternate_from, turn)
        strategy = RETRY if hint == RepairHint.STATE_REPAIR else DECOMPOSE
        frm = d.resume_from
        if hint == RepairHint.CAUTION and d.alternate_from is not None and self._recorded() > before:
            frm = d.alternate_from  # it performed the step (recorded): running it again would undo it
        return Move(strategy, "; ".join(turn.notes) or f"agent {turn.status}", frm, turn)

    def _by_trial(self, d: Reported, k: int, abstained: str, pick: str | None = None) -> Move:
        """The built-in's checks abstained: let the app decide among the candidates (design §8), or escalate;
        ``pick``: the one it chose on its score and left to a trial (named otherwise than the recorded)."""
        from replay.heal import trial

        why = f"abstained: {abstained}"
        tried = None
        if self._triable(d):
            with self._timed("trials"):
                tried = trial.run_trials(
                    self.path,
                    d,
                    self.options.trials,
                    home=self.client.home,
                    cwd=self.cwd,
                    values=self.options.values,
                    timeout_ms=self.options.timeout_ms,
                    backend=self.options.backend,
                    say=self.say,
                    until=None if self.options.deadline_s is None else self.started + self.options.deadline_s,
                    only=pick,
                )
            why += f"; {tried.summary()}"
        winner = tried.winner if tried is not None else None
        counted = (len(tried.tried), round(tried.seconds, 1)) if tried is not None else (0, 0.0)
        if tried is None or winner is None:
            self._record(d, k, ESCALATE, why, Outcome.ABSTAINED, time.monotonic(), None, trials=counted)
            raise _Escalate(f"step {d.index}: the built-in healer abstained ({why.removeprefix('abstained: ')})")
        verb = str(d.json["action"]).split()[0]
        try:
            self.client.command(
                verb, str(winner["ref"]), *trial.step_args(self.path, d.index), values=self.options.values
            )
        except ReplayError as err:  # it passed its trial, and failed here: not a heal
            self._record(
                d, k, ESCALATE, f"{why}; performing it failed: {err.message}", Outcome.FAILED, time.monotonic(), None
            )
            raise _Escalate(f"step {d.index}: the trial's winner could not be performed ({err.message})") from None
        return Move(DECOMPOSE, f"{tried.summary()}; performed on {winner['ref']}", d.resume_from, trials=counted)

    def _triable(self, d: Reported) -> bool:
        """Whether a trial may decide step ``d.index`` (trials on, a record-and-heal step that can be proven)."""
        from replay.heal import trial

        return (
            bool(self.options.trials)
            and d.repair_hint == RepairHint.RECORD_AND_HEAL
            and trial.provable(self.path, d.index)
        )

    def _recorded(self) -> int:
        """How many script-bound actions the heal's session has recorded so far."""
        mine = [s for s in self.client.sessions() if s.name == self.client.session]
        return mine[0].recorded if mine else 0

    def _agent_turn(self, d: Reported, k: int) -> protocol.Turn:
        """One agent turn, its transport failures retried (they do not count as rounds)."""
        conversation, _ = self.ledger.get(self.session)
        remaining_s = (
            None if self.options.deadline_s is None else self.options.deadline_s - (time.monotonic() - self.started)
        )
        payload = protocol.request(
            d.json,
            session=self.session,
            resume=f"replay run {self.path} --session {self.session} --from {d.resume_from} "
            f"--plan-digest {d.plan_digest}",
            round_label=f"{k}/{self.options.repair}",
            budget_usd=None if self.options.budget_usd is None else self.options.budget_usd - self.spent_usd,
            deadline_s=remaining_s,
            conversation_id=conversation,
        )
        env = {**os.environ, "REPLAY_HOME": self.client.home}
        turn = protocol.Turn("failed")
        for attempt in range(1 + protocol.TRANSPORT_RETRIES):
            turn = protocol.run_turn(self.options.agent, payload, timeout_s=remaining_s, env=env)
            if turn.transport is None or turn.cost_unknown:  # (what it spent is unknown: never started again)
                break
            again = "; retrying" if attempt < protocol.TRANSPORT_RETRIES else ""
            self.say(f"{self._label(d, k)}: the agent {turn.transport}{again}")
        self.spent_usd += turn.cost_usd
        # the agent's words leave through heal.jsonl, the report and the console: scrubbed once, here
        turn.notes = [printable(bounded(scrub(n, self.secrets), MAX_NOTE_BYTES)) for n in turn.notes]
        if turn.conversation_id is not None:  # (kept in the ledger: scrubbed as the notes are)
            turn.conversation_id = printable(scrub(turn.conversation_id, self.secrets))
        if turn.transport is None:
            self.ledger.record(self.session, turn.conversation_id)
            self.say(f"{self._label(d, k)}: agent {turn.status}" + (f" — {turn.notes[0]}" if turn.notes else ""))
        return turn

    def _label(self, d: Reported, k: int) -> str:
        return f"{os.path.basename(self.path)}[step {d.index}] repair {k}/{self.options.repair}"

    def _record(
        self,
        d: Reported,
        k: int,
        strategy: Strategy,
        adjustment: str,
        outcome: Outcome,
        started: float,
        turn: protocol.Turn | None,
        *,
        trials: tuple[int, float] = (0, 0.0),
    ) -> None:
        r = Round(
            label=self._label(d, k),
            round=k,
            of=self.options.repair,
            strategy=strategy,
            repairHint=d.repair_hint,
            kind=d.kind,
            step=d.index,
            cause=d.cause,
            adjustment=adjustment,
            outcome=outcome,
            cost_usd=turn.cost_usd if turn else 0.0,
            duration_ms=(time.monotonic() - started) * 1000,
            notes=list(turn.notes) if turn else [],
            trials=trials[0],
            trial_s=trials[1],
        )
        self.audit.add(r)
        self.say(f"{r.label}: {r.strategy} — {outcome}")

    # endings -------------------------------------------------------------------------------

    def _escalate(self, reason: str) -> HealOutcome:
        self.say(f"escalated: {reason}")
        try:
            self.client.close()  # an incomplete repair publishes nothing (never a prefix)
        except ReplayError:
            pass
        report = self.audit.report(
            flow=self.path, status=HealStatus.ESCALATED, healed=None, acceptance=f"not run: {reason}"
        )
        return HealOutcome(
            HealStatus.ESCALATED,
            EXIT_ESCALATED,
            self.session,
            self.audit.rounds,
            None,
            report,
            self.audit.log,
            reason,
            self.phases,
        )

    def publish_and_gate(self) -> HealOutcome:
        """Commit the healed script as a staged, unverified copy, replay it in a fresh session (the
        acceptance gate), and only then give it the healed name; else it stays rejected, saying why."""
        staged = self.client.close().healed or ""
        fresh = Client(home=self.client.home, cwd=self.cwd, fresh=True, backend=self.options.backend)
        text = gate.read(staged)  # read once: what passes is published, byte for byte
        try:
            with self._timed("acceptance"):
                result = fresh.run(staged, values=self.options.values, timeout=self.options.timeout_ms)
            acceptance, passed = f"passed: replayed {result['ran']} steps in a fresh session", True
            if not gate.replayed(text, staged, result.plan_digest):
                acceptance, passed = gate.CHANGED, False
            elif (lost := gate.effects_verdict(self.path, staged)) is not None:
                acceptance, passed = lost, False  # it replays, but a healed step does something else (design §15)
        except DivergenceError as err:
            d = err.divergence
            acceptance, passed = gate.failed(d), False
        except ReplayError as err:  # the daemon died, the browser would not start: not gated is not healed
            acceptance, passed = gate.not_run(f"{err.code}: {err.message}"), False
        if self.pruned:
            acceptance += " — but a step was skipped (PRUNE), so the heal does not pass"
        status = HealStatus.HEALED if passed and not self.pruned else HealStatus.REJECTED
        healed = staged
        if status == HealStatus.HEALED:
            try:
                healed = gate.promote(staged, self.final, self.client.home, text)
            except ReplayError as err:  # the healed name was taken meanwhile: never written over
                acceptance, status = f"passed, but not published: {err.message}", HealStatus.REJECTED
        if status == HealStatus.REJECTED:
            healed = gate.reject(staged, acceptance, text)
        report = self.audit.report(flow=self.path, status=status, healed=healed, acceptance=acceptance)
        exit_code = EXIT_HEALED_PENDING if status == HealStatus.HEALED else EXIT_ESCALATED
        return self._outcome(
            status, exit_code, report, healed=healed, reason=None if status == HealStatus.HEALED else acceptance
        )

    def _outcome(
        self, status: HealStatus, exit_code: int, report: str, *, healed: str | None = None, reason: str | None = None
    ) -> HealOutcome:
        return HealOutcome(
            status, exit_code, self.session, self.audit.rounds, healed, report, self.audit.log, reason, self.phases
        )
