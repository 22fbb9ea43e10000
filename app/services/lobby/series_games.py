"""Counting a series game and dealing the next (:mod:`app.services.lobby.series` has the rules
and the stored shape): the ``move_committed`` subscriber hears a match end, and a sweep every
instance runs catches a match that ended without a move or whose news was lost. Counting and
dealing happen in one transaction under the lobby row's lock: a game counts once and the next
game is dealt once across instances.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import timedelta
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.errors import log_failure
from app.db.models import lobbies, matches, utcnow
from app.db.session import as_utc
from app.services.cache import Live
from app.services.lobby import core
from app.services.lobby.lobby import deal_match
from app.services.lobby.series import decided_winners, game_points, is_running, rotated
from app.services.records import history
from app.services.records import queries as records_sql
from app.services.runtime import Runtime

log = logging.getLogger(__name__)

#: Seconds between two looks of the sweep.
SWEEP_EVERY = 5.0
#: The sweep looks at series games that finished this recently.
SWEEP_WINDOW = timedelta(minutes=30)
#: A finished game whose history nobody settled after this long is settled by the sweep.
SETTLE_LATE = timedelta(seconds=10)


# ---------------------------------------------------------------------- counting a game


async def count_game(rt: Runtime, match_id: str) -> bool:
    """Count the finished, settled match ``match_id`` in its table's series and deal the next
    game, or end the series when it is decided. Returns whether anything changed (False: not
    a series game, not settled yet, or counted already — a result counts once).
    """
    async with rt.db.transaction() as conn:
        code = await _lobby_of_match(conn, match_id)
        if code is None:
            return False
        row = await core.locked(rt, conn, code)
        series = row.series
        if not is_running(series):
            return False
        game = next((g for g in series["games"] if g["match"] == match_id), None)
        if game is None or game["points"] is not None:
            return False
        seats = await records_sql.seat_results(conn, match_id)
        if not seats or any(s.place is None for s in seats):
            return False  # the history settles first
        n = len(series["seats"])
        points = [0.0] * n
        for s, p in zip(seats, game_points([int(s.place) for s in seats]), strict=True):
            points[(int(s.seat) + game["first"]) % n] = p
        games = [dict(g) for g in series["games"]]
        games[[g["match"] for g in games].index(match_id)]["points"] = points
        score = [a + b for a, b in zip(series["score"], points, strict=True)]
        winners = decided_winners(score, len(games), int(series["best_of"]))
        values: dict[str, Any] = {}
        if winners is None:
            first = len(games) % n
            address = await _started_from(conn, match_id)
            next_id = await deal_match(rt, conn, row, rotated(series["seats"], first), address)
            games.append({"match": next_id, "first": first, "points": None})
            values["match_id"] = next_id
        values["series"] = {
            **series,
            "games": games,
            "score": score,
            "status": "playing" if winners is None else "decided",
            "winners": winners,
        }
        row = await core.save(rt, conn, row, **values)
    if winners is None:
        rt.metrics.matches_live.inc()
    await core.announce(rt, row)
    return True


async def _lobby_of_match(conn: AsyncConnection, match_id: str) -> str | None:
    found = (
        await conn.execute(select(matches.c.lobby_code).where(matches.c.id == match_id))
    ).first()
    return None if found is None else str(found.lobby_code)


async def _is_series_game(conn: AsyncConnection, match_id: str) -> bool:
    found = (
        await conn.execute(
            select(lobbies.c.best_of)
            .join(matches, matches.c.lobby_code == lobbies.c.code)
            .where(matches.c.id == match_id)
        )
    ).first()
    return found is not None and int(found.best_of or 1) > 1


async def _started_from(conn: AsyncConnection, match_id: str) -> str:
    found = (
        await conn.execute(select(matches.c.started_from).where(matches.c.id == match_id))
    ).first()
    return str(found.started_from) if found is not None and found.started_from else "series"


def on_move_committed(rt: Runtime, live: Live, move: Any) -> None:
    """Subscriber of ``rt.move_committed`` (``move``: the match package's ``Committed``, of
    which only ``match_id`` is read): a match that just ended may be a series game.
    """
    if live.state.is_over:
        rt.spawn(game_ended(rt, move.match_id))


async def game_ended(rt: Runtime, match_id: str) -> None:
    """A match ended: once its history settled (the records subscriber does it at the same
    time), count it in its series. Never raises; the sweep catches what this misses.
    """
    try:
        async with rt.db.reading() as conn:
            if not await _is_series_game(conn, match_id):
                return  # most matches: nothing to wait for
        for _ in range(20):
            async with rt.db.reading() as conn:
                seats = await records_sql.seat_results(conn, match_id)
            if seats and all(s.place is not None for s in seats):
                break
            await asyncio.sleep(0.25)
        await count_game(rt, match_id)
    except Exception:
        log_failure(log, f"could not count series game {match_id}")


async def sweep_once(rt: Runtime) -> int:
    """Count every finished, settled current game of a running series (a match ended without
    a move, or whose end this instance never heard of). Returns how many were counted.
    """
    since = utcnow() - SWEEP_WINDOW
    async with rt.db.reading() as conn:
        rows = (
            await conn.execute(
                select(lobbies.c.match_id, lobbies.c.series, matches.c.finished_at)
                .join(matches, matches.c.id == lobbies.c.match_id)
                .where(
                    lobbies.c.best_of.is_not(None),
                    lobbies.c.status == "started",
                    matches.c.status == "finished",
                    matches.c.finished_at >= since,
                )
            )
        ).all()
    counted = 0
    for r in rows:
        if is_running(r.series):
            await _settle_if_late(rt, str(r.match_id), r.finished_at)
            counted += int(await count_game(rt, str(r.match_id)))
    return counted


async def _settle_if_late(rt: Runtime, match_id: str, finished_at: Any) -> None:
    """Settle the history of a game nobody settled :data:`SETTLE_LATE` after its end (a match
    ended early by a vote ends without a move, so no subscriber settles it); never sooner,
    not to race the records subscriber.
    """
    if finished_at is None or utcnow() - as_utc(finished_at) <= SETTLE_LATE:
        return
    async with rt.db.reading() as conn:
        seats = await records_sql.seat_results(conn, match_id)
    if seats and any(s.place is None for s in seats):
        await history.settle(rt, match_id)


async def sweep(rt: Runtime) -> None:
    """Background loop: :func:`sweep_once` every :data:`SWEEP_EVERY` seconds."""
    while True:
        await asyncio.sleep(SWEEP_EVERY)
        try:
            await sweep_once(rt)
        except Exception:
            log_failure(log, "series sweep failed")
