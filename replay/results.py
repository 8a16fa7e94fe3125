"""The operations' answers, typed: each is the JSON object the daemon sent (``result["ran"]`` still
reads it, ``--json`` prints it as it is) with its fields as typed properties (``result.ran``), so
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

    def _text(self, key: str) -> str:
        value = self.get(key)
        return "" if value is None else str(value)

    def _maybe(self, key: str) -> str | None:
        value = self.get(key)
        return None if value is None or value == "" else str(value)

    def _number(self, key: str) -> int:
        value = self.get(key)
        return int(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else 0

    def _flag(self, key: str) -> bool:
        return bool(self.get(key))

    def _object(self, key: str) -> dict[str, Any]:
        value = self.get(key)
        return value if isinstance(value, dict) else {}

    def _list(self, key: str) -> list[Any]:
        value = self.get(key)
        return list(value) if isinstance(value, list) else []


class StepResult(Result):
    """One command or script line (``replay click @e3``): what it did, to what, and what it recorded."""

    __slots__ = ()

    @property
    def command(self) -> str:
        """The command (``snapshot``, ``click`` …)."""
        return self._text("command")

    @property
    def text(self) -> str:
        """A snapshot's text."""
        return self._text("text")

    @property
    def target(self) -> str | None:
        """The element acted on, described."""
        return self._maybe("target")

    @property
    def passed(self) -> bool:
        """An ``is`` check held."""
        return self._flag("pass")

    @property
    def predicate(self) -> str:
        """An ``is`` check's predicate."""
        return self._text("predicate")

    @property
    def observed(self) -> str:
        """What an ``is`` check saw."""
        return self._text("observed")

    @property
    def recorded(self) -> bool:
        """The step went into the recording."""
        return self._flag("recorded")

    @property
    def selector(self) -> str | None:
        """The selector it was recorded with."""
        return self._maybe("selector")

    @property
    def verification(self) -> str:
        """How its identity is verified."""
        return self._text("verification")

    @property
    def effect(self) -> str | None:
        """What the step did (SPEC §15)."""
        return self._maybe("effect")

    @property
    def warning(self) -> str | None:
        """What the person should know."""
        return self._maybe("warning")

    @property
    def path(self) -> str | None:
        """A file it saved (a screenshot)."""
        return self._maybe("path")

    @property
    def session(self) -> str:
        return self._text("session")

    @property
    def recording(self) -> bool:
        return self._flag("recording")

    @property
    def devtools(self) -> str | None:
        """A recording's DevTools endpoint."""
        return self._maybe("devtools")

    @property
    def acted(self) -> bool:
        """The built-in healer performed the step."""
        return self._flag("acted")

    @property
    def reason(self) -> str:
        """Why the built-in healer acted, or abstained."""
        return self._text("reason")

    @property
    def has_value(self) -> bool:
        """It read a value (``get``)."""
        return "value" in self

    @property
    def value(self) -> Any:
        """The value it read."""
        return self.get("value")

    @property
    def resolution_kind(self) -> str | None:
        """How its target was found (``tree``, ``match`` …), when it had one."""
        kind = self._object("resolution").get("kind")
        return None if kind is None else str(kind)

    @property
    def match_count(self) -> int:
        """How many elements its target's selector matched."""
        return int(self._object("resolution").get("matchCount") or 1)

    @property
    def score(self) -> Any:
        """The built-in healer's score of the element it chose."""
        return self.get("score")


class Timing(Result):
    """One step of a run: how long it took, and what drifted without stopping it (SPEC §5, §15)."""

    __slots__ = ()

    @property
    def index(self) -> int:
        return self._number("index")

    @property
    def line(self) -> int:
        return self._number("line")

    @property
    def command(self) -> str:
        return self._text("command")

    @property
    def ms(self) -> float:
        """How long it took."""
        return float(self.get("ms") or 0)

    @property
    def drift(self) -> list[str]:
        """What changed without stopping the run, said."""
        return [str(d) for d in self._list("drift")]


class Repair(Result):
    """An armed repair: its state and target."""

    __slots__ = ()

    @property
    def state(self) -> str:
        """``ARMED``, ``COMPLETE`` …"""
        return self._text("state")

    @property
    def target(self) -> str:
        """Where its healed script goes."""
        return self._text("target")


class RunResult(Result):
    """A run that reached the end of its plan."""

    __slots__ = ()

    @property
    def ran(self) -> int:
        return self._number("ran")

    @property
    def healed(self) -> str | None:
        """The healed script its repair wrote (its session closed)."""
        return self._maybe("healed")

    @property
    def session(self) -> str:
        return self._text("session")

    @property
    def elapsed_seconds(self) -> float:
        """How long it took."""
        return float(self.get("elapsedSeconds") or 0)

    @property
    def timings(self) -> list[Timing]:
        """Each step's timing."""
        return [Timing(t) for t in self._list("timings")]

    @property
    def repair(self) -> Repair | None:
        """Its armed repair, if any."""
        return Repair(self._object("repair")) if self.get("repair") else None


class Verified(Result):
    """``close --verify``: the healed script replayed in a fresh session."""

    __slots__ = ()

    @property
    def passed(self) -> bool:
        return self._flag("passed")

    @property
    def steps(self) -> int:
        return self._number("steps")

    @property
    def diverged(self) -> bool:
        """It diverged (else it passed, or did not run: ``error_message``)."""
        return "divergence" in self

    @property
    def divergence_kind(self) -> str:
        """Its divergence's kind."""
        return str(self._object("divergence").get("kind") or "")

    @property
    def divergence_step(self) -> int:
        """Its divergence's plan step."""
        step = self._object("divergence").get("step")
        return int(step.get("index") or 0) if isinstance(step, dict) else 0

    @property
    def error_message(self) -> str:
        """Why it did not run."""
        return str(self._object("error").get("message") or "")


class Closed(Result):
    """A session closed, and what it published."""

    __slots__ = ()

    @property
    def closed(self) -> str:
        return self._text("closed")

    @property
    def script(self) -> str | None:
        """The recording it wrote."""
        return self._maybe("script")

    @property
    def healed(self) -> str | None:
        """The healed script it wrote."""
        return self._maybe("healed")

    @property
    def rejected(self) -> str | None:
        """A heal left for review, not verified."""
        return self._maybe("rejected")

    @property
    def aborted(self) -> str | None:
        """Why its repair was given up."""
        return self._maybe("aborted")

    @property
    def warning(self) -> str | None:
        """What the person should know."""
        return self._maybe("warning")

    @property
    def verify(self) -> Verified | None:
        """``--verify``'s replay of the healed script."""
        return Verified(self._object("verify")) if self.get("verify") is not None else None


class SessionEntry(Result):
    """An open session, or a recording a stopped daemon left (``orphaned``)."""

    __slots__ = ()

    @property
    def name(self) -> str:
        return self._text("name")

    @property
    def orphaned(self) -> bool:
        """A stopped daemon left its recording."""
        return self._flag("orphaned")

    @property
    def actions(self) -> int:
        """An orphaned recording's actions."""
        return self._number("actions")

    @property
    def url(self) -> str:
        return self._text("url")

    @property
    def recording(self) -> bool:
        return self._flag("recording")

    @property
    def recorded(self) -> int:
        """Script-bound actions recorded so far."""
        return self._number("recorded")

    @property
    def idle_seconds(self) -> Any:
        """Since its last request."""
        return self.get("idleSeconds")


class RecordEvent(Result):
    """What a recording by hand did (SPEC §16): a step written, a secret, a refusal, the end."""

    __slots__ = ()

    @property
    def event(self) -> str:
        """``ready``, ``step``, ``variable``, ``refused``, ``stopped``."""
        return self._text("event")

    @property
    def session(self) -> str:
        return self._text("session")

    @property
    def cdp(self) -> str | None:
        """``ready``: the DevTools endpoint."""
        return self._maybe("cdp")

    @property
    def step(self) -> int:
        """A step's number."""
        return self._number("step")

    @property
    def line(self) -> str:
        """A step as written."""
        return self._text("line")

    @property
    def verification(self) -> str:
        """How its identity is verified."""
        return self._text("verification")

    @property
    def effect(self) -> str | None:
        """What it did."""
        return self._maybe("effect")

    @property
    def warning(self) -> str | None:
        """What the person should know."""
        return self._maybe("warning")

    @property
    def name(self) -> str:
        """A secret's variable."""
        return self._text("name")

    @property
    def code(self) -> str:
        """Why a gesture was refused: its code."""
        return self._text("code")

    @property
    def message(self) -> str:
        """… its message."""
        return self._text("message")

    @property
    def hint(self) -> str | None:
        """… its hint."""
        return self._maybe("hint")

    @property
    def script(self) -> str | None:
        """Where the script was written."""
        return self._maybe("script")

    @property
    def variables(self) -> list[str]:
        """The secrets a replay must be given."""
        return [str(v) for v in self._list("variables")]


class RecordEvents(Result):
    """A recording's events from a number on."""

    __slots__ = ()

    @property
    def next(self) -> int:
        return self._number("next")

    @property
    def ended(self) -> bool:
        return self._flag("ended")

    @property
    def events(self) -> list[RecordEvent]:
        return [RecordEvent(e) for e in self._list("events")]


def timings_of(details: dict[str, Any] | None) -> list[Timing]:
    """The step timings an error's details carry (a run that stopped)."""
    timings = (details or {}).get("timings")
    return [Timing(t) for t in timings] if isinstance(timings, list) else []
