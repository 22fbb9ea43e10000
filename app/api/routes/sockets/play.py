"""The websockets: one per match (``/ws/matches/{id}``) and one per lobby.

Parse and authorise here; the services do the rest. Every socket is admitted, capped, budgeted
and closed on a flood or a revoked token by the one admission (app/api/socket_admission.py);
every frame it passes on was validated (size, JSON, type, shape, action id as on REST). While
the instance drains (app/services/drain.py) frames that would write are dropped: the drain
closes the socket with 1012 right after, and the client sends them again on its next socket.
"""

from __future__ import annotations

import asyncio
import logging
import re
import time

from fastapi import WebSocket

from app.api.schemas import CODE_PATTERN
from app.api.shell.database_retry import PAUSES, WAIT_FOR
from app.api.shell.socket_routes import SocketRouter
from app.api.socket_admission import Frame, admit, serve_frames, unavailable_frame
from app.db.errors import is_database_unavailable
from app.engine import EngineError
from app.realtime.connection import Connection
from app.realtime.protocol import (
    ActionFrame,
    AidsFrame,
    ChatFrame,
    ClockRequest,
    SwitchFrame,
    SyncFrame,
    VoteFrame,
    error_frame,
)
from app.services import drain
from app.services.clock import requests as clock_requests
from app.services.community import chat
from app.services.errors import RateLimited, ServiceError, ValidationFailed
from app.services.lobby import sockets as lobby_sockets
from app.services.match.delivery import sockets
from app.services.match.insight import aids
from app.services.match.play import play
from app.services.runtime import Runtime

router = SocketRouter()
log = logging.getLogger(__name__)

_CODE = re.compile(CODE_PATTERN)


def _since(raw: str | None) -> int | None:
    if raw is None or raw == "":
        return None
    if not raw.isdigit() or len(raw) > 7:
        raise ValidationFailed("since must be a version number")
    return int(raw)


async def _chat(
    rt: Runtime, conn: Connection, scope: str, key: str, player: str | None, frame: ChatFrame
) -> None:
    """A ``chat`` frame on a lobby or match socket: app/services/community/chat.py decides."""
    try:
        await chat.post(rt, scope, key, player, frame.d.text, frame.d.quick)
    except ServiceError as exc:
        conn.push(None, error_frame(exc.code, exc.message, reason=exc.reason, params=exc.params))


@router.websocket("/ws/matches/{match_id}")
async def match_socket(websocket: WebSocket, match_id: str) -> None:
    """Players and spectators of one match: snapshot or catch-up, then live batches."""

    def check() -> None:
        if not _CODE.fullmatch(match_id):
            raise ValidationFailed("malformed match id")

    async def serve(rt: Runtime, player: str | None) -> None:
        params = websocket.query_params
        since = _since(params.get("since"))
        await _serve_match_socket(rt, websocket, match_id, player, params.get("code"), since)

    await admit(websocket, serve, check)


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

        async def handle(frame: Frame) -> None:
            if isinstance(frame, SyncFrame):
                conn.request_sync(frame.since)
                return
            if isinstance(frame, AidsFrame):  # a read: answered while draining too
                await _aids(rt, conn, match_id, player, code)
                return
            with drain.taking(rt) as taken:
                if not taken:  # draining: closed with 1012 in a moment, sent again after
                    return
                if isinstance(frame, ActionFrame):
                    await _action(rt, conn, match_id, player, seat, frame)
                elif isinstance(frame, ChatFrame):
                    await _chat(rt, conn, "match", match_id, player, frame)
                else:
                    await _clock_request(
                        rt, conn, match_id, player if seat is not None else None, frame
                    )

        await serve_frames(rt, websocket, conn, "match", handle)


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
        await rt.limits.actions.hit(player)
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
        conn.push(None, unavailable_frame(frame.id))


async def _submit_waiting_for_database(
    rt: Runtime, match_id: str, player: str, frame: ActionFrame
) -> None:
    """``play.submit_action``, tried again while the database restarts (as REST requests are:
    app/api/shell/database_retry.py) when the action has a client id — an attempt that did commit is
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

    def check() -> None:
        if not _CODE.fullmatch(code):
            raise ValidationFailed("malformed lobby code")

    async def serve(rt: Runtime, player: str | None) -> None:
        await _serve_lobby_socket(rt, websocket, code, player)

    await admit(websocket, serve, check)


async def _serve_lobby_socket(
    rt: Runtime, websocket: WebSocket, code: str, player: str | None
) -> None:
    """Open the lobby socket (raises :class:`ServiceError`), then serve it until it closes."""
    async with lobby_sockets.lobby_socket(rt, websocket, code, player) as (_, conn):

        async def handle(frame: Frame) -> None:
            if isinstance(frame, ChatFrame):
                with drain.taking(rt) as taken:
                    if taken:
                        await _chat(rt, conn, "lobby", code, player, frame)
            else:
                conn.push(
                    None, error_frame("validation_error", "lobby sockets only take ping and chat")
                )

        await serve_frames(rt, websocket, conn, "lobby", handle)


__all__ = ["router"]
