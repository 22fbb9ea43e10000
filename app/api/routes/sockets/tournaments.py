"""The live tournament page's websocket: ``/ws/tournaments/{id}``.

Sends ``{"t": "tournament", "v": version, "d": Tournament}`` on connect and again after every
change of the tournament on any instance (a round paired, a result counted, an entrant
registered, a pause); answers ``{"t": "ping"}`` with ``{"t": "pong"}``. It takes nothing
else: the organiser's tools are REST calls. Admitted, capped, budgeted and closed on a flood
or a revoked token like every socket (app/api/socket_admission.py); its frames come from the
tournament's shared view on this instance (app/services/tournaments/page.py), one read per
change whatever the number of sockets.
"""

from __future__ import annotations

import re

from fastapi import WebSocket

from app.api.shell.socket_routes import SocketRouter
from app.api.socket_admission import Frame, admit, serve_frames
from app.realtime.connection import Connection
from app.realtime.protocol import error_frame
from app.services.errors import ValidationFailed
from app.services.runtime import Runtime
from app.services.tournaments import page

router = SocketRouter()

_ID = re.compile(r"^[0-9a-f]{12}$")


@router.websocket("/ws/tournaments/{tid}")
async def tournament_socket(websocket: WebSocket, tid: str) -> None:
    """The tournament on connect and after every change; ``ping`` → ``pong``."""

    def check() -> None:
        if not _ID.fullmatch(tid):
            raise ValidationFailed("malformed tournament id")

    async def serve(rt: Runtime, player: str | None) -> None:
        conn = Connection(websocket, player)
        try:
            async with page.watching(rt, tid, conn, player) as first:
                await websocket.send_text(first)
                conn.start(0)

                async def handle(_frame: Frame) -> None:
                    conn.push(
                        None, error_frame("validation_error", "tournament sockets only take ping")
                    )

                await serve_frames(rt, websocket, conn, "tournament", handle)
        finally:
            await conn.stop()

    await admit(websocket, serve, check)
