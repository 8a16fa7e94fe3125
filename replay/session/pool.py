"""The daemon's backends: one per ``BackendOptions`` (web: per browser type, headedness and remote
server), started on first use, replaced when it died, shared by its sessions."""

from __future__ import annotations

import contextlib
import logging

from replay.drivers import backend_for
from replay.drivers.base import Backend, BackendOptions, Driver

log = logging.getLogger("replay.daemon")


class BackendPool:
    """The running backends, by the options that made them."""

    def __init__(self) -> None:
        self.backends: dict[BackendOptions, Backend] = {}

    async def new_driver(self, options: BackendOptions) -> Driver:
        """A fresh driver from the backend for ``options``, started (or restarted) as needed."""
        backend = self.backends.get(options)
        if backend is not None and not backend.alive():
            log.warning("the %s backend is gone (crashed or killed): starting a new one", options.platform)
            with contextlib.suppress(Exception):
                await self.backends.pop(options).stop()
            backend = None
        if backend is None:
            backend = backend_for(options)
            await backend.start()
            self.backends[options] = backend
        return await backend.new_driver()

    async def stop(self) -> None:
        """Stop every backend."""
        for backend in self.backends.values():
            await backend.stop()
