"""The one publish primitive, shared by recording and healing (SPEC §7).

A temp file in the target's directory, then an exclusive create-if-absent hard link: the target
appears whole or not at all, and an existing target is never touched.
"""

from __future__ import annotations

import os
import tempfile

from replay.errors import ReplayError, TargetExists
from replay.files import private_mode


def publish_exclusive(target: str, text: str) -> str:
    """Write ``text`` to ``target`` atomically; refuse (``TARGET_EXISTS``) if it exists."""
    target = os.path.abspath(target)
    directory = os.path.dirname(target)
    if os.path.exists(target):
        raise TargetExists(
            f"{target} already exists; it was left unchanged",
            hint="choose another path (--save-script PATH) or move the existing file away",
        )
    try:
        os.makedirs(directory, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=f".{os.path.basename(target)}.", suffix=".tmp", dir=directory)
    except OSError as exc:
        raise ReplayError(
            f"cannot write in {directory}: {exc.strerror}", hint="check the directory's permissions"
        ) from None
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as fh:
            fh.write(text)
            fh.flush()
            os.fsync(fh.fileno())
        os.chmod(tmp, private_mode())  # a recording holds typed text
        try:
            os.link(tmp, target)
        except FileExistsError:
            raise TargetExists(
                f"{target} already exists; it was left unchanged",
                hint="choose another path (--save-script PATH) or move the existing file away",
            ) from None
    finally:
        try:
            os.unlink(tmp)
        except FileNotFoundError:
            pass
    return target
