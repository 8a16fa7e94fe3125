"""The Android backend: ``adb`` and ``uiautomator dump`` (design §9). ``uix``: a dump as the tree.

This module is what the surfaces read (``OPTIONS``) and the daemon calls (``new_backend``): light."""

from __future__ import annotations

from replay.options import Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from replay.drivers.base import Backend

OPTIONS = (
    Option(
        "serial",
        metavar="S",
        env="ANDROID_SERIAL",
        help="android: the device (default ANDROID_SERIAL, else the only one attached).",
    ),
)


def new_backend(options: dict[str, Any], *, recording: str) -> Backend:
    """The device ``options`` name (else the only one attached); nothing is recorded by hand here."""
    from replay.drivers.android.backend import AndroidBackend

    return AndroidBackend(options["serial"])
