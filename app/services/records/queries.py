"""The SQL of the records package's history: the rows of each seat (``match_players``), a
player's finished matches, and the shuffle commitments (ratings: :mod:`.rating_queries`).

Each statement runs on a connection inside the caller's transaction. History seats, results
and commitments come back as the feature's types (:mod:`app.services.records.model`), built
here only; the other reads still give SQLAlchemy ``Row`` objects of the tables in
:mod:`app.db.community` and :mod:`app.db.models`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from sqlalchemy import Row, and_, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_fairness, match_players
from app.db.models import match_actions, matches, players
from app.services.records.model import (
    Fairness,
    FinishedSnapshot,
    HistorySeat,
    MatchResult,
    PlayedMatch,
    PlayerHeader,
    SettledSeat,
)

# -- history rows ---------------------------------------------------------------------------


def _seat(r: Row[Any]) -> HistorySeat:
    return HistorySeat(
        match_id=str(r.match_id),
        seat=int(r.seat),
        player_id=r.player_id,
        bot=bool(r.bot),
        preset=r.preset,
        rated=bool(r.rated),
        unrated=r.unrated,
        left=bool(r.left),
        left_at=r.left_at,
        score=r.score,
        place=r.place,
        started_at=r.started_at,
        finished_at=r.finished_at,
    )


async def insert_seats(conn: AsyncConnection, seats: list[HistorySeat]) -> None:
    """Insert the history rows of a new match's seats."""
    rows = [
        {
            "match_id": s.match_id,
            "seat": s.seat,
            "player_id": s.player_id,
            "bot": s.bot,
            "preset": s.preset,
            "rated": s.rated,
            "left": s.left,
            "score": s.score,
            "place": s.place,
            "started_at": s.started_at,
            "finished_at": s.finished_at,
        }
        for s in seats
    ]
    await conn.execute(match_players.insert(), rows)


async def mark_left(conn: AsyncConnection, match_id: str, seat: int) -> None:
    """Mark a human seat of ``match_id`` that has not left yet as left."""
    await conn.execute(
        update(match_players)
        .where(
            match_players.c.match_id == match_id,
            match_players.c.seat == seat,
            match_players.c.bot.is_(False),
            match_players.c.left.is_(False),
        )
        .values(left=True)
    )


async def match_result(
    conn: AsyncConnection, match_id: str, lock: bool = False
) -> MatchResult | None:
    """What settling reads of a match, or None. ``lock`` takes
    the row ``FOR UPDATE`` for the rest of the transaction (Postgres; SQLite serialises
    writers itself), so two settlers of one match take turns.
    """
    query = select(
        matches.c.status,
        matches.c.scores,
        matches.c.seats,
        matches.c.finished_at,
        matches.c.snapshot,
    ).where(matches.c.id == match_id)
    if lock and conn.dialect.name == "postgresql":
        query = query.with_for_update()
    r = (await conn.execute(query)).first()
    if r is None:
        return None
    return MatchResult(str(r.status), list(r.scores), list(r.seats), r.finished_at, r.snapshot)


async def unsettled_seats(conn: AsyncConnection, match_id: str) -> list[HistorySeat]:
    """The history rows of ``match_id`` not finished yet, by seat."""
    query = (
        select(match_players)
        .where(match_players.c.match_id == match_id, match_players.c.finished_at.is_(None))
        .order_by(match_players.c.seat)
    )
    return [_seat(r) for r in await conn.execute(query)]


async def settle_seat(conn: AsyncConnection, match_id: str, seat: int, result: SettledSeat) -> None:
    """Write one seat's ``result`` into its history row."""
    await conn.execute(
        update(match_players)
        .where(match_players.c.match_id == match_id, match_players.c.seat == seat)
        .values(
            score=result.score,
            place=result.place,
            left=result.left,
            left_at=result.left_at,
            finished_at=result.finished_at,
        )
    )


async def mark_unrated(conn: AsyncConnection, match_id: str, reason: str) -> None:
    """Mark every seat of a rated table's match as unrated, for ``reason``."""
    await conn.execute(
        update(match_players)
        .where(match_players.c.match_id == match_id)
        .values(rated=False, unrated=reason)
    )


async def computer_seqs(conn: AsyncConnection, match_id: str) -> list[int]:
    """The ``seq`` of every action of ``match_id`` the computer chose, in log order."""
    rows = await conn.execute(
        select(match_actions.c.seq).where(
            match_actions.c.match_id == match_id, match_actions.c.by.is_not(None)
        )
    )
    return [int(r[0]) for r in rows]


async def seat_results(conn: AsyncConnection, match_id: str) -> list[HistorySeat]:
    """The history rows of a match's seats, by seat."""
    query = (
        select(match_players)
        .where(match_players.c.match_id == match_id)
        .order_by(match_players.c.seat)
    )
    return [_seat(r) for r in await conn.execute(query)]


async def unsettled_matches(conn: AsyncConnection, limit: int) -> list[str]:
    """Ids of finished matches with a history row still unfinished, at most ``limit``."""
    query = (
        select(matches.c.id)
        .join(match_players, match_players.c.match_id == matches.c.id)
        .where(matches.c.status == "finished", match_players.c.finished_at.is_(None))
        .distinct()
        .limit(limit)
    )
    return [r[0] for r in await conn.execute(query)]


async def player(conn: AsyncConnection, player_id: str) -> PlayerHeader | None:
    """A player with their username (None for a guest), or None."""
    query = (
        select(players.c.id, players.c.name, accounts.c.username, players.c.bot_account)
        .outerjoin(accounts, accounts.c.player_id == players.c.id)
        .where(players.c.id == player_id)
    )
    r = (await conn.execute(query)).first()
    if r is None:
        return None
    return PlayerHeader(str(r.id), str(r.name), r.username, bool(r.bot_account))


async def player_match_page(
    conn: AsyncConnection, player_id: str, with_private: bool, limit: int, offset: int
) -> tuple[int, list[PlayedMatch]]:
    """``(total, page)``: the history rows of a player with their match, newest first;
    private matches only when ``with_private``.
    """
    cond = [match_players.c.player_id == player_id]
    if not with_private:
        cond.append(matches.c.private.is_(False))
    base = (
        select(
            match_players,
            matches.c.id,
            matches.c.name,
            matches.c.status,
            matches.c.seats,
            matches.c.scores,
            matches.c.private,
            matches.c.clock,
        )
        .join(matches, matches.c.id == match_players.c.match_id)
        .where(and_(*cond))
    )
    total = (await conn.execute(select(func.count()).select_from(base.subquery()))).scalar_one()
    rows = (
        await conn.execute(
            base.order_by(match_players.c.started_at.desc(), match_players.c.match_id)
            .limit(limit)
            .offset(offset)
        )
    ).all()
    return int(total), [
        PlayedMatch(
            _seat(r),
            id=str(r.id),
            name=r.name,
            status=str(r.status),
            seats=list(r.seats),
            scores=list(r.scores),
            private=bool(r.private),
            clock=r.clock,
        )
        for r in rows
    ]


async def played_and_won(conn: AsyncConnection, player_id: str) -> tuple[int, int]:
    """``(finished matches played, matches placed first)`` of a player."""
    mine = match_players.c.player_id == player_id
    played = (
        await conn.execute(
            select(func.count())
            .select_from(match_players)
            .where(mine, match_players.c.finished_at.is_not(None))
        )
    ).scalar_one()
    won = (
        await conn.execute(
            select(func.count()).select_from(match_players).where(mine, match_players.c.place == 1)
        )
    ).scalar_one()
    return int(played), int(won)


async def finished_snapshots(
    conn: AsyncConnection, player_id: str, limit: int
) -> list[FinishedSnapshot]:
    """A player's finished matches (id, snapshot, finished_at), newest first."""
    query = (
        select(matches.c.id, matches.c.snapshot, matches.c.finished_at)
        .join(match_players, match_players.c.match_id == matches.c.id)
        .where(match_players.c.player_id == player_id, matches.c.status == "finished")
        .order_by(matches.c.finished_at.desc())
        .limit(limit)
    )
    return [
        FinishedSnapshot(str(r.id), r.snapshot, r.finished_at) for r in await conn.execute(query)
    ]


# -- ratings -------------------------------------------------------------------------------


async def with_account(conn: AsyncConnection, player_ids: Sequence[str]) -> set[str]:
    """The ids among ``player_ids`` that have an account."""
    query = select(accounts.c.player_id).where(accounts.c.player_id.in_(player_ids))
    return {r[0] for r in await conn.execute(query)}


async def bot_accounts(conn: AsyncConnection, player_ids: Sequence[str]) -> set[str]:
    """The ids among ``player_ids`` that are bot accounts (docs/BOT_API.md)."""
    query = select(players.c.id).where(
        players.c.id.in_(player_ids), players.c.bot_account.is_(True)
    )
    return {r[0] for r in await conn.execute(query)}


async def moves_by_seat(conn: AsyncConnection, match_id: str) -> dict[int, tuple[int, int]]:
    """``{seat: (moves, moves the computer chose)}`` of a match's action log."""
    query = (
        select(
            match_actions.c.seat,
            func.count().label("total"),
            func.count(match_actions.c.by).label("computer"),
        )
        .where(match_actions.c.match_id == match_id)
        .group_by(match_actions.c.seat)
    )
    return {int(r.seat): (int(r.total), int(r.computer)) for r in await conn.execute(query)}


# -- shuffle commitments -------------------------------------------------------------------


async def insert_fairness(
    conn: AsyncConnection, match_id: str, *, scheme: str, commitment: str, seed: str, salt: str
) -> None:
    """Insert the ``match_fairness`` row of a new match (``seed``: decimal text)."""
    await conn.execute(
        insert(match_fairness).values(
            match_id=match_id, scheme=scheme, commitment=commitment, seed=seed, salt=salt
        )
    )


async def fairness(conn: AsyncConnection, match_id: str) -> Fairness | None:
    """A match's commitment with its match's status, or None."""
    query = (
        select(match_fairness, matches.c.status)
        .join(matches, matches.c.id == match_fairness.c.match_id)
        .where(match_fairness.c.match_id == match_id)
    )
    r = (await conn.execute(query)).first()
    if r is None:
        return None
    return Fairness(str(r.scheme), str(r.commitment), str(r.seed), str(r.salt), str(r.status))


async def commitment(conn: AsyncConnection, match_id: str) -> str | None:
    """The published commitment of a match, or None."""
    query = select(match_fairness.c.commitment).where(match_fairness.c.match_id == match_id)
    value = (await conn.execute(query)).scalar()
    return None if value is None else str(value)
