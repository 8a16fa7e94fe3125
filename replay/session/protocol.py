"""What client and daemon agree on: where the socket is and how sessions are named.

Kept free of heavy imports: the CLI client path must not load Playwright or lxml.
"""

from __future__ import annotations

import os
import re

DEFAULT_SESSION = "default"
# one request or response line, far above any realistic script (a 70 KB `fill` is fine; 40 MB is not)
MAX_MESSAGE = 32 * 1024 * 1024
_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,63}\Z")


def replay_home() -> str:
    """``$REPLAY_HOME`` or ``~/.replay``."""
    return os.path.abspath(os.environ.get("REPLAY_HOME") or os.path.join(os.path.expanduser("~"), ".replay"))


def socket_path(home: str) -> str:
    """The daemon's Unix socket inside the home."""
    return os.path.join(home, "daemon.sock")


def valid_session_name(name: str) -> bool:
    """Session names are used as directory names."""
    return bool(_NAME.match(name))


def session_key(name: str | None, cwd: str) -> str:
    """The daemon-side key: explicit names are per user; ``default`` is scoped to the working directory."""
    name = name or os.environ.get("REPLAY_SESSION") or DEFAULT_SESSION
    if name == DEFAULT_SESSION:
        import hashlib  # only for the default session: kept off the import path of every command

        digest = hashlib.sha1(os.path.realpath(cwd).encode("utf-8")).hexdigest()[:10]
        return f"{DEFAULT_SESSION}-{digest}"
    return name


def shown_name(key: str) -> str:
    """A session key as its user named it: ``default`` for a directory's default session."""
    return DEFAULT_SESSION if key.startswith(DEFAULT_SESSION + "-") else key
