"""Sockets and presence of a match: the match's hub, opening a player's or spectator's socket,
and the seat presence the bot sweep reads (``seat_presence``).

Presence timing comes from one place, :mod:`app.realtime.hub` (``HEARTBEAT``, ``PRESENCE_TTL``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from datetime import timedelta

import orjson

from app.db.errors import is_database_unavailable
from app.db.hot import DUPLICATE, write_tx
from app.db.models import utcnow
from app.realtime.connection import Connection, Socket
from app.realtime.hub import PRESENCE_TTL, Hub
from app.realtime.hubs import Joined
from app.realtime.protocol import presence_frame, snapshot_frame
from app.services.clock import clocks
from app.services.clock import requests as clock_requests
from app.services.match.delivery.delayed_socket import DelayedConnection
from app.services.match.reads import (
    check_watch,
    current,
    delayed_json,
    fetch_frames,
    match_json,
)
from app.services.match.spectating import delay
from app.services.runtime import Runtime
from app.services.seat_values import MatchSeat

#: A seat seen connected this recently is not abandoned (heartbeats refresh it more often).
PRESENT_WINDOW = timedelta(seconds=PRESENCE_TTL)


def match_hub_factory(rt: Runtime, match_id: str, seats: Sequence[MatchSeat]) -> Hub:
    """A hub for a match channel: ordered batches, gap-filled from the log, seat presence
    (bots always count as connected); ``seats``: the match's, in turn order.
    """

    async def fetch(after: int, upto: int | None) -> list[tuple[int, str]]:
        try:
            return await fetch_frames(rt, match_id, after, upto)
        except Exception as exc:
            if is_database_unavailable(exc):  # the hub and connections treat it as transient
                raise ConnectionError(f"the database is unavailable: {exc}") from exc
            raise

    bots = {str(s.seat) for s in seats if s.bot}
    hub: Hub

    def render(keys: set[str], spectators: int) -> str:
        return presence_frame(
            [{"seat": i, "connected": str(i) in keys or str(i) in bots} for i in range(len(seats))],
            spectators,
            hub.last_v,
        )

    async def refresh() -> str | None:
        try:
            live = await current(rt, match_id)
        except Exception as exc:
            if is_database_unavailable(exc):
                raise ConnectionError(f"the database is unavailable: {exc}") from exc
            raise
        if live.state.is_over:  # ended (early, by a vote): the final position
            return snapshot_frame(live.version, match_json(rt, live, None))
        if live.clock is None:
            return None
        return clocks.clock_frame(live.clock, live.version)

    hub = Hub(
        rt.fanout.hubs,
        rt.fanout.channel("match", match_id),
        ordered=True,
        fetch=fetch,
        render_presence=render,
        key=match_id,
        refresh=refresh,
    )
    return hub


def match_socket(
    rt: Runtime,
    socket: Socket,
    match_id: str,
    player_id: str | None,
    code: str | None,
    since: int | None,
) -> MatchSocket:
    """A :class:`MatchSocket` (use it as ``async with``: hub, connection and seat)."""
    return MatchSocket(rt, socket, match_id, player_id, code, since)


class MatchSocket:
    """A websocket joined to a match for an ``async with`` block: registered on the match's
    hub, its seat marked present (back within a leave countdown: the countdown stops), its
    first frames sent (snapshot or catch-up). Entering yields ``(hub, connection, seat)`` and
    raises :class:`NotFound`, :class:`Forbidden` before joining. On the way out (even when
    cancelled): the socket leaves the hub, and a seat whose last socket closed everywhere
    starts its leave countdown (:func:`left_match`; not when a drain closed it). A small
    object: it lives as long as the socket.
    """

    __slots__ = ("_code", "_joined", "_player", "_rt", "_since", "_socket", "match_id", "seat")

    def __init__(
        self,
        rt: Runtime,
        socket: Socket,
        match_id: str,
        player_id: str | None,
        code: str | None,
        since: int | None,
    ) -> None:
        self._rt = rt
        self._socket = socket
        self.match_id = match_id
        self._player = player_id
        self._code = code
        self._since = since
        self.seat: int | None = None
        self._joined: Joined | None = None

    async def __aenter__(self) -> tuple[Hub, Connection, int | None]:
        """Check, join, send the first frames."""
        rt, socket, match_id = self._rt, self._socket, self.match_id
        live = await current(rt, match_id)
        check_watch(live, self._player, self._code)
        seat = self.seat = live.seat_of(self._player)
        seats = live.seats
        key = None if seat is None else str(seat)
        away = seat is not None and clocks.is_away(live.clock, seat)
        wait = await delay.delay_for(rt, live, self._player)

        def connection(hub: Hub) -> Connection:
            if wait is not None:  # a delayed spectator: the live frames never reach it
                return DelayedConnection(socket, rt, match_id, wait)
            return Connection(socket, key, hub.fetch)

        self._joined = rt.fanout.hubs.joined(
            rt.fanout.channel("match", match_id),
            lambda: match_hub_factory(rt, match_id, seats),
            connection,
            self._left,
        )
        hub, conn = await self._joined.__aenter__()
        try:
            if isinstance(conn, DelayedConnection):
                await _first_delayed_frame(rt, socket, conn, match_id)
            else:
                await _first_frames(
                    rt, socket, hub, conn, match_id, seat, since=self._since, away=away
                )
            if seat is None:
                await rt.fanout.spectators.changed(
                    match_id
                )  # the lobby list counts them everywhere
        except BaseException as exc:
            await self._joined.__aexit__(type(exc), exc, exc.__traceback__)
            raise
        return hub, conn, seat

    async def __aexit__(self, *exc: object) -> None:
        """Leave the hub; then :func:`left_match`."""
        if self._joined is not None:
            await self._joined.__aexit__(*exc)

    async def _left(self, hub: Hub) -> None:
        await left_match(self._rt, hub, self.match_id, self.seat)


async def _first_frames(
    rt: Runtime,
    socket: Socket,
    hub: Hub,
    conn: Connection,
    match_id: str,
    seat: int | None,
    *,
    since: int | None,
    away: bool,
) -> None:
    if seat is not None:
        await touch_seats(rt, match_id, [seat])
        if away:  # back within the leave countdown (issue 13)
            await clock_requests.seat_presence_changed(rt, match_id, seat, present=True)
    if since is None:
        live = await current(rt, match_id)
        frames = [(live.version, snapshot_frame(live.version, match_json(rt, live, seat)))]
    else:
        frames = await fetch_frames(rt, match_id, since, None)
        if frames and orjson.loads(frames[0][1]).get("t") == "snapshot":
            live = await current(rt, match_id)
            frames = [(live.version, snapshot_frame(live.version, match_json(rt, live, seat)))]
    sent = since if since is not None else -1
    for v, text in frames:
        await socket.send_text(text)
        sent = max(sent, v)
    hub.note_version(sent)
    conn.start(sent)


async def _first_delayed_frame(
    rt: Runtime, socket: Socket, conn: DelayedConnection, match_id: str
) -> None:
    """A delayed spectator's first frame: the snapshot at the visible version (whatever its
    ``since``: a delta against a version it may hold would not be the visible one).
    """
    live = await current(rt, match_id)
    at = await delay.delayed_live(rt, live, None)
    wait = await delay.delay_of(rt, match_id)
    frame = match_json(rt, at, None) if wait is None else delayed_json(rt, at, wait)
    await socket.send_text(snapshot_frame(at.version, frame))
    conn.start_feed(at.version)


async def left_match(rt: Runtime, hub: Hub, match_id: str, seat: int | None) -> None:
    """After a socket left the match's hub: spectator counts, or — when it was the seat's last
    socket here — the seat marked gone, and its leave countdown started if it is gone
    everywhere. Not while the instance drains: a socket it closed for a restart (1012) is not
    its player leaving — the client reconnects to another instance at once, and the seat's
    presence (fresh within a heartbeat) holds until that socket refreshes it.
    """
    if seat is None:
        await rt.fanout.spectators.changed(match_id)
        return
    if rt.draining:
        return
    if str(seat) not in hub.local_presence()[0]:
        with contextlib.suppress(Exception):
            # Another instance still holding this seat refreshes it within a heartbeat.
            await touch_seats(rt, match_id, [seat], gone=True)
        if str(seat) not in hub.presence()[0]:  # gone everywhere: the leave countdown starts
            with contextlib.suppress(Exception):
                await clock_requests.seat_presence_changed(rt, match_id, seat, present=False)


async def touch_seats(rt: Runtime, match_id: str, seats: list[int], gone: bool = False) -> None:
    """Record that ``seats`` of a match are connected now (``seat_presence``); ``gone``: that
    they just left (their last socket here closed), so the bot sweep need not wait.
    """
    await touch_many(rt, [(match_id, seat) for seat in seats], gone)


async def touch_many(rt: Runtime, seats: list[tuple[str, int]], gone: bool = False) -> None:
    """:func:`touch_seats` for ``(match_id, seat)`` pairs of any matches, in one statement."""
    if not seats:
        return
    now = utcnow() - (PRESENT_WINDOW + timedelta(seconds=1) if gone else timedelta(0))
    pairs = sorted(set(seats))
    with contextlib.suppress(*DUPLICATE):  # DUPLICATE covers FK errors: the match was deleted
        async with write_tx(rt.storage.db) as tx:
            await tx.touch_presence(pairs, now)
