"""The operations' answers, typed: each is the JSON object the daemon sent (``result["ran"]`` still
reads it, ``--json`` prints it as it is) with its fields as typed attributes (``result.ran``), so
no surface reads a result by a string key. One class per answer of ``session.contract``'s operations.

Light on purpose (no ``dataclasses``, no ``typing``): ``Client`` returns these on the fast path.
"""

from __future__ import annotations

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any


class Result(dict):  # type: ignore[type-arg]  # (the JSON object itself: printed and compared as one)
    """An answer: the daemon's JSON object; its subclasses say what its fields are."""

    __slots__ = ()


class _Field:
    """A field of an answer, read by its JSON key (a subclass says what it reads as)."""

    def __init__(self, key: str) -> None:
        self.key = key

    def raw(self, result: Result) -> Any:
        return result.get(self.key)


class Text(_Field):
    """A string ("" when absent)."""

    def __get__(self, result: Result, owner: type | None = None) -> str:
        value = self.raw(result)
        return "" if value is None else str(value)


class Maybe(_Field):
    """A string, or None when absent or empty."""

    def __get__(self, result: Result, owner: type | None = None) -> str | None:
        value = self.raw(result)
        return None if value is None or value == "" else str(value)


class Number(_Field):
    """A whole number (0 when absent)."""

    def __get__(self, result: Result, owner: type | None = None) -> int:
        value = self.raw(result)
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0


class Seconds(_Field):
    """A number of seconds or milliseconds (0.0 when absent)."""

    def __get__(self, result: Result, owner: type | None = None) -> float:
        value = self.raw(result)
        return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0.0


class Flag(_Field):
    """True when present and true."""

    def __get__(self, result: Result, owner: type | None = None) -> bool:
        return bool(self.raw(result))


class Words(_Field):
    """A list of strings (empty when absent)."""

    def __get__(self, result: Result, owner: type | None = None) -> list[str]:
        value = self.raw(result)
        return [str(v) for v in value] if isinstance(value, list) else []


class Raw(_Field):
    """The value as sent (a ``get``'s value, a score)."""

    def __get__(self, result: Result, owner: type | None = None) -> Any:
        return self.raw(result)


def _object(result: Result, key: str) -> dict[str, Any]:
    value = result.get(key)
    return value if isinstance(value, dict) else {}


def _objects(result: Result, key: str) -> list[dict[str, Any]]:
    value = result.get(key)
    return [v for v in value if isinstance(v, dict)] if isinstance(value, list) else []


class StepResult(Result):
    """One command or script line (``replay click @e3``): what it did, to what, and what it recorded."""

    __slots__ = ()
    command = Text("command")  # snapshot, click …
    text = Text("text")  # a snapshot's text
    target = Maybe("target")  # the element acted on, described
    passed = Flag("pass")  # an `is` check held
    predicate = Text("predicate")  # an `is` check's predicate …
    observed = Text("observed")  # … and what it saw
    recorded = Flag("recorded")  # the step went into the recording
    selector = Maybe("selector")  # the selector it was recorded with
    verification = Text("verification")  # how its identity is verified
    effect = Maybe("effect")  # what the step did (design §15)
    warning = Maybe("warning")  # what the person should know
    path = Maybe("path")  # a file it saved (a screenshot)
    session = Text("session")
    recording = Flag("recording")  # its session records
    devtools = Maybe("devtools")  # a recording's DevTools endpoint
    acted = Flag("acted")  # the built-in healer performed the step …
    reason = Text("reason")  # … or abstained, and why
    score = Raw("score")  # its score of the element it chose
    confirmed = Flag("confirmed")  # … effect-confirmed: the step's recorded effect held (design §8)
    pick = Maybe("pick")  # … or it chose a renamed element and left it to a trial (its ref)
    value = Raw("value")  # what a `get` read

    @property
    def has_value(self) -> bool:
        """It read a value (``get``)."""
        return "value" in self

    @property
    def resolution_kind(self) -> str | None:
        """How its target was found (``unique``, ``verified`` …), when it had one."""
        kind = _object(self, "resolution").get("kind")
        return None if kind is None else str(kind)

    @property
    def match_count(self) -> int:
        """How many elements its target's selector matched."""
        return int(_object(self, "resolution").get("matchCount") or 1)


class Timing(Result):
    """One step of a run: how long it took, and what drifted without stopping it (design §5, §15)."""

    __slots__ = ()
    index = Number("index")  # the plan step
    line = Number("line")  # its script line
    command = Text("command")
    ms = Seconds("ms")
    drift = Words("drift")  # what changed without stopping the run, said


class Repair(Result):
    """An armed repair: its state and target."""

    __slots__ = ()
    state = Text("state")  # ARMED, COMPLETE …
    target = Text("target")  # where its healed script goes


class RunResult(Result):
    """A run that reached the end of its plan."""

    __slots__ = ()
    ran = Number("ran")  # steps run
    plan_digest = Text("planDigest")  # the digest of the plan it ran (what the acceptance gate publishes is this)
    elapsed_seconds = Seconds("elapsedSeconds")
    healed = Maybe("healed")  # the healed script its repair wrote (its session closed)
    session = Text("session")

    @property
    def timings(self) -> list[Timing]:
        """Each step's timing."""
        return [Timing(t) for t in _objects(self, "timings")]

    @property
    def repair(self) -> Repair | None:
        """Its armed repair, if any."""
        return Repair(_object(self, "repair")) if self.get("repair") else None


class Verified(Result):
    """``close --verify``: the healed script replayed in a fresh session."""

    __slots__ = ()
    passed = Flag("passed")
    steps = Number("steps")  # steps it ran

    @property
    def diverged(self) -> bool:
        """It diverged (else it passed, or did not run: ``error_message``)."""
        return "divergence" in self

    @property
    def divergence_kind(self) -> str:
        return str(_object(self, "divergence").get("kind") or "")

    @property
    def divergence_step(self) -> int:
        step = _object(self, "divergence").get("step")
        return int(step.get("index") or 0) if isinstance(step, dict) else 0

    @property
    def error_message(self) -> str:
        """Why it did not run."""
        return str(_object(self, "error").get("message") or "")

    @property
    def effects(self) -> list[str]:
        """Its steps' effects as the gate read them: lost (it failed for them) or deferred (it passed)."""
        found = self.get("effects")
        return [str(x) for x in found] if isinstance(found, list) else []


class Closed(Result):
    """A session closed, and what it published."""

    __slots__ = ()
    closed = Text("closed")  # the session's name
    script = Maybe("script")  # the recording it wrote
    healed = Maybe("healed")  # the healed script it wrote
    rejected = Maybe("rejected")  # a heal left for review, not verified
    aborted = Maybe("aborted")  # why its repair was given up
    warning = Maybe("warning")
    unwritten = Words("unwritten")  # the recorded steps it could only keep as comments (no portable selector)

    @property
    def verify(self) -> Verified | None:
        """``--verify``'s replay of the healed script."""
        return Verified(_object(self, "verify")) if self.get("verify") is not None else None


class SessionEntry(Result):
    """An open session, or a recording a stopped daemon left (``orphaned``)."""

    __slots__ = ()
    name = Text("name")
    orphaned = Flag("orphaned")  # a stopped daemon left its recording …
    actions = Number("actions")  # … of this many actions
    url = Text("url")
    recording = Flag("recording")
    recorded = Number("recorded")  # script-bound actions recorded so far
    idle_seconds = Raw("idleSeconds")


class RecordEvent(Result):
    """What a recording by hand did (design §16): a step written, a secret, a refusal, the end."""

    __slots__ = ()
    event = Text("event")  # ready, step, variable, refused, stopped
    session = Text("session")
    cdp = Maybe("cdp")  # ready: replay's DevTools relay to the recording's browser (ws://127.0.0.1:PORT/TOKEN)
    step = Number("step")  # a step's number …
    line = Text("line")  # … as written
    verification = Text("verification")
    effect = Maybe("effect")
    warning = Maybe("warning")
    name = Text("name")  # a secret's variable
    code = Text("code")  # why a gesture was refused: its code …
    message = Text("message")  # … its message …
    hint = Maybe("hint")  # … its hint
    variables = Words("variables")  # the secrets a replay must be given
    script = Maybe("script")  # where the script was written
    unwritten = Words("unwritten")  # stopped: the steps it holds only as comments (no portable selector)


class RecordEvents(Result):
    """A recording's events from a number on."""

    __slots__ = ()
    next = Number("next")  # the next event's number
    ended = Flag("ended")  # the recording ended

    @property
    def events(self) -> list[RecordEvent]:
        return [RecordEvent(e) for e in _objects(self, "events")]


def timings_of(details: dict[str, Any] | None) -> list[Timing]:
    """The step timings an error's details carry (a run that stopped)."""
    timings = (details or {}).get("timings")
    return [Timing(t) for t in timings if isinstance(t, dict)] if isinstance(timings, list) else []
