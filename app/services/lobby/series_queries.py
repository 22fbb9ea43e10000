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
from typing import Any

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import lobbies, matches


@dataclass(frozen=True)
class SeriesGame:
    """A match as the series reading needs it: its table's invite ``lobby_code``, whether it
    is ``private``, its ``seats`` (the match's seat JSON, in turn order) and ``series``: the
    series JSON stored on its lobby row (None when the lobby row is gone or plays one game).
    """

    lobby_code: str
    private: bool
    seats: list[dict[str, Any]]
    series: dict[str, Any] | None


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
