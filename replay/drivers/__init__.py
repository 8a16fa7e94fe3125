"""Backends behind one seam (``base``): ``Backend`` per platform, ``Driver`` per session. Only
``drivers/web/`` imports Playwright; ``backend_for`` is the one place a platform picks its backend."""

from __future__ import annotations

from replay.drivers.base import Backend, BackendOptions
from replay.errors import UnsupportedPlatform
from replay.platforms import ANDROID, PLATFORMS

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
    """A new (not yet started) backend for ``options``: the factory every session's driver comes from."""
    check_platform(options.platform, "this session")
    if options.platform == ANDROID:
        from replay.drivers.android.backend import AndroidBackend

        return AndroidBackend(options.serial)
    from replay.drivers.web.browser import WebBrowser  # (Playwright: only when a web session opens)

    return WebBrowser(
        browser=options.browser, headed=options.headed, connect=options.connect, devtools=options.devtools
    )
