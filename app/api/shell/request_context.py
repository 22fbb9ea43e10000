"""Who and what a log line is about: the request id, match and player of each request.

:class:`RequestContext` (pure ASGI, outermost) gives every HTTP request and websocket a request
id — the ``X-Request-ID`` the proxy sent when it looks like one, else 16 hex digits made here —
answers it in the same response header, and sets the match id of ``/api/matches/{id}...`` and
``/ws/matches/{id}`` paths. The player is set where a token is verified (``app.api.deps``, the
socket routes). The values live in :mod:`app.log_format`'s context variables, so every line
logged while serving (the access log too) carries them. Websocket frames pass untouched.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from app.log_format import match_id, request_id

Scope = dict[str, Any]

_SANE_ID = re.compile(r"[A-Za-z0-9._:-]{1,64}")
_MATCH_PATH = re.compile(r"/(?:api|ws)/matches/([A-Za-z0-9_-]{1,64})")
_HEADER = b"x-request-id"


class RequestContext:
    """ASGI middleware setting the log context of each request (see the module docstring)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        """Serve the request with its request id and match id set."""
        kind = scope["type"]
        if kind not in ("http", "websocket"):
            await self.app(scope, receive, send)
            return
        given = next((v for k, v in scope.get("headers", ()) if k == _HEADER), b"")
        rid = given.decode("latin-1")
        if not _SANE_ID.fullmatch(rid):
            rid = secrets.token_hex(8)
        found = _MATCH_PATH.match(scope.get("path", ""))
        reset_rid = request_id.set(rid)
        reset_match = match_id.set(found.group(1) if found else None)
        try:
            if kind == "http":
                header = (_HEADER, rid.encode("latin-1"))

                async def send_with_id(message: dict[str, Any]) -> None:
                    if message["type"] == "http.response.start":
                        message["headers"] = [*message.get("headers", ()), header]
                    await send(message)

                await self.app(scope, receive, send_with_id)
            else:
                await self.app(scope, receive, send)
        finally:
            request_id.reset(reset_rid)
            match_id.reset(reset_match)
