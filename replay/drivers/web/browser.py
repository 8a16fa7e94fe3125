"""The web backend's browser: Playwright launching (or connecting to) Chromium, Firefox or WebKit,
shared by the daemon's web sessions, one context each."""

from __future__ import annotations

import asyncio
import json
import os
import shutil

from playwright.async_api import Browser, Playwright, async_playwright

from replay.drivers.web.driver import WebDriver
from replay.drivers.web.errors import driver_alive
from replay.drivers.web.page_scripts import MAIN_NODE_ENGINE, NODE_ENGINE, NODE_ENGINE_JS
from replay.drivers.web.relay import RecordingBrowser
from replay.errors import BrowserUnavailable

LAUNCH_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--disable-dev-shm-usage",
]
CLOSE_S = 3.0  # how long a recording's browser connection has to close before its process is stopped
HEADLESS_SHELLS = ("chromium-headless-shell", "chrome-headless-shell")
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")


def find_chromium(headless: bool = False) -> str | None:
    """System Chromium: ``REPLAY_CHROMIUM``, then well-known names on PATH.

    Headless, Chromium's headless shell comes first, as with Playwright's own browsers: it is the
    same engine without the browser's UI processes, and costs about half the CPU per flow
    (docs/benchmarks.md).
    """
    env = os.environ.get("REPLAY_CHROMIUM")
    if env and os.path.exists(env):
        return env
    for name in (HEADLESS_SHELLS if headless else ()) + BROWSERS:
        path = shutil.which(name)
        if path:
            return path
    return None


def _check_launchable(browser: str, headed: bool, connect: str | None) -> None:
    """Say plainly what would make a launch fail, before trying: a ``REPLAY_CHROMIUM`` that is not
    there, a headed browser with no display."""
    chosen = os.environ.get("REPLAY_CHROMIUM")
    if chosen and not connect and browser == "chromium" and not os.access(chosen, os.X_OK):
        raise BrowserUnavailable(
            f"REPLAY_CHROMIUM={chosen} is not an executable file",
            hint="point it at a Chromium binary, or unset it to use the one on PATH",
        )
    if headed and not connect and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY")):
        raise BrowserUnavailable(
            "a headed browser needs a display, and DISPLAY is not set",
            hint="run headless (`replay open` without --headed, `replay record --headless`), or under a display "
            "server (e.g. `xvfb-run replay record URL`)",
        )


class WebBrowser:
    """One Playwright browser shared by the daemon's sessions (one context each)."""

    def __init__(
        self, *, browser: str = "chromium", headed: bool = False, connect: str | None = None, devtools: bool = False
    ) -> None:
        self.browser_name = browser
        self.headed = headed
        self.devtools: str | None = None  # the relay's DevTools endpoint, when asked for one (a person records)
        self._devtools = devtools
        self._own: RecordingBrowser | None = None  # (a recording's browser: on a pipe, behind its relay)
        self.connect = connect  # a remote Playwright browser server (`playwright run-server`, a grid)
        self._pw: Playwright | None = None
        self._browser: Browser | None = None

    async def start(self) -> None:
        """Launch the browser (once)."""
        if self._browser is not None:
            return
        _check_launchable(self.browser_name, self.headed, self.connect)
        self._pw = await async_playwright().start()
        try:
            await self._pw.selectors.register(NODE_ENGINE, script=NODE_ENGINE_JS, content_script=True)
            await self._pw.selectors.register(MAIN_NODE_ENGINE, script=NODE_ENGINE_JS)
            if self.connect:
                # the server launches the browser with these options (its own binary, our flags)
                options = {"args": LAUNCH_ARGS, "headless": not self.headed}
                kind = getattr(self._pw, self.browser_name)
                self._browser = await kind.connect(
                    self.connect, headers={"x-playwright-launch-options": json.dumps(options)}
                )
            elif self.browser_name == "chromium":
                exe = find_chromium(headless=not self.headed)
                if self._devtools:  # a recording's: on a pipe, its relay the one endpoint (design §16)
                    self._own = RecordingBrowser(exe or "chromium", headless=not self.headed, args=LAUNCH_ARGS)
                    await self._own.start()
                    self.devtools = self._own.endpoint
                    self._browser = await self._pw.chromium.connect_over_cdp(self._own.endpoint)
                else:
                    self._browser = await self._pw.chromium.launch(
                        executable_path=exe, headless=not self.headed, args=LAUNCH_ARGS
                    )
            else:
                kind = getattr(self._pw, self.browser_name)
                self._browser = await kind.launch(headless=not self.headed)
        except Exception as exc:  # noqa: BLE001 - any launch failure is one user-facing error
            if self._own is not None:
                await self._own.stop()
                self._own = None
            await self._pw.stop()
            self._pw = None
            raise BrowserUnavailable(
                f"could not launch {self.browser_name}: {str(exc).splitlines()[0]}",
                hint="install Chromium (apt-get install chromium) or set REPLAY_CHROMIUM=/path/to/chrome; "
                "or run `python -m playwright install chromium`",
            ) from None

    def alive(self) -> bool:
        """Whether the browser and Playwright's driver process still run (not launched yet counts as
        alive: it launches on use)."""
        if self._own is not None and not self._own.alive():
            return False
        return self._browser is None or (self._browser.is_connected() and driver_alive(self._browser))

    async def new_driver(self) -> WebDriver:
        """A fresh browser context and page for one session."""
        await self.start()
        assert self._browser is not None
        context = await self._browser.new_context(viewport={"width": 1280, "height": 800})
        page = await context.new_page()
        return WebDriver(context, page, self.devtools)

    async def stop(self) -> None:
        """Close the browser and Playwright."""
        if self._browser is not None:
            try:  # (a recording's browser is closed by its own, whatever its page does: not waited on here)
                await asyncio.wait_for(self._browser.close(), CLOSE_S if self._own is not None else None)
            except Exception:  # noqa: BLE001 - already gone, or held by its page
                pass
            self._browser = None
        if self._own is not None:
            await self._own.stop()
            self._own = None
        if self._pw is not None:
            await self._pw.stop()
            self._pw = None
