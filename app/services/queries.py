"""The SQL of players and their sessions: guest rows, token generations and logged-out
sessions (:mod:`app.services.identity`, the revocation sweep, accounts).

Each statement runs on a connection inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import ended_sessions, players


async def insert_player(conn: AsyncConnection, player_id: str, name: str, now: datetime) -> None:
    """Insert a player row (a guest, or the player of a new account)."""
    await conn.execute(insert(players).values(id=player_id, name=name, created_at=now))


async def player(conn: AsyncConnection, player_id: str) -> Any:
    """Row (id, name) of a player, or None."""
    query = select(players.c.id, players.c.name).where(players.c.id == player_id)
    return (await conn.execute(query)).first()


async def token_generation(conn: AsyncConnection, player_id: str) -> int:
    """The player's token generation (0 for an unknown player)."""
    query = select(players.c.token_generation).where(players.c.id == player_id)
    return int((await conn.execute(query)).scalar() or 0)


async def bump_generation(conn: AsyncConnection, player_id: str) -> None:
    """Move the player's token generation one on (revoking every older token)."""
    await conn.execute(
        update(players)
        .where(players.c.id == player_id)
        .values(token_generation=players.c.token_generation + 1)
    )


async def generations(conn: AsyncConnection, player_ids: Sequence[str]) -> dict[str, int]:
    """``{player id: token generation}`` of the existing players among ``player_ids``."""
    query = select(players.c.id, players.c.token_generation).where(players.c.id.in_(player_ids))
    return {str(r.id): int(r.token_generation or 0) for r in await conn.execute(query)}


async def is_session_ended(conn: AsyncConnection, session: str) -> bool:
    """True once ``session`` was logged out."""
    query = select(ended_sessions.c.session).where(ended_sessions.c.session == session)
    return (await conn.execute(query)).first() is not None


async def ended_among(conn: AsyncConnection, sessions: Sequence[str]) -> set[str]:
    """The logged-out sessions among ``sessions``."""
    query = select(ended_sessions.c.session).where(ended_sessions.c.session.in_(sessions))
    return {str(r.session) for r in await conn.execute(query)}


async def forget_sessions_expired(conn: AsyncConnection, now: datetime) -> None:
    """Delete the ended sessions whose last token has expired by ``now``."""
    await conn.execute(delete(ended_sessions).where(ended_sessions.c.expires_at < now))


async def end_session(
    conn: AsyncConnection, session: str, player_id: str, now: datetime, expires: datetime
) -> None:
    """Insert the ``ended_sessions`` row of ``session`` (kept until ``expires``)."""
    await conn.execute(
        insert(ended_sessions).values(
            session=session, player_id=player_id, ended_at=now, expires_at=expires
        )
    )
