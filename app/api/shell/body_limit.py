"""An ASGI middleware that refuses request bodies over a size, before and while reading them.

A declared ``Content-Length`` over the limit is answered 413 at once (nothing is read); a
chunked body is counted as it arrives and refused (413) as soon as it passes the limit, so a
client can never make the app hold more than about the limit in memory for one request.
"""

from __future__ import annotations

from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send


class BodySizeLimit:
    """Wraps ``app``; ``max_bytes`` is the largest body accepted (setting ``MAX_BODY_BYTES``)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app = app
        self.max_bytes = max_bytes

    def _too_large(self) -> str:
        return f"request bodies are limited to {self.max_bytes} bytes"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Pass ``scope`` on, refusing an HTTP request whose body is too large."""
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        for name, value in scope["headers"]:
            if name == b"content-length":
                if not value.isdigit() or int(value) > self.max_bytes:
                    body = {"error": {"code": "validation_error", "message": self._too_large()}}
                    await JSONResponse(body, status_code=413)(scope, receive, send)
                    return
                break
        seen = 0

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    # Handled by the app's HTTPException handler: 413 validation_error.
                    raise HTTPException(413, self._too_large())
            return message

        await self.app(scope, limited, send)
