"""What client and daemon agree on: where the socket is and how sessions are named.

Kept free of heavy imports: the CLI client path must not load Playwright or lxml.
"""

from __future__ import annotations

import _socket  # the C socket type: socket.py's enum conversions cost ~5 ms of every command
import os
import re
import stat
import struct

TYPE_CHECKING = False  # (typing costs ~5 ms of every command: only the type checker imports it)
if TYPE_CHECKING:
    from collections.abc import Mapping

DEFAULT_SESSION = "default"
# one request or response line, far above any realistic script (a 70 KB `fill` is fine; 40 MB is not)
MAX_MESSAGE = 32 * 1024 * 1024
# While it serves a request the daemon writes a blank line this often: a client that hears nothing
# for SILENCE_S knows the daemon is stopped or hung, whatever the request's own deadline (design §12).
HEARTBEAT_S = 2.0
SILENCE_S = 15.0
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


def replay_home() -> str:
    """``$REPLAY_HOME`` or ``~/.replay``."""
    return os.path.abspath(os.environ.get("REPLAY_HOME") or os.path.join(os.path.expanduser("~"), ".replay"))


def socket_path(home: str) -> str:
    """The daemon's Unix socket inside the home."""
    return os.path.join(home, "daemon.sock")


# A session's folder, $REPLAY_HOME/sessions/NAME, and what it may hold (the one home of this layout)
JOURNAL_FILE = "journal.ndjson"
RECORDING_FILE = "recording.json"  # a recording's target and start: kept until it is written
REPAIR_FILE = "repair.json"  # an armed repair transaction
TOMBSTONE_FILE = "tombstone.json"  # a repair that ended incomplete
LEFT_BEHIND = (REPAIR_FILE, TOMBSTONE_FILE, RECORDING_FILE)  # what a stopped daemon may leave to recover


def session_dir(home: str, name: str) -> str:
    """The folder of session ``name`` (its journal, recording, repair, tombstone)."""
    return os.path.join(home, "sessions", name)


def session_dirs(home: str) -> list[str]:
    """The names of the sessions that have a folder in ``home``, sorted."""
    root = os.path.join(home, "sessions")
    return sorted(os.listdir(root)) if os.path.isdir(root) else []


MAX_SOCKET_PATH = 107  # sun_path is 108 bytes with its NUL


def peer_uid(sock: _socket.socket) -> int | None:
    """The uid of the process at the other end of a Unix socket (Linux SO_PEERCRED)."""
    try:
        creds = sock.getsockopt(_socket.SOL_SOCKET, _socket.SO_PEERCRED, struct.calcsize("3i"))
    except (OSError, AttributeError):
        return None
    _pid, uid, _gid = struct.unpack("3i", creds)
    return uid


def check_home(home: str) -> None:
    """Refuse a home the daemon's socket cannot safely live in: one another user owns (whoever
    listens there would get our typed text), one that is not a directory, or one whose socket path
    is over the kernel's limit, or one others may write in (group/world-writable or sticky: a shared
    folder such as /tmp, whose mode replay never changes). A home that does not exist yet is fine
    (it is created 0700)."""
    from replay.errors import InvalidArgs, PermissionDenied

    path = socket_path(home)
    if len(os.fsencode(path)) > MAX_SOCKET_PATH:
        raise InvalidArgs(
            f"REPLAY_HOME is too long for a Unix socket ({len(os.fsencode(path))} bytes with daemon.sock; "
            f"the limit is {MAX_SOCKET_PATH})",
            hint="set REPLAY_HOME to a shorter path (e.g. ~/.replay)",
        )
    try:
        info = os.stat(home)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise PermissionDenied(
            f"REPLAY_HOME {home} cannot be used: {exc.strerror}", hint="check its permissions"
        ) from None
    if not stat.S_ISDIR(info.st_mode):
        raise InvalidArgs(f"REPLAY_HOME {home} is not a directory", hint="point REPLAY_HOME at a directory of yours")
    if info.st_uid != os.getuid():
        raise PermissionDenied(
            f"REPLAY_HOME {home} is owned by uid {info.st_uid}, not by you (uid {os.getuid()})",
            hint="use a home of your own: its daemon would receive everything you type",
        )
    if info.st_mode & (stat.S_IWGRP | stat.S_IWOTH | stat.S_ISVTX):
        raise PermissionDenied(
            f"REPLAY_HOME {home} is shared (mode {stat.S_IMODE(info.st_mode):o}: others may write in it)",
            hint="point REPLAY_HOME at a folder of its own (e.g. ~/.replay): replay changes no existing folder's mode",
        )


DAEMON_ENV = ("REPLAY_IDLE_TIMEOUT", "REPLAY_DAEMON_LINGER")  # seconds, read by a daemon as it starts


def check_daemon_env(environ: Mapping[str, str]) -> None:
    """Refuse a daemon setting that is not a number of seconds before a daemon is started with it."""
    for name in DAEMON_ENV:
        text = environ.get(name)
        if text is None:
            continue
        try:
            ok = 0 <= float(text) <= 7 * 24 * 3600
        except ValueError:
            ok = False
        if not ok:
            from replay.errors import InvalidArgs

            raise InvalidArgs(
                f"{name}={text!r} is not a number of seconds (0 to a week)", hint=f"e.g. {name}=1800, or unset it"
            )


def check_peer(sock: _socket.socket, home: str) -> None:
    """Refuse a daemon socket served by another user (checked on the connection itself)."""
    uid = peer_uid(sock)
    if uid is not None and uid != os.getuid():
        from replay.errors import PermissionDenied

        raise PermissionDenied(
            f"the socket in {home} is served by uid {uid}, not by you (uid {os.getuid()})",
            hint="use a REPLAY_HOME of your own: that process would receive everything you type",
        )


def valid_session_name(name: str) -> bool:
    """Session names are used as directory names."""
    return bool(_NAME.match(name))


def check_session_name(name: str) -> str:
    """``name`` when it is a valid session name; else INVALID_ARGS (the one message every surface gives)."""
    if not valid_session_name(name):
        from replay.errors import InvalidArgs

        raise InvalidArgs(
            f"invalid session name {name!r}",
            hint="1 to 64 letters, digits, '.', '_' and '-', the first a letter or a digit (e.g. checkout-2)",
        )
    return name


def _sha1_hex(data: bytes) -> str:
    """SHA-1 in hex (it only names the default session) without loading OpenSSL: ~5 ms of every command."""
    try:
        from _sha1 import sha1
    except ImportError:  # pragma: no cover - a Python built without its own hashes
        from hashlib import sha1
    return sha1(data).hexdigest()


def session_key(name: str | None, cwd: str) -> str:
    """The daemon-side key: explicit names are per user; ``default`` is scoped to the working directory."""
    name = name or os.environ.get("REPLAY_SESSION") or DEFAULT_SESSION
    if name == DEFAULT_SESSION:
        digest = _sha1_hex(os.path.realpath(cwd).encode("utf-8"))[:10]
        return f"{DEFAULT_SESSION}-{digest}"
    return name


def shown_name(key: str) -> str:
    """A session key as its user named it: ``default`` for a directory's default session."""
    return DEFAULT_SESSION if key.startswith(DEFAULT_SESSION + "-") else key
