"""The websockets: one per match (``/ws/matches/{id}``) and one per lobby.

Parse and authorise here; the services do the rest. Every frame a client sends is validated
(size, JSON, type, shape, action id as on REST); a bad one gets an error frame and changes
nothing. Every frame, whatever its type, counts against the socket's frame rate
(``WS_FRAME_RATE``/``WS_FRAME_BURST``): one over it gets a ``rate_limited`` error frame, and a
socket that keeps flooding (or stops reading its frames) is closed with 1013. Sockets are capped
per player and per client address (``WS_SOCKETS_PER_TOKEN``/``WS_SOCKETS_PER_ADDRESS``); one
over the cap gets a ``rate_limited`` error frame and a 1013 close.
"""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.schemas import ACTION_ID_PATTERN, CODE_PATTERN
from app.engine import EngineError
from app.realtime.connection import Connection
from app.realtime.protocol import (
    PONG,
    ActionFrame,
    ChatFrame,
    ClockRequest,
    FrameError,
    PingFrame,
    SwitchFrame,
    SyncFrame,
    VoteFrame,
    error_frame,
    parse_client_frame,
)
from app.services import chat, clock_requests, lobby, play, sockets
from app.services.errors import RateLimited, ServiceError, ValidationFailed
from app.services.ratelimit import FrameBudget
from app.services.runtime import Runtime

router = APIRouter()

_CODE = re.compile(CODE_PATTERN)
_ACTION_ID = re.compile(ACTION_ID_PATTERN)
#: Close code of a socket that floods, lags too far behind, or is one too many ("try again later").
TRY_AGAIN_LATER = 1013
_CLOSE = {"unauthorized": 4401, "forbidden": 4403, "not_found": 4404, "validation_error": 4400}


class Flooded(Exception):
    """The client sent frames far faster than allowed, or stopped reading what it is sent."""


async def _refuse(websocket: WebSocket, exc: ServiceError) -> None:
    code = TRY_AGAIN_LATER if isinstance(exc, RateLimited) else _CLOSE.get(exc.code, 4400)
    with contextlib.suppress(Exception):
        await websocket.send_text(error_frame(exc.code, exc.message))
        await websocket.close(code, exc.code)


async def _close_flooded(websocket: WebSocket, reason: str) -> None:
    # The client may not be reading: never wait long for the close handshake.
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(TRY_AGAIN_LATER, reason), 5.0)


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def _identify(rt: Runtime, token: str | None) -> str | None:
    return await rt.revocations.verify(token) if token else None


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


async def _chat(
    rt: Runtime, conn: Connection, scope: str, key: str, player: str | None, frame: ChatFrame
) -> None:
    """A ``chat`` frame on a lobby or match socket: app/services/chat.py decides."""
    try:
        await chat.post(rt, scope, key, player, frame.d.text, frame.d.quick)
    except ServiceError as exc:
        conn.push(None, error_frame(exc.code, exc.message))


async def _frames(
    websocket: WebSocket, conn: Connection, budget: FrameBudget
) -> AsyncIterator[ActionFrame | SyncFrame | ChatFrame | ClockRequest]:
    """The client's valid frames until it leaves; answers pings, malformed and over-rate frames
    itself, so callers see only frames that mean something to them.

    Raises :class:`Flooded` when the client keeps sending over its rate or its outbox overflows.
    """
    while True:
        text = await _receive_text(websocket)
        if text is None:
            return
        if conn.overflowed:
            raise Flooded("too far behind: reconnect with since")
        if not budget.take():
            if not budget.forgive():
                raise Flooded("too many frames")
            conn.push(None, error_frame("rate_limited", "too many frames: slow down"))
            continue
        try:
            frame = parse_client_frame(text)
            if (
                isinstance(frame, ActionFrame)
                and frame.id is not None
                and not _ACTION_ID.fullmatch(frame.id)
            ):
                raise FrameError("id: client action ids are 1-64 of A-Z a-z 0-9 _ . : -")
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
        player = await _identify(rt, params.get("token"))
        since = _since(params.get("since"))
        code = params.get("code")
        with rt.socket_caps.hold(player, _address(websocket)):
            await _serve_match_socket(rt, websocket, match_id, player, code, since)
    except ServiceError as exc:
        await _refuse(websocket, exc)
    except WebSocketDisconnect:
        pass


async def _serve_match_socket(
    rt: Runtime,
    websocket: WebSocket,
    match_id: str,
    player: str | None,
    code: str | None,
    since: int | None,
) -> None:
    """Open the match socket (raises :class:`ServiceError`), then serve it until it closes."""
    async with sockets.match_socket(rt, websocket, match_id, player, code, since) as (
        _,
        conn,
        seat,
    ):
        rt.metrics.websockets.labels("match").inc()
        try:
            async for frame in _frames(websocket, conn, rt.frame_budget()):
                if isinstance(frame, ActionFrame):
                    if seat is None or player is None:
                        conn.push(
                            None, error_frame("not_seated", "spectators cannot act", frame.id)
                        )
                        continue
                    try:
                        await rt.action_limiter.hit(player)
                        await play.submit_action(rt, match_id, player, frame.v, frame.id, frame.d)
                    except (ServiceError, EngineError) as exc:
                        conn.push(None, error_frame(exc.code, exc.message, frame.id))
                elif isinstance(frame, ChatFrame):
                    await _chat(rt, conn, "match", match_id, player, frame)
                elif isinstance(frame, SyncFrame):
                    conn.request_sync(frame.since)
                else:
                    await _clock_request(
                        rt, conn, match_id, player if seat is not None else None, frame
                    )
        except WebSocketDisconnect:
            pass
        except Flooded as exc:
            await _close_flooded(websocket, str(exc))
        finally:
            rt.metrics.websockets.labels("match").dec()


async def _clock_request(
    rt: Runtime, conn: Connection, match_id: str, player: str | None, frame: ClockRequest
) -> None:
    """A vote, a live ↔ correspondence proposal or a take-back; refusals become error frames
    (spectators: ``not_seated``). Success is seen by everyone as a ``clock`` frame.
    """
    try:
        if isinstance(frame, VoteFrame):
            await clock_requests.vote(rt, match_id, player, frame.d.choice)
        elif isinstance(frame, SwitchFrame):
            await clock_requests.propose(rt, match_id, player, frame.d.accept)
        else:
            await clock_requests.take_back(rt, match_id, player)
    except ServiceError as exc:
        conn.push(None, error_frame(exc.code, exc.message))


@router.websocket("/ws/lobbies/{code}")
async def lobby_socket(websocket: WebSocket, code: str) -> None:
    """The lobby on connect and after every change; answers ``ping`` with ``pong``."""
    rt: Runtime = websocket.app.state.runtime
    await websocket.accept()
    try:
        if not _CODE.fullmatch(code):
            raise ValidationFailed("malformed lobby code")
        player = await _identify(rt, websocket.query_params.get("token"))
        with rt.socket_caps.hold(player, _address(websocket)):
            await _serve_lobby_socket(rt, websocket, code, player)
    except ServiceError as exc:
        await _refuse(websocket, exc)
    except WebSocketDisconnect:
        pass


async def _serve_lobby_socket(
    rt: Runtime, websocket: WebSocket, code: str, player: str | None
) -> None:
    """Open the lobby socket (raises :class:`ServiceError`), then serve it until it closes."""
    async with lobby.lobby_socket(rt, websocket, code, player) as (_, conn):
        rt.metrics.websockets.labels("lobby").inc()
        try:
            async for frame in _frames(websocket, conn, rt.frame_budget()):
                if isinstance(frame, ChatFrame):
                    await _chat(rt, conn, "lobby", code, player, frame)
                else:
                    conn.push(
                        None,
                        error_frame("validation_error", "lobby sockets only take ping and chat"),
                    )
        except WebSocketDisconnect:
            pass
        except Flooded as exc:
            await _close_flooded(websocket, str(exc))
        finally:
            rt.metrics.websockets.labels("lobby").dec()


__all__ = ["router"]
