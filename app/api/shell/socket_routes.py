"""The websocket routes, served on a short path: a socket's handshake passes the request context
and the draining refusal (:mod:`app.api.shell.request_context`, :mod:`app.api.shell.draining`)
and then goes straight to its route, past the HTTP-only middleware (body limits, gzip, the
database retry, which let websocket scopes through untouched) and FastAPI's routing and
dependency layers, none of which a socket route uses.

Why: every layer a websocket's handshake passes stays on the stack, a suspended coroutine frame,
as long as the socket is open. FastAPI's websocket route alone (its dependency resolution and
exit stacks) held ~3.8 KB per open socket (tracemalloc, 400 idle spectator sockets): the idle
socket's memory is a target of docs/PERFORMANCE.md.

A route module declares its sockets on a :class:`SocketRouter` (``@router.websocket(path)``,
each served through the one admission, :func:`app.api.socket_admission.admit`: checked by
tests/api/test_one_guard_per_kind.py); ``create_app`` hands their routes to
:class:`SocketsFirst`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable

from starlette.routing import BaseRoute, Router, WebSocketRoute
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

#: A socket route's endpoint: the websocket and its path parameters (strings) by name.
Endpoint = Callable[..., Awaitable[None]]


class SocketRouter:
    """The websocket routes of one module, in declaration order (:attr:`routes`)."""

    def __init__(self) -> None:
        self.routes: list[BaseRoute] = []

    def websocket(self, path: str) -> Callable[[Endpoint], Endpoint]:
        """Declare ``endpoint(websocket, **path_params)`` the socket of ``path`` (a Starlette
        path: ``/ws/matches/{match_id}``; each parameter a string). Returns it unchanged.
        """

        def add(endpoint: Endpoint) -> Endpoint:
            async def session(websocket: WebSocket) -> None:
                await endpoint(websocket, **websocket.path_params)

            session.__name__ = session.__qualname__ = endpoint.__name__
            self.routes.append(WebSocketRoute(path, session, name=endpoint.__name__))
            return endpoint

        return add


class SocketsFirst:
    """Wraps ``app``: a websocket scope goes to ``routes`` (an unknown path is closed, as a
    router closes it), every other scope to ``app``.
    """

    def __init__(self, app: ASGIApp, routes: Iterable[BaseRoute]) -> None:
        self.app = app
        self.sockets = Router(routes=list(routes))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        """Serve ``scope``: a socket by its route, anything else by the wrapped app."""
        if scope["type"] == "websocket":
            await self.sockets(scope, receive, send)
        else:
            await self.app(scope, receive, send)
