"""The command registry: every `.ad` command declared once (SPEC §3, STYLE.md).

The parser, the formatter, the CLI, the MCP server and the recorder read these declarations
through the named predicates at the bottom; no other module keeps its own command table.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import KW_ONLY, dataclass, field

from replay.script.foreign import ANDROID as ANDROID  # (the platforms: declared with the commands)
from replay.script.foreign import FOREIGN
from replay.script.foreign import PLATFORMS as PLATFORMS
from replay.script.foreign import WEB as WEB
from replay.script.literals import is_int, is_number
from replay.script.tokens import Token

# Param kinds
KEYWORD = "keyword"  # a fixed bare word (first token of a form)
CHOICE = "choice"  # one bare word of ``choices``
TARGET = "target"  # one token: a selector expression or @ref
TARGET_REST = "target_rest"  # the remaining tokens joined: selector, or @ref + label hint
TEXT = "text"  # any one token (string data)
INT = "int"  # a non-negative integer
NUMBER = "number"  # a non-negative number
KEY = "key"  # a key or chord: Enter, Tab, Control+A
URL = "url"  # a URL or app name
RAW = "raw"  # all remaining tokens, kept verbatim (foreign commands)

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
    typed: bool = False  # text the user types: redacted in every report, log and artifact (SPEC §6)


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

# `replay --help` groups, in the order they are listed (a command's ``group`` names one)
GROUPS = (
    ("interact", "Drive a session"),
    ("inspect", "Look at the screen"),
    ("scripts", "Work with .ad scripts"),
    ("replay", "Replay and heal"),
    ("sessions", "Sessions, the daemon and MCP"),
)


def _first_bare_in(words: tuple[str, ...]) -> Callable[[Sequence[Token]], bool]:
    return lambda toks: bool(toks) and not toks[0].quoted and toks[0].text in words


def _first_is_int(toks: Sequence[Token]) -> bool:
    return len(toks) == 1 and not toks[0].quoted and is_int(toks[0].text)


def _press_is_target(toks: Sequence[Token]) -> bool:
    # a ref, a quoted text or a selector expression taps an element (agent-device); else a key
    if not toks:
        return False
    first = toks[0]
    return first.quoted or first.text.startswith("@") or len(toks) > 1 or "=" in first.text


def _press_is_point(toks: Sequence[Token]) -> bool:
    return len(toks) == 2 and all(not t.quoted and is_number(t.text) for t in toks)


_FIND_LOCATORS = ("any", "text", "label", "value", "role", "id", "placeholder")
_FIND_ACTIONS = ("click", "dblclick", "hover", "fill", "type", "check", "uncheck", "focus")
_FIND_READS = ("exists", "wait", "get")


def _find_acts(toks: Sequence[Token]) -> bool:
    return any(not t.quoted and t.text in _FIND_ACTIONS for t in toks[1:])


_DIRECTIONS = ("up", "down", "left", "right")
_PREDICATES = ("visible", "hidden", "exists", "absent", "enabled", "disabled", "checked", "text")


def _target_cmd(name: str, summary: str, *, platforms: tuple[str, ...] = PLATFORMS) -> Command:
    return Command(
        name,
        summary,
        (Form("target", (Param("target", TARGET_REST),), targets_element=True, phase=PHASE_ACT, op=name),),
        platforms=platforms,
    )


COMMANDS: dict[str, Command] = {}


def _add(cmd: Command) -> None:
    COMMANDS[cmd.name] = cmd


_add(
    Command(
        "open",
        "Navigate to URL (web) or launch an app (android).",
        (Form("url", (Param("url", URL), Param("url2", URL, optional=True)), op="navigate"),),
        flags=(Flag("--relaunch"), Flag("--launch-url", True, (ANDROID,))),
    )
)
_add(_target_cmd("click", "Click the element."))
_add(_target_cmd("dblclick", "Double-click the element.", platforms=(WEB,)))
_add(_target_cmd("hover", "Move the pointer over the element.", platforms=(WEB,)))
_add(
    Command(
        "fill",
        "Clear the field and type TEXT into it.",
        (
            Form(
                "target",
                (Param("target", TARGET), Param("text", TEXT, typed=True)),
                targets_element=True,
                phase=PHASE_ACT,
                op="fill",
            ),
        ),
    )
)
_add(
    Command(
        "type", "Type TEXT into the focused element.", (Form("text", (Param("text", TEXT, typed=True),), op="type"),)
    )
)
_add(
    Command(
        "press",
        "Press a key or chord (Enter, Tab, Control+A); agent-device's press on an element is a tap.",
        (
            Form("point", (Param("x", NUMBER), Param("y", NUMBER)), matches=_press_is_point),
            Form(
                "target",
                (Param("target", TARGET_REST),),
                targets_element=True,
                phase=PHASE_ACT,
                matches=_press_is_target,
                op="click",
            ),
            Form("key", (Param("key", KEY),), op="press"),
        ),
    )
)
_add(_target_cmd("check", "Check a checkbox or radio."))
_add(_target_cmd("uncheck", "Uncheck a checkbox."))
_add(
    Command(
        "select",
        "Select the option VALUE (value or label) of a <select>.",
        (
            Form(
                "target",
                (Param("target", TARGET), Param("value", TEXT)),
                targets_element=True,
                phase=PHASE_ACT,
                op="select",
            ),
        ),
    )
)
_add(
    Command(
        "scroll",
        "Scroll the page (AMOUNT: fraction of the viewport ≤ 1, else CSS px) or scroll TARGET into view.",
        (
            Form(
                "direction",
                (Param("direction", CHOICE, choices=_DIRECTIONS), Param("amount", NUMBER, optional=True)),
                matches=_first_bare_in(_DIRECTIONS),
                op="scroll_page",
            ),
            Form("target", (Param("target", TARGET_REST),), targets_element=True, phase=PHASE_ACT, op="scroll"),
        ),
    )
)
_add(Command("back", "Go back in history.", (Form("none", (), op="history"),)))
_add(Command("forward", "Go forward in history.", (Form("none", (), op="history"),), platforms=(WEB,)))
_add(Command("reload", "Reload the current page (web).", (Form("none", (), op="history"),), platforms=(WEB,)))
_add(
    Command(
        "wait",
        "Wait MS, for TARGET, for text, or for TARGET to be absent.",
        (
            Form("ms", (Param("ms", INT),), matches=_first_is_int, op="pause"),
            Form(
                "text",
                (Param("kw", KEYWORD, choices=("text",)), Param("text", TEXT), Param("ms", INT, optional=True)),
                observation=False,
                matches=_first_bare_in(("text",)),
                op="wait_text",
                evidence=True,
            ),
            Form(
                "absent",
                (Param("kw", KEYWORD, choices=("absent",)), Param("target", TARGET), Param("ms", INT, optional=True)),
                targets_element=True,
                observation=False,
                phase=PHASE_WAIT,
                matches=_first_bare_in(("absent",)),
                op="wait_target",
            ),
            Form(
                "target",
                (Param("target", TARGET), Param("ms", INT, optional=True)),
                targets_element=True,
                observation=False,
                phase=PHASE_WAIT,
                op="wait_target",
            ),
        ),
    )
)
_add(
    Command(
        "is",
        "Assert a predicate of TARGET: visible|hidden|exists|absent|enabled|disabled|checked|text VALUE.",
        (
            Form(
                "text",
                (Param("predicate", KEYWORD, choices=("text",)), Param("target", TARGET), Param("value", TEXT)),
                targets_element=True,
                observation=True,
                phase=PHASE_READ,
                matches=_first_bare_in(("text",)),
                op="assert",
            ),
            Form(
                "state",
                (Param("predicate", CHOICE, choices=_PREDICATES[:-1]), Param("target", TARGET_REST)),
                targets_element=True,
                observation=True,
                phase=PHASE_READ,
                op="assert",
            ),
        ),
        group="inspect",
    )
)
_add(
    Command(
        "get",
        "Read text, value or attributes of TARGET.",
        (
            Form(
                "read",
                (Param("what", CHOICE, choices=("text", "value", "attrs")), Param("target", TARGET_REST)),
                targets_element=True,
                observation=True,
                phase=PHASE_READ,
                op="read",
            ),
        ),
        group="inspect",
    )
)
_add(
    Command(
        "find",
        "agent-device find: [LOCATOR] VALUE [ACTION [ARG]].",
        (
            Form(
                "act",
                (
                    Param("locator", CHOICE, optional=True, choices=_FIND_LOCATORS),
                    Param("value", TEXT),
                    Param("action", CHOICE, choices=_FIND_ACTIONS),
                    Param("arg", TEXT, optional=True, typed=True),
                ),
                targets_element=True,
                observation=False,
                phase=PHASE_ACT,
                matches=_find_acts,
                op="find",
            ),
            Form(
                "read",
                (
                    Param("locator", CHOICE, optional=True, choices=_FIND_LOCATORS),
                    Param("value", TEXT),
                    Param("action", CHOICE, optional=True, choices=_FIND_READS),
                    Param("arg", TEXT, optional=True, typed=True),
                ),
                targets_element=True,
                observation=True,
                phase=PHASE_READ,
                op="find",
            ),
        ),
    )
)
_add(
    Command(
        "snapshot",
        "Capture the UI tree (-i interactive only, -s SCOPE subtree).",
        (Form("none", (), observation=True, op="snapshot"),),
        flags=(Flag("-i"), Flag("-c"), Flag("-d", True, whole_number=True), Flag("-s", True), Flag("--raw")),
        group="inspect",
    )
)
_add(
    Command(
        "screenshot",
        "Save a screenshot to PATH.",
        (Form("path", (Param("path", TEXT, optional=True),), observation=True, op="screenshot"),),
        flags=(Flag("--full-page"),),
        group="inspect",
    )
)
_add(
    Command(
        "close",
        "Close the session (a terminal close ends the script).",
        (Form("none", (Param("app", TEXT, optional=True),), op="close"),),
    )
)

for _name, _platforms in FOREIGN.items():
    _add(
        Command(
            _name,
            "agent-device command (parsed for compatibility).",
            (Form("raw", (Param("args", RAW, optional=True),)),),
            platforms=_platforms,
            foreign=True,
        )
    )


@dataclass(frozen=True)
class Registry:
    """Named predicates over the declarations; callers ask here, never keep their own table."""

    commands: dict[str, Command] = field(default_factory=lambda: COMMANDS)

    def get(self, name: str) -> Command | None:
        """The declaration of ``name`` or None."""
        return self.commands.get(name)

    def supports(self, name: str, platform: str) -> bool:
        """Whether ``platform`` can perform ``name``."""
        cmd = self.commands.get(name)
        return cmd is not None and platform in cmd.platforms

    def native_names(self) -> list[str]:
        """Commands this tool performs on some platform (for help and the CLI)."""
        return [c.name for c in self.commands.values() if not c.foreign]

    def is_typed(self, name: str, param: str) -> bool:
        """Whether ``param`` of command ``name`` is text the user types (redacted everywhere)."""
        cmd = self.commands.get(name)
        return cmd is not None and any(p.name == param and p.typed for f in cmd.forms for p in f.params)

    def is_duration(self, name: str, form: str, param: str) -> bool:
        """Whether ``param`` of that form is a duration in ms (bounded by ``MAX_MS``)."""
        cmd = self.commands.get(name)
        forms = [f for f in cmd.forms if f.name == form] if cmd is not None else []
        return any(p.name == param and p.kind == INT for f in forms for p in f.params)


REGISTRY = Registry()
