"""The acceptance gate's files (design §8, issue 32 §6): a healed script counts as healed only once it
has replayed end to end in a fresh session, so nothing unverified ever carries the verified name.

A repair that is to be gated is committed as ``<stem>.rejected.ad`` whose first line says it is not
verified; the gate replays that staged copy. Only when it passes is the script (without that line)
linked, whole and exclusively, to ``<stem>.healed.ad`` and the staged copy removed. When it fails,
or never ran (the daemon died, the client was killed), the staged copy stays under the rejected name
and its first line says why. One home for the rule: ``replay heal`` (CLI, MCP, the suite) and
``replay close --verify`` both go through it.
"""

from __future__ import annotations

import contextlib
import os
import tempfile
from collections.abc import Awaitable, Callable
from typing import Any

from replay.errors import ReplayError
from replay.files import private_mode, refuse_existing
from replay.session.publish import publish_exclusive

HEALED_SUFFIX = ".healed.ad"
STAGED_SUFFIX = ".rejected.ad"
NOT_VERIFIED = "# replay heal: NOT VERIFIED: its acceptance replay in a fresh session has not passed"
REJECTED = "# replay heal: REJECTED: "
_HINT = "review or remove the earlier heal's files first (nothing was written over them)"


def staged_target(final: str) -> str:
    """Where a gated heal bound for ``final`` is committed and kept until it passes."""
    stem = final[: -len(HEALED_SUFFIX)] if final.endswith(HEALED_SUFFIX) else os.path.splitext(final)[0]
    return stem + STAGED_SUFFIX


def is_staged(target: str) -> bool:
    """Whether a repair's target is a gate's staged copy (its text then starts ``NOT_VERIFIED``)."""
    return target.endswith(STAGED_SUFFIX)


def check_free(final: str) -> str:
    """The staged path for ``final``; ``TARGET_EXISTS`` when either is taken (before any run)."""
    staged = staged_target(os.path.abspath(final))
    refuse_existing(os.path.abspath(final), hint=_HINT)
    refuse_existing(staged, hint=_HINT)
    return staged


def staged_text(text: str) -> str:
    """A healed script as committed for the gate: said to be unverified on its first line."""
    return f"{NOT_VERIFIED}\n{text}"


def read(staged: str) -> str:
    """The staged copy's text, read once before its acceptance replay: what is published is this."""
    with open(staged, encoding="utf-8") as fh:
        return fh.read()


def replayed(text: str, staged: str, plan_digest: str | None) -> bool:
    """Whether ``text`` (read before the replay) is what the acceptance replay ran: its plan's digest,
    as the run computed it from the file at ``staged``, is ``text``'s. Someone who changed the file in
    the meantime (an agent's child that outlived its turn) is caught here, not published."""
    return plan_digest is not None and digest(text, staged) == plan_digest


def digest(text: str, path: str) -> str | None:
    """The plan digest a run computes for ``text`` read from ``path`` (None: it does not parse)."""
    from dataclasses import replace

    from replay.script.parser import parse
    from replay.script.plan import build_plan

    try:
        return build_plan(replace(parse(text, path), source=os.path.realpath(path)), None).digest
    except ReplayError:
        return None


CHANGED = "FAILED: the staged script changed while its acceptance replay ran: what ran is not what would be published"


def promote(staged: str, final: str, home: str | None = None, text: str | None = None) -> str:
    """The gate passed: the script (``text``, read before the replay; else read now), without its first
    line, linked to ``final``; the staged copy gone."""
    if text is None:
        text = read(staged)
    first, _, rest = text.partition("\n")
    path = publish_exclusive(final, rest if first == NOT_VERIFIED else text, home, hint=_HINT)
    with contextlib.suppress(FileNotFoundError):
        os.unlink(staged)
    return path


def reject(staged: str, why: str, text: str | None = None) -> str:
    """The gate failed or did not run: the staged copy (``text``, read before the replay, when given)
    stays, its first line saying why."""
    if text is None:
        text = read(staged)
    first, _, rest = text.partition("\n")
    body = rest if first == NOT_VERIFIED or first.startswith(REJECTED) else text
    reason = " ".join(why.split())
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(staged)}.", suffix=".tmp", dir=os.path.dirname(staged))
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(f"{REJECTED}{reason}\n{body}")
        os.chmod(tmp, private_mode())
        os.replace(tmp, staged)  # our own file, made by this heal moments ago
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return staged


async def judge(
    staged: str,
    final: str,
    home: str,
    replay: Callable[[str], Awaitable[dict[str, Any]]],
    original: str | None = None,
) -> dict[str, Any]:
    """``replay`` the staged copy in a fresh session (``{"passed", "divergence"|"steps"}``), then
    promote it or reject it: ``{"verify": …, "healed": path}`` or ``{"verify": …, "rejected": path}``.
    A healed step must still do what the ``original``'s step did (design §15): one that does something
    else, or nothing, is rejected however cleanly it replays."""
    text = read(staged)  # read once: what passes is published, byte for byte
    try:
        check = await replay(staged)
    except ReplayError as err:  # not gated is not healed: it stays rejected, saying why
        check = {"passed": False, "error": err.to_dict()}
    if check["passed"] and not replayed(text, staged, check.get("planDigest")):
        return {"verify": {**check, "passed": False}, "rejected": reject(staged, CHANGED, text)}
    notes = effect_notes(original, staged) if check["passed"] else []
    lost = [line for line, held in notes if not held]
    lost += identity_lost(original, staged) if check["passed"] and original is not None else []
    if check["passed"] and not lost:
        deferred = [line for line, _ in notes if "effect deferred" in line]
        check = {**check, "effects": deferred} if deferred else check
        return {"verify": check, "healed": promote(staged, final, home, text)}
    if lost:
        check = {**check, "passed": False, "effects": lost}
        return {"verify": check, "rejected": reject(staged, f"FAILED: {'; '.join(lost)}", text)}
    d = check.get("divergence")
    why = failed(d) if d is not None else not_run(f"{check['error']['code']}: {check['error']['message']}")
    return {"verify": check, "rejected": reject(staged, why)}


def effect_notes(original: str | None, healed: str) -> list[tuple[str, bool]]:
    """Each step a heal replaced whose effect is not the original's (design §8, §15), described with what
    the proof says of it — ``(line, kept)``: "… (effect deferred by 1 step)", "… (none of what it did)".
    Drift forms count, a dismissal alone proves nothing, a state fix right after may defer it."""
    from replay.script.effect import changes
    from replay.script.loader import load
    from replay.tree.proof import kept

    if original is None:
        return []
    try:
        before, after = load(original), load(healed)
    except ReplayError:
        return []  # an original that no longer loads has no effects to keep
    return [(c.describe() + kept(c).note(), kept(c).kept) for c in changes(before, after)]


def effects_lost(original: str | None, healed: str) -> list[str]:
    """The healed script's replaced steps that no longer do what their original step did: whoever healed."""
    return [line for line, held in effect_notes(original, healed) if not held]


def effects_verdict(original: str, staged: str) -> str | None:
    """Why a heal whose acceptance replay passed is still rejected (design §8): a healed step that does not
    do what its original did, or acts on an element named against the recorded one with nothing else of
    its identity (None: every healed step is proven)."""
    lost = effects_lost(original, staged) + identity_lost(original, staged)
    return f"FAILED: {'; '.join(lost)}" if lost else None


def identity_lost(original: str, healed: str) -> list[str]:
    """The healed steps named against their original with nothing else of its identity (``tree.proof``)."""
    from replay.script.loader import load
    from replay.tree import proof

    try:
        return proof.identity_lost(load(original), load(healed))
    except ReplayError:
        return []


def failed(divergence: dict[str, Any]) -> str:
    """Why a heal is rejected whose acceptance replay diverged."""
    return f"FAILED: {divergence['kind']} at step {divergence['step']['index']} in a fresh session"


def not_run(why: str) -> str:
    """Why a heal is rejected whose acceptance replay did not complete (the daemon died, …)."""
    return f"not run: the acceptance replay did not complete ({why})"
