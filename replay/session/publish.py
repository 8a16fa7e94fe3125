"""The one publish primitive, shared by recording and healing (design §7).

A temp file in ``$REPLAY_HOME/staging`` (else the target's directory), then an exclusive
create-if-absent hard link: the target appears whole or not at all, an existing target is never
touched, and a daemon killed in between leaves nothing beside the target.
"""

from __future__ import annotations

import contextlib
import errno
import os
import tempfile

from replay.errors import ReplayError
from replay.files import link_new, private_mode, refuse_existing

STAGING = "staging"
_TAKEN = "choose another path (--save-script PATH) or move the existing file away"


def staging_dir(home: str) -> str:
    """Where publications are written before they are linked into place: a daemon killed in between
    leaves its temporary file here, never beside the target, and the next daemon clears it."""
    return os.path.join(home, STAGING)


def clear_staging(home: str) -> None:
    """At daemon start: drop what a killed daemon was publishing (its journal still holds it)."""
    directory = staging_dir(home)
    for leaf in os.listdir(directory) if os.path.isdir(directory) else []:
        with contextlib.suppress(OSError):
            os.unlink(os.path.join(directory, leaf))


def check_target(target: str, *, hint: str) -> None:
    """Refuse, before any work, a ``target`` a publish would refuse after it: something already there
    (``TARGET_EXISTS``: a file, a folder, a device), or a folder that cannot be written in."""
    target = os.path.abspath(target)
    refuse_existing(target, hint=hint)
    place = os.path.dirname(target)
    while not os.path.lexists(place):
        place = os.path.dirname(place)
    if not os.path.isdir(place) or not os.access(place, os.W_OK | os.X_OK):
        raise ReplayError(f"cannot write {target}: {place} is not a folder replay may write in", hint=hint)


def publish_exclusive(target: str, text: str, home: str | None = None, *, hint: str = _TAKEN) -> str:
    """Write ``text`` to ``target`` atomically; refuse (``TARGET_EXISTS``, with ``hint``) if it exists.

    With ``home``, the text is staged under ``$REPLAY_HOME/staging`` (same filesystem: one link
    puts it in place); across filesystems, beside the target as before.
    """
    target = os.path.abspath(target)
    directory = os.path.dirname(target)
    refuse_existing(target, hint=hint)
    try:
        os.makedirs(directory, exist_ok=True)
    except OSError as exc:
        raise ReplayError(
            f"cannot write in {directory}: {exc.strerror}", hint="check the directory's permissions"
        ) from None
    places = [staging_dir(home), directory] if home else [directory]
    for place in places:
        try:
            tmp = _staged(place, target, text)
        except OSError as exc:
            if place == directory:
                raise ReplayError(
                    f"cannot write in {directory}: {exc.strerror}", hint="check the directory's permissions"
                ) from None
            continue
        try:
            link_new(tmp, target, hint=hint)
            return target
        except OSError as exc:
            if exc.errno != errno.EXDEV or place == directory:
                raise ReplayError(f"cannot write {target}: {exc.strerror}", hint="check the path") from None
        finally:
            with contextlib.suppress(FileNotFoundError):
                os.unlink(tmp)
    raise AssertionError("unreachable: the target's own directory is always tried")  # pragma: no cover


def _staged(place: str, target: str, text: str) -> str:
    """A private temporary file in ``place`` holding ``text``, flushed to disk."""
    os.makedirs(place, mode=0o700, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=place)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, private_mode())  # a recording holds typed text
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    return tmp
