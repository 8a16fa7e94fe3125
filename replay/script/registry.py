"""The command registry: every `.ad` command declared once (design §3, STYLE.md).

The parser, the formatter, the CLI, the MCP server and the recorder read these declarations
through the named predicates at the bottom; no other module keeps its own command table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from replay.platforms import ANDROID as ANDROID  # (callers read the platforms beside the commands)
from replay.platforms import PLATFORMS as PLATFORMS
from replay.platforms import WEB as WEB
from replay.script.declare import *  # the declaration types and kinds, named here too
from replay.script.foreign import FOREIGN
from replay.script.literals import is_int, looks_like_coord
from replay.script.tokens import Token

# `replay --help` groups, in the order they are listed (a command's ``group`` names one)
GROUPS = (
    ("interact", "Drive a session"),
    ("inspect", "Look at the screen"),
    ("scripts", "Work with .ad scripts"),
    ("replay", "Replay and heal"),
    ("sessions", "Sessions, the daemon and MCP"),
)


def _first_is_int(toks: Sequence[Token]) -> bool:
    return len(toks) == 1 and not toks[0].quoted and is_int(toks[0].text)


def _press_is_target(toks: Sequence[Token]) -> bool:
    # a ref, a quoted text or a selector expression taps an element (agent-device); else a key
    if not toks:
        return False
    first = toks[0]
    return first.quoted or first.text.startswith("@") or len(toks) > 1 or "=" in first.text


def _press_is_point(toks: Sequence[Token]) -> bool:
    return len(toks) == 2 and all(not t.quoted and looks_like_coord(t.text) for t in toks)


_FIND_LOCATORS = ("any", "text", "label", "value", "role", "id", "placeholder")
_FIND_ACTIONS = ("click", "dblclick", "hover", "fill", "type", "check", "uncheck", "focus")
_FIND_READS = ("exists", "wait", "get")


def _find_acts(toks: Sequence[Token]) -> bool:
    return any(not t.quoted and t.text in _FIND_ACTIONS for t in toks[1:])


_DIRECTIONS = ("up", "down", "left", "right")
_PREDICATES = ("visible", "hidden", "exists", "absent", "enabled", "disabled", "checked", "text")


def _target_cmd(
    name: str,
    summary: str,
    *more: Param,
    platforms: tuple[str, ...] = PLATFORMS,
    flags: tuple[Flag, ...] = (),
) -> Command:
    """A command of one form: TARGET (the rest of the line, or one token when ``more`` follow) and ``more``."""
    target = Param("target", TARGET if more else TARGET_REST)
    form = Form("target", (target, *more), targets_element=True, phase=PHASE_ACT, op=name)
    return Command(name, summary, (form,), flags=flags, platforms=platforms)


COMMANDS: dict[str, Command] = {}


def _add(cmd: Command) -> None:
    COMMANDS[cmd.name] = cmd


_add(
    Command(
        "open",
        "Navigate to URL (web) or launch an app (android).",
        (Form("url", (Param("url", URL), Param("url2", URL, optional=True)), op="navigate"),),
        flags=(Flag("--relaunch"), Flag("--clear-state", platforms=(ANDROID,)), Flag("--launch-url", True, (ANDROID,))),
    )
)
_add(
    _target_cmd(
        "click",
        "Click the element (--button right: a context click, web).",
        flags=(Flag("--button", True, (WEB,), choices=("left", "right", "middle")),),
    )
)
_add(_target_cmd("dblclick", "Double-click the element (android: two taps)."))
_add(_target_cmd("hover", "Move the pointer over the element.", platforms=(WEB,)))
_add(_target_cmd("drag", "Press on the element and start dragging it (the next step is its `drop`).", platforms=(WEB,)))
_add(_target_cmd("drop", "Drop what `drag` holds on the element (its centre).", platforms=(WEB,)))
_add(_target_cmd("fill", "Clear the field and type TEXT into it.", Param("text", TEXT, typed=True)))
_add(
    Command(
        "type",
        "Type TEXT into the focused element.",
        (Form("text", (Param("text", TEXT, typed=True),), op="type", evidence=True),),  # (its effect, design §15)
    )
)
_add(
    Command(
        "press",
        "Press a key or chord (Enter, Tab, Control+A; --count N times); on an element or at X Y (px or %), a tap.",
        (
            Form("point", (Param("x", COORD), Param("y", COORD)), matches=_press_is_point, op="device"),
            Form(
                "target",
                (Param("target", TARGET_REST),),
                targets_element=True,
                phase=PHASE_ACT,
                matches=_press_is_target,
                op="click",
            ),
            Form("key", (Param("key", KEY),), op="press", evidence=True),  # what the key did (design §15)
        ),
        flags=(Flag("--count", True, whole_number=True),),
    )
)
_add(
    _target_cmd(
        "upload",
        "Give the file at PATH to a file input, or to the file chooser the element opens (web).",
        Param("path", TEXT),
        platforms=(WEB,),
    )
)
_add(_target_cmd("check", "Check a checkbox or radio."))
_add(_target_cmd("uncheck", "Uncheck a checkbox."))
_add(_target_cmd("select", "Select the option VALUE (value or label) of a <select>.", Param("value", TEXT)))
_add(
    Command(
        "scroll",
        "Scroll the page (AMOUNT ≤ 1: of the viewport, else px; --until TARGET shows, ≤ --max N) or TARGET into view.",
        (
            Form(
                "direction",
                (Param("direction", CHOICE, choices=_DIRECTIONS), Param("amount", NUMBER, optional=True)),
                matches=first_bare_in(_DIRECTIONS),
                op="scroll_page",
            ),
            Form("target", (Param("target", TARGET_REST),), targets_element=True, phase=PHASE_ACT, op="scroll"),
        ),
        flags=(Flag("--until", True, selector=True), Flag("--max", True, whole_number=True)),
    )
)
_add(Command("back", "Go back in history.", (Form("none", (), op="history"),)))
_add(Command("forward", "Go forward in history.", (Form("none", (), op="history"),), platforms=(WEB,)))
_add(Command("home", "Go to the device's home screen.", (Form("none", (), op="history"),), platforms=(ANDROID,)))
_add(
    Command(
        "swipe",
        "Swipe from X1,Y1 to X2,Y2 in MS (device px); --count N, --pause-ms MS, --pattern one-way|ping-pong.",
        (
            Form(
                "points",
                (
                    Param("x1", COORD),
                    Param("y1", COORD),
                    Param("x2", COORD),
                    Param("y2", COORD),
                    Param("ms", INT, optional=True),
                ),
                op="device",
            ),
        ),
        flags=(
            Flag("--count", True, whole_number=True),
            Flag("--pause-ms", True, whole_number=True),
            Flag("--pattern", True),
        ),
        platforms=(ANDROID,),
    )
)
OLDER_SPELLINGS = frozenset({"longpress"})  # read in scripts; never offered as a tool of their own (MCP)
for _name, _said in (("long-press", ""), ("longpress", " (agent-device's older spelling of long-press)")):
    _add(
        Command(
            _name,
            f"Long-press at X Y (device px or %) for MS, 800 by default{_said}.",
            (Form("point", (Param("x", COORD), Param("y", COORD), Param("ms", INT, optional=True)), op="device"),),
            platforms=(ANDROID,),
        )
    )
_add(
    Command(
        "keyboard",
        "The on-screen keyboard (android): `keyboard status` says whether it shows; `keyboard dismiss` hides it.",
        (
            Form(
                "status",
                (Param("what", KEYWORD, choices=("status",)),),
                observation=True,
                matches=first_bare_in(("status",)),
                op="device",
            ),
            Form("dismiss", (Param("what", KEYWORD, choices=("dismiss",)),), op="device"),
        ),
        platforms=(ANDROID,),
    )
)
_appstate = Form("none", (), op="device", observation=True)
_add(Command("appstate", "Say which app is in front.", (_appstate,), platforms=(ANDROID,), group="inspect"))
_add(Command("reload", "Reload the current page (web).", (Form("none", (), op="history"),), platforms=(WEB,)))


_add(
    Command(
        "tab",
        "Tabs: `tab [list]` lists them, `tab N` brings the Nth to the front, `tab new [URL]` opens one, "
        "`tab close [N]` closes one (the front one by default). A tab the page opens comes to the front by itself.",
        (
            verb_form("list", op="tab", observation=True, bare=True),
            verb_form("new", Param("url", URL, optional=True), op="tab"),
            verb_form("close", Param("number", INDEX, optional=True), op="tab"),
            Form("index", (Param("number", INDEX),), op="tab"),
        ),
        platforms=(WEB,),
    )
)
_add(
    Command(
        "alert",
        "A JavaScript dialog: `alert [get]` says the open one, `alert wait [MS]` waits for one, "
        "`alert accept [TEXT]` (TEXT: a prompt's answer) or `alert dismiss` answers it; "
        "--message M: only a dialog that says M (else the step stops, the dialog unanswered).",
        (
            verb_form("get", op="dialog", observation=True, bare=True),
            verb_form("wait", Param("ms", INT, optional=True), op="dialog"),
            verb_form("accept", Param("text", TEXT, optional=True, typed=True), op="dialog"),
            verb_form("dismiss", op="dialog"),
        ),
        flags=(Flag("--message", True),),
        platforms=(WEB,),
    )
)
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
                matches=first_bare_in(("text",)),
                op="wait_text",
                evidence=True,
            ),
            Form(
                "absent",
                (Param("kw", KEYWORD, choices=("absent",)), Param("target", TARGET), Param("ms", INT, optional=True)),
                targets_element=True,
                observation=False,
                phase=PHASE_WAIT,
                matches=first_bare_in(("absent",)),
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
                matches=first_bare_in(("text",)),
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
        return self._kind(name, form, param) == INT

    def is_coordinate(self, name: str, form: str, param: str) -> bool:
        """Whether ``param`` of that form is a screen coordinate (px, or % of the screen)."""
        return self._kind(name, form, param) == COORD

    def _kind(self, name: str, form: str, param: str) -> str | None:
        cmd = self.commands.get(name)
        forms = [f for f in cmd.forms if f.name == form] if cmd is not None else []
        return next((p.kind for f in forms for p in f.params if p.name == param), None)


REGISTRY = Registry()
