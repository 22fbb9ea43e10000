"""The SQL of ratings: each player's rating per preset, the rating changes of a match (who
gained what), the leaderboard, and the reads rated play's guards make
(:mod:`app.services.records.rating_guards`: account ages, a player's experience, the changes
against one opponent).

Each statement runs on a connection inside the caller's transaction; ratings and rating
changes come back as the feature's types (:mod:`app.services.records.model`), built here only.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from sqlalchemy import Row, and_, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_players, rating_changes, ratings
from app.db.models import players
from app.services.records.model import RankedRating, Rating, RatingChange

# -- ratings and their changes ---------------------------------------------------------------


async def is_rated(conn: AsyncConnection, match_id: str) -> bool:
    """Whether ``match_id`` already has rating changes."""
    query = select(rating_changes.c.seat).where(rating_changes.c.match_id == match_id)
    return (await conn.execute(query)).first() is not None


def _rating(r: Row[tuple[object, ...]]) -> Rating:
    return Rating(str(r.player_id), str(r.preset), float(r.mu), float(r.sigma), int(r.games))


def _change(r: Row[tuple[object, ...]]) -> RatingChange:
    return RatingChange(
        match_id=str(r.match_id),
        seat=int(r.seat),
        player_id=str(r.player_id),
        preset=str(r.preset),
        mu_before=float(r.mu_before),
        sigma_before=float(r.sigma_before),
        mu_after=float(r.mu_after),
        sigma_after=float(r.sigma_after),
    )


async def ratings_of(conn: AsyncConnection, preset: str, player_ids: Sequence[str]) -> list[Rating]:
    """The ratings of ``player_ids`` in ``preset`` (players never rated there: none)."""
    query = select(ratings).where(ratings.c.preset == preset, ratings.c.player_id.in_(player_ids))
    return [_rating(r) for r in await conn.execute(query)]


async def player_ratings(conn: AsyncConnection, player_id: str) -> list[Rating]:
    """Every rating of one player (one per preset)."""
    return [
        _rating(r)
        for r in await conn.execute(select(ratings).where(ratings.c.player_id == player_id))
    ]


async def save_rating(
    conn: AsyncConnection, rating: Rating, *, exists: bool, now: datetime
) -> None:
    """Update (``exists``) or insert ``rating``."""
    if exists:
        await conn.execute(
            update(ratings)
            .where(ratings.c.player_id == rating.player_id, ratings.c.preset == rating.preset)
            .values(mu=rating.mu, sigma=rating.sigma, games=rating.games, updated_at=now)
        )
    else:
        await conn.execute(
            insert(ratings).values(
                player_id=rating.player_id,
                preset=rating.preset,
                mu=rating.mu,
                sigma=rating.sigma,
                games=rating.games,
                updated_at=now,
            )
        )


async def insert_rating_change(conn: AsyncConnection, change: RatingChange) -> None:
    """Insert one ``rating_changes`` row."""
    await conn.execute(
        insert(rating_changes).values(
            match_id=change.match_id,
            seat=change.seat,
            player_id=change.player_id,
            preset=change.preset,
            mu_before=change.mu_before,
            sigma_before=change.sigma_before,
            mu_after=change.mu_after,
            sigma_after=change.sigma_after,
        )
    )


async def rating_changes_of(conn: AsyncConnection, match_ids: Sequence[str]) -> list[RatingChange]:
    """The rating changes of ``match_ids``, by seat."""
    query = (
        select(rating_changes)
        .where(rating_changes.c.match_id.in_(match_ids))
        .order_by(rating_changes.c.seat)
    )
    return [_change(r) for r in await conn.execute(query)]


async def unrated_reason_of(conn: AsyncConnection, match_id: str) -> str | None:
    """The stored reason a rated table's match ended unrated, or None."""
    query = (
        select(match_players.c.unrated)
        .where(match_players.c.match_id == match_id, match_players.c.unrated.is_not(None))
        .limit(1)
    )
    found = (await conn.execute(query)).scalar()
    return str(found) if found else None


async def leaderboard_page(
    conn: AsyncConnection, preset: str, limit: int, offset: int
) -> tuple[int, list[RankedRating]]:
    """``(total, lines)`` of a preset's rated accounts, best first by ``mu − 3σ``, then more
    games, then id.
    """
    ordinal = ratings.c.mu - 3 * ratings.c.sigma
    total = (
        await conn.execute(
            select(func.count()).select_from(ratings).where(ratings.c.preset == preset)
        )
    ).scalar_one()
    rows = (
        await conn.execute(
            select(ratings, players.c.name, accounts.c.username)
            .join(players, players.c.id == ratings.c.player_id)
            .join(accounts, accounts.c.player_id == ratings.c.player_id)
            .where(ratings.c.preset == preset)
            .order_by(ordinal.desc(), ratings.c.games.desc(), ratings.c.player_id)
            .limit(limit)
            .offset(offset)
        )
    ).all()
    return int(total), [RankedRating(_rating(r), str(r.name), r.username) for r in rows]


# -- rated play's guards ---------------------------------------------------------------------


async def account_ages(conn: AsyncConnection, player_ids: Sequence[str]) -> dict[str, datetime]:
    """``{player_id: account created_at}`` of the ids that have an account."""
    query = select(accounts.c.player_id, accounts.c.created_at).where(
        accounts.c.player_id.in_(player_ids)
    )
    return {r[0]: r[1] for r in await conn.execute(query)}


async def experience(conn: AsyncConnection, player_id: str, besides: str) -> tuple[int, int]:
    """``(finished matches, distinct opponents with an id)`` of a player, ``besides`` (a match
    id) left out.
    """
    mine = match_players.alias("mine")
    other = match_players.alias("other")
    played = select(func.count(func.distinct(mine.c.match_id))).where(
        mine.c.player_id == player_id,
        mine.c.finished_at.is_not(None),
        mine.c.match_id != besides,
    )
    met = (
        select(func.count(func.distinct(other.c.player_id)))
        .select_from(mine.join(other, other.c.match_id == mine.c.match_id))
        .where(
            mine.c.player_id == player_id,
            mine.c.finished_at.is_not(None),
            mine.c.match_id != besides,
            other.c.player_id.is_not(None),
            other.c.player_id != player_id,
        )
    )
    return int((await conn.execute(played)).scalar_one()), int(
        (await conn.execute(met)).scalar_one()
    )


async def changes_against(
    conn: AsyncConnection, player_id: str, opponent: str, preset: str, since: datetime
) -> list[RatingChange]:
    """``player_id``'s rating changes in ``preset`` from matches finished since ``since`` in
    which ``opponent`` sat too.
    """
    query = (
        select(rating_changes)
        .select_from(
            rating_changes.join(
                match_players,
                and_(
                    match_players.c.match_id == rating_changes.c.match_id,
                    match_players.c.player_id == opponent,
                ),
            )
        )
        .where(
            rating_changes.c.player_id == player_id,
            rating_changes.c.preset == preset,
            match_players.c.finished_at >= since,
        )
    )
    return [_change(r) for r in await conn.execute(query)]
