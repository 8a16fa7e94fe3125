"""Each Maestro command replay imports, as the `.ad` line(s) it becomes (design §14; the golden table
is tests/unit/test_maestro.py)."""

from __future__ import annotations

import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from replay.formats.maestro.select import (
    VARIABLE,
    WHOLE,
    Refusal,
    app_shape,
    checked_text,
    point,
    quote,
    selector,
    whole_number,
)
from replay.formats.maestro.yaml_safe import Y
from replay.platforms import ANDROID, WEB
from replay.script.tokens import quote as token

MAX_REPEAT = 100  # repeat.times
ERASE_DEFAULT = "50"  # what Maestro's eraseText erases when it names no count
WAIT_MS = 17_000  # Maestro's assertVisible waits this long
SCROLLS = 10  # scrollUntilVisible: scrolls at most
LONG_PRESS_MS = 3000  # how long Maestro's longPressOn holds (../shared/research/maestro.md)
LONG_PRESS = ("long-press", "longpress")  # replay's command, and agent-device's older spelling
KEYS = {"enter": "press Enter", "backspace": "press Backspace", "home": "home", "back": "back"}
SWIPES = {  # Maestro's swipe directions, as start → end points of the screen
    "LEFT": ("90%", "50%", "10%", "50%"),
    "RIGHT": ("10%", "50%", "90%", "50%"),
    "UP": ("50%", "50%", "50%", "10%"),
    "DOWN": ("50%", "20%", "50%", "90%"),
}


@dataclass
class Flow:
    """One flow file being translated: where it is, and the values its `${NAME}`s take here."""

    path: str
    values: dict[str, str] = field(default_factory=dict)  # a runFlow's env: substituted in this flow


Importer = Any  # replay.formats.maestro.importer.Importer (which imports this module): emit, platform, app, …
Handler = Callable[[Importer, Y, "Y | None", Flow], None]
HANDLERS: dict[str, Handler] = {}


def handles(*names: str) -> Callable[[Handler], Handler]:
    def register(fn: Handler) -> Handler:
        for name in names:
            HANDLERS[name] = fn
        return fn

    return register


def _fields(arg: Y | None, allowed: tuple[str, ...], name: str) -> dict[str, Y]:
    """A command's map of arguments, every key known (``label``, Maestro's display name, allowed)."""
    if arg is None or not arg.is_map:
        return {}
    for key, value in arg.value.items():
        if key == "optional":
            if value.truthy():
                raise Refusal(value, f"{name} optional: a step that may fail silently: replay stops at every failure")
            continue
        if key not in (*allowed, "label"):
            raise Refusal(value, f"{name} {key}: not an argument replay imports")
    return dict(arg.value)


def _target(item: Y, arg: Y | None, name: str, notes: list[str]) -> str:
    if arg is None:
        raise Refusal(item, f"{name} needs a selector")
    if not arg.is_map:
        return selector(arg, notes)
    fields = {}
    for key, value in arg.value.items():
        if key in ("repeat", "delay", "waitToSettleTimeoutMs"):
            raise Refusal(value, f"{name} {key}: not an argument replay imports")
        if key == "retryTapIfNoChange":
            if value.truthy():
                notes.append("retryTapIfNoChange: replay taps once, after verifying the element")
        elif key == "optional":
            if value.truthy():
                raise Refusal(value, f"{name} optional: replay stops at every failure, by design")
        elif key != "label":
            fields[key] = value
    return selector(Y(fields, arg.line, arg.column), notes)


@handles("launchApp")
def launch_app(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("appId", "stopApp", "clearState", "clearKeychain"), "launchApp")
    if "clearKeychain" in fields and fields["clearKeychain"].truthy():
        raise Refusal(
            fields["clearKeychain"], "launchApp clearKeychain: an iOS keychain; replay drives android and web"
        )
    clear = "clearState" in fields and fields["clearState"].truthy()
    if clear and imp.platform != ANDROID:
        raise Refusal(fields["clearState"], "launchApp clearState: an app's data (android only)")
    app_id = fields.get("appId")
    if app_id is not None and app_id.is_map:  # one per platform: this flow's
        if imp.platform not in app_id.value:
            raise Refusal(app_id, f"appId: none for {imp.platform}")
        app_id = app_id.value[imp.platform]
    named = arg.value if arg is not None and arg.is_scalar else imp.app
    app = checked_text(app_id, "appId") if app_id is not None else named
    if not app:
        raise Refusal(item, "launchApp: no appId (in the config or the command)")
    stop = fields["stopApp"].truthy() if "stopApp" in fields else True
    if imp.platform == WEB:
        imp.emit(item, f"open {token(app)}", flow)
        return
    app_shape(app_id or arg or item, app, "appId")
    relaunch = " --relaunch" if stop is not False or clear else ""
    imp.emit(item, f"open {token(app)}{relaunch}{' --clear-state' if clear else ''}", flow)


@handles("stopApp")
def stop_app(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    other = checked_text(arg, "stopApp") if arg is not None and arg.is_scalar else None
    if other is not None and other != imp.app:
        raise Refusal(arg or item, f"stopApp {other}: another app; replay's close ends the session")
    imp.emit(item, "close", flow)
    imp.closed = True


@handles("tapOn", "doubleTapOn")
def tap_on(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    name = item.value if item.is_scalar else next(iter(item.value))
    verb = "dblclick" if name == "doubleTapOn" else "click"
    if arg is not None and arg.is_map and "point" in arg.value:
        if verb == "dblclick" or len(arg.value) > 1:
            raise Refusal(arg, f"{name} point: only a single tap at a point imports")
        x, y = point(arg.value["point"])
        imp.emit(item, f"press {x} {y}", flow)
        return
    notes: list[str] = []
    imp.emit(item, f"{verb} {_target(item, arg, name, notes)}", flow, notes)


@handles("longPressOn")
def long_press_on(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    if arg is None or not arg.is_map or set(arg.value) != {"point"}:
        at = arg if arg is not None and arg.is_map else item
        raise Refusal(at, "longPressOn: only a point imports (replay's long-press takes X Y, not an element)")
    x, y = point(arg.value["point"])
    imp.emit(item, f"long-press {x} {y} {LONG_PRESS_MS}", flow)


@handles("inputText")
def input_text(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("text",), "inputText")
    text = fields.get("text", arg)
    if text is None or not text.is_scalar:
        raise Refusal(item, "inputText needs a text")
    imp.emit(item, f"type {quote(checked_text(text, 'inputText'))}", flow)


@handles("eraseText")
def erase_text(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("charactersToErase",), "eraseText")
    count = fields.get("charactersToErase", arg if arg is not None and arg.is_scalar else None)
    n = whole_number(count, "eraseText charactersToErase") if count is not None else ERASE_DEFAULT
    imp.emit(item, f"press Backspace --count {n}", flow)


@handles("back")
def back(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    imp.emit(item, "back", flow)


@handles("hideKeyboard")
def hide_keyboard(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    if imp.platform != ANDROID:
        raise Refusal(item, "hideKeyboard: a device's keyboard (android only)")
    imp.emit(item, "keyboard dismiss", flow)


@handles("pressKey")
def press_key(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    key = checked_text(arg, "pressKey") if arg is not None else ""
    line = KEYS.get(key.lower())
    if line is None:
        raise Refusal(arg or item, f"pressKey {key}: replay presses Enter, Backspace, Home and Back only")
    if line == "home" and imp.platform != ANDROID:
        raise Refusal(arg or item, "pressKey Home: a device's key (android only)")
    imp.emit(item, line, flow)


@handles("assertVisible", "assertNotVisible")
def assert_visible(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    name = next(iter(item.value)) if item.is_map else item.value
    notes: list[str] = []
    target = quote(_target(item, arg, name, notes))
    absent = "absent " if name == "assertNotVisible" else ""
    imp.emit(item, f"wait {absent}{target} {WAIT_MS}", flow, notes)


@handles("extendedWaitUntil")
def extended_wait(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("visible", "notVisible", "timeout"), "extendedWaitUntil")
    which = [k for k in ("visible", "notVisible") if k in fields]
    if len(which) != 1:
        raise Refusal(arg or item, "extendedWaitUntil needs one of visible and notVisible")
    timeout = fields.get("timeout")
    ms = _static(checked_text(timeout, "timeout"), flow, imp) if timeout is not None else str(WAIT_MS)
    if ms is None:
        raise Refusal(timeout or item, "extendedWaitUntil timeout: a whole number of ms")
    ms = whole_number(timeout or item, "extendedWaitUntil timeout", ms)
    notes: list[str] = []
    target = quote(selector(fields[which[0]], notes))
    imp.emit(item, f"wait {'absent ' if which[0] == 'notVisible' else ''}{target} {ms}", flow, notes)


@handles("scroll")
def scroll(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    if arg is not None:
        raise Refusal(arg, "scroll: Maestro's scroll takes no arguments")
    imp.emit(item, "scroll down", flow)


@handles("scrollUntilVisible")
def scroll_until_visible(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(
        arg, ("element", "direction", "timeout", "speed", "visibilityPercentage", "centerElement"), "scrollUntilVisible"
    )
    for key in ("speed", "visibilityPercentage", "centerElement"):
        if key in fields:
            raise Refusal(fields[key], f"{key}: not an argument replay imports")
    direction = str(fields["direction"].value).lower() if "direction" in fields else "down"
    if direction not in ("up", "down", "left", "right"):
        raise Refusal(fields["direction"], f"direction {direction}: UP, DOWN, LEFT or RIGHT")
    notes = [f"scrollUntilVisible: at most {SCROLLS} scrolls (Maestro: until its timeout)"]
    target = quote(selector(fields.get("element", arg) or item, notes))
    imp.emit(item, f"scroll {direction} --until {target} --max {SCROLLS}", flow, notes)


@handles("swipe")
def swipe(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    if imp.platform != ANDROID:
        raise Refusal(item, "swipe: a device's gesture (android only)")
    fields = _fields(arg, ("start", "end", "direction", "duration"), "swipe")
    ms = whole_number(fields["duration"], "swipe duration") if "duration" in fields else "400"
    if "direction" in fields:
        direction = str(fields["direction"].value).upper()
        if direction not in SWIPES:
            raise Refusal(fields["direction"], f"swipe direction {direction}: LEFT, RIGHT, UP or DOWN")
        imp.emit(item, f"swipe {' '.join(SWIPES[direction])} {ms}", flow)
        return
    if "start" not in fields or "end" not in fields:
        raise Refusal(arg or item, "swipe needs start and end, or a direction (from: is not imported)")
    (x1, y1), (x2, y2) = point(fields["start"]), point(fields["end"])
    imp.emit(item, f"swipe {x1} {y1} {x2} {y2} {ms}", flow)


@handles("takeScreenshot")
def take_screenshot(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("path",), "takeScreenshot")
    name = checked_text(fields.get("path", arg) or item, "takeScreenshot")
    imp.emit(item, f"screenshot {quote(name if name.endswith('.png') else name + '.png')}", flow)


@handles("openLink")
def open_link(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("link",), "openLink")
    at = fields.get("link", arg) or item
    link = checked_text(at, "openLink")
    if imp.platform == ANDROID:
        app_shape(at, link, "openLink")
    imp.emit(item, f"open {token(link)}", flow)


@handles("waitForAnimationToEnd")
def wait_for_animation(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    _fields(arg, ("timeout",), "waitForAnimationToEnd")
    imp.emit(item, "wait 500", flow, ["waitForAnimationToEnd: a pause (replay's looks wait for a settled screen)"])


@handles("repeat")
def repeat(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("times", "commands", "while"), "repeat")
    if "while" in fields:
        raise Refusal(fields["while"], "repeat while: a loop on the screen's state; replay expands times only")
    if "times" not in fields or "commands" not in fields:
        raise Refusal(arg or item, "repeat needs times and commands")
    raw = checked_text(fields["times"], "repeat times")
    times = _static(raw, flow, imp)
    if times is None or not WHOLE.fullmatch(times) or int(times) > MAX_REPEAT:
        raise Refusal(fields["times"], f"repeat times {raw!r}: a whole number up to {MAX_REPEAT} when imported")
    for _ in range(int(times)):
        imp._commands(fields["commands"], flow)


@handles("runFlow")
def run_flow(imp: Importer, item: Y, arg: Y | None, flow: Flow) -> None:
    fields = _fields(arg, ("file", "commands", "env", "when"), "runFlow") if arg is not None and arg.is_map else {}
    if "when" in fields and not _when(fields["when"], imp):
        imp.note(f"runFlow at line {item.line} is for another platform")
        return
    values = dict(flow.values)
    if "env" in fields and fields["env"].is_map:
        values.update({k: checked_text(v, f"env {k}") for k, v in fields["env"].value.items()})
    if "commands" in fields:
        imp._commands(fields["commands"], Flow(flow.path, values))
        return
    file = fields.get("file", arg if arg is not None and arg.is_scalar else None)
    if file is None:
        raise Refusal(arg or item, "runFlow needs a file or commands")
    _run_file(imp, file, values, flow)


def _run_file(imp: Importer, file: Y, values: dict[str, str], flow: Flow) -> None:
    """The sub-flow at ``file`` (beside the flow naming it), inlined; its problems at its own lines."""
    from replay.errors import ReplayError

    path = _inside(file, imp, flow)
    if path in imp.reading or path == os.path.realpath(imp.path):
        raise Refusal(file, f"runFlow {file.value}: a cycle (the flow runs itself)")
    try:
        docs = imp._documents(path, None)
    except ReplayError as err:  # missing, unreadable, not YAML: said at the runFlow that names it
        raise Refusal(file, f"runFlow {file.value}: {err.message}", err.hint) from None
    config, commands = (docs[0], docs[1]) if len(docs) == 2 else (None, docs[0])
    sub = dict(values)
    try:
        for key, value in config.value.items() if config is not None and config.is_map else []:
            if key not in ("appId", "url", "name", "tags", "env"):
                raise Refusal(value, f"config {key}: not imported in a sub-flow")
        if config is not None and config.is_map and "env" in config.value and config.value["env"].is_map:
            own = {k: checked_text(v, f"env {k}") for k, v in config.value["env"].value.items()}
            sub = {**own, **values}  # the caller's values win over the sub-flow's own
    except Refusal as r:
        imp._refuse(path, r.at, r.message, r.hint)
        return
    imp.reading.append(path)
    try:
        imp.note(f"runFlow {file.value}")
        imp._commands(commands, Flow(path, sub))
    finally:
        imp.reading.pop()


def _inside(file: Y, imp: Importer, flow: Flow) -> str:
    """The real path of a ``runFlow`` file, named relative to the flow naming it and inside the top
    flow's folder (links resolved): nothing outside is read, so nothing of it is echoed or inlined."""
    name = checked_text(file, "runFlow file")
    top = os.path.dirname(os.path.realpath(imp.path))
    if os.path.isabs(name):
        raise Refusal(file, "runFlow file: an absolute path; a sub-flow is named relative to its flow")
    if "\x00" in name:
        raise Refusal(file, "runFlow file: a NUL character cannot be in a file name")
    path = os.path.realpath(os.path.join(os.path.dirname(flow.path), name))
    if os.path.commonpath([top, path]) != top:
        raise Refusal(file, "runFlow file: outside the top flow's folder (only flows beside it or below are read)")
    return path


def _when(when: Y, imp: Importer) -> bool:
    if not when.is_map or set(when.value) != {"platform"}:
        raise Refusal(when, "runFlow when: only platform is decided at import (visible, notVisible, true are not)")
    return str(when.value["platform"].value).lower() == imp.platform


def _static(raw: str, flow: Flow, imp: Importer) -> str | None:
    """A value known at import: a literal, or a variable of the sub-flow or of the config's env."""
    m = VARIABLE.fullmatch(raw)
    if m is None:
        return raw
    name = m.group(1)
    return flow.values.get(name, imp.config_env.get(name))
