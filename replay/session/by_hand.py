"""The recorder for people (design §16): a person uses the app, and each input — held by the driver before
the app sees it — is performed through the step pipeline as `replay click @ref` performs it. What is
written is what replay did; each recorded step has, by construction, replayed once.

A session records by hand once ``attach`` gave it a ``ByHand``: gestures queue up and one worker
performs them in order, holding the session's lock as any request does. What happened is a list of
events (``step``, ``refused``, ``variable``, ``stopped``) a client reads with ``events``.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import logging
import os
import re
from collections.abc import Awaitable, Callable, Mapping, Sequence
from typing import Any

from replay.drivers.base import PersonInput, Recordable
from replay.engine import step
from replay.engine.journal import JournalEntry
from replay.engine.state import capture
from replay.errors import InvalidArgs, Location, ReplayError
from replay.keys import valid_key
from replay.script.formatter import format_action
from replay.script.parser import parse_action, parse_argv
from replay.scrubbing import echoes
from replay.session import run_request
from replay.session.requests import Record, make
from replay.session.session import Session
from replay.tree.controls import control_of
from replay.tree.identity import record_evidence
from replay.tree.materialize import materialize

log = logging.getLogger("replay.daemon")

ELEMENT_KINDS = ("click", "dblclick", "fill", "select", "hover", "assert", "drag", "upload")
TOGGLES = ("checkbox", "switch", "menuitemcheckbox")
FINISH_S = 5.0  # how long a stop waits for the last gestures to be performed before it writes
KEPT_EVENTS = 10_000  # a recording longer than this keeps its latest events (a client reads as it goes)


def hands_of(session: Session) -> PersonInput:
    """The session's person-input capability; INVALID_ARGS where its platform has none."""
    if not isinstance(session.driver, Recordable):
        raise InvalidArgs(
            f"`replay record` cannot record by hand on {session.platform} yet",
            hint="record with `replay open URL --save-script FLOW.ad` and commands, as an agent does",
        )
    return session.driver.person_input()


REDO_HINT = "do it again once the app is ready for it, or record that step with commands (`replay click @ref`)"
UPLOAD_HINT = "record that step with `replay upload @ref PATH`"


WITHHELD = "(withheld: it echoes a secret typed in this recording)"
LOOKS_AGAIN, LOOK_AGAIN_S = 3, 0.1  # what a gesture pointed at is not on the screen yet: looked for again


def variable_name(label: str, taken: set[str]) -> str:
    """The ``${NAME}`` a secret field's value goes by: from its label (``PASSWORD``, ``PIN``); never
    a reserved or built-in name (a label "Replay session" is ``SECRET_REPLAY_SESSION``, not the
    session's own name, which ``${REPLAY_SESSION}`` would type)."""
    base = re.sub(r"[^A-Z0-9]+", "_", label.upper()).strip("_")[:30] or "PASSWORD"
    if base[0].isdigit():
        base = "V_" + base
    if not valid_key(base):
        base = "SECRET_" + base
    name, n = base, 2
    while name in taken:
        name, n = f"{base}_{n}", n + 1
    return name


class ByHand:
    """One session's recording by hand: its queue of gestures, its worker and its events."""

    def __init__(self, session: Session, hands: PersonInput, on_closed: Callable[[], Awaitable[Any]]) -> None:
        self.session = session
        self.hands = hands
        self.on_closed = on_closed  # the window closed: the daemon ends the session (publishing it)
        self.inputs: asyncio.Queue[dict[str, Any]] = asyncio.Queue()
        self.events: list[dict[str, Any]] = []
        self.dropped = 0  # events no longer kept (the list's first is event ``dropped``)
        self.changed = asyncio.Event()
        self.variables: dict[str, str] = {}  # a secret field's label → its variable's name
        self.values: dict[str, str] = {}  # a variable's value this session: typed here, never written
        self.in_use: dict[str, str | None] = {}  # names given (their values) or used by the flow (``names_in_use``)
        self.steps = 0
        self.ended = False
        self.focused: tuple[tuple[Any, ...], JournalEntry] | None = None  # the last element clicked, its step
        self.stopping = False  # the recording is being stopped: what it hands over now is its last
        self.worker: asyncio.Task[None] | None = None

    def start(self) -> None:
        self.worker = asyncio.get_running_loop().create_task(self._work())

    def take(self, gesture: dict[str, Any]) -> Any:
        """A gesture from the driver (its binding, on the daemon's loop); a pick is answered."""
        if self.ended or (self.stopping and gesture.get("kind") == "dialog"):
            return None  # (a dialog closed while the recording stops: closing it is no one's answer)
        if gesture.get("kind") == "pick":
            return self._pick(gesture)
        self.inputs.put_nowait(gesture)
        return None

    async def _pick(self, gesture: dict[str, Any]) -> dict[str, Any] | None:
        """What replay would write for the element under the bar's Pick (design §16): its selector, the
        basis that singles it out, verified or not, positional or not — nothing is performed."""
        async with self.session.lock:
            taken = await capture(self.session)
            found = await self.hands.pointed(taken.generation, gesture.get("path"))
            if not found:
                return {"selector": None, "basis": "not in replay's view", "verification": "—", "positional": False}
            node = taken.nodes[next((i for i in found if taken.nodes[i].actionable), found[0])]
            made = materialize(taken, node)
            ev = record_evidence(taken, node)
            basis = ev.basis or ("id" if ev.id else "role+label" if ev.label else "anchor" if ev.anchor else "position")
            return {
                "selector": str(made.selector) if made.selector is not None else None,
                "basis": basis,
                "verification": ev.verification,
                "positional": made.positional,
            }

    async def finish(self) -> None:
        """Before the script is written: what the person typed last is handed over and every gesture
        handed over is performed (each step waited for ``FINISH_S`` at most, whatever the page does)."""
        self.stopping = True
        if self.ended or self.worker is None or self.worker is asyncio.current_task():
            return  # (the bar's Stop or a closed window: the recorder handed over its text before it)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + FINISH_S
        while loop.time() < deadline:  # until nothing the person did is on its way any more
            pending = 0
            with contextlib.suppress(Exception):
                pending = await asyncio.wait_for(self.hands.flush(), max(0.1, deadline - loop.time()))
            done = loop.create_future()
            self.inputs.put_nowait({"kind": "finished", "done": done})
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(asyncio.shield(done), max(0.1, deadline - loop.time()))
            if not pending:
                return
            await asyncio.sleep(0.05)

    def emit(self, event: dict[str, Any]) -> None:
        """Hand ``event`` to the person (the terminal, ``--json``): a text in it that echoes a secret typed
        here — four characters of it, as typed, case-folded or reversed — is said as withheld, never shown."""
        secrets = [v for v in self.values.values() if v]
        for key, text in event.items():
            if key != "event" and isinstance(text, str) and any(echoes(text, v) for v in secrets):
                event[key] = WITHHELD
        self.events.append(event)
        if len(self.events) > KEPT_EVENTS:
            del self.events[0]
            self.dropped += 1
        self.changed.set()

    def end(self, script: str | None, unwritten: Sequence[str] = ()) -> None:
        """The session ended (closed, or its window): the last event says where the script went, and
        which steps it holds only as comments (nothing a person did is lost)."""
        if self.ended:
            return
        self.ended = True
        if self.worker is not None and self.worker is not asyncio.current_task():
            self.worker.cancel()
        stopped = {"event": "stopped", "script": script, "variables": sorted(self.values)}
        self.emit({**stopped, "unwritten": list(unwritten)} if unwritten else stopped)

    async def read(self, since: int, wait_s: float) -> dict[str, Any]:
        """The events from number ``since`` on, waiting up to ``wait_s`` for one when there is none."""
        if since >= self.dropped + len(self.events) and not self.ended:
            self.changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self.changed.wait(), wait_s)
        start = max(0, since - self.dropped)
        return {"events": self.events[start:], "next": self.dropped + len(self.events), "ended": self.ended}

    async def _work(self) -> None:
        while True:
            gesture = await self.inputs.get()
            if gesture.get("kind") == "finished":  # everything before it was performed: the script may be written
                gesture["done"].set_result(None)
                continue
            if gesture.get("kind") in ("closed", "stop"):  # the window closed, or the bar's Stop
                await self.on_closed()
                return
            try:
                async with self.session.lock:
                    await self._perform(gesture)
            except ReplayError as err:  # (a run's hint on its options, such as --timeout, is none of record's)
                hint = REDO_HINT if err.hint and "--" in err.hint else err.hint
                self.emit({"event": "refused", "code": err.code, "message": err.message, "hint": hint})
            except Exception as exc:  # noqa: BLE001 - one gesture never ends the recording
                log.exception("recording by hand: %s", gesture.get("kind"))
                self.emit({"event": "refused", "code": "INTERNAL", "message": str(exc), "hint": None})
            finally:  # performed or refused: the person's input is held again (a no-op when it is already)
                self.hands.performing(gesture)
                with contextlib.suppress(Exception):
                    await self.hands.rearm()

    async def _perform(self, gesture: dict[str, Any]) -> None:
        kind = str(gesture.get("kind"))
        # the person moved, hovered and typed since the last step: no idle sample spans that time
        self.session.watch.baseline = None
        number = self.hands.tab_of(gesture)  # made in another tab than the front one: brought to the front
        if number is not None:
            await self._step(parse_argv(["tab", str(number)]))
        if kind in ELEMENT_KINDS:
            await self._on_element(kind, gesture)
        else:
            await self._input(kind, gesture)

    async def _input(self, kind: str, gesture: dict[str, Any]) -> None:
        """A gesture on no element of the screen: keys, typing, a dialog's answer, a tab closed."""
        if kind == "keys":  # typed while a gesture was performed, held: typed now where the focus is
            await self.hands.deliver(gesture)
            return
        if kind == "press":
            await self._step(parse_argv(["press", str(gesture.get("key"))]), gesture=gesture)
            return
        if kind == "type":  # typed into an editor: written as the CLI writes it, into what has the focus
            self.hands.performing(gesture)  # (its keys that take the text back are replay's own)
            await self.hands.take_back(gesture)
            await self._step(parse_argv(["type", str(gesture.get("text") or "")]), gesture=gesture)
            return
        if kind == "dialog":  # answered in the browser: the step takes that answer (a prompt's with its text)
            prompt = gesture["dialog"].get("type") == "prompt"
            said = [str(gesture.get("value") or "")] if prompt and gesture.get("accept") else []
            message = str(gesture["dialog"].get("message") or "")  # (what it asked: checked on replay)
            if message and not any(v and (v in message or echoes(message, v)) for v in self.values.values()):
                said += ["--message", message]
            await self._step(parse_argv(["alert", "accept" if gesture.get("accept") else "dismiss", *said]))
            return
        if kind == "tab":  # the front tab closed in the browser: the script goes on in the one in front now
            await self._step(parse_argv(["tab", str(gesture.get("number"))]))
            return

    async def _on_element(self, kind: str, gesture: dict[str, Any]) -> None:
        """A gesture on an element of the screen, found on it as the person pointed at it."""
        if kind == "fill" and gesture.get("leaving"):
            self._typed_then_gone(gesture)
            return
        taken = await capture(self.session)
        for _ in range(LOOKS_AGAIN):  # something that appeared a moment ago (a suggestion): a fresh look first
            if await self.hands.pointed(taken.generation, gesture.get("path")):
                break
            await asyncio.sleep(LOOK_AGAIN_S)
            taken = await capture(self.session)
        self.session.refs_capture = taken  # the person pointed at this screen: its refs act
        if kind == "drag":  # both ends, each the element itself, found on the screen the person pressed on
            held = await self._pointed(taken, gesture.get("path"), kind, acting=False)
            dropped = await self._pointed(taken, gesture.get("to"), "drop", acting=False)
            await self._step(parse_argv(["drag", f"@e{held}"]))
            await self._step(parse_argv(["drop", f"@e{dropped}"]), gesture=gesture)
            return
        index = await self._pointed(taken, gesture.get("path"), kind)
        node = taken.nodes[index]
        ref = f"@e{index}"
        if gesture.get("hover"):  # a control only the hovered row shows: the hover is a step of its own
            shows = await self._pointed(taken, gesture["hover"], "hover", acting=False)
            await self._step(parse_argv(["hover", f"@e{shows}"]))
        if kind == "fill" and gesture.get("secret"):
            name = self.secret(gesture, str(gesture.get("value") or ""))
            action = parse_action(f'fill {ref} "${{{name}}}"', Location("<record>", 1))
            await self._step(action, values={name: self.values[name]}, gesture=gesture)
            return
        if kind == "upload":  # the file the person chose, by its path (under the working folder: relative)
            files = [f for f in await self.hands.files_of(gesture) if f]  # (a file of bytes has no path)
            if not files:
                raise InvalidArgs("the file choice was not recorded: its path could not be read", hint=UPLOAD_HINT)
            where = os.path.relpath(files[0], self.session.cwd) if self.session.cwd else files[0]
            chosen = files[0] if where.startswith("..") else where
            await self._step(parse_argv(["upload", ref, chosen]), gesture=gesture)
            return
        if kind == "assert":  # the bar's Assert: an `is …` of what was clicked, written to the script
            predicate = str(gesture.get("predicate"))
            said = [(node.key_text or node.label or "")[:80]] if predicate == "text" else []
            await self._step(parse_argv(["is", predicate, ref, *said, "--record"]), gesture=gesture)
            return
        command = kind
        if kind == "click" and node.role in (*TOGGLES, "radio"):
            command = "uncheck" if node.checked and node.role != "radio" else "check"
        extra = [str(gesture.get("value") or "")] if kind in ("fill", "select") else []
        if gesture.get("button") == "right":  # a context click
            command, extra = "click", ["--button", "right"]
        await self._step(parse_argv([command, ref, *extra]), gesture=gesture)
        if kind == "click" and self.session.journal.entries:  # (a field clicked into: typing may follow)
            self.focused = (tuple(gesture.get("path") or ()), self.session.journal.entries[-1])

    def _typed_then_gone(self, gesture: dict[str, Any]) -> None:
        """Text typed into a field that made its page go away by itself (a typeahead that navigates):
        that page cannot be acted on again, so the text is written as the ``fill`` of the field the
        person clicked into (that step's selector and evidence), before the navigation it caused."""
        path = tuple(gesture.get("path") or ())
        if self.focused is None or self.focused[0] != path or not self.focused[1].selector:
            raise InvalidArgs(
                "text typed into a field whose page then went away by itself was not recorded",
                hint="click into the field before typing, or record that step with `replay fill @ref TEXT`",
            )
        clicked = self.focused[1]
        value = str(gesture.get("value") or "")
        if gesture.get("secret"):
            value = "${" + self.secret(gesture, value) + "}"
        said = f"fill {json.dumps(clicked.selector, ensure_ascii=False)} {json.dumps(value, ensure_ascii=False)}"
        line = format_action(parse_action(said, Location("<record>", 1)))
        entry = JournalEntry(
            seq=self.session.journal.next_seq(),
            command="fill",
            line=line,
            evidence=clicked.evidence,
            describe=clicked.describe,
            selector=clicked.selector,
            verification=clicked.verification,
        )
        self.session.journal.append(entry)
        self.steps += 1
        self.emit(
            {"event": "step", "step": self.steps, "command": "fill", "line": line, "verification": entry.verification}
        )

    def secret(self, gesture: dict[str, Any], value: str) -> str:
        """The variable a secret field's value goes by (said once, when it is first named)."""
        label = str(gesture.get("label") or "")
        name = self.variables.get(label)
        if name is None or self.values.get(name, value) != value:  # another value: another field's, another name
            name = variable_name(label, set(self.values))
            if name in self.in_use and self.in_use[name] != value:
                # a name given or used already is taken only for the value it holds (the person typed the
                # suite's password): never for what a page that labels its field so asks for
                name = variable_name(label, {*self.values, *self.in_use})
            self.variables[label] = name
            self.emit({"event": "variable", "name": name})
        self.values[name] = value
        return name

    async def _pointed(self, taken: Any, path: Any, kind: str, *, acting: bool = True) -> int:
        """The node a gesture pointed at: the nearest captured element (``acting``: the nearest that
        acts, where one holds it — a button's icon is the button)."""
        found = await self.hands.pointed(taken.generation, path)
        if not found:
            raise InvalidArgs(
                f"the {kind} was not recorded: what it pointed at is not in replay's view of the page",
                hint="it went away as it was pointed at (do it again once it shows), or it is in a cross-origin "
                "frame or a closed shadow root (record that step with commands)",
            )
        pressed = taken.nodes[next((i for i in found if taken.nodes[i].actionable), found[0])]
        return control_of(pressed).position if acting else int(found[0])  # (a tab's text: the tab)

    async def _step(
        self, action: Any, values: dict[str, str] | None = None, gesture: dict[str, Any] | None = None
    ) -> None:
        """One step through the pipeline; ``gesture``: the person's, whose input the driver holds again
        once this step dispatched it (a hover before it does not)."""
        if gesture is not None:
            self.hands.performing(gesture)
        try:
            result = await step.execute(self.session, action, values=values)
        except step.StepStopped as stop:
            raise stop.error from None
        entry = self.session.journal.entries[-1] if self.session.journal.entries else None
        self.steps += 1
        event: dict[str, Any] = {"event": "step", "step": self.steps, "command": result.get("command")}
        event["line"] = entry.line if entry else None
        for key in ("verification", "effect", "warning"):
            if result.get(key):
                event[key] = result[key]
        if gesture is not None and isinstance(made := gesture.get("pageMade"), str):
            said = "" if gesture.get("secret") else f" to {made[:60]!r}"  # (a secret's value is never shown)
            event["warning"] = f"the page changed the field{said} after it was typed: the script types what was typed"
        if entry is not None and entry.line is None:
            event["warning"] = (
                "no portable selector for what was pointed at: the script keeps this step as a comment only; "
                "redo it on an element with a label, a test id or a text"
            )
        self.emit(event)
        shown = f"{self.steps}: {event['line'] or event['command']}"
        shown += f"  ⚠ {event['warning']}" if "warning" in event else ""
        await self.hands.say(shown, "warning" in event)


def names_in_use(request: Record) -> dict[str, str | None]:
    """The variable names a recording's secrets take only for the value they hold: the ones given (``-e``,
    the shell's ``REPLAY_VAR_*``) with their values, and those the flow it continues uses (no value) — a
    suite's values go to the fields the person typed them into, never to a field the page labelled "SHOP"."""
    given: dict[str, str | None] = {}
    if request.flow is not None:
        with contextlib.suppress(OSError, UnicodeDecodeError):
            with open(request.flow, encoding="utf-8") as fh:  # what its steps and its env refer to
                text = fh.read()
            given |= {a or b: None for a, b in re.findall(r"\$\{([A-Za-z_]\w*)|(?m:^\s*env\s+([A-Za-z_]\w*)=)", text)}
    given |= {k.removeprefix("REPLAY_VAR_"): str(v) for k, v in (request.shell or {}).items()}
    return given | {k: str(v) for k, v in request.options.values.items()}


async def attach(
    session: Session, on_closed: Callable[[], Awaitable[Any]], in_use: Mapping[str, str | None] | None = None
) -> ByHand:
    """Start recording ``session`` by hand (it records already: ``open --save-script``); its secrets are
    never named as one of ``in_use``."""
    hands = hands_of(session)
    recorder = ByHand(session, hands, on_closed)
    recorder.in_use = dict(in_use or {})
    if session.recording is not None:  # its steps are numbered as the script numbers them (`open` is 1)
        recorder.steps = sum(1 for e in session.journal.since(session.recording.start) if e.record)
    await hands.intercept(recorder.take)
    recorder.start()
    return recorder


def prefix(home: str, sessions: Mapping[str, Session], request: Record) -> run_request.Prepared:
    """``replay record FLOW.ad --from N``: the flow's plan and values, checked before any session opens."""
    assert request.flow is not None
    given = {"path": request.flow, "cwd": request.options.cwd, "values": request.options.values, "shell": request.shell}
    run = make("run", given)
    ready = run_request.prepare(home, sessions, run)
    steps = [s for s in ready.plan.steps if not (s.action.command == "close" and s.index == len(ready.plan.steps))]
    start = len(steps) + 1 if request.from_step is None else request.from_step
    if not 1 <= start <= len(steps) + 1:
        raise InvalidArgs(
            f"--from {start}: {ready.display} has {len(steps)} steps (record from 1 to {len(steps) + 1})",
            hint=f"--from {len(steps) + 1} records after its last step",
        )
    plan = dataclasses.replace(ready.plan, steps=tuple(steps[: start - 1]))
    return dataclasses.replace(ready, plan=plan)


async def replay_prefix(
    session: Session, ready: run_request.Prepared, request: Record, forget: Callable[[str, Session], Awaitable[None]]
) -> None:
    """The flow's steps before ``--from`` replay verified in the recording session (journaled as the
    recording's first steps); a divergence ends the session with nothing written, and is the answer."""
    from replay.engine.runner import Runner, RunOptions

    session.cwd = request.options.cwd
    if session.recording is not None:  # the flow's context and env lines head what is written
        session.recording.header = tuple(run_request.header_of(ready.script))
    options = RunOptions(values=ready.values, timeout_ms=ready.plan.timeout_ms, artifacts_dir=ready.artifacts)
    try:
        async with session.lock:
            session.journal.retract(session.journal.entries[-1])  # (the blank page it opened on is no step)
            await Runner(session, ready.plan, options).run()
    except ReplayError:
        session.recording = None
        await forget(session.name, session)
        raise
