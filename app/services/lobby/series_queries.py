"""The SQL of best-of-N series (:mod:`app.services.lobby.series` reads one,
:mod:`app.services.lobby.series_games` counts its games and sweeps for finished ones). A series
lives on its lobby row (``lobbies.series``, JSON); its games are ``matches`` rows whose
``lobby_code`` is the table's. Statements run on the caller's connection (inside its
transaction, if any); none locks a row — the lobby row's lock is
:func:`app.services.lobby.queries.lobby` with ``lock``.

Errors: each function raises only what the connection raises
(:class:`sqlalchemy.exc.SQLAlchemyError` and its subclasses).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import lobbies, matches
from app.json_types import JsonObject
from app.services.lobby.model import SeriesState


@dataclass(frozen=True, slots=True)
class SeriesGame:
    """A match as the series reading needs it: its table's invite ``lobby_code``, whether it
    is ``private``, its ``seats`` (the match's seat JSON, in turn order) and ``series``: the
    series JSON stored on its lobby row (None when the lobby row is gone or plays one game).
    """

    lobby_code: str
    private: bool
    seats: list[JsonObject]
    series: SeriesState | None


@dataclass(frozen=True, slots=True)
class FinishedGame:
    """The current game ``match_id`` of a started series table that finished at
    ``finished_at`` (UTC; naive on SQLite), with the table's ``series`` JSON (None if unset).
    """

    match_id: str
    series: SeriesState | None
    finished_at: datetime | None


async def series_game(conn: AsyncConnection, match_id: str) -> SeriesGame | None:
    """Reads match ``match_id`` (lobby code, private flag, seats), then the ``series`` of the
    lobby with that code: two statements, or one and None when there is no such match.
    """
    m = (
        await conn.execute(
            select(matches.c.lobby_code, matches.c.private, matches.c.seats).where(
                matches.c.id == match_id
            )
        )
    ).first()
    if m is None:
        return None
    row = (
        await conn.execute(select(lobbies.c.series).where(lobbies.c.code == m.lobby_code))
    ).first()
    return SeriesGame(
        lobby_code=str(m.lobby_code),
        private=bool(m.private),
        seats=list(m.seats),
        series=row.series if row is not None else None,
    )


async def lobby_of_match(conn: AsyncConnection, match_id: str) -> str | None:
    """Reads the invite code of the table match ``match_id`` was dealt at; None when there
    is no such match. One statement.
    """
    found = (
        await conn.execute(select(matches.c.lobby_code).where(matches.c.id == match_id))
    ).first()
    return None if found is None else str(found.lobby_code)


async def is_series_game(conn: AsyncConnection, match_id: str) -> bool:
    """Whether match ``match_id`` was dealt at a table playing a series (its lobby's
    ``best_of`` above 1); False for no such match or lobby. One statement (a join).
    """
    found = (
        await conn.execute(
            select(lobbies.c.best_of)
            .join(matches, matches.c.lobby_code == lobbies.c.code)
            .where(matches.c.id == match_id)
        )
    ).first()
    return found is not None and int(found.best_of or 1) > 1


async def started_from(conn: AsyncConnection, match_id: str) -> str | None:
    """Reads the client address match ``match_id`` was started from (``matches.started_from``);
    None when there is no such match or it holds no address. One statement.
    """
    found = (
        await conn.execute(select(matches.c.started_from).where(matches.c.id == match_id))
    ).first()
    return str(found.started_from) if found is not None and found.started_from else None


async def finished_series_games(conn: AsyncConnection, since: datetime) -> list[FinishedGame]:
    """Reads the current games of started series tables (``best_of`` set, status ``started``)
    that are finished, at or after ``since`` (UTC), with their tables' series JSON; in no
    particular order. One statement (a join).
    """
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
    return [FinishedGame(str(r.match_id), r.series, r.finished_at) for r in rows]
