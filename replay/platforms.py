"""The platforms replay runs on, declared once: every module and surface names them from here.

``BACKENDS`` is the factory list: one line per backend, naming the package under ``replay/drivers/``
that declares its options (``OPTIONS``) and makes it (``new_backend``). Adding a backend is that package
and its line here; every surface (the CLI, ``Client``, MCP, the pytest plugin) takes it from there.
"""

WEB = "web"
ANDROID = "android"
BACKENDS = {
    WEB: "replay.drivers.web",
    ANDROID: "replay.drivers.android",
}
PLATFORMS = tuple(BACKENDS)
DEFAULT_PLATFORM = WEB  # a script with no `context platform=` line, a session opened without --platform
