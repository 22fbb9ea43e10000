"""The SQL of the community package: accounts (and what deleting one renames or removes), and
the chat's messages and mutes.

Each statement runs on a connection inside the caller's transaction. Rows are SQLAlchemy
``Row`` objects of the tables in :mod:`app.db.community` and :mod:`app.db.models`.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_players, ratings
from app.db.models import chat_messages, chat_mutes, lobbies, matches, players

# -- accounts ------------------------------------------------------------------------------


async def account(conn: AsyncConnection, player_id: str) -> Any:
    """The ``accounts`` row of a player, or None (a guest)."""
    query = select(accounts).where(accounts.c.player_id == player_id)
    return (await conn.execute(query)).first()


async def player_name(conn: AsyncConnection, player_id: str) -> str | None:
    """The name of a player, or None for an unknown one."""
    name = (await conn.execute(select(players.c.name).where(players.c.id == player_id))).scalar()
    return None if name is None else str(name)


async def is_username_taken(conn: AsyncConnection, username_key: str) -> bool:
    """Whether an account has the lowercased username ``username_key``."""
    query = select(accounts.c.player_id).where(accounts.c.username_key == username_key)
    return (await conn.execute(query)).first() is not None


async def insert_account(conn: AsyncConnection, values: dict[str, Any]) -> None:
    """Insert an ``accounts`` row (raises ``IntegrityError`` for a taken username)."""
    await conn.execute(insert(accounts).values(**values))


async def login_row(conn: AsyncConnection, username_key: str) -> Any:
    """Row (player_id, username, password_hash, name, token_generation) of the account with
    the lowercased username ``username_key``, or None.
    """
    query = (
        select(
            accounts.c.player_id,
            accounts.c.username,
            accounts.c.password_hash,
            players.c.name,
            players.c.token_generation,
        )
        .join(players, players.c.id == accounts.c.player_id)
        .where(accounts.c.username_key == username_key)
    )
    return (await conn.execute(query)).first()


async def player_account(conn: AsyncConnection, player_id: str) -> Any:
    """Row (id, name, username or None) of a player, or None."""
    query = (
        select(players.c.id, players.c.name, accounts.c.username)
        .outerjoin(accounts, accounts.c.player_id == players.c.id)
        .where(players.c.id == player_id)
    )
    return (await conn.execute(query)).first()


async def update_account(conn: AsyncConnection, player_id: str, values: dict[str, Any]) -> None:
    """Set ``values`` on the account of ``player_id``."""
    await conn.execute(update(accounts).where(accounts.c.player_id == player_id).values(**values))


async def delete_account(conn: AsyncConnection, player_id: str, renamed: str) -> list[str]:
    """Delete the account and ratings of ``player_id``, rename its player ``renamed``; returns
    the ids of the matches it was seated in.
    """
    await conn.execute(delete(accounts).where(accounts.c.player_id == player_id))
    await conn.execute(delete(ratings).where(ratings.c.player_id == player_id))
    await conn.execute(update(players).where(players.c.id == player_id).values(name=renamed))
    query = select(match_players.c.match_id).where(match_players.c.player_id == player_id)
    return [r[0] for r in await conn.execute(query)]


async def match_names(conn: AsyncConnection, match_id: str) -> Any:
    """Row (seats, setup, snapshot) of a match, or None."""
    query = select(matches.c.seats, matches.c.setup, matches.c.snapshot).where(
        matches.c.id == match_id
    )
    return (await conn.execute(query)).first()


async def update_match(conn: AsyncConnection, match_id: str, values: dict[str, Any]) -> None:
    """Set ``values`` on the match row ``match_id``."""
    await conn.execute(update(matches).where(matches.c.id == match_id).values(**values))


# -- chat ----------------------------------------------------------------------------------


async def is_muted(conn: AsyncConnection, lobby_code: str, player_id: str) -> bool:
    """Whether the host of ``lobby_code`` muted ``player_id``."""
    query = select(chat_mutes.c.player_id).where(
        chat_mutes.c.lobby_code == lobby_code, chat_mutes.c.player_id == player_id
    )
    return (await conn.execute(query)).first() is not None


async def muted(conn: AsyncConnection, lobby_code: str) -> list[str]:
    """The players the host of ``lobby_code`` muted (unordered)."""
    query = select(chat_mutes.c.player_id).where(chat_mutes.c.lobby_code == lobby_code)
    return list((await conn.execute(query)).scalars().all())


async def set_muted(
    conn: AsyncConnection, lobby_code: str, player_id: str, muted: bool, now: Any
) -> None:
    """Mute (``muted``) or unmute ``player_id`` at ``lobby_code``."""
    await conn.execute(
        delete(chat_mutes).where(
            chat_mutes.c.lobby_code == lobby_code, chat_mutes.c.player_id == player_id
        )
    )
    if muted:
        await conn.execute(
            insert(chat_mutes).values(lobby_code=lobby_code, player_id=player_id, created_at=now)
        )


async def lobby(conn: AsyncConnection, code: str) -> Any:
    """The ``lobbies`` row of ``code``, or None."""
    return (await conn.execute(select(lobbies).where(lobbies.c.code == code))).first()


async def match(conn: AsyncConnection, match_id: str) -> Any:
    """The ``matches`` row of ``match_id``, or None."""
    return (await conn.execute(select(matches).where(matches.c.id == match_id))).first()


async def match_access(conn: AsyncConnection, match_id: str) -> Any:
    """Row (lobby_code, seats, status, private) of a match, or None."""
    query = select(matches.c.lobby_code, matches.c.seats, matches.c.status, matches.c.private)
    return (await conn.execute(query.where(matches.c.id == match_id))).first()


async def insert_message(conn: AsyncConnection, values: dict[str, Any]) -> Any:
    """Insert a chat message; returns its new id (or None when the driver gives none)."""
    result = await conn.execute(insert(chat_messages).values(**values))
    return result.inserted_primary_key[0] if result.inserted_primary_key else None


async def messages(
    conn: AsyncConnection, scope: str, key: str, hide_spectators: bool, limit: int
) -> list[Any]:
    """The last ``limit`` messages of a lobby or match, newest first (without the
    spectators' room when ``hide_spectators``).
    """
    query = select(chat_messages).where(chat_messages.c.scope == scope, chat_messages.c.key == key)
    if hide_spectators:
        query = query.where(chat_messages.c.room != "spectators")
    return list((await conn.execute(query.order_by(chat_messages.c.id.desc()).limit(limit))).all())
