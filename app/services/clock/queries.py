"""The SQL of the clock package: instance heartbeats and the live clocks an outage credits.

Each statement runs on a connection inside the caller's transaction.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import delete, func, insert, select, text, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import instance_heartbeats, matches
from app.db.txs import MatchChanges


async def advisory_lock(conn: AsyncConnection, key: int) -> None:
    """Hold the Postgres transaction-level advisory lock ``key`` until the commit."""
    await conn.execute(text("SELECT pg_advisory_xact_lock(:k)"), {"k": key})


async def last_heartbeat(conn: AsyncConnection) -> datetime | None:
    """The latest heartbeat of any instance, or None when no instance ever beat."""
    value: datetime | None = (
        await conn.execute(select(func.max(instance_heartbeats.c.beat_at)))
    ).scalar()
    return value


async def live_clocks(conn: AsyncConnection, *, lock: bool) -> list[Any]:
    """Rows (id, clock, next_bot_at) of every live match with a clock; ``lock`` adds
    ``FOR UPDATE`` (Postgres).
    """
    query = select(matches.c.id, matches.c.clock, matches.c.next_bot_at).where(
        matches.c.status == "live", matches.c.clock.is_not(None)
    )
    if lock:
        query = query.with_for_update()
    return list((await conn.execute(query)).all())


async def update_match(conn: AsyncConnection, match_id: str, values: MatchChanges) -> None:
    """Set ``values`` (column name to value) on the match row ``match_id``."""
    await conn.execute(update(matches).where(matches.c.id == match_id).values(**values))


async def forget_heartbeats_before(conn: AsyncConnection, before: datetime) -> None:
    """Delete the heartbeats older than ``before`` (instances gone for good)."""
    await conn.execute(delete(instance_heartbeats).where(instance_heartbeats.c.beat_at < before))


async def insert_heartbeat(conn: AsyncConnection, instance: str, now: datetime) -> None:
    """Write the first heartbeat row of ``instance``."""
    await conn.execute(insert(instance_heartbeats).values(instance_id=instance, beat_at=now))


async def refresh_heartbeat(conn: AsyncConnection, instance: str, now: datetime) -> bool:
    """Move the heartbeat of ``instance`` to ``now``; False when it has no row yet."""
    done = await conn.execute(
        update(instance_heartbeats)
        .where(instance_heartbeats.c.instance_id == instance)
        .values(beat_at=now)
    )
    return bool(done.rowcount)
