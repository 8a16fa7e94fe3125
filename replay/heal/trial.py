"""Heal by trial (design §8): when the built-in healer's checks abstain on a ``record-and-heal`` step that can
be proven — it recorded an effect, or steps after it verify elements or assert text — the app decides.

Up to K ranked candidates (the divergence's suggestions that are shown, enabled, uncovered, of the
recorded role's family or moved within the actionable or editable family, and not singled out by their
place alone) are each tried **in a fresh session**: the flow replayed verified up to the step, the step's
verb performed on the candidate, the rest of the flow replayed to its end with every verification and
effect, and the script that run would publish put to the gate's proof (``gate.effects_verdict``: the
step did what the original did, under a name that does not contradict it). The heal goes on only when
exactly one candidate passes; two that pass escalate naming both, none escalates with what each did.
Another step that drifted too is performed in the trial by the built-in on its own checks (``_drive``).
Trials publish nothing.

A trial also **proves a pick**: when the built-in's checks chose a candidate named otherwise than the
recorded element ("Expand all fields" for "Collapse all fields"), on a step with a recorded effect, only
that candidate is tried, and the built-in acts on it in the heal's session only if it passes
(``heal_choice.decide``'s ``trial``): a rename and another control look alike to a ranking.
"""

from __future__ import annotations

import os
import secrets
import shutil
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from replay.client import Client
from replay.engine.heal_choice import positional
from replay.engine.hint import RepairHint
from replay.engine.report import Reported
from replay.errors import DivergenceError, ReplayError
from replay.platforms import WEB
from replay.script.ast import Action, Target
from replay.script.loader import load
from replay.session import gate
from replay.tree.roles import ACTIONABLE_FAMILY, EDITABLE_FAMILY, kin_roles
from replay.tree.suggest import another_control, look_alike_words

# what a candidate named against the recorded element must still share with it: its id or class, its row, its place
KEPT = frozenset({"id", "anchor", "place"})
REFUSED = ("covered", "hidden", "disabled")  # flags of a suggestion a person could not act on either


@dataclass(frozen=True)
class Tried:
    """One candidate's trial: the suggestion (as the heal's own divergence showed it) and what happened."""

    candidate: dict[str, Any]
    passed: bool
    said: str

    def name(self) -> str:
        """``link "Next"``."""
        c = self.candidate
        said = c.get("label") or c.get("text") or ""
        return f'{c.get("role")} "{said}"' if said else str(c.get("role"))


@dataclass
class Trial:
    """Every candidate tried for one divergence, and how long it took."""

    tried: list[Tried] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def winner(self) -> dict[str, Any] | None:
        """The one candidate that passed (None: none did, or more than one)."""
        passed = [t for t in self.tried if t.passed]
        return passed[0].candidate if len(passed) == 1 else None

    def summary(self) -> str:
        """``tried 3 candidate(s) in fresh sessions (12.4 s): link "2" did what the step did; …``."""
        head = f"tried {len(self.tried)} candidate(s) in fresh sessions ({self.seconds:.1f} s)"
        parts = [f"{t.name()} {'did what the step did' if t.passed else t.said}" for t in self.tried]
        passed = [t for t in self.tried if t.passed]
        if len(passed) > 1:
            head += ": more than one passed, a person decides"
        return head + (": " + "; ".join(parts) if parts else ": none could be tried")


def provable(path: str, index: int) -> bool:
    """Whether step ``index`` of ``path`` can be proven by a trial: it recorded an effect, or a later
    step verifies an element or asserts text — and it was not told from look-alikes by its place alone
    (a look-alike does what it did: nothing a trial sees tells them apart). Only on the web: a device is
    one, and a "fresh" session on it would change the heal's own screen."""
    script = load(path)
    actions = script.actions
    step = actions[index - 1]
    if positional(step) or script.platform != WEB:
        return False
    if step.annotation is not None and step.annotation.effect:
        return True
    later = actions[index:]
    return any((a.annotation is not None and a.annotation.verified) or a.command in ("is", "wait") for a in later)


def candidates(d: Reported, path: str, k: int, only: str | None = None) -> list[dict[str, Any]]:
    """The first ``k`` suggestions a trial may act on (see the module's docstring); with ``only`` (a ref),
    that one alone, if it may be."""
    ev = load(path).actions[d.index - 1].annotation
    role = ev.role if ev is not None else None
    out = []
    suggested = d.json.get("suggestions") or []
    for s in suggested:
        found = str(s.get("role") or "")
        if any(f in (s.get("flags") or ()) for f in REFUSED) or s.get("basis") in (None, "position"):
            continue
        said = (s.get("label"), s.get("text"))
        others = [(o.get("label"), o.get("text")) for o in suggested if o is not s and o.get("role") == found]
        kept = bool(set(str(s["basis"]).split("+")) & KEPT)
        if ev is not None and another_control(ev.label, said, kept=kept, common=look_alike_words(said, others)):
            continue  # no telling word of the recorded name, and stands elsewhere: another control (× for "Keep it")
        moved = {role, found} <= ACTIONABLE_FAMILY | {"generic"} or {role, found} <= EDITABLE_FAMILY
        if (kin_roles(role, found) or moved) and only in (None, s.get("ref")):
            out.append(s)
    return out[:k]


def _same(a: dict[str, Any], b: dict[str, Any]) -> bool:
    return all(a.get(key) == b.get(key) for key in ("role", "label", "text", "id"))


def step_args(path: str, index: int) -> list[str]:
    """The step's arguments after its target, as written (a fill's text, a select's value)."""
    action: Action = load(path).actions[index - 1]
    return [str(v) for _, v in action.params if not isinstance(v, Target)]


def run_trials(
    path: str,
    d: Reported,
    k: int,
    *,
    home: str,
    cwd: str,
    values: dict[str, str],
    timeout_ms: int | None,
    backend: dict[str, Any],
    say: Callable[[str], None] = lambda _: None,
    until: float | None = None,
    only: str | None = None,
) -> Trial:
    """Try each candidate of ``d`` (at most ``k``; ``only`` that one, by its ref) in a fresh session of its
    own; none is started once ``until`` (a ``time.monotonic()`` deadline: the heal's) has passed."""
    trial = Trial()
    started = time.monotonic()
    verb, args = str(d.json["action"]).split()[0], step_args(path, d.index)
    shown = [str(s.get("ref")) for s in d.json.get("suggestions") or []]
    for candidate in candidates(d, path, k, only):
        rank = shown.index(str(candidate.get("ref")))
        if until is not None and time.monotonic() >= until:
            trial.tried.append(Tried(candidate, False, "not tried: the deadline is spent"))
            continue
        client = Client(f"trial-{secrets.token_hex(3)}", home=home, cwd=cwd, backend=backend)
        work = tempfile.mkdtemp(prefix="replay-trial-")
        try:
            said = _try(
                client, path, d, rank, candidate, verb, args, os.path.join(work, "trial.ad"), values, timeout_ms
            )
        finally:
            try:
                client.close(discard=True)
            except ReplayError:
                pass  # (closed already: its script was written)
            shutil.rmtree(work, ignore_errors=True)
        tried = Tried(candidate, said is None, said or "")
        trial.tried.append(tried)
        say(f"trial {rank + 1}: {tried.name()} — {'passed' if tried.passed else tried.said}")
    trial.seconds = time.monotonic() - started
    return trial


def _try(
    client: Client,
    path: str,
    d: Reported,
    rank: int,
    candidate: dict[str, Any],
    verb: str,
    args: list[str],
    out: str,
    values: dict[str, str],
    timeout_ms: int | None,
) -> str | None:
    """One trial; None when the candidate passed, else what happened instead."""
    try:
        there = _drive(client, path, values, timeout_ms, save=out, until=d.index)
    except DivergenceError as err:
        return f"could not be tried: a fresh session stopped at step {err.divergence['step']['index']}"
    if there is None:
        return "could not be tried: the flow did not stop there in a fresh session"
    shown = (there.json.get("suggestions") or [])[rank : rank + 1]
    if not shown or not _same(shown[0], candidate):
        return "could not be tried: a fresh session showed other candidates"
    try:
        client.command(verb, str(shown[0]["ref"]), *args, values=values)
        _drive(client, path, values, timeout_ms, after=there)
    except DivergenceError as err:
        after = Reported.from_dict(err.divergence)
        return f"then {after.kind} at step {after.index}" + (f" ({after.cause})" if after.effect else "")
    except ReplayError as err:
        return f"failed: {err.message}"
    closed = client.close()
    written = closed.healed or out
    verdict = gate.effects_verdict(path, written) if os.path.exists(written) else "nothing was written"
    return None if verdict is None else verdict.removeprefix("FAILED: ")


LATER = 3  # other steps that drifted too, each healed in the trial by the built-in on its checks alone


def _drive(
    client: Client,
    path: str,
    values: dict[str, str],
    timeout_ms: int | None,
    *,
    save: str | None = None,
    after: Reported | None = None,
    until: int | None = None,
) -> Reported | None:
    """Replay the flow (from the start, or on ``after`` the tried step) to its end, or to the divergence at
    step ``until`` (returned). Another step that drifted too (an upgrade renames more than one thing) is
    performed by the built-in healer on its own checks, as the heal does in its other rounds — never by
    another trial, at most ``LATER`` times; the gate's proof then judges every healed step. Raises the
    divergence it could not get past."""
    at, frm = after, None if after is None else after.resume_from
    for healed in range(LATER + 1):
        try:
            if at is None:
                client.run(path, save_script=save, values=values, timeout=timeout_ms)
            else:
                client.run(path, from_step=frm, plan_digest=at.plan_digest, values=values, timeout=timeout_ms)
            return None
        except DivergenceError as err:
            other = Reported.from_dict(err.divergence)
            hint = other.repair_hint
            if other.index == until:
                return other
            again = after is not None and other.index <= after.index
            if healed == LATER or again or hint not in (RepairHint.RECORD_AND_HEAL, RepairHint.CAUTION):
                raise
            try:
                acted = client.heal_builtin()
            except ReplayError:
                raise err from None
            if not acted.acted:
                raise err from None
            skip = other.alternate_from if other.alternate_from is not None else other.resume_from
            at, frm = other, other.resume_from if hint == RepairHint.RECORD_AND_HEAL else skip
    return None  # (not reached: the last round returns or raises)
