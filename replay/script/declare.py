"""What a command declaration is made of (the registry, ``replay.script.registry``, declares them)."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass

from replay.platforms import PLATFORMS
from replay.script.tokens import Token

__all__ = [
    "KEYWORD",
    "CHOICE",
    "TARGET",
    "TARGET_REST",
    "TEXT",
    "INT",
    "INDEX",
    "NUMBER",
    "COORD",
    "KEY",
    "URL",
    "RAW",
    "BARE",
    "PHASE_ACT",
    "PHASE_WAIT",
    "PHASE_READ",
    "PHASE_NONE",
    "Param",
    "Form",
    "Flag",
    "Command",
    "GLOBAL_FLAGS",
    "first_bare_in",
    "verb_form",
]

# Param kinds
KEYWORD = "keyword"  # a fixed bare word (first token of a form)
CHOICE = "choice"  # one bare word of ``choices``
TARGET = "target"  # one token: a selector expression or @ref
TARGET_REST = "target_rest"  # the remaining tokens joined: selector, or @ref + label hint
TEXT = "text"  # any one token (string data)
INT = "int"  # a duration: a whole number of milliseconds
INDEX = "index"  # a position counted from 1 (a tab's number): not a duration
NUMBER = "number"  # a non-negative number
COORD = "coord"  # a screen coordinate: device px, or a percentage of the screen ("50%")
KEY = "key"  # a key or chord: Enter, Tab, Control+A
URL = "url"  # a URL or app name
RAW = "raw"  # all remaining tokens, kept verbatim (foreign commands)
BARE = (KEYWORD, CHOICE, INT, INDEX, NUMBER, COORD, KEY)  # read from one bare token: written back as it is

# Verification phases
PHASE_ACT = "act"  # resolve + verify identity + act
PHASE_WAIT = "wait"  # poll for the identity tier until the deadline
PHASE_READ = "read"  # resolve and read; no identity gate
PHASE_NONE = "none"  # no element


@dataclass(frozen=True)
class Param:
    """One positional parameter of a form."""

    name: str
    kind: str
    optional: bool = False
    choices: tuple[str, ...] = ()
    typed: bool = False  # text the user types: redacted in every report, log and artifact (design §6)


@dataclass(frozen=True)
class Form:
    """One syntactic shape of a command; ``matches`` picks it from the positional tokens.

    ``op`` names what the step pipeline does for it (``replay.engine.step``): an element op the
    driver performs (click, fill, …, ``read``), or a page-level stage (navigate, history, …);
    None for a shape this tool parses but does not perform.
    """

    name: str
    params: tuple[Param, ...]
    _: KW_ONLY
    targets_element: bool = False
    observation: bool = False
    phase: str = PHASE_NONE
    matches: Callable[[Sequence[Token]], bool] | None = None
    op: str | None = None
    evidence: bool = False  # carries target-v1 evidence though it names no element (wait text)

    @property
    def annotated(self) -> bool:
        """Whether a ``target-v1`` annotation may bind to this form."""
        return self.targets_element or self.evidence


@dataclass(frozen=True)
class Flag:
    """A per-command flag such as ``--relaunch`` or ``-s SCOPE``."""

    name: str
    takes_value: bool = False
    platforms: tuple[str, ...] = PLATFORMS
    whole_number: bool = False  # its value is a non-negative integer (-d DEPTH)
    choices: tuple[str, ...] = ()  # its value is one of these words (--button right)
    selector: bool = False  # its value is a selector expression (checked when the script is read)


@dataclass(frozen=True)
class Command:
    """A command declaration."""

    name: str
    summary: str
    forms: tuple[Form, ...]
    flags: tuple[Flag, ...] = ()
    platforms: tuple[str, ...] = PLATFORMS
    foreign: bool = False  # an agent-device command kept for compatibility, not performed here
    group: str = "interact"  # where `replay --help` lists it (see GROUPS)

    def form(self, name: str) -> Form:
        """The form named ``name`` (a parsed action always names one of its command's forms)."""
        return next(f for f in self.forms if f.name == name)

    def flag(self, name: str) -> Flag | None:
        """The flag declaration named ``name`` (incl. the global flags), or None."""
        for f in self.flags + GLOBAL_FLAGS:
            if f.name == name:
                return f
        return None


GLOBAL_FLAGS = (Flag("--record"), Flag("--no-record"))


def first_bare_in(words: tuple[str, ...]) -> Callable[[Sequence[Token]], bool]:
    """A form's ``matches``: its first token is one of ``words``, bare."""
    return lambda toks: bool(toks) and not toks[0].quoted and toks[0].text in words


def verb_form(verb: str, *params: Param, op: str, observation: bool = False, bare: bool = False) -> Form:
    """A form chosen by its first word, VERB (``bare``: the command alone is this form too)."""
    first = first_bare_in((verb,))
    matches = (lambda toks: not toks or first(toks)) if bare else first
    said = Param("verb", KEYWORD, optional=bare, choices=(verb,))
    return Form(verb, (said, *params), observation=observation, matches=matches, op=op)
