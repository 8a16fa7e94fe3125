"""What the Android backend asks of a device, as ``adb`` command lines (agent-device's, design §9), and
the seam they go through: an ``AdbTransport`` takes the words after ``adb -s SERIAL`` and gives back
(exit code, stdout, stderr) within a deadline. On a device it is ``SubprocessAdb``; tests put the
device simulator behind the same seam, or behind the real ``adb`` client.

Every command line is built here and nowhere else (the golden tests hold them to agent-device's).
adbd runs a ``shell`` service's words through ``sh -c``: every word that carries a value from a
script (an app id, a link, typed text) is shell-quoted here, whatever checked it before.
"""

from __future__ import annotations

import asyncio
import os
import shlex
import shutil
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Protocol

from replay.errors import ActionFailed, DeviceUnavailable, InvalidArgs

DUMP_PATH = "/sdcard/window_dump.xml"
TEXT_CHUNK = 8  # characters per `input text` (agent-device: longer ones drop characters on some devices)
COMMAND_S = 10.0  # one adb command's deadline (a dump waits for the UI to idle)
LONG_PRESS_MS = 800
SWIPE_MS = 300
KEYCODES = {
    "back": "4",
    "home": "3",
    "app_switch": "187",
    "enter": "ENTER",
    "hide_keyboard": "111",
    "move_end": "KEYCODE_MOVE_END",
    "del": "KEYCODE_DEL",
}
# stderr of a failure that a retry within the step's deadline may cure (agent-device's list)
TRANSIENT = ("device offline", "device not found", "transport error", "connection reset", "broken pipe", "timed out")
BUSY = "could not get idle state"  # uiautomator: the UI never settles (an endless animation)


@dataclass(frozen=True)
class Result:
    """What one ``adb`` command gave back."""

    code: int
    out: bytes
    err: str

    @property
    def text(self) -> str:
        return self.out.decode("utf-8", "replace")


class AdbTransport(Protocol):
    """Runs ``adb -s SERIAL ARGS…`` (the serial is the transport's); never raises for a failed command."""

    async def run(self, args: list[str], timeout_s: float) -> Result: ...


class SubprocessAdb:
    """The real transport: the ``adb`` binary on PATH (or ``binary``), bound to one device's serial;
    ``env`` for its environment (``ADB_SERVER_SOCKET`` names another adb server)."""

    def __init__(self, serial: str, binary: str = "adb", env: Mapping[str, str] | None = None) -> None:
        self.serial, self.binary, self.env = serial, binary, dict(env) if env is not None else None
        search = None if env is None else env.get("PATH", os.defpath)
        self._path = shutil.which(binary, path=search) or binary  # found once, not on every command

    async def run(self, args: list[str], timeout_s: float) -> Result:
        return await self._exec(["-s", self.serial, *args], timeout_s)

    async def run_global(self, args: list[str], timeout_s: float) -> str:
        """``adb ARGS…`` for no device in particular (``devices -l``); its output, or the failure said."""
        result = await self._exec(args, timeout_s)
        return check(result, f"adb {' '.join(args)}").text

    async def _exec(self, argv: list[str], timeout_s: float) -> Result:
        try:
            run = _spawned if hasattr(os, "pidfd_open") and hasattr(os, "memfd_create") else _in_thread
            code, out, err = await run([self._path, *argv], self.env, timeout_s)
        except FileNotFoundError:
            raise DeviceUnavailable(
                f"`{self.binary}` is not installed", hint="install the Android platform tools (apt-get install adb)"
            ) from None
        except PermissionError as exc:
            raise DeviceUnavailable(
                f"`{self.binary}` cannot be run: {exc.strerror}", hint=f"make {self._path} executable"
            ) from None
        except TimeoutError:  # killed and reaped
            return Result(124, b"", f"timed out after {timeout_s:.1f} s")
        return Result(code, out, err.decode("utf-8", "replace"))


Outcome = tuple[int, bytes, bytes]


async def _spawned(argv: list[str], env: dict[str, str] | None, timeout_s: float) -> Outcome:
    """``argv`` spawned with its output going to memory files and its exit (a pidfd) watched by the
    event loop: no thread between the loop and the command (a thread's hand-offs cost ~0.4 ms a
    command), no pipes to read chunk by chunk, one wake-up when it ends — the CPU of a blocking
    ``subprocess.run``, a step sends several. Cancelled or past ``timeout_s`` (``TimeoutError``), the
    command is killed and reaped. The child inherits only what Python marks inheritable (PEP 446)."""
    loop = asyncio.get_running_loop()
    out, err = os.memfd_create("adb-stdout", os.MFD_CLOEXEC), os.memfd_create("adb-stderr", os.MFD_CLOEXEC)
    try:
        pid = os.posix_spawn(
            argv[0],
            argv,
            os.environ if env is None else env,
            file_actions=[
                (os.POSIX_SPAWN_OPEN, 0, os.devnull, os.O_RDONLY, 0),
                (os.POSIX_SPAWN_DUP2, out, 1),
                (os.POSIX_SPAWN_DUP2, err, 2),
            ],
            setsigdef=(signal.SIGPIPE, signal.SIGXFSZ),  # what Python ignores, the command gets back
        )
        status = await _exit_of(loop, pid, timeout_s)
        return os.waitstatus_to_exitcode(status), _contents(out), _contents(err)
    finally:
        os.close(out)
        os.close(err)


async def _exit_of(loop: asyncio.AbstractEventLoop, pid: int, timeout_s: float) -> int:
    """The wait status of the child ``pid``, once its pidfd says it ended; killed first when the wait
    is cancelled or runs past ``timeout_s``. Reaped either way."""
    pidfd = os.pidfd_open(pid)
    ended = loop.create_future()

    def exited() -> None:  # the pidfd stays readable until removed: the loop may say so twice
        if not ended.done():
            ended.set_result(None)

    loop.add_reader(pidfd, exited)
    try:
        async with asyncio.timeout(timeout_s):
            await ended
    except BaseException:
        os.kill(pid, signal.SIGKILL)
        raise
    finally:
        loop.remove_reader(pidfd)
        os.close(pidfd)
        _, status = os.waitpid(pid, 0)  # at once: it ended, or was just killed
    return status


def _contents(fd: int) -> bytes:
    return os.pread(fd, os.fstat(fd).st_size, 0)


async def _in_thread(argv: list[str], env: dict[str, str] | None, timeout_s: float) -> Outcome:
    """``argv`` by ``subprocess.run`` in a worker thread, where there are no pidfds (macOS). A step
    stopped meanwhile leaves the command to finish within its own ``timeout_s``."""
    try:
        done = await asyncio.to_thread(
            subprocess.run, argv, stdin=subprocess.DEVNULL, capture_output=True, env=env, timeout=timeout_s
        )
    except subprocess.TimeoutExpired:  # subprocess.run killed it and reaped it
        raise TimeoutError from None
    return done.returncode, done.stdout, done.stderr


# command lines -------------------------------------------------------------------------------------


def dump() -> list[str]:
    """The screen's UI tree, printed (stock uiautomator)."""
    return ["exec-out", "uiautomator", "dump", "/dev/tty"]


def dump_to_file() -> list[str]:
    """The fallback where printing to the terminal is not allowed: dump to a file, then ``cat_dump``."""
    return ["shell", "uiautomator", "dump", DUMP_PATH]


def cat_dump(path: str = DUMP_PATH) -> list[str]:
    return ["shell", "cat", path]


def tap(x: float, y: float) -> list[str]:
    return ["shell", "input", "tap", _px(x), _px(y)]


def long_press(x: float, y: float, ms: int = LONG_PRESS_MS) -> list[str]:
    return ["shell", "input", "swipe", _px(x), _px(y), _px(x), _px(y), str(ms)]


def swipe(x1: float, y1: float, x2: float, y2: float, ms: int = SWIPE_MS) -> list[str]:
    return ["shell", "input", "swipe", _px(x1), _px(y1), _px(x2), _px(y2), str(ms)]


def keyevent(key: str) -> list[str]:
    """A key by name (``back``, ``home``, ``enter``, …) or Android key code."""
    return ["shell", "input", "keyevent", shlex.quote(KEYCODES.get(key, key))]


def text_chunks(text: str) -> list[list[str]]:
    """``input text`` command lines for ``text``: 8 characters each, spaces as ``%s``, shell-quoted (the
    device's shell re-reads the words); only printable ASCII (``input text`` types nothing else)."""
    bad = next((c for c in text if not " " <= c <= "~"), None)
    if bad is not None:
        raise InvalidArgs(
            f"Android's `input text` types printable ASCII only; {bad!r} is not",
            hint="type that text another way (a keyboard that accepts it), or leave the character out",
        )
    return [
        ["shell", "input", "text", shlex.quote(text[i : i + TEXT_CHUNK].replace(" ", "%s"))]
        for i in range(0, len(text), TEXT_CHUNK)
    ]


def start_app(package: str) -> list[str]:
    return [
        "shell",
        "am",
        "start",
        "-W",
        "-a",
        "android.intent.action.MAIN",
        "-c",
        "android.intent.category.DEFAULT",
        "-c",
        "android.intent.category.LAUNCHER",
        "-p",
        shlex.quote(package),
    ]


# apps `open` names by an alias (agent-device's, replay.script.apps.ALIASES): what starts them
ALIASES = {"settings": ["shell", "am", "start", "-W", "-a", "android.settings.SETTINGS"]}
ALIAS_PACKAGES = {"settings": "com.android.settings"}  # the app an alias opens


def open_link(url: str, package: str | None = None) -> list[str]:
    return ["shell", "am", "start", "-W", "-a", "android.intent.action.VIEW", "-d", shlex.quote(url)] + (
        ["-p", shlex.quote(package)] if package else []
    )


def clear_data(package: str) -> list[str]:
    """The app's data and cache cleared (it stops too): agent-device's clear-app-state."""
    return ["shell", "pm", "clear", shlex.quote(package)]


def force_stop(package: str) -> list[str]:
    return ["shell", "am", "force-stop", shlex.quote(package)]


def screen_size() -> list[str]:
    return ["shell", "wm", "size"]


def windows() -> list[str]:
    return ["shell", "dumpsys", "window", "windows"]


def input_method() -> list[str]:
    """The input method's state: ``mInputShown=true`` while the keyboard shows (agent-device)."""
    return ["shell", "dumpsys", "input_method"]


def keyboard_shown(dumpsys: str) -> bool:
    return "mInputShown=true" in dumpsys


def screencap() -> list[str]:
    return ["exec-out", "screencap", "-p"]


def devices() -> list[str]:
    """Run without ``-s``: the devices the adb server knows."""
    return ["devices", "-l"]


# reading answers ------------------------------------------------------------------------------------


def focused_app(dumpsys: str) -> str | None:
    """``package/activity`` of the focused window in ``dumpsys window`` output (``mCurrentFocus=Window{…
    u0 com.example/.MainActivity}``, else ``mFocusedApp``)."""
    for marker in ("mCurrentFocus=Window{", "mFocusedApp="):
        at = dumpsys.find(marker)
        if at < 0:
            continue
        line = dumpsys[at:].split("\n", 1)[0]
        words = [w.rstrip("}") for w in line.split() if "/" in w]
        if words:
            return words[-1]
    return None


def physical_size(wm: str) -> tuple[int, int] | None:
    """(width, height) from ``wm size`` (``Physical size: 1080x2400``; an override wins)."""
    found = None
    for line in wm.splitlines():
        if "size:" in line:
            w, _, h = line.rsplit(":", 1)[1].strip().partition("x")
            if w.isdigit() and h.isdigit():
                found = (int(w), int(h))
    return found


def listed(listing: str) -> list[tuple[str, str, str]]:
    """(serial, state, the rest) of each device ``adb devices -l`` lists (state ``device`` is ready;
    ``offline`` or ``unauthorized`` are not)."""
    rows = (line.split() for line in listing.splitlines()[1:])
    return [(words[0], words[1], " ".join(words[2:])) for words in rows if len(words) >= 2]


def check(result: Result, what: str) -> Result:
    """``result`` when the command succeeded; else the failure in the product's words."""
    if result.code == 0 and not result.err.startswith("error:"):
        return result
    if BUSY in result.err or BUSY in result.text:
        raise ActionFailed(
            f"{what}: the screen never settled (uiautomator could not get an idle state)",
            hint="an endless animation keeps the UI busy: stop it in the app, or wait for it to end",
        )
    raise ActionFailed(
        f"{what}: adb said {result.err.strip() or f'exit {result.code}'}", hint="is the device connected?"
    )


def transient(result: Result) -> bool:
    """Whether a failed command may succeed if run again (the device or its transport hiccupped)."""
    return result.code != 0 and any(t in result.err.lower() for t in TRANSIENT)


def _px(v: float) -> str:
    return str(int(round(v)))
