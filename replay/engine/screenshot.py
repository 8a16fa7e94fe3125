"""``screenshot``: a PNG/JPEG of the page, written whole beside nothing it would replace."""

from __future__ import annotations

import contextlib
import os
import time
from typing import Any

from replay.engine.state import Step, StepState
from replay.errors import CannotWrite, InvalidArgs
from replay.files import link_new, refuse_existing

SCREENSHOT_TYPES = (".png", ".jpg", ".jpeg")


async def screenshot(state: StepState, step: Step) -> dict[str, Any]:
    """A PNG/JPEG of the page at a path relative to the caller's directory; never over a file."""
    given = step.action.param("path")
    if given:
        path = os.path.join(state.cwd or os.getcwd(), os.path.expanduser(str(given)))
    else:
        path = os.path.join(state.home, "screenshots", f"{state.name}-{time.time_ns()}.png")
    path = os.path.abspath(path)
    if not path.lower().endswith(SCREENSHOT_TYPES):
        raise InvalidArgs(f"{given}: a screenshot is a .png or .jpeg file", hint="name it like shot.png")
    refuse_existing(path, hint="choose another path")
    directory = os.path.dirname(path)
    # the page goes to a temp name beside it, then an exclusive link: whole or absent, never over a file
    temp = os.path.join(
        directory, f".{os.path.basename(path)}.{os.getpid()}-{time.time_ns()}{os.path.splitext(path)[1]}"
    )
    try:
        os.makedirs(directory, mode=0o700, exist_ok=True)
        await state.driver.screenshot(temp, step.action.flag("--full-page") is True)
        link_new(temp, path, hint="choose another path")
    except OSError as exc:
        raise CannotWrite(f"cannot write {path}: {exc.strerror}", hint="choose a writable directory") from None
    finally:
        with contextlib.suppress(OSError):
            os.unlink(temp)
    return {"path": path}
