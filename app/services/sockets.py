"""Sockets and presence of a match: the match's hub, opening a player's or spectator's socket,
and the seat presence the bot sweep reads (``seat_presence``).

Presence timing comes from one place, :mod:`app.realtime.hub` (``HEARTBEAT``, ``PRESENCE_TTL``).
"""

from __future__ import annotations

import contextlib
from datetime import timedelta
from typing import Any

import orjson

from app.db.hot import DUPLICATE, write_tx
from app.db.models import utcnow
from app.realtime.hub import PRESENCE_TTL, Connection, Hub
from app.realtime.protocol import presence_frame, snapshot_frame
from app.services import clocks
from app.services.reads import check_watch, current, fetch_frames, match_json
from app.services.runtime import Runtime

#: A seat seen connected this recently is not abandoned (heartbeats refresh it more often).
PRESENT_WINDOW = timedelta(seconds=PRESENCE_TTL)


def match_hub_factory(rt: Runtime, match_id: str, seats: list[dict[str, Any]]) -> Hub:
    """A hub for a match channel: ordered batches, gap-filled from the log, seat presence
    (bots always count as connected).
    """

    async def fetch(after: int, upto: int | None) -> list[tuple[int, str]]:
        return await fetch_frames(rt, match_id, after, upto)

    bots = {str(s["seat"]) for s in seats if s.get("bot")}
    hub: Hub

    def render(keys: set[str], spectators: int) -> str:
        return presence_frame(
            [{"seat": i, "connected": str(i) in keys or str(i) in bots} for i in range(len(seats))],
            spectators,
            hub.last_v,
        )

    hub = Hub(
        rt.hubs,
        rt.channel("match", match_id),
        ordered=True,
        fetch=fetch,
        render_presence=render,
        key=match_id,
    )
    return hub


async def open_match_socket(
    rt: Runtime,
    socket: Any,
    match_id: str,
    player_id: str | None,
    code: str | None,
    since: int | None,
) -> tuple[Hub, Connection, int | None]:
    """Register a websocket on a match and send its first frames (snapshot or catch-up).

    Returns ``(hub, connection, seat)``; raises :class:`NotFound`, :class:`Forbidden`.
    """
    live = await current(rt, match_id)
    check_watch(live, player_id, code)
    seat = live.seat_of(player_id)
    seats = live.seats
    hub = await rt.hubs.acquire(
        rt.channel("match", match_id), lambda: match_hub_factory(rt, match_id, seats)
    )
    conn = Connection(socket, None if seat is None else str(seat), hub.fetch)
    hub.add(conn)
    try:
        if seat is not None:
            await touch_seats(rt, match_id, [seat])
            if clocks.is_away(live.clock, seat):  # back within the leave countdown (issue 13)
                await clocks.seat_presence_changed(rt, match_id, seat, present=True)
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
    except BaseException:
        await rt.hubs.release(hub, conn)
        raise
    return hub, conn, seat


async def close_match_socket(
    rt: Runtime, hub: Hub, conn: Connection, match_id: str, seat: int | None
) -> None:
    """Unregister a socket; a seat whose last socket here closed is marked gone at once."""
    await rt.hubs.release(hub, conn)
    if seat is not None and str(seat) not in hub.local_presence()[0]:
        with contextlib.suppress(Exception):
            # Another instance still holding this seat refreshes it within a heartbeat.
            await touch_seats(rt, match_id, [seat], gone=True)
        if str(seat) not in hub.presence()[0]:  # gone everywhere: the leave countdown starts
            with contextlib.suppress(Exception):
                await clocks.seat_presence_changed(rt, match_id, seat, present=False)


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
        async with write_tx(rt.db) as tx:
            await tx.touch_presence(pairs, now)
