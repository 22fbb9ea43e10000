"""The SQL of the community package: accounts (and what deleting one renames or removes), and
the chat's messages and mutes.

Each statement runs on a connection inside the caller's transaction. It alone builds the frozen
rows of :mod:`app.services.community.model` it returns. Errors: each function raises only what
the connection raises (:class:`sqlalchemy.exc.SQLAlchemyError` and its subclasses).
"""

from __future__ import annotations

import hashlib
from datetime import datetime

from sqlalchemy import RowMapping, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts, match_players, push_subscriptions, ratings, server_secrets
from app.db.models import chat_messages, chat_mutes, lobbies, matches, players, seat_presence
from app.json_types import JsonObject
from app.services.community.model import (
    Account,
    AccountChange,
    ChatLobby,
    ChatMatch,
    ChatSeat,
    Login,
    MatchNames,
    Message,
    NewAccount,
    NewMessage,
    NewSubscription,
    PlayerAccount,
    Subscription,
)

# -- accounts ------------------------------------------------------------------------------


async def account(conn: AsyncConnection, player_id: str) -> Account | None:
    """The ``accounts`` row of a player, or None (a guest)."""
    query = select(accounts).where(accounts.c.player_id == player_id)
    m = (await conn.execute(query)).mappings().first()
    if m is None:
        return None
    return Account(
        player_id=m["player_id"],
        username=m["username"],
        username_key=m["username_key"],
        password_hash=m["password_hash"],
        created_at=m["created_at"],
        updated_at=m["updated_at"],
    )


async def player_name(conn: AsyncConnection, player_id: str) -> str | None:
    """The name of a player, or None for an unknown one."""
    name = (await conn.execute(select(players.c.name).where(players.c.id == player_id))).scalar()
    return None if name is None else str(name)


async def is_username_taken(conn: AsyncConnection, username_key: str) -> bool:
    """Whether an account has the lowercased username ``username_key``."""
    query = select(accounts.c.player_id).where(accounts.c.username_key == username_key)
    return (await conn.execute(query)).first() is not None


async def insert_account(conn: AsyncConnection, values: NewAccount) -> None:
    """Insert an ``accounts`` row (raises ``IntegrityError`` for a taken username)."""
    await conn.execute(insert(accounts).values(**values))


async def login_row(conn: AsyncConnection, username_key: str) -> Login | None:
    """The account with the lowercased username ``username_key``, or None."""
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
    m = (await conn.execute(query)).mappings().first()
    if m is None:
        return None
    return Login(
        player_id=m["player_id"],
        username=m["username"],
        password_hash=m["password_hash"],
        name=m["name"],
        token_generation=m["token_generation"],
    )


async def player_account(conn: AsyncConnection, player_id: str) -> PlayerAccount | None:
    """A player with its account's username (None: a guest), or None (no such player)."""
    query = (
        select(players.c.id, players.c.name, accounts.c.username)
        .outerjoin(accounts, accounts.c.player_id == players.c.id)
        .where(players.c.id == player_id)
    )
    m = (await conn.execute(query)).mappings().first()
    return None if m is None else PlayerAccount(m["id"], m["name"], m["username"])


async def update_account(conn: AsyncConnection, player_id: str, values: AccountChange) -> None:
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


async def match_names(conn: AsyncConnection, match_id: str) -> MatchNames | None:
    """Where a match keeps its players' names (seats, setup, snapshot), or None."""
    query = select(matches.c.seats, matches.c.setup, matches.c.snapshot).where(
        matches.c.id == match_id
    )
    m = (await conn.execute(query)).mappings().first()
    return None if m is None else MatchNames(m["seats"], m["setup"], m["snapshot"])


async def update_match(
    conn: AsyncConnection,
    match_id: str,
    *,
    seats: list[JsonObject],
    setup: JsonObject,
    snapshot: JsonObject,
) -> None:
    """Set the ``seats``, ``setup`` and ``snapshot`` of the match row ``match_id``."""
    await conn.execute(
        update(matches)
        .where(matches.c.id == match_id)
        .values(seats=seats, setup=setup, snapshot=snapshot)
    )


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
    conn: AsyncConnection, lobby_code: str, player_id: str, muted: bool, now: datetime
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


def _seats(seats: list[JsonObject]) -> tuple[ChatSeat, ...]:
    """The seat JSON of a lobby or match as the chat reads it."""
    return tuple(_seat(s) for s in seats)


def _seat(s: JsonObject) -> ChatSeat:
    """One seat (a value of another type than the seat JSON's reads as None)."""
    seat, player, name, colour = (s.get(k) for k in ("seat", "player", "name", "colour"))
    return ChatSeat(
        seat=seat if isinstance(seat, int) else None,
        player=player if isinstance(player, str) else None,
        name=name if isinstance(name, str) else None,
        colour=colour if isinstance(colour, str) else None,
    )


async def lobby(conn: AsyncConnection, code: str) -> ChatLobby | None:
    """The lobby of ``code``, or None."""
    m = (await conn.execute(select(lobbies).where(lobbies.c.code == code))).mappings().first()
    return None if m is None else ChatLobby(m["code"], m["host_id"], _seats(m["seats"]))


async def match(conn: AsyncConnection, match_id: str) -> ChatMatch | None:
    """The match ``match_id``, or None."""
    m = (await conn.execute(select(matches).where(matches.c.id == match_id))).mappings().first()
    return None if m is None else _chat_match(m)


def _chat_match(m: RowMapping) -> ChatMatch:
    return ChatMatch(m["lobby_code"], _seats(m["seats"]), m["status"], bool(m["private"]))


async def match_access(conn: AsyncConnection, match_id: str) -> ChatMatch | None:
    """The match ``match_id`` (its lobby code, seats, status and privacy), or None."""
    query = select(matches.c.lobby_code, matches.c.seats, matches.c.status, matches.c.private)
    m = (await conn.execute(query.where(matches.c.id == match_id))).mappings().first()
    return None if m is None else _chat_match(m)


async def insert_message(conn: AsyncConnection, values: NewMessage) -> int | None:
    """Insert a chat message; returns its new id (or None when the driver gives none)."""
    result = await conn.execute(insert(chat_messages).values(**values))
    return int(result.inserted_primary_key[0]) if result.inserted_primary_key else None


async def messages(
    conn: AsyncConnection, scope: str, key: str, hide_spectators: bool, limit: int
) -> list[Message]:
    """The last ``limit`` messages of a lobby or match, newest first (without the
    spectators' room when ``hide_spectators``).
    """
    query = select(chat_messages).where(chat_messages.c.scope == scope, chat_messages.c.key == key)
    if hide_spectators:
        query = query.where(chat_messages.c.room != "spectators")
    found = await conn.execute(query.order_by(chat_messages.c.id.desc()).limit(limit))
    return [_message(m) for m in found.mappings()]


def _message(m: RowMapping) -> Message:
    return Message(
        id=m["id"],
        scope=m["scope"],
        key=m["key"],
        room=m["room"],
        player_id=m["player_id"],
        name=m["name"],
        seat=m["seat"],
        colour=m["colour"],
        text=m["text"],
        quick=m["quick"],
        created_at=m["created_at"],
    )


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


async def save(conn: AsyncConnection, row: NewSubscription) -> None:
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


async def of_player(conn: AsyncConnection, player_id: str) -> list[Subscription]:
    """The player's subscriptions, oldest first."""
    rows = await conn.execute(
        select(push_subscriptions)
        .where(push_subscriptions.c.player_id == player_id)
        .order_by(push_subscriptions.c.created_at)
    )
    return [
        Subscription(
            id=m["id"],
            player_id=m["player_id"],
            session=m["session"],
            endpoint=m["endpoint"],
            p256dh=m["p256dh"],
            auth=m["auth"],
            lang=m["lang"],
            failures=int(m["failures"]),
            created_at=m["created_at"],
        )
        for m in rows.mappings()
    ]


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
