"""The SQL of the tournaments package; it alone builds the frozen rows of
:mod:`app.services.tournaments.model` it returns. Each statement runs on a connection inside
the caller's transaction; ``lock`` adds ``FOR UPDATE`` (Postgres; SQLite serialises writers
itself). Times are UTC (naive on SQLite: read them through :func:`app.db.session.as_utc`).

Errors: each function raises only what the connection raises
(:class:`sqlalchemy.exc.SQLAlchemyError` and its subclasses; an insert breaking a unique
constraint: :class:`sqlalchemy.exc.IntegrityError`).
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import RowMapping, func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import matches
from app.db.tournaments import tournament_entrants, tournament_games, tournaments
from app.services.tournaments.model import (
    Decision,
    Entrant,
    Entry,
    Game,
    Listed,
    LiveTable,
    MatchState,
    NewEntrant,
    NewGame,
    NewTournament,
    Tournament,
    TournamentChange,
)


def _tournament(m: RowMapping) -> Tournament:
    seeds = m["seeds"]
    return Tournament(
        id=m["id"],
        name=m["name"],
        host_id=m["host_id"],
        private=bool(m["private"]),
        format=m["format"],
        cycles=int(m["cycles"]),
        rounds=int(m["rounds"]),
        seats=int(m["seats"]),
        preset=m["preset"],
        rules=m["rules"],
        time_control=m["time_control"],
        spectator_delay=m["spectator_delay"],
        rated=bool(m["rated"]),
        status=m["status"],
        round=int(m["round"]),
        starts_at=m["starts_at"],
        paused_at=m["paused_at"],
        duration_minutes=m["duration_minutes"],
        ends_at=m["ends_at"],
        seeds=None if seeds is None else tuple(int(n) for n in seeds),
        version=int(m["version"]),
        created_at=m["created_at"],
        updated_at=m["updated_at"],
    )


def _entrant(m: RowMapping) -> Entrant:
    return Entrant(
        tournament_id=m["tournament_id"],
        number=int(m["number"]),
        player_id=m["player_id"],
        name=m["name"],
        bot=bool(m["bot"]),
        level=m["level"],
        status=m["status"],
        created_at=m["created_at"],
    )


def _game(m: RowMapping) -> Game:
    points, scores = m["points"], m["scores"]
    return Game(
        id=int(m["id"]),
        tournament_id=m["tournament_id"],
        round=int(m["round"]),
        table_number=int(m["table_number"]),
        entrants=tuple(int(n) for n in m["entrants"]),
        match_id=m["match_id"],
        points=None if points is None else tuple(points),
        scores=None if scores is None else tuple(scores),
        source=m["source"],
        reason=m["reason"],
        decided_at=m["decided_at"],
    )


def public_status(row: Tournament) -> str:
    """The status Tournament JSON shows for a tournament row: ``registering``, ``running``,
    ``finished``, or ``cancelled`` (stored as finished at round 0: :func:`cancel_unstarted`).
    """
    if row.status == "finished" and row.round == 0:
        return "cancelled"
    return row.status


async def insert_tournament(conn: AsyncConnection, values: NewTournament) -> None:
    """Add a tournament row (``values``: every column)."""
    await conn.execute(insert(tournaments).values(**values))


async def tournament(
    conn: AsyncConnection, tournament_id: str, *, lock: bool = False
) -> Tournament | None:
    """The tournament row (locked for update with ``lock``), or None."""
    query = select(tournaments).where(tournaments.c.id == tournament_id)
    if lock:
        query = query.with_for_update()
    found = (await conn.execute(query)).mappings().first()
    return None if found is None else _tournament(found)


async def update_tournament(
    conn: AsyncConnection, tournament_id: str, values: TournamentChange
) -> None:
    """Set ``values`` on the tournament and grow its ``version`` by one."""
    await conn.execute(
        update(tournaments)
        .where(tournaments.c.id == tournament_id)
        .values(version=tournaments.c.version + 1, **values)
    )


async def listed(conn: AsyncConnection, limit: int) -> list[Listed]:
    """Public tournaments not over, then the recently finished or cancelled, newest first."""
    query = (
        select(tournaments, func.count(tournament_entrants.c.number).label("entrants"))
        .outerjoin(
            tournament_entrants,
            (tournament_entrants.c.tournament_id == tournaments.c.id)
            & tournament_entrants.c.status.in_(("registered", "checked_in")),
        )
        .where(tournaments.c.private.is_(False))
        .group_by(tournaments.c.id)
        .order_by(
            tournaments.c.status.in_(("finished", "cancelled")).asc(),
            tournaments.c.created_at.desc(),
        )
        .limit(limit)
    )
    found = (await conn.execute(query)).mappings()
    return [Listed(_tournament(m), int(m["entrants"])) for m in found]


async def running(conn: AsyncConnection) -> list[str]:
    """Ids of running tournaments."""
    query = select(tournaments.c.id).where(tournaments.c.status == "running")
    return [r[0] for r in await conn.execute(query)]


async def due_to_start(conn: AsyncConnection, now: datetime) -> list[str]:
    """Ids of tournaments in registration whose start time has come and that have enough
    checked-in entrants to start (two, and a table's seats): one read for the sweep, so a
    tournament nobody checked in to costs no locked transaction on every pass.
    """
    ready = (
        select(func.count())
        .where(
            tournament_entrants.c.tournament_id == tournaments.c.id,
            tournament_entrants.c.status == "checked_in",
        )
        .scalar_subquery()
    )
    query = select(tournaments.c.id).where(
        tournaments.c.status == "registering",
        tournaments.c.starts_at.is_not(None),
        tournaments.c.starts_at <= now,
        ready >= 2,
        ready >= tournaments.c.seats,
    )
    return [r[0] for r in await conn.execute(query)]


async def has_overdue(conn: AsyncConnection, before: datetime) -> bool:
    """True when a tournament still in registration had its start time before ``before``."""
    query = (
        select(tournaments.c.id)
        .where(
            tournaments.c.status == "registering",
            tournaments.c.starts_at.is_not(None),
            tournaments.c.starts_at < before,
        )
        .limit(1)
    )
    return (await conn.execute(query)).first() is not None


async def cancel_unstarted(conn: AsyncConnection, before: datetime, now: datetime) -> list[str]:
    """Cancel the tournaments still in registration whose start time was before ``before``;
    returns their ids. A cancelled tournament is stored ``finished`` at round 0 (one that
    started has paired round 1), which a release without cancellation reads as finished:
    :func:`public_status` names it ``cancelled``.
    """
    query = (
        update(tournaments)
        .where(
            tournaments.c.status == "registering",
            tournaments.c.starts_at.is_not(None),
            tournaments.c.starts_at < before,
        )
        .values(status="finished", version=tournaments.c.version + 1, updated_at=now)
        .returning(tournaments.c.id)
    )
    return [r[0] for r in await conn.execute(query)]


async def computers_of(conn: AsyncConnection, host_id: str) -> int:
    """Computer entrants still in the tournaments ``host_id`` organises that are not over."""
    query = (
        select(func.count())
        .select_from(
            tournament_entrants.join(
                tournaments, tournaments.c.id == tournament_entrants.c.tournament_id
            )
        )
        .where(
            tournaments.c.host_id == host_id,
            tournaments.c.status.in_(("registering", "running")),
            tournament_entrants.c.bot.is_(True),
            tournament_entrants.c.status.in_(("registered", "checked_in")),
        )
    )
    return int((await conn.execute(query)).scalar_one())


async def registering_of(conn: AsyncConnection, host_id: str) -> int:
    """How many tournaments ``host_id`` organises that are still in registration."""
    query = select(func.count()).where(
        tournaments.c.host_id == host_id, tournaments.c.status == "registering"
    )
    return int((await conn.execute(query)).scalar_one())


async def paused(conn: AsyncConnection) -> list[str]:
    """Ids of running tournaments the organiser paused."""
    query = select(tournaments.c.id).where(
        tournaments.c.status == "running", tournaments.c.paused_at.is_not(None)
    )
    return [r[0] for r in await conn.execute(query)]


async def entrants(conn: AsyncConnection, tournament_id: str) -> list[Entrant]:
    """The entrants of a tournament, by starting number."""
    query = (
        select(tournament_entrants)
        .where(tournament_entrants.c.tournament_id == tournament_id)
        .order_by(tournament_entrants.c.number)
    )
    return [_entrant(m) for m in (await conn.execute(query)).mappings()]


async def insert_entrant(conn: AsyncConnection, values: NewEntrant) -> None:
    """Add an entrant (``values``: every column)."""
    await conn.execute(insert(tournament_entrants).values(**values))


async def set_entrant_status(
    conn: AsyncConnection, tournament_id: str, numbers: list[int], status: str
) -> None:
    """Set the status of the entrants ``numbers``."""
    if not numbers:
        return
    await conn.execute(
        update(tournament_entrants)
        .where(
            tournament_entrants.c.tournament_id == tournament_id,
            tournament_entrants.c.number.in_(numbers),
        )
        .values(status=status)
    )


async def games(conn: AsyncConnection, tournament_id: str) -> list[Game]:
    """Every game row of a tournament, by round and table."""
    query = (
        select(tournament_games)
        .where(tournament_games.c.tournament_id == tournament_id)
        .order_by(tournament_games.c.round, tournament_games.c.table_number)
    )
    return [_game(m) for m in (await conn.execute(query)).mappings()]


async def game(conn: AsyncConnection, tournament_id: str, game_id: int) -> Game | None:
    """One game row of the tournament, or None."""
    query = select(tournament_games).where(
        tournament_games.c.tournament_id == tournament_id, tournament_games.c.id == game_id
    )
    found = (await conn.execute(query)).mappings().first()
    return None if found is None else _game(found)


async def insert_game(conn: AsyncConnection, values: NewGame) -> None:
    """Add a game row; the unique ``(tournament_id, round, table_number)`` refuses a second
    pairing of one table.
    """
    await conn.execute(insert(tournament_games).values(**values))


async def decide(
    conn: AsyncConnection, game_id: int, values: Decision, *, only_undecided: bool
) -> bool:
    """Set a game's result; with ``only_undecided`` only when it has none yet (a result is
    counted once). Returns whether the row changed.
    """
    query = update(tournament_games).where(tournament_games.c.id == game_id)
    if only_undecided:
        query = query.where(tournament_games.c.points.is_(None))
    result = await conn.execute(query.values(**values))
    return bool(result.rowcount)


async def tournament_of_match(conn: AsyncConnection, match_id: str) -> str | None:
    """The tournament a match was played for, or None."""
    query = select(tournament_games.c.tournament_id).where(tournament_games.c.match_id == match_id)
    found = (await conn.execute(query)).scalar()
    return None if found is None else str(found)


async def match_states(conn: AsyncConnection, match_ids: list[str]) -> dict[str, MatchState]:
    """``{match id: its state}`` of the given matches (those that exist)."""
    if not match_ids:
        return {}
    query = select(matches.c.id, matches.c.status, matches.c.clock, matches.c.next_bot_at).where(
        matches.c.id.in_(match_ids)
    )
    found = (await conn.execute(query)).mappings()
    return {m["id"]: MatchState(m["id"], m["status"], m["clock"]) for m in found}


async def live_tables(conn: AsyncConnection, match_ids: list[str]) -> dict[str, LiveTable]:
    """``{match id: its table}`` of the given matches (the referee view)."""
    if not match_ids:
        return {}
    query = select(
        matches.c.id,
        matches.c.status,
        matches.c.clock,
        matches.c.turn,
        matches.c.seat_to_act,
        matches.c.scores,
        matches.c.version,
    ).where(matches.c.id.in_(match_ids))
    return {m["id"]: _live_table(m) for m in (await conn.execute(query)).mappings()}


def _live_table(m: RowMapping) -> LiveTable:
    return LiveTable(
        id=m["id"],
        status=m["status"],
        clock=m["clock"],
        turn=int(m["turn"]),
        seat_to_act=m["seat_to_act"],
        scores=tuple(m["scores"]),
        version=int(m["version"]),
    )


async def entries_of(conn: AsyncConnection, player_id: str, limit: int) -> list[Entry]:
    """The tournaments a player entered, newest first."""
    query = (
        select(
            tournaments,
            tournament_entrants.c.number.label("entrant_number"),
            tournament_entrants.c.status.label("entrant_status"),
        )
        .join(tournament_entrants, tournament_entrants.c.tournament_id == tournaments.c.id)
        .where(tournament_entrants.c.player_id == player_id)
        .order_by(tournaments.c.created_at.desc())
        .limit(limit)
    )
    found = (await conn.execute(query)).mappings()
    return [Entry(_tournament(m), m["entrant_number"], m["entrant_status"]) for m in found]
