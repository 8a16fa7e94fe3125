"""The web backend: Playwright driving Chromium (or Firefox/WebKit when installed).

``browser`` (the shared browser: the ``Backend``), ``driver`` (one context and its page: the
``Driver``), ``capture`` (capture.js, the web pruning, and the page's screen identity), ``errors``
(Playwright's exceptions mapped), ``trace`` (what a saved trace may not keep)."""
