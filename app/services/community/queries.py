"""The SQL of the community package: accounts (and what deleting one renames or removes), and
the chat's messages and mutes.

Each statement runs on a connection inside the caller's transaction. Rows are SQLAlchemy
``Row`` objects of the tables in :mod:`app.db.community` and :mod:`app.db.models`.
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any

from sqlalchemy import delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_players, push_subscriptions, ratings, server_secrets
from app.db.models import chat_messages, chat_mutes, lobbies, matches, players, seat_presence

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


# ---------------------------------------------------------------- turn alerts (Web Push)


def subscription_id(endpoint: str) -> str:
    """The row id of an endpoint: its SHA-256, hex (endpoints are long URLs)."""
    return hashlib.sha256(endpoint.encode()).hexdigest()


async def shared_secret(conn: AsyncConnection, name: str, make: str) -> str:
    """The secret ``name``, written as ``make`` if no instance wrote it first."""
    try:
        async with conn.begin_nested():
            await conn.execute(insert(server_secrets).values(name=name, value=make))
    except IntegrityError:
        pass
    found = await conn.execute(select(server_secrets.c.value).where(server_secrets.c.name == name))
    return str(found.scalar_one())


async def save(conn: AsyncConnection, row: dict[str, Any]) -> None:
    """Insert or replace the subscription ``row`` (a browser subscribing again, maybe for
    another player after a new login, replaces its old row).
    """
    await conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id == row["id"]))
    await conn.execute(insert(push_subscriptions).values(**row))


async def lock_player(conn: AsyncConnection, player_id: str, postgres: bool) -> None:
    """Hold the player's row ``FOR UPDATE`` until the commit (Postgres; SQLite serialises
    writers itself): the player's subscriptions are counted and trimmed one writer at a time.
    """
    if postgres:
        await conn.execute(select(players.c.id).where(players.c.id == player_id).with_for_update())


async def trim(conn: AsyncConnection, player_id: str, keep: int) -> int:
    """Delete the player's oldest subscriptions beyond the newest ``keep``; returns how many."""
    newest = (
        select(push_subscriptions.c.id)
        .where(push_subscriptions.c.player_id == player_id)
        .order_by(push_subscriptions.c.created_at.desc(), push_subscriptions.c.id.desc())
        .limit(keep)
    )
    done = await conn.execute(
        delete(push_subscriptions).where(
            push_subscriptions.c.player_id == player_id,
            push_subscriptions.c.id.not_in(newest.scalar_subquery()),
        )
    )
    return int(done.rowcount or 0)


async def remove(conn: AsyncConnection, player_id: str, endpoint_id: str) -> int:
    """Delete one of the player's subscriptions; returns how many rows went (0 or 1)."""
    done = await conn.execute(
        delete(push_subscriptions).where(
            push_subscriptions.c.id == endpoint_id, push_subscriptions.c.player_id == player_id
        )
    )
    return int(done.rowcount or 0)


async def remove_for(conn: AsyncConnection, player_id: str, session: str | None = None) -> None:
    """Delete the player's subscriptions: those of one login ``session``, or all of them."""
    cond = [push_subscriptions.c.player_id == player_id]
    if session is not None:
        cond.append(push_subscriptions.c.session == session)
    await conn.execute(delete(push_subscriptions).where(*cond))


async def of_player(conn: AsyncConnection, player_id: str) -> list[Any]:
    """The player's subscriptions, oldest first."""
    rows = await conn.execute(
        select(push_subscriptions)
        .where(push_subscriptions.c.player_id == player_id)
        .order_by(push_subscriptions.c.created_at)
    )
    return list(rows.all())


async def failed(conn: AsyncConnection, endpoint_id: str, gone: bool) -> None:
    """Note a failed push: ``gone`` (the push service said 404/410) deletes the subscription,
    otherwise its failure count grows (a subscription failing 5 times in a row is deleted).
    """
    if gone:
        await conn.execute(delete(push_subscriptions).where(push_subscriptions.c.id == endpoint_id))
        return
    await conn.execute(
        update(push_subscriptions)
        .where(push_subscriptions.c.id == endpoint_id)
        .values(failures=push_subscriptions.c.failures + 1)
    )
    await conn.execute(
        delete(push_subscriptions).where(
            push_subscriptions.c.id == endpoint_id, push_subscriptions.c.failures >= 5
        )
    )


async def succeeded(conn: AsyncConnection, endpoint_id: str) -> None:
    """Reset a subscription's failure count after a delivered push."""
    await conn.execute(
        update(push_subscriptions)
        .where(push_subscriptions.c.id == endpoint_id, push_subscriptions.c.failures > 0)
        .values(failures=0)
    )


async def last_seen(conn: AsyncConnection, match_id: str, seat: int) -> datetime | None:
    """When a socket last held the seat (``seat_presence``), or None."""
    found = await conn.execute(
        select(seat_presence.c.last_seen).where(
            seat_presence.c.match_id == match_id, seat_presence.c.seat == seat
        )
    )
    value = found.scalar()
    return value if isinstance(value, datetime) else None
