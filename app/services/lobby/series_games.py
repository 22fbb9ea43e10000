"""Counting a series game and dealing the next (:mod:`app.services.lobby.series` has the rules
and the stored shape): the ``match_settled`` listener hears a match's result is written, and a
sweep every instance runs catches a match that ended without a move or whose news was lost.
Counting and dealing happen in one transaction under the lobby row's lock: a game counts once
and the next game is dealt once across instances.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime, timedelta

from app.db.errors import log_failure
from app.db.models import utcnow
from app.db.session import as_utc
from app.services.lobby import core, series_queries
from app.services.lobby.dealing import deal_match
from app.services.lobby.model import LobbyChanges, SeriesGameJson
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
    async with rt.storage.db.transaction() as conn:
        code = await series_queries.lobby_of_match(conn, match_id)
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
        places = [int(s.place) for s in seats if s.place is not None]
        if not seats or len(places) < len(seats):
            return False  # the history settles first
        n = len(series["seats"])
        points = [0.0] * n
        for s, p in zip(seats, game_points(places), strict=True):
            points[(int(s.seat) + game["first"]) % n] = p
        games: list[SeriesGameJson] = [g.copy() for g in series["games"]]
        games[[g["match"] for g in games].index(match_id)]["points"] = points
        score = [a + b for a, b in zip(series["score"], points, strict=True)]
        winners = decided_winners(score, len(games), int(series["best_of"]))
        values: LobbyChanges = {}
        if winners is None:
            first = len(games) % n
            address = await series_queries.started_from(conn, match_id) or "series"
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


def listen(rt: Runtime) -> None:
    """Subscribe the series' listener to ``rt.match_settled`` (at startup, once)."""
    rt.match_settled.subscribe(on_match_settled)


def on_match_settled(rt: Runtime, match_id: str) -> None:
    """Listener of ``rt.match_settled``: a match whose result is written may be a series game."""
    rt.spawn(game_settled(rt, match_id))


async def game_settled(rt: Runtime, match_id: str) -> None:
    """A match's history settled: when it is a series game, count it (its result is there).
    Never raises; the sweep catches what this misses.
    """
    try:
        async with rt.storage.db.reading() as conn:
            if not await series_queries.is_series_game(conn, match_id):
                return  # most matches
        await count_game(rt, match_id)
    except Exception:
        log_failure(log, f"could not count series game {match_id}")


async def sweep_once(rt: Runtime) -> int:
    """Count every finished, settled current game of a running series (a match ended without
    a move, or whose end this instance never heard of). Returns how many were counted.
    """
    since = utcnow() - SWEEP_WINDOW
    async with rt.storage.db.reading() as conn:
        games = await series_queries.finished_series_games(conn, since)
    counted = 0
    for g in games:
        if is_running(g.series):
            await _settle_if_late(rt, g.match_id, g.finished_at)
            counted += int(await count_game(rt, g.match_id))
    return counted


async def _settle_if_late(rt: Runtime, match_id: str, finished_at: datetime | None) -> None:
    """Settle the history of a game nobody settled :data:`SETTLE_LATE` after its end (a match
    ended early by a vote ends without a move, so no subscriber settles it); never sooner,
    not to race the records subscriber.
    """
    if finished_at is None or utcnow() - as_utc(finished_at) <= SETTLE_LATE:
        return
    async with rt.storage.db.reading() as conn:
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
