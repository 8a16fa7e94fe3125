"""The divergence: one typed object, built in one place, projected to text, JSON, Python and MCP.

``Divergence.to_dict(level)`` is the canonical JSON; every surface prints or wraps exactly that.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field, replace
from typing import Any

from replay.engine import hint as hints
from replay.engine.hint import RepairHint
from replay.errors import DialogOpen, ReplayError
from replay.files import open_private
from replay.limits import LEVELS
from replay.script.ast import Action
from replay.script.evidence import TargetEvidence, encode
from replay.script.redact import action_text
from replay.script.text import fold
from replay.tree.model import Capture, Node
from replay.tree.place import stands_in_place
from replay.tree.suggest import MAX_SUGGESTIONS, rank
from replay.tree.verdict import DivergenceKind

VERSION = 1
MAX_FIELD_BYTES = 256
TRUNCATED = "…[truncated]"
# each of limits.LEVELS: (byte ceiling, max refs, max suggestions)
SIZES = dict(zip(LEVELS, ((8 * 1024, 8, 0), (24 * 1024, 12, 5), (64 * 1024, 20, 5)), strict=True))


def clip(text: str | None, limit: int = MAX_FIELD_BYTES) -> str | None:
    """A string cut to ``limit`` UTF-8 bytes, with a truncation marker."""
    if text is None:
        return None
    data = text.encode("utf-8")
    if len(data) <= limit:
        return text
    keep = limit - len(TRUNCATED.encode("utf-8"))
    return data[:keep].decode("utf-8", errors="ignore") + TRUNCATED


def node_view(node: Node) -> dict[str, Any]:
    """A node as reports show it: no values (typed text lives there)."""
    out: dict[str, Any] = {"ref": node.ref, "role": node.role}
    if node.label:
        out["label"] = clip(node.label)
    elif node.content:
        out["text"] = clip(node.content)
    if node.test_id:
        out["id"] = clip(node.test_id)
    flags = [
        f
        for f, on in (
            ("disabled", node.actionable and not node.enabled),
            ("covered", node.actionable and node.covered),
            ("hidden", not node.visible),
            ("checked", node.checked),
        )
        if on
    ]
    if flags:
        out["flags"] = flags
    return out


def screen_refs(capture: Capture) -> list[Node]:
    """Interactive and labeled nodes, those inside an open dialog first, then document order."""
    nodes = capture.labeled_or_actionable()
    dialogs = [n for n in capture.nodes[1:] if n.covers_page and n.visible]
    if not dialogs:
        return list(nodes)  # (the capture's own list is shared)
    covered = {int(n.get("i") or 0) for d in dialogs for n in (d, *d.iterdescendants())}
    return sorted(nodes, key=lambda n: (0 if n.position in covered else 1, n.position))


@dataclass
class Screen:
    """What the screen holds now, under a fresh refs generation — or why it cannot say."""

    available: bool
    refs_generation: int | None = None
    nodes: list[Node] = field(default_factory=list)  # ranked; rendered only up to the level's cap
    reason: str | None = None
    hint: str | None = None

    @property
    def refs(self) -> list[dict[str, Any]]:
        """Every ref (for the overflow file)."""
        return [node_view(n) for n in self.nodes]

    def to_dict(self, max_refs: int) -> dict[str, Any]:
        """The JSON of ``screen``."""
        if not self.available:
            return {"state": "unavailable", "reason": clip(self.reason), "hint": clip(self.hint)}
        return {
            "state": "available",
            "refsGeneration": self.refs_generation,
            "refs": [node_view(n) for n in self.nodes[:max_refs]],
            "truncated": len(self.nodes) > max_refs,
        }


@dataclass
class Divergence:
    """A structured stop before acting (or after a failed dispatch)."""

    kind: DivergenceKind
    index: int
    path: str
    line: int
    action: str
    cause: str
    repair_hint: RepairHint
    screen: Screen
    suggestions: list[dict[str, Any]]
    resume: Resume
    binding: dict[str, Any]
    session: str | None = None
    overflow: str | None = None
    effect: dict[str, str] | None = None  # a missing effect: what was expected, what was observed

    def to_dict(self, level: str = "default") -> dict[str, Any]:
        """The canonical JSON at ``level``, within its byte ceiling."""
        ceiling, max_refs, max_sugg = SIZES[level]
        out: dict[str, Any] = {
            "version": VERSION,
            "kind": self.kind,
            "step": {"index": self.index, "source": {"path": clip(self.path), "line": self.line}},
            "action": clip(self.action),
            "cause": clip(self.cause),
            "repairHint": self.repair_hint,
            "screen": self.screen.to_dict(max_refs),
        }
        if self.effect is not None:
            out["effect"] = {k: clip(v) for k, v in self.effect.items()}
        if level == "digest":
            out["suggestionCount"] = len(self.suggestions)
        else:
            out["suggestions"] = self.suggestions[:max_sugg]
        out["resume"] = self.resume.to_dict()
        binding = dict(self.binding)
        if level == "digest":
            binding = {k: binding[k] for k in ("classification", "matchCount") if k in binding}
        out["targetBinding"] = binding
        if self.session:
            out["session"] = self.session
        if self.overflow:
            out["overflow"] = self.overflow
        # stay under the ceiling: drop refs, then candidates, then recorded/observed detail
        while _size(out) > ceiling:
            screen = out["screen"]
            if screen.get("refs"):
                screen["refs"] = screen["refs"][: max(0, len(screen["refs"]) // 2)]
                screen["truncated"] = True
                continue
            tb = out["targetBinding"]
            if tb.get("candidates"):
                tb["candidates"] = []
                continue
            if tb.get("recorded") or tb.get("observed"):
                tb["recorded"] = tb["observed"] = None
                continue
            if out.get("suggestions"):
                out["suggestions"] = out["suggestions"][:-1]
                continue
            break  # pragma: no cover - the fixed fields alone are far below every ceiling
        return out

    def write_overflow(self, directory: str, level: str) -> None:
        """Write the full report when ``level`` cuts anything, and name it in ``overflow``."""
        _, max_refs, max_sugg = SIZES[level]
        cut = len(self.screen.nodes) > max_refs or len(self.suggestions) > max_sugg or level == "digest"
        if not cut:
            return
        os.makedirs(directory, mode=0o700, exist_ok=True)
        path = os.path.join(directory, f"divergence-step{self.index}.json")
        full = Divergence(**{**self.__dict__, "overflow": None}).to_dict("full")
        full["screen"]["refs"] = self.screen.refs if self.screen.available else []
        full["screen"]["truncated"] = False if self.screen.available else None
        with open_private(path) as fh:
            json.dump(full, fh, ensure_ascii=False, indent=2)
        self.overflow = path


def _size(obj: dict[str, Any]) -> int:
    return len(json.dumps(obj, ensure_ascii=False).encode("utf-8"))


def build_screen(capture: Capture | None, failure: str | None = None) -> Screen:
    """The ``screen`` of a divergence from its fresh capture (``None`` if capture failed)."""
    if capture is None:
        return Screen(False, reason=f"capture failed: {failure or 'unknown error'}", hint="take a snapshot to retry")
    if hints.is_sparse(capture):
        return Screen(
            False,
            reason=f"sparse screen: {hints.meaningful_nodes(capture)} meaningful node(s)",
            hint="the page may still be loading or failed to render; take a snapshot to look",
        )
    return Screen(True, capture.generation, screen_refs(capture))


def build_suggestions(capture: Capture | None, evidence: TargetEvidence | None) -> list[dict[str, Any]]:
    """Ranked suggestions (≤ 5) with score and basis."""
    if capture is None or evidence is None or hints.is_sparse(capture):
        return []
    out = []
    for s in rank(capture, evidence):
        entry = node_view(s.node)
        entry["score"] = s.score
        place = ("place",) if s.basis and stands_in_place(evidence, s.node) else ()  # where the recorded one stood
        entry["basis"] = "+".join((*s.basis, *place)) or "position"
        out.append(entry)
    return out


AWAITING = ("wait", "is")  # steps that wait for a state to show: page-aware repair hints (design §6)


def awaited_text(action: Action) -> str | None:
    """The text a ``wait text "…"`` or an ``is visible "…"`` waits for, else None."""
    if action.command == "wait" and action.form == "text":
        return str(action.param("text"))
    target = action.target if action.command == "is" else None
    if target is not None and target.selector is None and target.ref is None:
        return target.hint
    if target is not None and target.selector is not None and len(target.selector.alternatives) == 2:
        texts = {str(t.value) for alt in target.selector.alternatives for t in alt.terms if t.key in ("label", "text")}
        return texts.pop() if len(texts) == 1 else None  # a bare text: label="X" || text="X"
    return None


def holders(capture: Capture | None, text: str) -> list[dict[str, Any]]:
    """A wait's suggestions: the nodes that carry the awaited text (never another text to wait for)."""
    if capture is None or hints.is_sparse(capture):
        return []
    want = fold(text)
    found = [n for n in capture.nodes[1:] if want in fold(n.content) or want == fold(n.label)]
    innermost = [n for n in found if not any(c in found for c in n.iterdescendants())]
    return [{**node_view(n), "score": 1.0, "basis": "text"} for n in innermost[:MAX_SUGGESTIONS]]


def evidence_json(ev: TargetEvidence | None) -> dict[str, Any] | None:
    """The recorded evidence as JSON (its canonical payload), without its effect: that may quote what
    the flow typed, and a missing one is reported, redacted, as the divergence's ``effect``."""
    return json.loads(encode(replace(ev, effect=()))) if ev is not None else None


@dataclass
class Binding:
    """What the binding check found: the kind, why, and what the selector matched."""

    kind: DivergenceKind
    cause: str
    match_count: int | None = None
    observed: Node | None = None
    mismatches: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)
    effect: dict[str, str] | None = None  # a missing effect (design §15): {expected, observed}

    @classmethod
    def failed_dispatch(cls, exc: ReplayError, match_count: int | None = None) -> Binding:
        """An ``action-failure`` from a failed dispatch (the candidates of an ambiguous match kept)."""
        candidates = [str(c) for c in exc.details.get("candidates", [])] if exc.details else []
        return cls(DivergenceKind.ACTION_FAILURE, exc.message, match_count, candidates=candidates)


def build_divergence(
    binding: Binding,
    *,
    index: int,
    path: str,
    action: Action,
    capture: Capture | None,
    capture_error: str | None,
    evidence: TargetEvidence | None,
    plan_len: int,
    plan_digest: str,
    held: bool | None,
    session: str | None,
) -> Divergence:
    """The one builder: hint, resume, screen, suggestions and binding from the same full capture."""
    awaited = awaited_text(action)
    repair = hints.repair_hint(binding.kind, evidence, capture, awaited=action.command in AWAITING)
    if binding.effect is not None:  # verified and acted on: the app's behaviour changed, a person decides
        repair = RepairHint.MANUAL
    elif action.command != "alert" and capture_error is not None and capture_error.startswith(DialogOpen.code):
        repair = RepairHint.STATE_REPAIR  # a dialog the script does not answer stands in front: answer it first
    target_binding: dict[str, Any] = {
        "classification": binding.kind,
        "matchCount": binding.match_count,
        "recorded": evidence_json(evidence),
        "observed": node_view(binding.observed) if binding.observed is not None else None,
        "mismatches": [clip(m) or "" for m in binding.mismatches[:5]],
        "candidates": [clip(c) or "" for c in binding.candidates[:5]],
    }
    return Divergence(
        kind=binding.kind,
        index=index,
        path=path,
        line=action.line,
        action=action_text(action),
        cause=binding.cause,
        repair_hint=repair,
        screen=build_screen(capture, capture_error),
        suggestions=holders(capture, awaited) if awaited is not None else build_suggestions(capture, evidence),
        resume=resume_for(repair, index, plan_len, plan_digest, held=held),
        binding=target_binding,
        session=session,
        effect=binding.effect,
    )


@dataclass(frozen=True)
class Resume:
    """``resume``: where and how a run may continue on the same session (design §6)."""

    from_step: int
    plan_digest: str
    alternate_from: int | None = None  # skipping the step, for caution/manual only
    held: bool | None = None  # repairSessionHeld, for armed runs

    def to_dict(self) -> dict[str, Any]:
        """The JSON of ``resume``."""
        out: dict[str, Any] = {"allowed": True, "from": self.from_step, "planDigest": self.plan_digest}
        if self.alternate_from is not None:
            out["alternateFrom"] = self.alternate_from
        if self.held is not None:
            out["repairSessionHeld"] = self.held
        return out


def resume_for(kind_hint: RepairHint, index: int, plan_len: int, digest: str, *, held: bool | None) -> Resume:
    """From N+1 after record-and-heal (the agent performs the step), else N; N+1 as an alternate for caution/manual."""
    from_n = index + 1 if kind_hint == RepairHint.RECORD_AND_HEAL else index
    skippable = kind_hint in (RepairHint.CAUTION, RepairHint.MANUAL) and index + 1 <= plan_len + 1
    return Resume(from_n, digest, index + 1 if skippable else None, held)


__all__ = ["Binding", "Divergence", "Resume", "build_divergence", "resume_for"]
