"""The one admission of every websocket (match, lobby, tournament): who it is, whether it may
open, how its frames are read and budgeted, and how it is refused or closed.

A socket is identified by its ``token`` query parameter (a player's token, or a program's API
token: app/services/platform/api_tokens.py; none: anonymous). It is capped per player and per
client address (``WS_SOCKETS_PER_TOKEN``/``WS_SOCKETS_PER_ADDRESS``: one over a cap gets a
``rate_limited`` error frame and a 1013 close) and held in ``rt.fanout.open_sockets`` so a revoked
token's sockets are closed (4401). Every frame a client sends, whatever its type, counts
against the socket's frame rate (``WS_FRAME_RATE``/``WS_FRAME_BURST``): one over it gets a
``rate_limited`` error frame (with the refused action's id, if any, and ``retry_after``, the
seconds until a frame would be taken), and a socket that keeps flooding (or stops reading its
frames) is closed with 1013. A binary frame is read as UTF-8 text (not UTF-8: refused as not
JSON); a malformed frame gets an error frame and changes nothing; pings are answered here.

What a socket does with its valid frames is its route's business (app/api/routes/sockets/),
never this module's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator

from fastapi import WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketState

from app.api.schemas import ACTION_ID_PATTERN
from app.db.errors import RETRY_AFTER as DB_RETRY_AFTER
from app.db.errors import is_database_unavailable
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
    SyncFrame,
    error_frame,
    parse_client_frame,
)
from app.services.errors import RateLimited, ServiceError
from app.services.limits.rates import FrameBudget
from app.services.platform import credentials
from app.services.platform.credentials import Credential
from app.services.runtime import Runtime
from app.services.sockets.held import Closer

log = logging.getLogger(__name__)

#: Close code of a socket that floods, lags too far behind, or is one too many ("try again later").
TRY_AGAIN_LATER = 1013
_CLOSE = {"unauthorized": 4401, "forbidden": 4403, "not_found": 4404, "validation_error": 4400}
_ACTION_ID = re.compile(ACTION_ID_PATTERN)

#: A valid frame a route handles (pings are answered by :func:`frames` itself).
Frame = ActionFrame | SyncFrame | ChatFrame | ClockRequest | AidsFrame
#: ``serve(rt, player)``: serve an admitted socket until it closes (``player`` None: anonymous).
Serve = Callable[[Runtime, str | None], Awaitable[None]]


class Flooded(Exception):
    """The client sent frames far faster than allowed, or stopped reading what it is sent."""


async def admit(
    websocket: WebSocket, serve: Serve, check: Callable[[], None] | None = None
) -> None:
    """Accept ``websocket`` and serve it through the one admission.

    ``check()`` runs first (a route's path check: raises :class:`ValidationFailed`), then the
    socket's ``token`` is identified and the socket held against the caps and for revocation
    while ``serve(rt, player)`` runs. A :class:`ServiceError` (from the check, the token, a
    cap or ``serve``) becomes an error frame and a close (``unauthorized`` 4401, ``forbidden``
    4403, ``not_found`` 4404, ``rate_limited`` 1013, others 4400); the database going away
    becomes an ``unavailable`` frame and 1013. Anything else is raised (a bug: traceback).
    """
    rt: Runtime = websocket.app.state.runtime
    await websocket.accept()
    try:
        if check is not None:
            check()
        held = await identify(rt, websocket.query_params.get("token"))
        player = held.player_id if held is not None else None
        player_id.set(player)  # the socket's log lines name the player
        with (
            _admitted(rt, websocket),
            rt.limits.sockets.hold(player, address(websocket)),
            rt.fanout.open_sockets.hold(
                player,
                held.generation if held is not None else 0,
                held.session if held is not None else None,
                closer(websocket),
                held.expires if held is not None else None,
            ),
        ):
            await serve(rt, player)
    except ServiceError as exc:
        await refuse(websocket, exc)
    except WebSocketDisconnect:
        pass
    except Exception as exc:
        await refuse_unavailable(websocket, exc)


async def serve_frames(
    rt: Runtime,
    websocket: WebSocket,
    conn: Connection,
    kind: str,
    handle: Callable[[Frame], Awaitable[None]],
) -> None:
    """Hand each valid frame of the client to ``handle`` until it leaves (:func:`frames`
    answers pings, malformed and over-rate frames); a flooding client is closed with 1013.
    The socket counts in the ``websockets`` gauge under ``kind`` meanwhile.
    """
    rt.metrics.websockets.labels(kind).inc()
    try:
        async for frame in frames(websocket, conn, rt.limits.frame_budget()):
            await handle(frame)
    except WebSocketDisconnect:
        pass
    except Flooded as exc:
        await close_flooded(websocket, str(exc))
    finally:
        rt.metrics.websockets.labels(kind).dec()


async def frames(
    websocket: WebSocket, conn: Connection, budget: FrameBudget
) -> AsyncIterator[Frame]:
    """The client's valid frames until it leaves; answers pings, malformed and over-rate frames
    itself (through ``conn``), so callers see only frames that mean something to them.

    Raises :class:`Flooded` when the client keeps sending over its rate or its outbox overflows.
    """
    while True:
        text = await receive_text(websocket)
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


async def receive_text(websocket: WebSocket) -> str | None:
    """The next frame's text (a binary frame decoded as UTF-8; not UTF-8: a NUL character,
    which the parser refuses as not JSON), or None once the client closed.
    """
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


async def identify(rt: Runtime, token: str | None) -> Credential | None:
    """The credential of a valid token (None without one): the one credential check
    (:func:`app.services.platform.credentials.verify`).

    Raises :class:`Unauthorized` (a token malformed, forged, expired or revoked, or its
    account deleted) and :class:`Forbidden` (an API token without the ``play`` scope).
    """
    if not token:
        return None
    held = await credentials.verify(rt, token)
    credentials.require(held, "play")  # a program (a bot account) plays through its socket
    return held


def address(websocket: WebSocket) -> str:
    """The client address a socket is capped by."""
    return websocket.client.host if websocket.client else "unknown"


@contextlib.contextmanager
def _admitted(rt: Runtime, websocket: WebSocket) -> Iterator[None]:
    """Register the socket in ``rt.fanout.admitted`` while it is served: the drain
    (:func:`app.services.drain.close_sockets`) closes with 1012 any a hub did not close
    (``close`` answers whether it closed it now).
    """

    async def close(code: int, reason: str) -> bool:
        if websocket.application_state == WebSocketState.DISCONNECTED:
            return False  # closed already (by its hub): nothing to do
        with contextlib.suppress(Exception):
            count_close(code)
            await websocket.close(code, reason)
        return True

    rt.fanout.admitted.add(close)
    try:
        yield
    finally:
        rt.fanout.admitted.discard(close)


def closer(websocket: WebSocket) -> Closer:
    """How :class:`~app.services.sockets.held.OpenSockets` closes this socket (revoked)."""

    async def close(frame: str, code: int, reason: str) -> None:
        with contextlib.suppress(Exception):
            await websocket.send_text(frame)
        count_close(code)
        await websocket.close(code, reason)

    return close


async def refuse(websocket: WebSocket, exc: ServiceError) -> None:
    """Send ``exc`` as an error frame and close with its code (never raises)."""
    code = TRY_AGAIN_LATER if isinstance(exc, RateLimited) else _CLOSE.get(exc.code, 4400)
    with contextlib.suppress(Exception):
        await websocket.send_text(
            error_frame(exc.code, exc.message, reason=exc.reason, params=exc.params)
        )
        count_close(code)
        await websocket.close(code, exc.code)


async def refuse_unavailable(websocket: WebSocket, exc: Exception) -> None:
    """Close a socket whose database went away (a restart) with an ``unavailable`` frame and
    1013 (try again later: the client reconnects with its back-off). Re-raises anything else.
    """
    if not is_database_unavailable(exc):
        raise exc
    log.warning("socket closed, the database is unavailable: %s", exc)
    with contextlib.suppress(Exception):
        await websocket.send_text(unavailable_frame(None))
        count_close(TRY_AGAIN_LATER)
        await websocket.close(TRY_AGAIN_LATER, "database unavailable: reconnect")


async def close_flooded(websocket: WebSocket, reason: str) -> None:
    """Close a flooding (or not reading) client with 1013, never waiting long for it."""
    count_close(TRY_AGAIN_LATER)
    with contextlib.suppress(Exception):
        await asyncio.wait_for(websocket.close(TRY_AGAIN_LATER, reason), 5.0)


def unavailable_frame(action_id: str | None) -> str:
    """The error frame for a frame refused because the database is unavailable (a restart)."""
    return error_frame(
        "unavailable",
        "the database is restarting: try again in a moment",
        action_id,
        retry_after=DB_RETRY_AFTER,
    )


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
