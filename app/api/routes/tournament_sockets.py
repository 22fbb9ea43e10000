"""The live tournament page's websocket: ``/ws/tournaments/{id}``.

Sends ``{"t": "tournament", "v": version, "d": Tournament}`` on connect and again after every
change of the tournament on any instance (a round paired, a result counted, an entrant
registered, a pause); answers ``{"t": "ping"}`` with ``{"t": "pong"}``. It takes nothing
else: the organiser's tools are REST calls.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import re

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.realtime.protocol import error_frame
from app.services.errors import ServiceError, ValidationFailed
from app.services.runtime import Runtime
from app.services.tournaments import live, tournaments

router = APIRouter()

_ID = re.compile(r"^[0-9a-f]{12}$")
#: Seconds between two unprompted refreshes (a lost announcement is made up for).
REFRESH_EVERY = 30.0


@router.websocket("/ws/tournaments/{tid}")
async def tournament_socket(websocket: WebSocket, tid: str) -> None:
    """The tournament on connect and after every change; ``ping`` → ``pong``."""
    rt: Runtime = websocket.app.state.runtime
    await websocket.accept()
    try:
        if not _ID.fullmatch(tid):
            raise ValidationFailed("malformed tournament id")
        viewer = None
        token = websocket.query_params.get("token")
        if token:
            viewer = await rt.revocations.verify(token)
        await _serve(rt, websocket, tid, viewer)
    except ServiceError as exc:
        with contextlib.suppress(Exception):
            await websocket.send_text(error_frame(exc.code, exc.message, reason=exc.reason))
            await websocket.close(4404 if exc.code == "not_found" else 4400, exc.code)
    except WebSocketDisconnect:
        pass


async def _serve(rt: Runtime, websocket: WebSocket, tid: str, viewer: str | None) -> None:
    async def send() -> None:
        data = await tournaments.view(rt, tid, viewer)
        await websocket.send_text(json.dumps({"t": "tournament", "v": data["version"], "d": data}))

    async with live.changes(rt, tid) as changed:
        await send()

        async def pushes() -> None:
            while True:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(changed.wait(), REFRESH_EVERY)
                changed.clear()
                await send()

        pusher = asyncio.create_task(pushes())
        try:
            while True:
                text = await websocket.receive_text()
                try:
                    kind = json.loads(text).get("t")
                except (ValueError, AttributeError):
                    kind = None
                if kind == "ping":
                    await websocket.send_text(json.dumps({"t": "pong"}))
                else:
                    await websocket.send_text(
                        error_frame("validation_error", "tournament sockets only take ping")
                    )
        finally:
            pusher.cancel()
            with contextlib.suppress(BaseException):
                await pusher
