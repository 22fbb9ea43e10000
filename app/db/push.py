"""Tables and queries of turn alerts by Web Push (:mod:`app.services.push`).

``push_subscriptions``: one row per browser that opted in (its push service ``endpoint`` and
the keys the payload is encrypted to); ``session`` is the login it was made in (null for a
guest), so logging out of that device removes it. ``server_secrets``: secrets every instance
shares and generates once (the VAPID key pair that signs pushes, when no setting gives one).
"""

from __future__ import annotations

import hashlib
from datetime import datetime
from typing import Any, cast

from sqlalchemy import DateTime, Integer, String, Table, Text, delete, insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, seat_presence, utcnow


class PushSubscription(Base):
    """A browser's push subscription for one player (``id``: SHA-256 of the endpoint)."""

    __tablename__ = "push_subscriptions"

    id: Mapped[str] = mapped_column(String(64), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), index=True)
    session: Mapped[str | None] = mapped_column(String(32), nullable=True)
    endpoint: Mapped[str] = mapped_column(Text)
    p256dh: Mapped[str] = mapped_column(String(200))
    auth: Mapped[str] = mapped_column(String(100))
    lang: Mapped[str] = mapped_column(String(8), default="en")
    failures: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


class ServerSecret(Base):
    """A secret shared by every instance, written once (``name`` → ``value``)."""

    __tablename__ = "server_secrets"

    name: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)


push_subscriptions = cast(Table, PushSubscription.__table__)
server_secrets = cast(Table, ServerSecret.__table__)


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
