"""agent-device's commands this tool parses (its scripts must parse) but does not
perform: a plan that holds one is refused with UNSUPPORTED_COMMAND and file:line. Each with the
platforms agent-device performs it on."""

from __future__ import annotations

from replay.platforms import ANDROID

FOREIGN: dict[str, tuple[str, ...]] = {
    "app-switcher": (ANDROID,),
    "focus": (ANDROID,),
    "scrollintoview": (ANDROID,),
    "react-native": (),
    "boot": (),
    "pinch": (),
    "apps": (),
    "devices": (),
    "trace": (),
    "diff": (),
    "record": (),
    "settings": (),
    "clipboard": (),
    "logs": (),
    "network": (),
    "install": (),
    "reinstall": (),
    "push": (),
    "rotate": (),
}
