"""The web backend: Playwright driving Chromium (or Firefox/WebKit when installed).

``browser`` (the shared browser: the ``Backend``), ``driver`` (one context and its page: the
``Driver``), ``capture`` (capture.js, the web pruning, and the page's screen identity), ``errors``
(Playwright's exceptions mapped), ``trace`` (what a saved trace may not keep).

This module is what the surfaces read (``OPTIONS``) and the daemon calls (``new_backend``): light, it
imports Playwright only when a backend is made."""

from __future__ import annotations

from replay.options import Option

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

    from replay.drivers.base import Backend

OPTIONS = (
    Option(
        "browser",
        default="chromium",
        choices=("chromium", "firefox", "webkit"),
        help="web: the browser (sessions opened with another one get a browser of their own).",
    ),
    Option("headed", "bool", False, help="web: show the browser window."),
    Option(
        "connect",
        metavar="WS",
        env="REPLAY_CONNECT",
        help="web: attach to a remote Playwright browser server (default REPLAY_CONNECT).",
    ),
)


def new_backend(options: dict[str, Any], *, recording: str) -> Backend:
    """A new browser for ``options``; one a person is ``recording`` in answers DevTools (design §16), in a
    window unless the recording is ``hidden`` (a program drives it: tests)."""
    from replay.drivers.web.browser import WebBrowser

    return WebBrowser(
        browser=options["browser"],
        headed=options["headed"] or recording == "shown",
        connect=options["connect"],
        devtools=bool(recording),
    )
