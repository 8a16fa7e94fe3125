"""A divergence as its clients read it back: typed (``Reported``), and as the compact human report
(the CLI and MCP text projection).

Light on purpose: it reads the divergence JSON and imports neither lxml nor Playwright, so the
CLI client path (and the pytest plugin's start) stays fast.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from replay.engine.hint import RepairHint
from replay.tree.verdict import DivergenceKind


@dataclass(frozen=True, kw_only=True)
class Reported:
    """A divergence read back from its JSON (design §6): what the healer's loop and a suite decide on,
    typed; ``json`` is the object itself, for what shows or forwards it (a report, an agent)."""

    kind: DivergenceKind
    index: int  # the step
    cause: str
    repair_hint: RepairHint
    resume_from: int
    alternate_from: int | None  # skipping the step (caution, manual)
    plan_digest: str
    session: str  # the session it stopped in ("" when it names none)
    effect: tuple[str, str] | None  # a step that acted and did not do what it did: (expected, observed) — design §15
    json: dict[str, Any]

    @classmethod
    def from_dict(cls, d: dict[str, Any]) -> Reported:
        """The divergence of a ``DivergenceError`` (``err.divergence``) or of a stored report."""
        resume = d["resume"]
        skip = resume.get("alternateFrom")
        effect = d.get("effect")
        return cls(
            kind=DivergenceKind(d["kind"]),
            index=int(d["step"]["index"]),
            cause=str(d.get("cause") or ""),
            repair_hint=RepairHint(d["repairHint"]),
            resume_from=int(resume["from"]),
            alternate_from=int(skip) if skip is not None else None,
            plan_digest=str(resume["planDigest"]),
            session=str(d.get("session") or ""),
            effect=(str(effect.get("expected")), str(effect.get("observed"))) if isinstance(effect, dict) else None,
            json=d,
        )


NEXT_MIN_SCORE = 0.7  # below it, the report proposes no element to act on
HINT_ADVICE: dict[str, str] = {
    RepairHint.RECORD_AND_HEAL: (
        "perform this step yourself in the session (suggestions are ranked), then resume after it"
    ),
    RepairHint.STATE_REPAIR: (
        "the recorded screen, or the row or card the step acts in, is not showing: bring the app back to it "
        "(--no-record), then resume here"
    ),
    RepairHint.CAUTION: "an element matches but it is not the recorded one: check it before acting; then resume",
    RepairHint.MANUAL: "a person must look: the evidence cannot decide what to do",
}


def render_text(d: dict[str, Any], command: str, *, closed: str | None = None) -> str:
    """The compact human report of a divergence JSON (CLI text projection).

    ``closed`` is for a session that no longer exists (a suite's): what to do instead of the
    ``next``/``resume`` lines, which would name a session that is gone.
    """
    step = d["step"]
    lines = [
        f"DIVERGENCE {d['kind']} at step {step['index']} ({step['source']['path']}:{step['source']['line']})",
        f"  action: {d['action']}",
        f"  cause:  {d['cause']}",
        f"  hint:   {d['repairHint']} — {HINT_ADVICE[d['repairHint']]}",
    ]
    for m in d.get("targetBinding", {}).get("mismatches") or []:
        lines.append(f"          {m}")
    resume = d["resume"]
    session = d.get("session")
    sess = f" --session {session}" if session else ""
    suggestions = d.get("suggestions") or []
    verb = d["action"].split()[0]
    if closed is not None:
        lines.append(f"  next:   {closed}")
    elif d["repairHint"] == RepairHint.RECORD_AND_HEAL and suggestions and "covered" in suggestions[0].get("flags", ()):
        lines.append(
            f"  next:   {suggestions[0]['ref']}, the best suggestion, is covered by another element (a dialog or an "
            f"overlay): deal with that first (replay snapshot -i{sess}), then do the step"
        )
    elif d["repairHint"] == RepairHint.RECORD_AND_HEAL and suggestions and suggestions[0]["score"] >= NEXT_MIN_SCORE:
        arg = " <text>" if verb in ("fill", "select") else ""
        lines.append(
            f"  next:   replay {verb} {suggestions[0]['ref']}{arg}{sess}   # do the step on the best suggestion, then"
        )
    elif d["repairHint"] == RepairHint.RECORD_AND_HEAL:
        best = f" (the best scores {suggestions[0]['score']})" if suggestions else ""
        lines.append(
            f"  next:   no element on screen is close to the recorded one{best}: look first (replay snapshot -i{sess})"
        )
    if closed is None:
        lines.append(f"  resume: {command} --from {resume['from']} --plan-digest {resume['planDigest']}")
        if resume.get("alternateFrom"):
            lines.append(f"          (or --from {resume['alternateFrom']} to skip this step)")
    if suggestions:
        lines.append("  suggestions:")
        for sug in suggestions[:3]:
            name = json.dumps(sug.get("label") or sug.get("text") or "", ensure_ascii=False)
            lines.append(f"    {sug['ref']} {sug['role']} {name}  score {sug['score']} ({sug['basis']})")
    elif "suggestionCount" in d:
        lines.append(f"  suggestions: {d['suggestionCount']} (use --level default to list them)")
    screen = d["screen"]
    if screen["state"] == "available":
        when = " at the divergence, session closed since" if closed is not None else ""
        lines.append(f"  screen (refs generation {screen['refsGeneration']}{when}):")
        for ref in screen["refs"][:8]:
            text = f"    {ref['ref']} {ref['role']}"
            if ref.get("label") or ref.get("text"):
                text += " " + json.dumps(ref.get("label") or ref.get("text"), ensure_ascii=False)
            lines.append(text)
        if closed is not None and (screen.get("truncated") or len(screen["refs"]) > 8):
            lines.append(f"    … ({len(screen['refs'])} refs in all)")
        elif screen.get("truncated") or len(screen["refs"]) > 8:
            lines.append("    … (replay snapshot -i" + sess + " for the whole screen)")
    else:
        lines.append(f"  screen: unavailable — {screen['reason']}")
    if d.get("overflow"):
        lines.append(f"  full report: {d['overflow']}")
    return "\n".join(lines)
