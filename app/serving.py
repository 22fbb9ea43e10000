"""What ``carcassonne serve`` adds around uvicorn: a header timeout, a log without secrets and
a drain before shutting down.

- :func:`header_timeout_protocol`: uvicorn's httptools protocol, closing a connection whose
  request headers are not complete within the timeout (uvicorn itself only times out idle
  keep-alive connections, so a client dripping one header line at a time — slowloris — would
  hold its connection forever).
- the log format (secrets redacted, JSON lines in production) is :mod:`app.log_format`'s.
- :class:`DrainingServer`: uvicorn's server, whose ``SIGTERM`` (or Ctrl-C) first runs a drain
  (the app's: :mod:`app.services.drain`) and only then lets uvicorn shut down, all within a
  bound; the process then exits 0. A second signal stops at once, as uvicorn's does.
"""

from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from collections.abc import Awaitable, Callable
from types import FrameType
from typing import Any

import uvicorn
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol

from app import collector

log = logging.getLogger(__name__)


def header_timeout_protocol(seconds: float) -> type[asyncio.Protocol]:
    """An HTTP protocol class for ``uvicorn.run(http=...)`` that closes a connection when a
    request's headers take longer than ``seconds`` (counted from the connection, or from the
    first byte of a later request on a kept-alive connection).
    """

    class HeaderTimeoutProtocol(HttpToolsProtocol):
        _header_timer: asyncio.TimerHandle | None = None

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(seconds, self._too_slow)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _too_slow(self) -> None:
            self._header_timer = None
            if not self.transport.is_closing():
                self.transport.close()

        def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            self._arm()

        def on_message_begin(self) -> None:
            super().on_message_begin()
            self._arm()

        def on_headers_complete(self) -> None:
            self._disarm()
            super().on_headers_complete()

        def connection_lost(self, exc: Exception | None) -> None:
            self._disarm()
            super().connection_lost(exc)

    return HeaderTimeoutProtocol


#: Seconds past the drain's bound after which the process exits whatever is still running.
HARD_EXIT_AFTER = 3.0

#: ``drain()`` → the seconds after which uvicorn stops waiting for requests in flight.
Drain = Callable[[], Awaitable[float]]


class DrainingServer(uvicorn.Server):
    """A uvicorn server that drains on ``SIGTERM`` or ``SIGINT`` before it shuts down.

    The first signal runs ``drain()`` on the event loop (the app stops taking work and closes
    its sockets; it returns how long uvicorn may still wait for requests in flight); then
    uvicorn's own shutdown runs (listeners closed, requests in flight answered, lifespan
    shutdown). The signal is not raised again afterwards (uvicorn's default), so a drained
    process exits 0. Past ``bound`` + :data:`HARD_EXIT_AFTER` seconds the process exits with
    status 1 whatever still runs. A second signal: uvicorn's immediate shutdown.
    """

    def __init__(self, config: uvicorn.Config, drain: Drain, bound: float) -> None:
        super().__init__(config)
        self._drain = drain
        self._bound = bound
        self._loop: asyncio.AbstractEventLoop | None = None
        self._draining: asyncio.Task[None] | None = None
        self._signalled = False
        self._pacer: asyncio.Task[None] | None = None

    async def startup(self, sockets: list[Any] | None = None) -> None:
        """Start as uvicorn does, remembering the loop the drain runs on; the garbage
        collector is paced by this loop from now on (:func:`app.collector.pace`).
        """
        self._loop = asyncio.get_running_loop()
        self._pacer = self._loop.create_task(collector.pace(), name="gc-pace")
        await super().startup(sockets)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        """The signal handler: start the drain (first signal) or stop at once (second)."""
        if self._signalled or self._loop is None or not self.started:
            # A second signal, or one before serving began: uvicorn's own, without re-raising.
            self.force_exit = self._signalled
            self.should_exit = True
            self._signalled = True
            return
        self._signalled = True
        log.warning("%s: draining, then shutting down", signal.Signals(sig).name)
        watchdog = threading.Timer(self._bound + HARD_EXIT_AFTER, _hard_exit, (self._bound,))
        watchdog.daemon = True
        watchdog.start()
        self._loop.call_soon_threadsafe(self._start_drain)

    def _start_drain(self) -> None:
        self._draining = asyncio.get_running_loop().create_task(self._drain_then_exit())

    async def _drain_then_exit(self) -> None:
        started = time.monotonic()
        grace = 1.0
        try:
            grace = await self._drain()
        except Exception:
            log.exception("drain failed; shutting down anyway")
        finally:
            # uvicorn's wait for requests in flight (it takes a float despite its annotation)
            self.config.timeout_graceful_shutdown = max(0.1, grace)  # type: ignore[assignment]
            self.should_exit = True
            log.info("drained in %.2f s", time.monotonic() - started)


def _hard_exit(bound: float) -> None:
    log.error("still running %.1f s past the drain's bound (%.1f s)", HARD_EXIT_AFTER, bound)
    logging.shutdown()
    os._exit(1)
