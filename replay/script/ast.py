"""The `.ad` script model: one item per physical line, so formatting preserves line numbers."""

from __future__ import annotations

from dataclasses import dataclass, field

from replay.platforms import DEFAULT_PLATFORM
from replay.script.evidence import TargetEvidence
from replay.script.selector import Selector


@dataclass(frozen=True)
class Target:
    """What an element step acts on: a selector expression, or a ref with an optional label hint."""

    selector: Selector | None = None
    ref: str | None = None
    hint: str | None = None


@dataclass(frozen=True)
class Blank:
    """An empty line."""

    line: int


@dataclass(frozen=True)
class Comment:
    """A ``#`` comment line, kept verbatim (trailing whitespace dropped)."""

    line: int
    text: str


@dataclass(frozen=True)
class Annotation:
    """A ``# replay:target-v1`` line; it binds to the action on the next line."""

    line: int
    evidence: TargetEvidence


@dataclass(frozen=True)
class Context:
    """A ``context key=value…`` header line."""

    line: int
    pairs: tuple[tuple[str, str], ...]


@dataclass(frozen=True)
class Env:
    """An ``env KEY=VALUE`` directive."""

    line: int
    key: str
    value: str


@dataclass(frozen=True)
class Action:
    """One executable line: a command, its form, its parameters and flags."""

    line: int
    command: str
    form: str
    params: tuple[tuple[str, object], ...]
    flags: tuple[tuple[str, str | bool], ...] = ()
    annotation: TargetEvidence | None = None

    def param(self, name: str, default: object = None) -> object:
        """The value of parameter ``name`` or ``default``."""
        for key, value in self.params:
            if key == name:
                return value
        return default

    def flag(self, name: str) -> str | bool | None:
        """The value of flag ``name`` (True for a switch) or None."""
        for key, value in self.flags:
            if key == name:
                return value
        return None

    @property
    def target(self) -> Target | None:
        """The element target of this action, if it has one."""
        value = self.param("target")
        return value if isinstance(value, Target) else None


Item = Blank | Comment | Annotation | Context | Env | Action


@dataclass(frozen=True)
class Script:
    """A parsed script: its items in line order plus the merged header and env."""

    path: str
    items: tuple[Item, ...]
    context: dict[str, str] = field(default_factory=dict)
    env: dict[str, str] = field(default_factory=dict)
    source: str | None = None  # the resolved path the digest covers; defaults to ``path``

    @property
    def platform(self) -> str:
        """Its ``context platform=`` (else the default platform)."""
        return self.context.get("platform", DEFAULT_PLATFORM)

    @property
    def actions(self) -> tuple[Action, ...]:
        """The executable lines in order."""
        return tuple(i for i in self.items if isinstance(i, Action))
