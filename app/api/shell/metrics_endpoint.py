"""Prometheus text for this instance: the ``/metrics`` route of the public app, and a listener
of its own on ``METRICS_PORT`` so production keeps metrics off the public port.

Where it answers (``app.settings.Settings.metrics_on_public_port``): on the public port unless
``METRICS_PORT`` is set or ``ENVIRONMENT=production`` (then the public ``/metrics`` is a 404,
as any unknown path); on ``METRICS_HOST:METRICS_PORT`` when set. The listener is a small
``asyncio`` server on the app's own loop (the scrape reads live objects the loop owns, and the
outbox backlog from the database): ``GET /metrics`` only; anything else gets 404.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging

from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from app.services.match.queries import outbox_backlog
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: Seconds a scrape waits for the outbox backlog before answering without refreshing it.
BACKLOG_TIMEOUT = 2.0


async def render(rt: Runtime) -> bytes:
    """The exposition text, the outbox gauges refreshed first (kept as they were when the
    database does not answer within :data:`BACKLOG_TIMEOUT`).
    """
    try:
        count, oldest = await asyncio.wait_for(outbox_backlog(rt.storage.db), BACKLOG_TIMEOUT)
        rt.metrics.outbox_backlog.set(count)
        rt.metrics.outbox_oldest.set(oldest)
    except Exception as exc:  # noqa: BLE001 - a scrape must answer; the gauges keep their value
        log.debug("outbox backlog not read: %s", exc)
    return bytes(generate_latest(rt.metrics.registry))


class MetricsListener:
    """``GET /metrics`` on ``host:port`` for ``rt`` (``port`` 0: any free port, see ``port``)."""

    def __init__(self, rt: Runtime, host: str, port: int) -> None:
        self.rt = rt
        self.host = host
        self.port = port
        self._server: asyncio.Server | None = None

    async def start(self) -> None:
        """Listen (raises ``OSError`` when the port is taken)."""
        self._server = await asyncio.start_server(self._serve, self.host, self.port)
        self.port = self._server.sockets[0].getsockname()[1]
        log.info("metrics on http://%s:%d/metrics", self.host, self.port)

    async def close(self) -> None:
        """Stop listening."""
        if self._server is not None:
            self._server.close()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(self._server.wait_closed(), 2.0)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        try:
            head = await asyncio.wait_for(reader.readuntil(b"\r\n\r\n"), 5.0)
            method, path, *_ = head.split(b"\r\n", 1)[0].decode("latin-1").split(" ")
            if method == "GET" and path.split("?")[0] == "/metrics":
                body, status, kind = await render(self.rt), "200 OK", CONTENT_TYPE_LATEST
            else:
                body, status, kind = b"not found\n", "404 Not Found", "text/plain"
            writer.write(
                f"HTTP/1.1 {status}\r\nContent-Type: {kind}\r\nContent-Length: {len(body)}\r\n"
                "Connection: close\r\n\r\n".encode("latin-1")
                + body
            )
            await writer.drain()
        except (TimeoutError, asyncio.IncompleteReadError, ValueError, ConnectionError):
            pass
        finally:
            writer.close()
            with contextlib.suppress(Exception):
                await writer.wait_closed()
