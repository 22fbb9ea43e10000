"""The SQL behind profile statistics (:mod:`app.services.records.statistics`): a player's finished
history rows, the seat counts of those matches, their rating changes in time order, and the
action log's events of one match (to fill a row settled before statistics were kept).
"""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import Row, func, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import match_players, rating_changes
from app.db.models import match_actions, players
from app.json_types import JsonObject
from app.services.records.model import RatingStep, SeatStatistics, SettledRow


def _settled(r: Row[Any]) -> SettledRow:
    return SettledRow(str(r.match_id), int(r.seat), r.place, bool(r.left), r.score, r.statistics)


async def player_exists(conn: AsyncConnection, player_id: str) -> bool:
    """Whether ``players`` has the id."""
    found = await conn.execute(select(players.c.id).where(players.c.id == player_id))
    return found.first() is not None


async def match_rows(conn: AsyncConnection, match_id: str) -> list[SettledRow]:
    """A match's history rows, by seat."""
    rows = await conn.execute(
        select(match_players)
        .where(match_players.c.match_id == match_id)
        .order_by(match_players.c.seat)
    )
    return [_settled(r) for r in rows]


async def finished_rows(conn: AsyncConnection, player_id: str) -> list[SettledRow]:
    """The player's settled history rows, oldest first."""
    rows = await conn.execute(
        select(match_players)
        .where(
            match_players.c.player_id == player_id,
            match_players.c.finished_at.is_not(None),
        )
        .order_by(match_players.c.finished_at, match_players.c.match_id)
    )
    return [_settled(r) for r in rows]


async def seat_counts(conn: AsyncConnection, match_ids: list[str]) -> dict[str, int]:
    """``{match_id: number of seats}`` for the given matches."""
    if not match_ids:
        return {}
    rows = await conn.execute(
        select(match_players.c.match_id, func.count())
        .where(match_players.c.match_id.in_(match_ids))
        .group_by(match_players.c.match_id)
    )
    return {r[0]: int(r[1]) for r in rows}


async def rating_steps(conn: AsyncConnection, player_id: str) -> list[RatingStep]:
    """The player's rating changes with the time of their match, oldest first."""
    return [
        RatingStep(*r)
        for r in (
            await conn.execute(
                select(
                    rating_changes.c.preset,
                    rating_changes.c.mu_before,
                    rating_changes.c.sigma_before,
                    rating_changes.c.mu_after,
                    rating_changes.c.sigma_after,
                    match_players.c.finished_at,
                )
                .join(
                    match_players,
                    (match_players.c.match_id == rating_changes.c.match_id)
                    & (match_players.c.seat == rating_changes.c.seat),
                )
                .where(rating_changes.c.player_id == player_id)
                .order_by(match_players.c.finished_at, rating_changes.c.match_id)
            )
        ).all()
    ]


async def match_events(conn: AsyncConnection, match_id: str) -> list[JsonObject]:
    """Every event of a match's action log, in order (JSON form, ``{"type", ...}``)."""
    rows = await conn.execute(
        select(match_actions.c.events)
        .where(match_actions.c.match_id == match_id)
        .order_by(match_actions.c.seq)
    )
    out: list[JsonObject] = []
    for (events,) in rows:
        out.extend(orjson.loads(events))
    return out


async def store_statistics(
    conn: AsyncConnection, match_id: str, by_seat: dict[int, SeatStatistics]
) -> None:
    """Write each seat's statistics into its history row."""
    for seat, stats in by_seat.items():
        await conn.execute(
            update(match_players)
            .where(match_players.c.match_id == match_id, match_players.c.seat == seat)
            .values(statistics=stats)
        )
