"""The Android ``Backend``: one device, chosen by its serial (else the only one ``adb devices`` lists)."""

from __future__ import annotations

from collections.abc import Mapping

from replay.drivers.android.adb import COMMAND_S, SubprocessAdb, devices, listed
from replay.drivers.android.driver import AndroidDriver
from replay.errors import DeviceUnavailable


class AndroidBackend:
    """A device the daemon's android sessions of one serial share (each gets a driver of its own)."""

    def __init__(self, serial: str | None = None, *, binary: str = "adb", env: Mapping[str, str] | None = None) -> None:
        self.serial, self.binary, self.env = serial, binary, env

    async def start(self) -> None:
        """Resolve the serial: the one asked for must be listed, else exactly one device must be."""
        listed = attached(await SubprocessAdb("", self.binary, self.env).run_global(devices(), COMMAND_S))
        if self.serial is not None and self.serial not in listed:
            raise DeviceUnavailable(
                f"no Android device {self.serial!r} is attached (adb devices lists {', '.join(listed) or 'none'})",
                hint="connect it, or give the serial `adb devices` shows (--serial)",
            )
        if self.serial is None:
            if len(listed) != 1:
                raise DeviceUnavailable(
                    f"{'no Android device is' if not listed else f'{len(listed)} Android devices are'} attached",
                    hint="connect one (`adb devices` lists it), or choose one with --serial",
                )
            self.serial = listed[0]

    def alive(self) -> bool:
        return True  # a device that went away fails its next command, which says so

    async def new_driver(self) -> AndroidDriver:
        if self.serial is None:
            await self.start()
        assert self.serial is not None
        return AndroidDriver(SubprocessAdb(self.serial, self.binary, self.env))

    async def stop(self) -> None:
        return None  # the device stays as it is


def attached(listing: str) -> list[str]:
    """The serials ``adb devices -l`` lists as ready."""
    return [serial for serial, state, _ in listed(listing) if state == "device"]
