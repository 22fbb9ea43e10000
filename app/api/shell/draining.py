"""An ASGI middleware that turns new work away while the instance drains for a restart.

Once :func:`app.services.drain.begin` ran, every new HTTP request gets
``503 {"error": {"code": "unavailable", ...}}`` with ``Retry-After: 1`` and ``Connection:
close`` (the client, or the proxy in front, tries another instance), and every new websocket
is refused the same way during its handshake (an HTTP 503 instead of the upgrade). Only the
health and metrics endpoints still answer (``/readyz`` says why it is not ready). It never
touches a request when the instance is not draining.
"""

from __future__ import annotations

import orjson
from starlette.types import ASGIApp, Receive, Scope, Send

from app.services.runtime import Runtime

#: Paths that answer while draining: liveness, readiness (503, "draining") and metrics.
ALWAYS = frozenset({"/healthz", "/readyz", "/metrics"})
MESSAGE = "this instance is restarting: try again (another instance will answer)"
BODY = orjson.dumps({"error": {"code": "unavailable", "message": MESSAGE}})
HEADERS = [
    (b"content-type", b"application/json"),
    (b"content-length", str(len(BODY)).encode()),
    (b"retry-after", b"1"),
    (b"connection", b"close"),
]


class RefuseWhileDraining:
    """Wraps ``app``; reads the runtime's ``draining`` flag from ``scope["app"].state``."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass ``scope`` on, or refuse it with 503 when the instance drains."""
        if scope["type"] not in ("http", "websocket") or not _draining(scope):
            await self.app(scope, receive, send)
            return
        if scope["type"] == "http":
            if scope["path"] in ALWAYS:
                await self.app(scope, receive, send)
                return
            await send({"type": "http.response.start", "status": 503, "headers": HEADERS})
            await send({"type": "http.response.body", "body": BODY})
            return
        await receive()  # websocket.connect
        if "websocket.http.response" in scope.get("extensions", {}):
            # uvicorn's websockets-sansio protocol logs "ASGI callable returned without
            # completing handshake" after a denial response (Kludex/uvicorn#3138): harmless.
            await send({"type": "websocket.http.response.start", "status": 503, "headers": HEADERS})
            await send({"type": "websocket.http.response.body", "body": BODY})
        else:  # a server without denial responses: refuse the handshake (a 403 on the wire)
            await send({"type": "websocket.close", "code": 1012, "reason": MESSAGE})


def _draining(scope: Scope) -> bool:
    app = scope.get("app")
    rt: Runtime | None = getattr(getattr(app, "state", None), "runtime", None)
    return rt is not None and rt.draining
