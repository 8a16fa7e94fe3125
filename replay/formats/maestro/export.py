"""`replay export --format maestro`: an `.ad` script as a Maestro flow, where the shapes overlap
(design §14). What a Maestro flow cannot say is refused with the `.ad` file and line — every problem
at once, nothing written. Exporting a flow `replay import` wrote, then importing it again, gives the
same script (a fixed point); a recorded script exports by each step's first selector alternative
that Maestro can express (its recorded evidence has no place in Maestro, and is dropped).
"""

from __future__ import annotations

import json
import re

from replay.errors import InvalidArgs, Location, ReplayError, ScriptErrors
from replay.formats.maestro.commands import ERASE_DEFAULT, LONG_PRESS, SWIPES, WAIT_MS
from replay.platforms import ANDROID, DEFAULT_PLATFORM, WEB
from replay.script.ast import Action, Script
from replay.script.selector import Alternative, Selector, Term

ID_SUFFIX = re.compile(r"^/(.+)\$$")  # id~="/X$": the part after the last / (what import writes)
ID_REGEX = re.compile(r"^\^\(\?:(.*)\)\$\|/\(\?=\[\^/\]\*\$\)\(\?:(.*)\)\$$")  # id~="^(?:R)$|/(?=[^/]*$)(?:R)$"
BOOLEANS = ("enabled", "checked", "selected", "focused")


def export_flow(script: Script) -> str:
    """The Maestro YAML of ``script`` (config document, `---`, commands), or ``ScriptErrors``."""
    problems: list[ReplayError] = []
    platform = script.context.get("platform", DEFAULT_PLATFORM)
    app: str | None = script.context.get("app")
    env = dict(script.env)
    commands: list[str] = []
    for action in script.actions:
        where = Location(script.path, action.line)
        try:
            line, opened = _command(action, platform, app)
        except _Cannot as why:
            problems.append(InvalidArgs(f"{action.command}: {why}", hint="see docs/maestro.md", location=where))
            continue
        if opened is not None:
            if app is not None and opened != app and platform == ANDROID:
                problems.append(InvalidArgs("a second app: a Maestro flow has one appId", location=where))
            app = app or opened
        if line is not None:
            commands.append(line)
    if app is None and platform == ANDROID:
        problems.append(InvalidArgs("no `open APP`: a Maestro flow needs an appId", location=Location(script.path, 1)))
    if problems:
        raise ScriptErrors(problems)
    config = [f"{'url' if platform == WEB else 'appId'}: {_scalar(app or '')}"]
    if env:
        config.append("env:")
        config += [f"  {name}: {_scalar(value)}" for name, value in env.items()]
    return "\n".join(config + ["---"] + commands) + "\n"


class _Cannot(Exception):
    """What Maestro cannot say."""


def _command(action: Action, platform: str, app: str | None) -> tuple[str | None, str | None]:
    """The YAML line of one step, and the app it opens (if it does)."""
    name, form = action.command, action.form
    if name == "open":
        url = str(action.param("url"))
        if action.param("url2"):
            raise _Cannot("open with two arguments has no Maestro form")
        if platform == WEB or "://" in url:
            return (f"- openLink: {_scalar(url)}" if "://" in url and platform == ANDROID else "- launchApp"), (
                None if "://" in url and platform == ANDROID else url
            )
        stop = action.flag("--relaunch") is True
        named = "" if app is None or url == app else f"\n    appId: {_scalar(url)}"
        clear = "\n    clearState: true" if action.flag("--clear-state") else ""
        if not named and not clear:
            return ("- launchApp" if stop else "- launchApp:\n    stopApp: false"), url
        line = f"- launchApp:{named}{clear}" + ("" if stop else "\n    stopApp: false")
        return line, (url if not named else None)
    if name == "close":
        return "- stopApp", None
    if name in ("click", "dblclick") and action.target is not None:
        verb = "tapOn" if name == "click" else "doubleTapOn"
        return f"- {verb}:\n{_selector_yaml(action)}", None
    if name == "fill" and action.target is not None:  # Maestro fills a field in three commands
        text = _scalar(str(action.param("text")))
        return f"- tapOn:\n{_selector_yaml(action)}\n- eraseText\n- inputText: {text}", None
    if name == "type":
        return f"- inputText: {_scalar(str(action.param('text')))}", None
    if name == "press" and form == "key":
        return _press(action), None
    if (name == "press" or name in LONG_PRESS) and form == "point":
        at = f"{action.param('x')},{action.param('y')}"
        verb = "tapOn" if name == "press" else "longPressOn"  # (Maestro holds a long press as it sees fit)
        return f"- {verb}:\n    point: {_scalar(at)}", None
    if name in ("back", "home"):
        return ("- back" if name == "back" else "- pressKey: Home"), None
    if name == "keyboard" and form == "dismiss":
        return "- hideKeyboard", None
    if name == "wait" and form in ("target", "absent"):
        return _wait(action), None
    if name == "wait" and form == "ms" and action.param("ms") == "500":
        return "- waitForAnimationToEnd", None
    if name == "scroll" and form == "direction" and action.flag("--until"):
        return _scroll_until(action), None
    if name == "scroll" and form == "direction" and action.param("direction") == "down" and not action.param("amount"):
        return "- scroll", None
    if name == "swipe":
        return _swipe(action), None
    if name == "screenshot" and action.param("path"):
        path = str(action.param("path"))
        return f"- takeScreenshot: {_scalar(path[:-4] if path.endswith('.png') else path)}", None
    raise _Cannot(f"`{name}` ({form}) has no Maestro command replay writes")


def _press(action: Action) -> str:
    key = str(action.param("key")).lower()
    count = action.flag("--count")
    if key == "backspace":
        if count == ERASE_DEFAULT:
            return "- eraseText"  # Maestro's default: the flow it was imported from, again
        return f"- eraseText: {count}" if count else "- pressKey: Backspace"
    if key == "enter" and not count:
        return "- pressKey: Enter"
    raise _Cannot(f"press {action.param('key')}: Maestro presses Enter, Backspace, Home and Back")


def _wait(action: Action) -> str:
    ms = action.param("ms")
    verb = "assertNotVisible" if action.form == "absent" else "assertVisible"
    selector = _selector_yaml(action)
    if ms in (None, str(WAIT_MS)):
        return f"- {verb}:\n{selector}"
    key = "notVisible" if action.form == "absent" else "visible"
    return f"- extendedWaitUntil:\n    {key}:\n{_indent(selector)}\n    timeout: {ms}"


def _scroll_until(action: Action) -> str:
    from replay.script.selector import parse_selector

    if action.param("amount") or str(action.flag("--max") or "10") != "10":
        raise _Cannot("scroll --until with an amount or another --max has no Maestro form")
    selector = parse_selector(str(action.flag("--until")))
    element = _alternative_of(selector)
    direction = str(action.param("direction")).upper()
    return f"- scrollUntilVisible:\n    element:\n{_indent(element)}\n    direction: {direction}"


def _swipe(action: Action) -> str:
    points = tuple(str(action.param(k)) for k in ("x1", "y1", "x2", "y2"))
    ms = action.param("ms") or "300"
    if action.flags:
        raise _Cannot("swipe --count/--pause-ms/--pattern have no Maestro form")
    for direction, shape in SWIPES.items():
        if points == shape:
            return f"- swipe:\n    direction: {direction}\n    duration: {ms}"
    start, end = f"{points[0]}, {points[1]}", f"{points[2]}, {points[3]}"
    return f"- swipe:\n    start: {_scalar(start)}\n    end: {_scalar(end)}\n    duration: {ms}"


def _selector_yaml(action: Action) -> str:
    """The step's target as Maestro selector fields (4 spaces in), from its first expressible alternative."""
    target = action.target
    assert target is not None
    if target.ref is not None or target.selector is None:
        raise _Cannot("a ref (@eN) is no selector: record or heal the step first")
    return _alternative_of(target.selector)


def _alternative_of(selector: Selector) -> str:
    reasons = []
    for alternative in selector.alternatives:
        try:
            return _alternative(alternative)
        except _Cannot as why:
            reasons.append(str(why))
    raise _Cannot("no alternative of the selector has a Maestro form (" + "; ".join(reasons) + ")")


def _alternative(alternative: Alternative) -> str:
    links = alternative.links()
    fields = _link(links[-1])
    for parent in reversed(links[:-1]):  # A >> B: B is a child of A (Maestro: of A itself)
        fields.append("childOf:\n" + "\n".join("  " + line for f in _link(parent) for line in f.split("\n")))
    return "\n".join("    " + line for f in fields for line in f.split("\n"))


def _link(link: Alternative) -> list[str]:
    if link.bare is not None:
        return [f"text: {_scalar(_plain(link.bare))}"]
    return _fields(link.terms)


def _fields(terms: tuple[Term, ...]) -> list[str]:
    out: list[str] = []
    for term in terms:
        key, op, value = term.key, term.op, term.value
        if key in ("label", "text", "placeholder") and op == "=":
            out.append(f"text: {_scalar(_plain(str(value)))}")
        elif key in ("label", "text", "placeholder") and op == "~=" and str(value).startswith("^(?:"):
            out.append(f"text: {_scalar(str(value)[4:-2])}")
        elif key == "id" and op == "=":
            out.append(f"id: {_scalar(_plain(str(value)))}")
        elif key == "id" and op == "~=" and (m := ID_REGEX.match(str(value))) and m.group(1) == m.group(2):
            out.append(f"id: {_scalar(m.group(1))}")
        elif key == "id" and op == "~=" and ID_SUFFIX.match(str(value)):
            out.append(f"id: {_scalar(ID_SUFFIX.match(str(value)).group(1))}")  # type: ignore[union-attr]
        elif key in BOOLEANS:
            out.append(f"{key}: {'false' if value in (False, 'false') else 'true'}")
        elif key in ("at", "nth"):  # nth counts in document order: the nearest Maestro has
            out.append(f"index: {value}")
        elif key == "role":
            continue  # Maestro has no roles: the text or id that follows singles the node out
        else:
            raise _Cannot(f"{key}{op}: Maestro has no such selector field")
    keys = [f.split(":", 1)[0] for f in out]
    if len(set(keys)) != len(keys) or not ({"text", "id"} & set(keys)):
        raise _Cannot("Maestro selects by one text and one id")
    return out


def _plain(text: str) -> str:
    """A text as a Maestro regex that matches exactly it."""
    return re.sub(r"([.^$*+?()\[\]{}|\\])", r"\\\1", text)


def _scalar(value: str) -> str:
    """A YAML scalar: plain when it reads back as the same string, else single-quoted (a regex's
    backslashes kept as they are), else double-quoted."""
    if re.fullmatch(r"[A-Za-z_][\w .,/@%:-]*", value) and not value.endswith((":", " ")) and ": " not in value:
        if value.lower() not in ("true", "false", "yes", "no", "on", "off", "null", "~"):
            return value
    if "'" not in value and value.isprintable():
        return f"'{value}'"
    return json.dumps(value, ensure_ascii=False)


def _indent(block: str) -> str:
    return "\n".join("  " + line for line in block.split("\n"))
