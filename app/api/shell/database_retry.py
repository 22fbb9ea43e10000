"""A request that meets a database restart waits for it instead of failing.

Postgres restarting (a deploy, a failover, ``pg_ctlcluster restart``) is out of reach for a
second or two: requests that reach the database then fail with connection errors. This ASGI
middleware runs such a request again — its body is kept (at most ``MAX_BODY_BYTES``) — after
0.25, 0.5, 1, 1, … s, for at most :data:`WAIT_FOR` seconds, as long as nothing of the answer
was sent; the transaction of a failed attempt was rolled back, and a move carries its client
action id, so an attempt that did commit is recognised, not applied twice. Past the bound
the app's handler answers ``503 unavailable`` with ``Retry-After``.

Websockets pass through untouched (their actions are retried in ``routes.sockets.play``).
"""

from __future__ import annotations

import asyncio
import logging
import time

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from app.db.errors import is_database_unavailable

log = logging.getLogger(__name__)

#: Seconds a request keeps trying while the database is unavailable.
WAIT_FOR = 8.0
#: Pauses between attempts (the last one repeats).
PAUSES = (0.25, 0.5, 1.0)


class RetryWhileDatabaseRestarts:
    """ASGI middleware: see the module docstring."""

    def __init__(self, app: ASGIApp, wait_for: float = WAIT_FOR) -> None:
        self.app = app
        self.wait_for = wait_for

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Run the request, again while the database is unavailable and nothing was sent."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        complete = False

        async def recording() -> Message:
            # The body as the app reads it (the body limit outside raises its 413 inside the
            # app, where it is answered), kept for another attempt.
            nonlocal complete
            message = await receive()
            if message["type"] == "http.request":
                chunks.append(message.get("body", b""))
                complete = not message.get("more_body", False)
            return message

        started = time.monotonic()
        attempt = 0
        while True:
            sent = False
            replayed = attempt == 0  # the first attempt reads the client itself

            async def replay() -> Message:
                # What the earlier attempt read, once; then the client again (the rest of the
                # body, or its disconnect: a ``FileResponse`` listens for that, and answering
                # it with the body again would spin for ever).
                nonlocal replayed
                if replayed:
                    return await recording()
                replayed = True
                return {"type": "http.request", "body": b"".join(chunks), "more_body": not complete}

            async def tracking_send(message: Message) -> None:
                nonlocal sent
                sent = True
                await send(message)

            try:
                await self.app(scope, replay if attempt else recording, tracking_send)
                return
            except Exception as exc:
                pause = PAUSES[min(attempt, len(PAUSES) - 1)]
                if (
                    sent
                    or not is_database_unavailable(exc)
                    or time.monotonic() - started + pause > self.wait_for
                ):
                    raise
                attempt += 1
                log.info(
                    "%s %s: the database is unavailable, attempt %d in %.2f s",
                    scope.get("method"),
                    scope.get("path"),
                    attempt + 1,
                    pause,
                )
                await asyncio.sleep(pause)
