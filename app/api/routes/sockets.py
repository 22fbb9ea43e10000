"""The websockets: one per match (``/ws/matches/{id}``) and one per lobby.

Parse and authorise here; the services do the rest. Every frame a client sends is validated
(size, JSON, type, shape, action id as on REST); a bad one gets an error frame and changes
nothing. Every frame, whatever its type, counts against the socket's frame rate
(``WS_FRAME_RATE``/``WS_FRAME_BURST``): one over it gets a ``rate_limited`` error frame (with the
refused action's id and ``retry_after``, the seconds until a frame would be taken), and a
socket that keeps flooding (or stops reading its frames) is closed with 1013. Sockets are capped
per player and per client address (``WS_SOCKETS_PER_TOKEN``/``WS_SOCKETS_PER_ADDRESS``); one
over the cap gets a ``rate_limited`` error frame and a 1013 close. While the instance drains
(app/services/drain.py) frames that would write are dropped: the drain closes the socket with
1012 right after, and the client sends them again on its next socket.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from collections.abc import AsyncIterator

from fastapi import APIRouter, WebSocket, WebSocketDisconnect

from app.api.database_retry import PAUSES, WAIT_FOR
from app.api.deps import api_holder
from app.api.schemas import ACTION_ID_PATTERN, CODE_PATTERN
from app.db.errors import RETRY_AFTER as DB_RETRY_AFTER
from app.db.errors import is_database_unavailable
from app.engine import EngineError
from app.log_format import player_id
from app.realtime.connection import Connection, count_close
from app.realtime.protocol import (
    PONG,
    ActionFrame,
    AidsFrame,
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
from app.services import drain
from app.services.clock import requests as clock_requests
from app.services.community import chat
from app.services.errors import RateLimited, ServiceError, ValidationFailed
from app.services.limits.rates import FrameBudget
from app.services.lobby import sockets as lobby_sockets
from app.services.match import aids, play, sockets
from app.services.open_sockets import Closer
from app.services.platform import api_tokens
from app.services.runtime import Runtime

router = APIRouter()
log = logging.getLogger(__name__)

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
        await websocket.send_text(
            error_frame(exc.code, exc.message, reason=exc.reason, params=exc.params)
        )
        count_close(code)
        await websocket.close(code, exc.code)


async def _refuse_unavailable(websocket: WebSocket, exc: Exception) -> None:
    """Close a socket whose database went away (a restart) with an ``unavailable`` frame and
    1013 (try again later: the client reconnects with its back-off). Re-raises anything else.
    """
    if not is_database_unavailable(exc):
        raise exc
    log.warning("socket closed, the database is unavailable: %s", exc)
    with contextlib.suppress(Exception):
        await websocket.send_text(_unavailable_frame(None))
        count_close(TRY_AGAIN_LATER)
        await websocket.close(TRY_AGAIN_LATER, "database unavailable: reconnect")


async def _close_flooded(websocket: WebSocket, reason: str) -> None:
    # The client may not be reading: never wait long for the close handshake.
    count_close(TRY_AGAIN_LATER)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(TRY_AGAIN_LATER, reason), 5.0)


def _address(websocket: WebSocket) -> str:
    return websocket.client.host if websocket.client else "unknown"


async def _identify(rt: Runtime, token: str | None) -> tuple[str | None, int, str | None]:
    """``(player, generation, session)`` of a valid token, ``(None, 0, None)`` without one."""
    if not token:
        return None, 0, None
    if api_tokens.looks_like(token):  # a program (a bot account): same socket, needs ``play``
        held = await api_holder(rt, token)
        return (
            held.player_id,
            api_tokens.SOCKET_GENERATION,
            api_tokens.socket_session(held.token_id),
        )
    player = await rt.revocations.verify(token)
    _, generation, session, _ = rt.tokens.claims(token)
    return player, generation, session


def _closer(websocket: WebSocket) -> Closer:
    """How :class:`~app.services.open_sockets.OpenSockets` closes this socket (revoked)."""

    async def close(frame: str, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_text(frame)
        count_close(code)
        await websocket.close(code, reason)

    return close


def _since(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 7:
        raise ValidationFailed("since must be a version number")
    return int(raw)


async def _receive_text(websocket: WebSocket) -> str | None:
    message = await websocket.receive()
    if message["type"] == "websocket.disconnect":
        count_close(int(message.get("code") or 1005), "client")
        return None
    if message.get("text") is not None:
        return str(message["text"])
    data = message.get("bytes") or b""
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        return "\x00"  # rejected by the parser as not JSON


def _action_id(text: str) -> str | None:
    """The client action id of an action frame (well-formed, id as on REST), else None: a
    refused frame's error names the action it refuses.
    """
    try:
        frame = parse_client_frame(text)
    except FrameError:
        return None
    if isinstance(frame, ActionFrame) and frame.id is not None and _ACTION_ID.fullmatch(frame.id):
        return frame.id
    return None


async def _chat(
    rt: Runtime, conn: Connection, scope: str, key: str, player: str | None, frame: ChatFrame
) -> None:
    """A ``chat`` frame on a lobby or match socket: app/services/community/chat.py decides."""
    try:
        await chat.post(rt, scope, key, player, frame.d.text, frame.d.quick)
    except ServiceError as exc:
        conn.push(None, error_frame(exc.code, exc.message, reason=exc.reason, params=exc.params))


async def _frames(
    websocket: WebSocket, conn: Connection, budget: FrameBudget
) -> AsyncIterator[ActionFrame | SyncFrame | ChatFrame | ClockRequest | AidsFrame]:
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
            conn.push(
                None,
                error_frame(
                    "rate_limited",
                    "too many frames: slow down",
                    _action_id(text),
                    retry_after=budget.retry_after(),
                ),
            )
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
        player, generation, session = await _identify(rt, params.get("token"))
        player_id.set(player)  # the socket's log lines name the player
        since = _since(params.get("since"))
        code = params.get("code")
        with (
            rt.socket_caps.hold(player, _address(websocket)),
            rt.open_sockets.hold(player, generation, session, _closer(websocket)),
        ):
            await _serve_match_socket(rt, websocket, match_id, player, code, since)
    except ServiceError as exc:
        await _refuse(websocket, exc)
    except WebSocketDisconnect:
        pass
    except Exception as exc:
        await _refuse_unavailable(websocket, exc)


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
                if isinstance(frame, SyncFrame):
                    conn.request_sync(frame.since)
                    continue
                if isinstance(frame, AidsFrame):  # a read: answered while draining too
                    await _aids(rt, conn, match_id, player, code)
                    continue
                with drain.taking(rt) as taken:
                    if not taken:  # draining: closed with 1012 in a moment, sent again after
                        continue
                    if isinstance(frame, ActionFrame):
                        await _action(rt, conn, match_id, player, seat, frame)
                    elif isinstance(frame, ChatFrame):
                        await _chat(rt, conn, "match", match_id, player, frame)
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


async def _action(
    rt: Runtime,
    conn: Connection,
    match_id: str,
    player: str | None,
    seat: int | None,
    frame: ActionFrame,
) -> None:
    """An ``action`` frame: the one write path decides; refusals become error frames."""
    if seat is None or player is None:
        conn.push(
            None, error_frame("not_seated", "spectators cannot act", frame.id, reason="not_seated")
        )
        return
    try:
        await rt.action_limiter.hit(player)
        await _submit_waiting_for_database(rt, match_id, player, frame)
    except (ServiceError, EngineError) as exc:
        retry = exc.retry_after if isinstance(exc, RateLimited) else None
        conn.push(
            None,
            error_frame(
                exc.code,
                exc.message,
                frame.id,
                retry_after=retry,
                reason=exc.reason,
                params=exc.params,
            ),
        )
    except Exception as exc:
        if not is_database_unavailable(exc):
            raise
        # Not applied (no commit, or the retries ran out): the client sends it again.
        log.warning("action refused, the database is unavailable: %s", exc)
        conn.push(None, _unavailable_frame(frame.id))


async def _submit_waiting_for_database(
    rt: Runtime, match_id: str, player: str, frame: ActionFrame
) -> None:
    """``play.submit_action``, tried again while the database restarts (as REST requests are:
    app/api/database_retry.py) when the action has a client id — an attempt that did commit is
    then recognised by it, never applied twice. Raises what the last attempt raised.
    """
    started = time.monotonic()
    attempt = 0
    while True:
        try:
            await play.submit_action(rt, match_id, player, frame.v, frame.id, frame.d)
            return
        except Exception as exc:
            pause = PAUSES[min(attempt, len(PAUSES) - 1)]
            if (
                frame.id is None
                or not is_database_unavailable(exc)
                or time.monotonic() - started + pause > WAIT_FOR
            ):
                raise
            attempt += 1
            await asyncio.sleep(pause)


async def _aids(
    rt: Runtime, conn: Connection, match_id: str, player: str | None, code: str | None
) -> None:
    """An ``aids`` frame: the position's computed aids for this socket only, or an error
    frame (``forbidden``/``aids_off`` when the table's policy grants this viewer none).
    """
    try:
        conn.push(None, await aids.aids_frame(rt, match_id, player, code))
    except ServiceError as exc:
        conn.push(None, error_frame(exc.code, exc.message, reason=exc.reason, params=exc.params))


def _unavailable_frame(action_id: str | None) -> str:
    """The error frame for a frame refused because the database is unavailable (a restart)."""
    return error_frame(
        "unavailable",
        "the database is restarting: try again in a moment",
        action_id,
        retry_after=DB_RETRY_AFTER,
    )


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
        conn.push(None, error_frame(exc.code, exc.message, reason=exc.reason, params=exc.params))


@router.websocket("/ws/lobbies/{code}")
async def lobby_socket(websocket: WebSocket, code: str) -> None:
    """The lobby on connect and after every change; answers ``ping`` with ``pong``."""
    rt: Runtime = websocket.app.state.runtime
    await websocket.accept()
    try:
        if not _CODE.fullmatch(code):
            raise ValidationFailed("malformed lobby code")
        player, generation, session = await _identify(rt, websocket.query_params.get("token"))
        player_id.set(player)
        with (
            rt.socket_caps.hold(player, _address(websocket)),
            rt.open_sockets.hold(player, generation, session, _closer(websocket)),
        ):
            await _serve_lobby_socket(rt, websocket, code, player)
    except ServiceError as exc:
        await _refuse(websocket, exc)
    except WebSocketDisconnect:
        pass
    except Exception as exc:
        await _refuse_unavailable(websocket, exc)


async def _serve_lobby_socket(
    rt: Runtime, websocket: WebSocket, code: str, player: str | None
) -> None:
    """Open the lobby socket (raises :class:`ServiceError`), then serve it until it closes."""
    async with lobby_sockets.lobby_socket(rt, websocket, code, player) as (_, conn):
        rt.metrics.websockets.labels("lobby").inc()
        try:
            async for frame in _frames(websocket, conn, rt.frame_budget()):
                if isinstance(frame, ChatFrame):
                    with drain.taking(rt) as taken:
                        if taken:
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
