"""The SQL of players and their sessions: guest rows, token generations, logged-out
sessions and the sessions of API tokens (:mod:`app.services.identity`, the revocation sweep,
accounts, API tokens).

Each statement runs on a connection inside the caller's transaction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts
from app.db.models import ended_sessions, players
from app.db.platform import api_tokens

#: The session of the sockets and streams opened with an API token is this + the token's id.
API_SESSION = "api:"
#: How long the ended-session row of a revoked API token is kept: far past the sockets sweep,
#: which closes its sockets within seconds (the sweep also reads the token itself).
API_ENDED_KEPT = timedelta(days=1)


@dataclass(frozen=True, slots=True)
class PlayerName:
    """A player's ``id`` and display ``name``."""

    id: str
    name: str


def api_token_session(token_id: str) -> str:
    """The session name of the sockets and streams opened with API token ``token_id``."""
    return API_SESSION + token_id


async def insert_player(conn: AsyncConnection, player_id: str, name: str, now: datetime) -> None:
    """Insert a player row (a guest, or the player of a new account)."""
    await conn.execute(insert(players).values(id=player_id, name=name, created_at=now))


async def player(conn: AsyncConnection, player_id: str) -> PlayerName | None:
    """The player ``player_id``, or None."""
    query = select(players.c.id, players.c.name).where(players.c.id == player_id)
    m = (await conn.execute(query)).mappings().first()
    return None if m is None else PlayerName(m["id"], m["name"])


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
    """The ended sessions among ``sessions``: logged out (``ended_sessions``), and those of API
    tokens (:func:`api_token_session`) that are revoked, unknown, or whose player has no
    account (deleted) — whatever ``ended_sessions`` says. Two queries at most.
    """
    ended = await _logged_out(conn, sessions)
    token_ids = {s[len(API_SESSION) :]: s for s in sessions if s.startswith(API_SESSION)}
    if token_ids:
        live = (
            select(api_tokens.c.id)
            .join(accounts, accounts.c.player_id == api_tokens.c.player_id)
            .where(api_tokens.c.id.in_(list(token_ids)), api_tokens.c.revoked_at.is_(None))
        )
        alive = {str(r.id) for r in await conn.execute(live)}
        ended.update(s for token_id, s in token_ids.items() if token_id not in alive)
    return ended


async def revoke_api_tokens(
    conn: AsyncConnection, player_id: str, now: datetime, token_id: str | None = None
) -> list[str]:
    """Revoke ``player_id``'s live API tokens (only ``token_id`` when given) at ``now`` and end
    their sockets' sessions (``ended_sessions`` rows kept :data:`API_ENDED_KEPT`, which the
    sweep of a release before this one reads); returns the ids revoked now (none for a token
    already revoked).
    """
    query = select(api_tokens.c.id).where(
        api_tokens.c.player_id == player_id, api_tokens.c.revoked_at.is_(None)
    )
    if token_id is not None:
        query = query.where(api_tokens.c.id == token_id)
    ids = sorted(str(r.id) for r in await conn.execute(query))
    if not ids:
        return []
    await conn.execute(
        update(api_tokens)
        .where(api_tokens.c.id.in_(ids), api_tokens.c.revoked_at.is_(None))
        .values(revoked_at=now)
    )
    sessions = [api_token_session(i) for i in ids]
    for session in sorted(set(sessions) - await _logged_out(conn, sessions)):
        await end_session(conn, session, player_id, now, now + API_ENDED_KEPT)
    return ids


async def _logged_out(conn: AsyncConnection, sessions: Sequence[str]) -> set[str]:
    """The sessions among ``sessions`` that have an ``ended_sessions`` row."""
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
