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
        self.own: dict[int, Backend] = {}  # a recording's backend, by its driver's id: shared with no one

    async def new_driver(self, options: BackendOptions) -> Driver:
        """A fresh driver from the backend for ``options``, started (or restarted) as needed; a
        recording's from a backend of its own (design §16: one recording never sees another's pages),
        stopped by ``release``."""
        if options.recording:
            own = backend_for(options)
            await own.start()
            try:
                driver = await own.new_driver()
            except BaseException:
                await own.stop()
                raise
            self.own[id(driver)] = own
            return driver
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

    async def release(self, driver: Driver) -> None:
        """The session of ``driver`` ended: a backend of its own stops with it."""
        own = self.own.pop(id(driver), None)
        if own is not None:
            with contextlib.suppress(Exception):
                await own.stop()

    async def stop(self) -> None:
        """Stop every backend."""
        for backend in [*self.backends.values(), *self.own.values()]:
            await backend.stop()
        self.own.clear()
