"""The SQL of the play path (the hot path of every move), behind one small interface.

:class:`SqlTx` uses SQLAlchemy Core (SQLite, and any other database). :class:`PgTx` talks to
asyncpg directly on a plain asyncpg pool (:meth:`Database.raw`): skipping the ORM layers
roughly halves the server's CPU per move.

Three ways in:

* :func:`append_fast` — the usual move: **one statement, one round trip** in autocommit. A CTE
  bumps the match row's version *only if it is still the version the cached state was at*
  (optimistic concurrency) and appends the log row in the same statement; zero rows means
  another instance moved first (the caller falls back to the locked path). Moves of many
  matches at the same moment share one statement (group commit, :mod:`app.db.group_commit`).
* :func:`write_tx` — the locked path (cache miss, stale cache, bots, idempotent retries):
  ``SELECT … FOR UPDATE`` (``SKIP LOCKED`` for the bot sweep), append, update, commit.
* :func:`read_tx` — reads see one consistent version: on Postgres a ``REPEATABLE READ READ
  ONLY`` transaction, so the match row, its snapshot and the log come from one snapshot even
  while other instances commit (the log is also read only up to the row's version).

The transactions themselves (:class:`SqlTx`, :class:`PgTx`) live in :mod:`app.db.txs`; the
outbox and the catch-up reads in :mod:`app.services.match.queries`.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator, Mapping
from datetime import datetime
from typing import Any

from sqlalchemy import select, update

from app.db.action_log import LOG_COLUMNS, LOG_INSERT, LogRow, placeholders
from app.db.group_commit import Append, AppendBatcher, batchable
from app.db.models import match_actions, matches
from app.db.session import Database
from app.db.txs import (
    DUPLICATE,
    UPDATABLE,
    MatchRow,
    PgTx,
    SqlTx,
    Tx,
    json_text,
    set_clause,
    sql_values,
)

__all__ = [
    "DUPLICATE",
    "UPDATABLE",
    "MatchRow",
    "PgTx",
    "SqlTx",
    "Tx",
    "append_fast",
    "due_matches",
    "previous_result",
    "read_tx",
    "write_tx",
]


@contextlib.asynccontextmanager
async def write_tx(db: Database) -> AsyncIterator[Tx]:
    """A write transaction on ``db``: asyncpg directly on Postgres, SQLAlchemy elsewhere."""
    if not db.is_postgres:
        async with db.transaction() as conn:
            yield SqlTx(conn, postgres=False)
        return
    async with db.raw() as pg, pg.transaction():
        yield PgTx(pg)


@contextlib.asynccontextmanager
async def read_tx(db: Database) -> AsyncIterator[Tx]:
    """A consistent read (no locks): on Postgres a ``REPEATABLE READ READ ONLY`` transaction,
    so every statement sees the same committed version of the match and its log. (SQLite
    serves one process, whose writes to a match are serialised with its reads by the match's
    lock.).
    """
    if not db.is_postgres:
        async with db.reading() as conn:
            yield SqlTx(conn, postgres=False)
        return
    async with db.raw() as pg, pg.transaction(isolation="repeatable_read", readonly=True):
        yield PgTx(pg, locking=False)


async def append_fast(
    db: Database,
    row: LogRow,
    expected_clock: dict[str, Any] | None,
    values: Mapping[str, Any],
) -> bool:
    """Append the log ``row`` and set ``values`` on its match row, in one statement, if the
    row is still live at the version before the move (``row.version - 1``) with the clock
    ``expected_clock`` (a clock changes between actions too: leave countdowns, votes,
    proposals, outage credit); False (nothing written) otherwise.

    ``values`` must set ``version`` to ``row.version`` (keys from :data:`UPDATABLE`).
    Raises one of :data:`DUPLICATE` for a repeated client action id (nothing written).
    """
    assert values.get("version") == row.version
    if not db.is_postgres:
        async with db.transaction() as conn:
            where = (
                matches.c.id == row.match_id,
                matches.c.version == row.version - 1,
                matches.c.status == "live",
            )
            # A no-op write first: SQLite has one writer at a time, so the clock read next
            # cannot change before this transaction ends.
            held = await conn.execute(update(matches).where(*where).values(version=row.version - 1))
            if held.rowcount != 1:
                return False
            clock = (
                await conn.execute(select(matches.c.clock).where(matches.c.id == row.match_id))
            ).scalar()
            if clock != expected_clock:
                return False
            await conn.execute(update(matches).where(*where).values(**sql_values(values)))
            await SqlTx(conn, postgres=False).append_action(row)
            return True
    move = Append(
        row=row,
        old_clock=None if expected_clock is None else json_text(expected_clock),
        values=values,
        new_clock=json_text(values["clock"]) if "clock" in values else None,
        scores=json_text(values["scores"]),
    )
    if not batchable(values, row.at):
        async with db.raw() as pg:
            return await _append_one(pg, move)
    if db.appends is None:
        db.appends = AppendBatcher(db.raw, _append_one)
    batcher: AppendBatcher = db.appends
    return await batcher.append(move)


#: The first parameter of :func:`_append_one` after the log row's (``$1`` … ``$9``,
#: :data:`app.db.action_log.LOG_COLUMNS`): the clock the match row must still hold; the
#: columns the move sets follow (:func:`app.db.txs.set_clause`). The version the row must
#: still be at is the row's ``seq`` (``$2``) less one: no parameter of its own.
_OLD_CLOCK = len(LOG_COLUMNS) + 1


async def _append_one(pg: Any, move: Append) -> bool:
    """:func:`append_fast`'s one statement for one move on the asyncpg connection ``pg``."""
    sets, args = set_clause(move.values, _OLD_CLOCK + 1)
    sql = (
        f"WITH bumped AS (UPDATE matches SET {sets} "
        "WHERE id = $1 AND version = $2 - 1 AND status = 'live' "
        f"AND clock::jsonb IS NOT DISTINCT FROM ${_OLD_CLOCK}::jsonb RETURNING id) "
        f"{LOG_INSERT} SELECT {placeholders()} FROM bumped RETURNING seq"
    )
    seq = await pg.fetchval(sql, *move.row.args(), move.old_clock, *args)
    return seq is not None


async def previous_result(
    db: Database, match_id: str, seat: int, client_id: str
) -> tuple[int, str] | None:
    """``(seq, events JSON)`` of the action a seat logged with ``client_id``, if any."""
    async with db.reading() as conn:
        row = (
            await conn.execute(
                select(match_actions.c.seq, match_actions.c.events).where(
                    match_actions.c.match_id == match_id,
                    match_actions.c.seat == seat,
                    match_actions.c.client_id == client_id,
                )
            )
        ).first()
    return None if row is None else (int(row.seq), str(row.events))


async def due_matches(db: Database, now: datetime, limit: int = 50) -> list[str]:
    """Ids of live matches whose bot (or abandoned) turn is due at ``now``, oldest first."""
    async with db.reading() as conn:
        result = await conn.execute(
            select(matches.c.id)
            .where(matches.c.status == "live", matches.c.next_bot_at <= now)
            .order_by(matches.c.next_bot_at)
            .limit(limit)
        )
        return [r[0] for r in result]
