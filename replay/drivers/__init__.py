"""Backends behind one seam (``base``): ``Backend`` per platform, ``Driver`` per session. Only
``drivers/web/`` imports Playwright; ``backend_for`` is the one place a platform picks its backend,
from the factory list (``replay.platforms.BACKENDS``). Light: the surfaces read each backend's
``OPTIONS`` through this package."""

from __future__ import annotations

from replay.errors import UnsupportedPlatform
from replay.options import backend_package
from replay.platforms import PLATFORMS

TYPE_CHECKING = False
if TYPE_CHECKING:
    from replay.drivers.base import Backend, BackendOptions

PLATFORMS_WITH_BACKEND = PLATFORMS


def check_platform(platform: str, where: str) -> None:
    """Refuse a script (``where``: its path as given) whose platform no backend here drives."""
    if platform not in PLATFORMS_WITH_BACKEND:
        runs = " and ".join(PLATFORMS_WITH_BACKEND)
        raise UnsupportedPlatform(
            f"{where}: platform {platform!r} has no backend in this build yet (only {runs} runs)",
            hint=f"run it with --platform {PLATFORMS_WITH_BACKEND[0]} if its steps suit a browser",
        )


def backend_for(options: BackendOptions) -> Backend:
    """A new (not yet started) backend for ``options`` (``BackendOptions.of``: checked and read already):
    the factory every session's driver comes from."""
    made: Backend = backend_package(options.platform).new_backend(dict(options.values), recording=options.recording)
    return made
