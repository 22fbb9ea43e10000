"""The websockets: one per match (``/ws/matches/{id}``) and one per lobby.

Parse and authorise here; the services do the rest. Every frame a client sends is validated
(size, JSON, type, shape); a bad one gets an error frame and changes nothing.
"""

from __future__ import annotations

import contextlib
import re
from collections.abc import AsyncIterator

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.schemas import CODE_PATTERN
from app.engine import EngineError
from app.realtime.hub import Connection, Hub
from app.realtime.protocol import (
    PONG,
    ActionFrame,
    ChatFrame,
    FrameError,
    PingFrame,
    SyncFrame,
    error_frame,
    parse_client_frame,
)
from app.services import chat, lobby, play
from app.services.errors import ServiceError, ValidationFailed
from app.services.runtime import Runtime

router = APIRouter()

_CODE = re.compile(CODE_PATTERN)
_CLOSE = {"unauthorized": 4401, "forbidden": 4403, "not_found": 4404,
          "validation_error": 4400}


async def _refuse(websocket: WebSocket, exc: ServiceError) -> None:
    with contextlib.suppress(Exception):
        await websocket.send_text(error_frame(exc.code, exc.message))
        await websocket.close(_CLOSE.get(exc.code, 4400), exc.code)


def _identify(rt: Runtime, token: str | None) -> str | None:
    return rt.tokens.verify(token) if token else None


def _since(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 7:
        raise ValidationFailed("since must be a version number")
    return int(raw)


async def _receive_text(websocket: WebSocket) -> str | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        return None
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "\x00"  # rejected by the parser as not JSON


async def _chat(rt: Runtime, conn: Connection, scope: str, key: str, player: str | None,
                frame: ChatFrame) -> None:
    """A ``chat`` frame on a lobby or match socket: app/services/chat.py decides."""
    try:
        await chat.post(rt, scope, key, player, frame.d.text, frame.d.quick)
    except ServiceError as exc:
        conn.push(None, error_frame(exc.code, exc.message))


async def _frames(
    websocket: WebSocket, conn: Connection
) -> AsyncIterator[ActionFrame | SyncFrame | ChatFrame]:
    """The client's valid frames until it leaves (or its outbox overflows); answers pings and
    malformed frames itself, so callers see only frames that mean something to them."""
    while True:
        text = await _receive_text(websocket)
        if text is None or conn.overflowed:
            return
        try:
            frame = parse_client_frame(text)
        except FrameError as exc:
            conn.push(None, error_frame(exc.code, exc.message))
            continue
        if isinstance(frame, PingFrame):
            conn.push(None, PONG)
        else:
            yield frame


@router.websocket("/ws/matches/{match_id}")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    """Players and spectators of one match: snapshot or catch-up, then live batches."""
    rt: Runtime = websocket.app.state.runtime
    params = websocket.query_params
    await websocket.accept()
    try:
        if not _CODE.fullmatch(match_id):
            raise ValidationFailed("malformed match id")
        player = _identify(rt, params.get("token"))
        since = _since(params.get("since"))
        code = params.get("code")
        hub, conn, seat = await play.open_match_socket(
            rt, websocket, match_id, player, code, since)
    except ServiceError as exc:
        await _refuse(websocket, exc)
        return
    except WebSocketDisconnect:
        return
    rt.metrics.websockets.labels("match").inc()
    try:
        async for frame in _frames(websocket, conn):
            if isinstance(frame, ActionFrame):
                if seat is None or player is None:
                    conn.push(None, error_frame("not_seated", "spectators cannot act", frame.id))
                    continue
                try:
                    rt.action_limiter.hit(player)
                    await play.submit_action(rt, match_id, player, frame.v, frame.id, frame.d)
                except (ServiceError, EngineError) as exc:
                    conn.push(None, error_frame(exc.code, exc.message, frame.id))
            elif isinstance(frame, ChatFrame):
                await _chat(rt, conn, "match", match_id, player, frame)
            else:
                conn.request_sync(frame.since)
    except WebSocketDisconnect:
        pass
    finally:
        rt.metrics.websockets.labels("match").dec()
        # In a task of its own: the cleanup must finish even if this handler is cancelled.
        rt.spawn(_close_match_socket(rt, hub, conn, match_id, seat))


async def _close_match_socket(rt: Runtime, hub: Hub, conn: Connection, match_id: str,
                              seat: int | None) -> None:
    await rt.hubs.release(hub, conn)
    if seat is not None and str(seat) not in hub.local_presence()[0]:
        with contextlib.suppress(Exception):
            # Another instance still holding this seat refreshes it within 15 s.
            await play.touch_seats(rt, match_id, [seat], gone=True)


@router.websocket("/ws/lobbies/{code}")
async def lobby_socket(websocket: WebSocket, code: str) -> None:
    """The lobby on connect and after every change; answers ``ping`` with ``pong``."""
    rt: Runtime = websocket.app.state.runtime
    await websocket.accept()
    try:
        if not _CODE.fullmatch(code):
            raise ValidationFailed("malformed lobby code")
        player = _identify(rt, websocket.query_params.get("token"))
        hub, conn = await lobby.open_lobby_socket(rt, websocket, code, player)
    except ServiceError as exc:
        await _refuse(websocket, exc)
        return
    except WebSocketDisconnect:
        return
    rt.metrics.websockets.labels("lobby").inc()
    try:
        async for frame in _frames(websocket, conn):
            if isinstance(frame, ChatFrame):
                await _chat(rt, conn, "lobby", code, player, frame)
            else:
                conn.push(None, error_frame("validation_error",
                                            "lobby sockets only take ping and chat"))
    except WebSocketDisconnect:
        pass
    finally:
        rt.metrics.websockets.labels("lobby").dec()
        rt.spawn(rt.hubs.release(hub, conn))


__all__ = ["router"]
