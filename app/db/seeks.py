"""The SQL of the "Play now" seek pool (:mod:`app.services.lobby.seeks`).

Each statement runs on a connection inside the caller's transaction. Rows are SQLAlchemy
``Row`` objects of :data:`app.db.models.seeks`.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any

from sqlalchemy import func, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts
from app.db.models import seeks


async def insert_seek(conn: AsyncConnection, values: dict[str, Any]) -> None:
    """Add a seek row (``values``: every column)."""
    await conn.execute(insert(seeks).values(**values))


async def seek(conn: AsyncConnection, seek_id: str) -> Any:
    """The seek row ``seek_id``, or None."""
    return (await conn.execute(select(seeks).where(seeks.c.id == seek_id))).first()


async def open_of(conn: AsyncConnection, player_id: str) -> Any:
    """The player's open seek row (there is at most one), or None."""
    return (
        await conn.execute(
            select(seeks).where(seeks.c.player_id == player_id, seeks.c.status == "open")
        )
    ).first()


async def lock_pool(conn: AsyncConnection, pool: str, *, skip_locked: bool) -> list[Any]:
    """The open seeks of ``pool``, oldest first. With ``skip_locked`` (Postgres) they are
    locked ``FOR UPDATE SKIP LOCKED``: rows another transaction is pairing are left out, so
    no seek is ever in two pairings at once.
    """
    query = (
        select(seeks)
        .where(seeks.c.pool == pool, seeks.c.status == "open")
        .order_by(seeks.c.created_at, seeks.c.id)
    )
    if skip_locked:
        query = query.with_for_update(skip_locked=True)
    return list((await conn.execute(query)).all())


async def set_status(
    conn: AsyncConnection, ids: list[str], status: str, match_id: str | None = None
) -> int:
    """Move the still-open seeks ``ids`` to ``status`` (with ``match_id``); returns how many
    changed (a seek already out of the pool is left as it is).
    """
    if not ids:
        return 0
    result = await conn.execute(
        update(seeks)
        .where(seeks.c.id.in_(ids), seeks.c.status == "open")
        .values(status=status, match_id=match_id)
    )
    return int(result.rowcount or 0)


async def touch(conn: AsyncConnection, seek_id: str, now: datetime) -> None:
    """The holder polled: ``seen_at = now`` (open seeks only)."""
    await conn.execute(
        update(seeks).where(seeks.c.id == seek_id, seeks.c.status == "open").values(seen_at=now)
    )


async def waiting(conn: AsyncConnection, since: datetime, pool: str | None = None) -> list[Any]:
    """``[(pool, one of its seek rows, waiting)]``: every pool (or only ``pool``) with open
    seeks seen since ``since``, the fullest first (the row tells the pool's players, preset,
    rated and time control).
    """
    count = func.count().label("waiting")
    query = (
        select(seeks.c.pool, func.min(seeks.c.id).label("sample"), count)
        .where(seeks.c.status == "open", seeks.c.seen_at >= since)
        .group_by(seeks.c.pool)
        .order_by(count.desc(), seeks.c.pool)
    )
    if pool is not None:
        query = query.where(seeks.c.pool == pool)
    rows = (await conn.execute(query)).all()
    if not rows:
        return []
    samples = {
        r.id: r
        for r in await conn.execute(select(seeks).where(seeks.c.id.in_([r.sample for r in rows])))
    }
    return [(r.pool, samples[r.sample], int(r.waiting)) for r in rows]


async def without_account(conn: AsyncConnection, player_ids: list[str]) -> set[str]:
    """Those of ``player_ids`` that have no account (any more: deleted while seeking)."""
    if not player_ids:
        return set()
    found = await conn.execute(
        select(accounts.c.player_id).where(accounts.c.player_id.in_(player_ids))
    )
    return set(player_ids) - {r[0] for r in found}
