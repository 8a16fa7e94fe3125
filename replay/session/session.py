"""A session: one browser context, its refs generations, its journal, and its recording."""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from replay.errors import (
    AmbiguousMatch,
    AssertionFailed,
    ElementNotFound,
    InvalidArgs,
    ReplayError,
    StaleRef,
)
from replay.script import evidence as ev_codec
from replay.script.ast import Action, Target
from replay.script.formatter import format_action
from replay.script.registry import PHASE_ACT, PHASE_READ, PHASE_WAIT, REGISTRY
from replay.script.resolve import resolve_action
from replay.script.selector import Alternative, Selector, Term, escape_templates, format_selector
from replay.session.journal import INTERACTIVE, PLAN, Journal, JournalEntry, written_to_script
from replay.session.publish import publish_exclusive
from replay.session.recorder import script_text
from replay.session.repair import COMPLETE, RepairTransaction, repair_path
from replay.tree import snapshot as snap
from replay.tree.identity import evidence_target, record_evidence, self_check
from replay.tree.match import Resolution, describe, fold, resolve
from replay.tree.materialize import materialize
from replay.tree.model import Capture, Node

DEFAULT_TIMEOUT_MS = 5000
POLL_MS = 100


@dataclass
class Recording:
    """Recording state: on, and where ``close`` writes the script."""

    path: str | None = None  # None: the default under $REPLAY_HOME/scripts
    start: int = 0  # journal length when recording started


@dataclass
class Session:
    """One named session and everything it holds."""

    name: str
    home: str
    driver: Any  # a Driver
    platform: str = "web"
    generation: int = 0
    refs_capture: Capture | None = None
    recording: Recording | None = None
    last_used: float = field(default_factory=time.monotonic)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    journal: Journal = field(init=False)
    _raw: Action | None = field(default=None, init=False, repr=False)
    last_divergence: Any = None  # replay.engine.resume.LastDivergence of the latest divergence
    ephemeral: bool = False  # created by `replay run` without --session
    run_values: dict[str, dict[str, str]] = field(default_factory=dict)  # -e/shell values of the last diverged run
    last_report: Any = None  # the replay.engine.divergence.Divergence of the latest divergence
    repair: RepairTransaction | None = None

    def __post_init__(self) -> None:
        self.journal = Journal(os.path.join(self.home, "sessions", self.name, "journal.ndjson"))

    # captures -----------------------------------------------------------------------------

    async def capture(self) -> Capture:
        """A fresh capture under a new generation."""
        self.generation += 1
        keep = self.refs_capture.generation if self.refs_capture is not None else None
        return await self.driver.capture(self.generation, keep)

    async def snapshot(self, action: Action) -> dict[str, Any]:
        """Capture and issue refs under a new refs generation."""
        capture = await self.capture()
        self.refs_capture = capture
        interactive = action.flag("-i") is True
        scope = action.flag("-s")
        scope_text = scope if isinstance(scope, str) else None
        return {
            "refsGeneration": capture.generation,
            "text": snap.render_text(capture, interactive=interactive, scope=scope_text),
            "snapshot": snap.render_json(capture, interactive=interactive, scope=scope_text),
        }

    # targets ------------------------------------------------------------------------------

    async def _ref_node(self, target: Target) -> tuple[Capture, Node]:
        assert target.ref is not None
        if self.refs_capture is None:
            raise StaleRef(
                f"{target.ref}: no snapshot has issued refs in this session", hint="run `replay snapshot -i` first"
            )
        index = int(target.ref[2:])
        capture = self.refs_capture
        if index <= 0 or index >= len(capture.nodes):
            raise StaleRef(
                f"{target.ref} is not in refs generation {capture.generation}",
                hint="take a new snapshot and use one of its refs",
            )
        node = capture.nodes[index]
        # no attachment round trip here: acting on a gone element raises STALE_REF in the driver
        if target.hint and fold(target.hint) not in (fold(node.label), fold(node.content)):
            raise StaleRef(
                f'{target.ref} is {describe(node)}, not "{target.hint}"',
                hint="take a new snapshot; refs never silently rebind",
            )
        return capture, node

    async def _selector_node(self, selector: Selector, timeout_ms: int) -> tuple[Capture, Node, Resolution]:
        deadline = time.monotonic() + timeout_ms / 1000
        while True:
            capture = await self.capture()
            resolution = resolve(capture, selector)
            if resolution.winner is not None:
                return capture, resolution.winner, resolution
            if resolution.kind == "ambiguous" or time.monotonic() >= deadline:
                # distinct targets do not become one by waiting: fail at once, like a strict locator
                break
            await asyncio.sleep(POLL_MS / 1000)
        if resolution.kind == "ambiguous":
            raise AmbiguousMatch(
                f"{format_selector(selector)} matches {resolution.match_count} nodes in distinct places",
                hint="make the selector specific (add a role, an ancestor's label via -s, or use a ref)",
                details={"resolution": resolution.to_dict(), "candidates": resolution.to_dict()["candidates"]},
            )
        raise ElementNotFound(
            f"no node matches {format_selector(selector)} (waited {timeout_ms} ms)",
            hint="take a snapshot (`replay snapshot -i`) to see what is on screen",
        )

    # actions ------------------------------------------------------------------------------

    async def execute(
        self,
        action: Action,
        *,
        provenance: str = INTERACTIVE,
        timeout_ms: int | None = None,
        values: Mapping[str, str] | None = None,
    ) -> dict[str, Any]:
        """Execute one action and journal it; returns the typed result.

        ``${VAR}`` references are resolved with ``values`` for dispatch only: the journal keeps the
        action as written, so a recorded line keeps its ``${VAR}`` tokens.
        """
        self.last_used = time.monotonic()
        self._raw = action
        action = resolve_action(action, values or {}, "<session>")
        timeout = timeout_ms or DEFAULT_TIMEOUT_MS
        spec = REGISTRY.get(action.command)
        assert spec is not None
        if self.platform not in spec.platforms:
            raise InvalidArgs(
                f"`{action.command}` cannot be performed on {self.platform}",
                hint=f"available on: {', '.join(spec.platforms) or 'no platform of this tool'}",
            )
        form = next(f for f in spec.forms if f.name == action.form)
        record_flag = action.flag("--record")
        no_record = action.flag("--no-record") is True
        cmd = action.command
        result: dict[str, Any] = {"command": cmd}
        if cmd == "snapshot":
            result.update(await self.snapshot(action))
            record = written_to_script(
                provenance=provenance, command=cmd, observation=True, record=record_flag is True, no_record=no_record
            )
            self._journal(action, provenance, record=record, line=self._raw_line())
            return result
        if cmd == "find":
            return await self._find(action, provenance, timeout)
        if form.targets_element:
            return await self._element(action, form.phase, provenance, timeout, record_flag is True, no_record)
        if cmd == "open":
            await self.driver.navigate(str(action.param("url")), max(timeout, 30000))
        elif cmd in ("back", "forward", "reload"):
            await self.driver.history(cmd, max(timeout, 30000))
        elif cmd == "type":
            await self.driver.keyboard("type", str(action.param("text")))
        elif cmd == "press" and action.form == "key":
            await self.driver.keyboard("press", str(action.param("key")))
        elif cmd == "scroll":
            amount = action.param("amount")
            await self.driver.scroll(str(action.param("direction")), float(str(amount)) if amount else None)
        elif cmd == "wait" and action.form == "ms":
            await self.driver.wait(int(str(action.param("ms"))))
        elif cmd == "wait" and action.form == "text":
            ms = int(str(action.param("ms") or timeout))
            await self._wait_text(str(action.param("text")), ms)
        elif cmd == "screenshot":
            path = str(
                action.param("path") or os.path.join(self.home, "screenshots", f"{self.name}-{int(time.time())}.png")
            )
            os.makedirs(os.path.dirname(os.path.abspath(path)), exist_ok=True)
            await self.driver.screenshot(path, action.flag("--full-page") is True)
            result["path"] = os.path.abspath(path)
        elif cmd == "close":
            return result
        else:
            raise InvalidArgs(f"`{cmd} {action.form}` is not available interactively", hint="see docs/ad-format.md")
        record = written_to_script(
            provenance=provenance,
            command=cmd,
            observation=form.observation,
            record=record_flag is True,
            no_record=no_record,
        )
        self._journal(action, provenance, record=record, line=self._raw_line())
        return result

    async def _wait_text(self, text: str, ms: int) -> None:
        deadline = time.monotonic() + ms / 1000
        want = fold(text)
        while True:
            capture = await self.capture()
            if any(want in fold(n.content) or want == fold(n.label) for n in capture.nodes):
                return
            if time.monotonic() >= deadline:
                raise ElementNotFound(
                    f'text "{text}" did not appear within {ms} ms', hint="take a snapshot to see the screen"
                )
            await asyncio.sleep(POLL_MS / 1000)

    async def _find(self, action: Action, provenance: str, timeout: int) -> dict[str, Any]:
        locator = str(action.param("locator") or "any")
        value = str(action.param("value"))
        alt = Alternative(bare=value) if locator == "any" else Alternative(terms=(Term(locator, "=", value),))
        target = Target(selector=Selector((alt,)))
        verb = action.param("action")
        arg = action.param("arg")
        if verb in (None, "exists", "get", "wait"):
            params: list[tuple[str, object]] = [("target", target)]
            if verb == "get":
                sub = Action(action.line, "get", "read", (("what", str(arg or "text")), *params), action.flags)
            elif verb == "wait":
                sub = Action(
                    action.line, "wait", "target", (*params, *((("ms", str(arg)),) if arg else ())), action.flags
                )
            else:
                sub = Action(action.line, "is", "state", (("predicate", "exists"), *params), action.flags)
        else:
            if verb in ("fill", "type"):
                sub = Action(
                    action.line, "fill", "target", (("target", target), ("text", str(arg or ""))), action.flags
                )
            elif verb == "focus":
                sub = Action(action.line, "click", "target", (("target", target),), action.flags)
            else:
                sub = Action(action.line, str(verb), "target", (("target", target),), action.flags)
        return await self.execute(sub, provenance=provenance, timeout_ms=timeout)

    async def _element(
        self, action: Action, phase: str, provenance: str, timeout: int, record_flag: bool, no_record: bool
    ) -> dict[str, Any]:
        target = action.target
        assert target is not None
        cmd = action.command
        if cmd == "is":
            return await self._assert(action, target, timeout, provenance, record_flag, no_record)
        if cmd == "wait":
            return await self._wait_target(action, target, timeout, provenance, no_record)
        if target.ref is not None:
            ref_capture, ref_node = await self._ref_node(target)
            capture = await self.capture()
            index = await self.driver.locate(ref_capture.generation, ref_node.position, capture.generation)
            node = capture.nodes[index] if index is not None else None
            act_gen, act_index = (
                (capture.generation, index) if index is not None else (ref_capture.generation, ref_node.position)
            )
            resolution: dict[str, Any] = {
                "kind": "ref",
                "matchCount": 1,
                "ref": target.ref,
                "refsGeneration": ref_capture.generation,
            }
            shown = ref_node
        else:
            assert target.selector is not None
            capture, node, res = await self._selector_node(target.selector, timeout)
            act_gen, act_index = capture.generation, node.position
            resolution = res.to_dict()
            shown = node
        return await self._perform(
            action,
            phase,
            capture,
            node,
            (act_gen, act_index),
            resolution,
            shown,
            provenance,
            timeout,
            record_flag,
            no_record,
        )

    async def perform(
        self,
        raw: Action,
        action: Action,
        capture: Capture,
        node: Node,
        resolution: dict[str, Any],
        *,
        provenance: str,
        timeout_ms: int,
    ) -> dict[str, Any]:
        """Act on a node the engine has already resolved and verified, and journal it.

        ``raw`` is the step as written (its line keeps ``${VAR}``); ``action`` has values resolved.
        """
        self.last_used = time.monotonic()
        self._raw = raw
        spec = REGISTRY.get(action.command)
        assert spec is not None
        form = next(f for f in spec.forms if f.name == action.form)
        return await self._perform(
            action,
            form.phase,
            capture,
            node,
            (capture.generation, node.position),
            resolution,
            node,
            provenance,
            timeout_ms,
            action.flag("--record") is True,
            action.flag("--no-record") is True,
        )

    async def _perform(
        self,
        action: Action,
        phase: str,
        capture: Capture,
        node: Node | None,
        handle: tuple[int, int],
        resolution: dict[str, Any],
        shown: Node,
        provenance: str,
        timeout: int,
        record_flag: bool,
        no_record: bool,
    ) -> dict[str, Any]:
        target = action.target
        assert target is not None
        cmd = action.command
        act_gen, act_index = handle
        result: dict[str, Any] = {"command": cmd}
        result["target"] = describe(shown)
        result["resolution"] = resolution
        line, evidence, verification, selector_text = None, None, None, None
        verified_plan_step = provenance == PLAN and self.recording is None and self._raw is not None
        if verified_plan_step and self._raw is not None and self._raw.annotation is not None:
            # a verified plan step outside recording: its own line and evidence describe what was done
            assert self._raw.target is not None and self._raw.target.selector is not None
            line = self._raw_line()
            evidence = ev_codec.encode(self._raw.annotation)
            verification = self._raw.annotation.verification
            selector_text = format_selector(self._raw.target.selector)
        elif node is not None:
            recorded_node = evidence_target(capture, node) if cmd == "click" else node
            mat = materialize(capture, recorded_node)
            if mat.selector is not None:
                ev = self_check(capture, mat.selector, recorded_node, record_evidence(capture, recorded_node))
                evidence = ev_codec.encode(ev)
                verification = ev.verification
                written = escape_templates(mat.selector)
                selector_text = format_selector(written)
                line = self._raw_line(Target(selector=written))
            if recorded_node is not node:
                result["recordedAs"] = describe(recorded_node)
        if phase == PHASE_READ:  # get
            what = str(action.param("what"))
            value = await self.driver.act(act_gen, act_index, f"get_{what}", {}, timeout)
            result["value"] = value
        else:
            params = {k: v for k, v in action.params if isinstance(v, str)}
            await self.driver.act(act_gen, act_index, cmd, params, timeout)
        record = written_to_script(
            provenance=provenance, command=cmd, observation=phase == PHASE_READ, record=record_flag, no_record=no_record
        )
        if selector_text:
            result["selector"] = selector_text
            result["verification"] = verification
        entry = self._journal(
            action,
            provenance,
            record=record,
            line=line,
            evidence=evidence,
            ref=target.ref,
            describe_text=result["target"],
            selector=selector_text,
            verification=verification,
            element=True,
        )
        result["recorded"] = entry.record and self.recording is not None
        return result

    async def _assert(
        self, action: Action, target: Target, timeout: int, provenance: str, record_flag: bool, no_record: bool
    ) -> dict[str, Any]:
        predicate = str(action.param("predicate"))
        expected = action.param("value")
        deadline = time.monotonic() + timeout / 1000
        while True:
            holds, observed, node, res = await self._check(predicate, target, expected)
            if holds or time.monotonic() >= deadline:
                break
            await asyncio.sleep(POLL_MS / 1000)
        result: dict[str, Any] = {"command": "is", "predicate": predicate, "pass": holds, "observed": observed}
        if res is not None:
            result["resolution"] = res
        if node is not None:
            result["target"] = describe(node)
        line = self._raw_line() if target.ref is None else None
        record = written_to_script(
            provenance=provenance, command="is", observation=True, record=record_flag, no_record=no_record
        )
        self._journal(action, provenance, record=record, line=line, element=True)
        if not holds:
            raise AssertionFailed(
                f"is {predicate} {format_target_brief(target)} failed: {observed}",
                hint="take a snapshot to see the screen",
                details={"result": result},
            )
        return result

    async def _check(
        self, predicate: str, target: Target, expected: object
    ) -> tuple[bool, str, Node | None, dict[str, Any] | None]:
        if target.ref is not None:
            try:
                capture, node = await self._ref_node(target)
                if not await self.driver.is_attached(capture.generation, node.position):
                    raise StaleRef(
                        f"{target.ref} (from refs generation {capture.generation}) is no longer on the page",
                        hint="the page changed since the snapshot; take a new snapshot (`replay snapshot -i`)",
                    )
            except StaleRef:
                if predicate in ("absent", "hidden"):
                    return True, "the element is gone", None, None
                raise
            fresh = await self.capture()
            index = await self.driver.locate(capture.generation, node.position, fresh.generation)
            if index is None:
                return predicate in ("absent", "hidden"), "the element is not in the tree", None, None
            node = fresh.nodes[index]
            count, res_dict = 1, {"kind": "ref", "matchCount": 1}
        else:
            assert target.selector is not None
            capture = await self.capture()
            res = resolve(capture, target.selector)
            count, res_dict = res.match_count, res.to_dict()
            if predicate == "absent":
                return count == 0, f"{count} match(es)", None, res_dict
            if predicate == "exists":
                return count > 0, f"{count} match(es)", res.winner, res_dict
            if predicate == "hidden" and count == 0:
                return True, "no match", None, res_dict
            if res.winner is None:
                why = "no match" if count == 0 else f"{count} matches in distinct places (ambiguous)"
                return False, why, None, res_dict
            node = res.winner
        if predicate == "absent":
            return False, "present", node, res_dict
        if predicate == "exists":
            return True, "present", node, res_dict
        checks = {
            "visible": (node.visible, "visible" if node.visible else "not visible"),
            "hidden": (not node.visible, "hidden" if not node.visible else "visible"),
            "enabled": (node.enabled, "enabled" if node.enabled else "disabled"),
            "disabled": (not node.enabled, "disabled" if not node.enabled else "enabled"),
            "checked": (node.checked, "checked" if node.checked else "not checked"),
        }
        if predicate == "text":
            actual = node.content or node.label or node.value or ""
            return fold(actual) == fold(str(expected)), f'text is "{actual[:120]}"', node, res_dict
        holds, observed = checks[predicate]
        return holds, observed, node, res_dict

    async def _wait_target(
        self, action: Action, target: Target, timeout: int, provenance: str, no_record: bool
    ) -> dict[str, Any]:
        ms = int(str(action.param("ms"))) if action.param("ms") else timeout
        deadline = time.monotonic() + ms / 1000
        absent = action.form == "absent"
        while True:
            if target.ref is not None:
                present = (
                    await self.driver.is_attached(self.refs_capture.generation, int(target.ref[2:]))
                    if self.refs_capture
                    else False
                )
            else:
                assert target.selector is not None
                capture = await self.capture()
                present = resolve(capture, target.selector).match_count > 0
            if present != absent:
                break
            if time.monotonic() >= deadline:
                raise ElementNotFound(
                    f"wait {'absent ' if absent else ''}{format_target_brief(target)}: "
                    f"still {'present' if absent else 'absent'} after {ms} ms",
                    hint="take a snapshot to see the screen",
                )
            await asyncio.sleep(POLL_MS / 1000)
        line = self._raw_line() if target.ref is None else None
        self._journal(
            action,
            provenance,
            record=written_to_script(
                provenance=provenance, command="wait", observation=False, record=False, no_record=no_record
            ),
            line=line,
            ref=target.ref,
            element=target.ref is not None,
        )
        return {"command": "wait", "form": action.form}

    # replay hooks ---------------------------------------------------------------------------

    def issue_refs(self, capture: Capture) -> None:
        """Make ``capture`` the refs generation (a divergence's screen refs act at once)."""
        self.refs_capture = capture

    def journal_plan_step(self, raw: Action) -> None:
        """Journal a plan step the engine ran itself (``wait``)."""
        self._raw = raw
        self._journal(raw, "plan", record=True, line=self._raw_line())

    def recorded_count(self) -> int:
        """Recorded (script-bound) actions in the journal: a corrective action raises it."""
        return sum(1 for e in self.journal.entries if e.record)

    # journal and recording ---------------------------------------------------------------

    def _raw_line(self, target: Target | None = None) -> str:
        """The canonical line of the action as written (``${VAR}`` kept), optionally retargeted."""
        assert self._raw is not None
        raw = _strip_record_flags(self._raw)
        return format_action(_with_target(raw, target) if target is not None else raw)

    def _journal(
        self,
        action: Action,
        provenance: str,
        *,
        record: bool,
        line: str | None,
        evidence: str | None = None,
        ref: str | None = None,
        describe_text: str | None = None,
        selector: str | None = None,
        verification: str | None = None,
        element: bool = False,
    ) -> JournalEntry:
        entry = JournalEntry(
            seq=self.journal.next_seq(),
            command=action.command,
            provenance=provenance,
            record=record,
            line=line if (line is not None or element) else self._raw_line(),
            evidence=evidence,
            ref=ref,
            describe=describe_text,
            selector=selector,
            verification=verification,
        )
        self.journal.append(entry)
        return entry

    def start_recording(self, path: str | None) -> None:
        """Turn recording on from the current journal position."""
        self.recording = Recording(path, len(self.journal.entries))

    # repair transactions ------------------------------------------------------------------

    def arm(self, tx: RepairTransaction) -> None:
        """R1: recording on and the watermark set before step 1; the transaction persisted."""
        self.repair = tx
        self.recording = Recording(tx.target, tx.watermark)
        self.last_divergence = None
        tx.save(repair_path(self.home, self.name))

    def set_repair_state(self, state: str) -> None:
        """Move the transaction along ARMED → COMPLETE → COMMITTED, persisted."""
        assert self.repair is not None
        self.repair.state = state
        self.repair.save(repair_path(self.home, self.name))

    def complete_repair(self) -> None:
        """The plan ran through its last executable step with no outstanding divergence."""
        self.set_repair_state(COMPLETE)

    def recorded_script(self) -> str:
        """The script recording has produced so far (fails loudly on an unmaterialized step)."""
        assert self.recording is not None
        return script_text(self.journal.entries[self.recording.start :], platform=self.platform)

    def write_recording(self, path: str | None = None) -> str:
        """Publish the recorded script; returns its path."""
        assert self.recording is not None
        text = self.recorded_script()
        target = path or self.recording.path
        if not target:
            stamp = time.strftime("%Y%m%d-%H%M%S")
            target = os.path.join(self.home, "scripts", f"{self.name}-{stamp}.ad")
        return publish_exclusive(target, text)

    async def close(self) -> None:
        """Close the browser context."""
        await self.driver.close()


def _strip_record_flags(action: Action) -> Action:
    flags = tuple((k, v) for k, v in action.flags if k not in ("--record", "--no-record"))
    return Action(action.line, action.command, action.form, action.params, flags, action.annotation)


def _with_target(action: Action, target: Target) -> Action:
    params = tuple((k, target if k == "target" else v) for k, v in action.params)
    return Action(action.line, action.command, action.form, params, action.flags, action.annotation)


def format_target_brief(target: Target) -> str:
    """A short display of a target for messages."""
    if target.ref is not None:
        return target.ref
    assert target.selector is not None
    return format_selector(target.selector)


__all__ = ["Session", "PHASE_ACT", "PHASE_WAIT", "ReplayError"]
