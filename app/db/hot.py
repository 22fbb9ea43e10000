"""The SQL of the play path (the hot path of every move), behind one small interface.

:class:`SqlTx` uses SQLAlchemy Core (SQLite, and any other database). :class:`PgTx` talks to
asyncpg directly on a plain asyncpg pool (:meth:`Database.raw`): skipping the ORM layers
roughly halves the server's CPU per move.

Three ways in:

* :func:`append_fast` — the usual move: **one statement, one round trip** in autocommit. A CTE
  bumps the match row's version *only if it is still the version the cached state was at*
  (optimistic concurrency) and appends the log row in the same statement; zero rows means
  another instance moved first (the caller falls back to the locked path).
* :func:`write_tx` — the locked path (cache miss, stale cache, bots, idempotent retries):
  ``SELECT … FOR UPDATE`` (``SKIP LOCKED`` for the bot sweep), append, update, commit.
* :func:`read_tx` — reads see one consistent version: on Postgres a ``REPEATABLE READ READ
  ONLY`` transaction, so the match row, its snapshot and the log come from one snapshot even
  while other instances commit (the log is also read only up to the row's version).

The log is the outbox (:func:`mark_published`, :func:`claim_unpublished`): rows start
unpublished, the committing instance marks them once the broker took them, and any instance's
sweep claims rows left unpublished with ``FOR UPDATE SKIP LOCKED``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Protocol

import orjson
from asyncpg.exceptions import IntegrityConstraintViolationError
from sqlalchemy import insert, select, update
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import match_actions, matches, seat_presence
from app.db.session import Database


@dataclass(frozen=True)
class MatchRow:
    """The columns of ``matches`` the play path needs."""

    id: str
    version: int
    status: str
    seats: list[dict[str, Any]]
    name: str
    private: bool
    lobby_code: str
    snapshot_version: int
    #: The match's clock (``app.services.clock``), None for matches without one.
    clock: dict[str, Any] | None = None


#: What a broken constraint (unique, foreign key) raises, through SQLAlchemy or from asyncpg.
DUPLICATE = (IntegrityError, IntegrityConstraintViolationError)

#: Columns a move may set on its match row (``update_match``, :func:`append_fast`); anything
#: else is a programming error. Per-action columns (e.g. clocks) are added here, and their
#: values to the dict built by ``app.services.play._row_values``.
UPDATABLE = (
    "version",
    "seat_to_act",
    "turn",
    "scores",
    "updated_at",
    "next_bot_at",
    "status",
    "finished_at",
    "snapshot",
    "snapshot_version",
    "clock",
)
#: Of those, the JSON columns (encoded as text for asyncpg).
_JSON = ("scores", "snapshot", "clock")


class Tx(Protocol):
    """One open write transaction (committed when its context exits without error)."""

    async def lock_match(
        self, match_id: str, *, skip_locked: bool = False, due_before: datetime | None = None
    ) -> MatchRow | None:
        """Lock and read a match row; None when absent (or locked/not due, with the options)."""

    async def snapshot(self, match_id: str) -> dict[str, Any]:
        """The match's latest ``GameState.to_json()`` snapshot."""

    async def actions_after(self, match_id: str, seq: int, upto: int) -> list[tuple[int, str]]:
        """``(seq, action JSON)`` of the log after ``seq`` up to ``upto``, in order."""

    async def append_action(
        self,
        match_id: str,
        seq: int,
        seat: int,
        client_id: str | None,
        action: str,
        events: str,
        at: datetime,
        by: str | None = None,
        published: bool = False,
    ) -> None:
        """Insert one row of the action log (unique ``(match_id, seq)``); ``by``: who chose it
        when not the seat's holder (``"computer"``); ``published``: nothing to publish (no
        other instance listens), so the outbox sweep leaves the row alone.
        """

    async def update_match(self, match_id: str, values: dict[str, Any]) -> None:
        """Set columns of the match row (keys from :data:`UPDATABLE`)."""

    async def last_seen(self, match_id: str, seat: int) -> datetime | None:
        """When ``seat`` was last seen connected."""

    async def touch_presence(self, seats: list[tuple[str, int]], at: datetime) -> None:
        """Upsert ``seat_presence.last_seen = at`` for ``(match_id, seat)`` pairs."""


def _row(data: Any) -> MatchRow:
    seats = data["seats"]
    if isinstance(seats, str):
        seats = orjson.loads(seats)
    clock = data["clock"]
    if isinstance(clock, str):
        clock = orjson.loads(clock)
    return MatchRow(
        data["id"],
        data["version"],
        data["status"],
        seats,
        data["name"],
        data["private"],
        data["lobby_code"],
        data["snapshot_version"],
        clock,
    )


_COLUMNS = (
    matches.c.id,
    matches.c.version,
    matches.c.status,
    matches.c.seats,
    matches.c.name,
    matches.c.private,
    matches.c.lobby_code,
    matches.c.snapshot_version,
    matches.c.clock,
)


class SqlTx:
    """:class:`Tx` on a SQLAlchemy connection; ``postgres`` adds the row locks (False also
    serves plain reads).
    """

    def __init__(self, conn: AsyncConnection, postgres: bool) -> None:
        self.conn = conn
        self.postgres = postgres

    async def lock_match(
        self, match_id: str, *, skip_locked: bool = False, due_before: datetime | None = None
    ) -> MatchRow | None:
        """See :class:`Tx`."""
        query = select(*_COLUMNS).where(matches.c.id == match_id)
        if due_before is not None:
            query = query.where(matches.c.status == "live", matches.c.next_bot_at <= due_before)
        if self.postgres:
            query = query.with_for_update(skip_locked=skip_locked)
        found = (await self.conn.execute(query)).mappings().first()
        return None if found is None else _row(found)

    async def snapshot(self, match_id: str) -> dict[str, Any]:
        """See :class:`Tx`."""
        value = (
            await self.conn.execute(select(matches.c.snapshot).where(matches.c.id == match_id))
        ).scalar_one()
        return dict(value)

    async def actions_after(self, match_id: str, seq: int, upto: int) -> list[tuple[int, str]]:
        """See :class:`Tx`."""
        result = await self.conn.execute(
            select(match_actions.c.seq, match_actions.c.action)
            .where(
                match_actions.c.match_id == match_id,
                match_actions.c.seq > seq,
                match_actions.c.seq <= upto,
            )
            .order_by(match_actions.c.seq)
        )
        return [(int(s), str(a)) for s, a in result]

    async def append_action(
        self,
        match_id: str,
        seq: int,
        seat: int,
        client_id: str | None,
        action: str,
        events: str,
        at: datetime,
        by: str | None = None,
        published: bool = False,
    ) -> None:
        """See :class:`Tx`."""
        await self.conn.execute(
            insert(match_actions).values(
                match_id=match_id,
                seq=seq,
                seat=seat,
                client_id=client_id,
                action=action,
                events=events,
                created_at=at,
                by=by,
                published=published,
            )
        )

    async def update_match(self, match_id: str, values: dict[str, Any]) -> None:
        """See :class:`Tx`."""
        assert set(values) <= set(UPDATABLE)
        extra = {"notes": matches.c.notes + 1} if _is_note(values) else {}
        await self.conn.execute(
            update(matches).where(matches.c.id == match_id).values(**values, **extra)
        )

    async def last_seen(self, match_id: str, seat: int) -> datetime | None:
        """See :class:`Tx`."""
        value = (
            await self.conn.execute(
                select(seat_presence.c.last_seen).where(
                    seat_presence.c.match_id == match_id, seat_presence.c.seat == seat
                )
            )
        ).scalar()
        return value if isinstance(value, datetime) else None

    async def touch_presence(self, seats: list[tuple[str, int]], at: datetime) -> None:
        """See :class:`Tx`."""
        if self.postgres:
            from sqlalchemy.dialects.postgresql import insert as upsert
        else:
            from sqlalchemy.dialects.sqlite import insert as upsert  # type: ignore[assignment]
        stmt = upsert(seat_presence).values(
            [{"match_id": m, "seat": s, "last_seen": at} for m, s in seats]
        )
        await self.conn.execute(
            stmt.on_conflict_do_update(
                index_elements=[seat_presence.c.match_id, seat_presence.c.seat],
                set_={"last_seen": at},
            )
        )


class PgTx:
    """:class:`Tx` straight on asyncpg (the connection's transaction is already open);
    ``locking`` False: a read-only transaction, where ``lock_match`` is a plain read.
    """

    _LOCK = (
        "SELECT id, version, status, seats, name, private, lobby_code, snapshot_version, "
        "clock FROM matches WHERE id = $1"
    )

    def __init__(self, pg: Any, locking: bool = True) -> None:
        self.pg = pg
        self.locking = locking

    async def lock_match(
        self, match_id: str, *, skip_locked: bool = False, due_before: datetime | None = None
    ) -> MatchRow | None:
        """See :class:`Tx`."""
        sql = self._LOCK
        args: list[Any] = [match_id]
        if due_before is not None:
            sql += " AND status = 'live' AND next_bot_at <= $2"
            args.append(due_before)
        if self.locking:
            sql += " FOR UPDATE SKIP LOCKED" if skip_locked else " FOR UPDATE"
        found = await self.pg.fetchrow(sql, *args)
        return None if found is None else _row(found)

    async def snapshot(self, match_id: str) -> dict[str, Any]:
        """See :class:`Tx`."""
        value = await self.pg.fetchval("SELECT snapshot FROM matches WHERE id = $1", match_id)
        return dict(orjson.loads(value) if isinstance(value, str) else value)

    async def actions_after(self, match_id: str, seq: int, upto: int) -> list[tuple[int, str]]:
        """See :class:`Tx`."""
        rows = await self.pg.fetch(
            "SELECT seq, action FROM match_actions WHERE match_id = $1 AND seq > $2 "
            "AND seq <= $3 ORDER BY seq",
            match_id,
            seq,
            upto,
        )
        return [(int(r["seq"]), str(r["action"])) for r in rows]

    async def append_action(
        self,
        match_id: str,
        seq: int,
        seat: int,
        client_id: str | None,
        action: str,
        events: str,
        at: datetime,
        by: str | None = None,
        published: bool = False,
    ) -> None:
        """See :class:`Tx`."""
        await self.pg.execute(
            "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, "
            "created_at, by, published) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
            match_id,
            seq,
            seat,
            client_id,
            action,
            events,
            at,
            by,
            published,
        )

    async def update_match(self, match_id: str, values: dict[str, Any]) -> None:
        """See :class:`Tx`."""
        assert set(values) <= set(UPDATABLE)
        sets, args = _sets(values, 2)
        if _is_note(values):
            sets += ", notes = notes + 1"
        await self.pg.execute(f"UPDATE matches SET {sets} WHERE id = $1", match_id, *args)

    async def last_seen(self, match_id: str, seat: int) -> datetime | None:
        """See :class:`Tx`."""
        value = await self.pg.fetchval(
            "SELECT last_seen FROM seat_presence WHERE match_id = $1 AND seat = $2", match_id, seat
        )
        return value if isinstance(value, datetime) else None

    async def touch_presence(self, seats: list[tuple[str, int]], at: datetime) -> None:
        """See :class:`Tx` (one statement over arrays, whatever the number of seats)."""
        await self.pg.execute(
            "INSERT INTO seat_presence (match_id, seat, last_seen) "
            "SELECT m, s, $3 FROM unnest($1::varchar[], $2::int[]) AS t(m, s) "
            "ON CONFLICT (match_id, seat) DO UPDATE SET last_seen = EXCLUDED.last_seen",
            [m for m, _ in seats],
            [s for _, s in seats],
            at,
        )


def _is_note(values: dict[str, Any]) -> bool:
    """A match-row write that changes the clock or ends the match without an action (no new
    version) is a *note*: it counts in ``matches.notes``, which the version watch compares.
    """
    return "version" not in values and ("clock" in values or "status" in values)


def _json(value: Any) -> str:
    """JSON text for a json/jsonb parameter (orjson: the snapshot is large)."""
    return orjson.dumps(value).decode()


def _sets(values: dict[str, Any], first: int) -> tuple[str, list[Any]]:
    """``"a = $n, b = $n+1"`` and the arguments, keys sorted: one statement text per key set,
    so asyncpg's statement cache serves it.
    """
    assert set(values) <= set(UPDATABLE)
    keys = sorted(values)
    sets = ", ".join(f"{k} = ${i}" for i, k in enumerate(keys, first))
    return sets, [_json(values[k]) if k in _JSON else values[k] for k in keys]


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
    match_id: str,
    expected: int,
    expected_clock: dict[str, Any] | None,
    seat: int,
    client_id: str | None,
    action: str,
    events: str,
    at: datetime,
    values: dict[str, Any],
    published: bool = False,
) -> bool:
    """Append log row ``expected + 1`` and set ``values`` on the match row, in one statement,
    if the row is still live at version ``expected`` with the clock ``expected_clock`` (a
    clock changes between actions too: leave countdowns, votes, proposals, outage credit);
    False (nothing written) otherwise. ``published``: as in :meth:`Tx.append_action`.

    ``values`` must set ``version`` to ``expected + 1`` (keys from :data:`UPDATABLE`).
    Raises one of :data:`DUPLICATE` for a repeated client action id (nothing written).
    """
    assert values.get("version") == expected + 1
    if not db.is_postgres:
        async with db.transaction() as conn:
            where = (
                matches.c.id == match_id,
                matches.c.version == expected,
                matches.c.status == "live",
            )
            # A no-op write first: SQLite has one writer at a time, so the clock read next
            # cannot change before this transaction ends.
            held = await conn.execute(update(matches).where(*where).values(version=expected))
            if held.rowcount != 1:
                return False
            clock = (
                await conn.execute(select(matches.c.clock).where(matches.c.id == match_id))
            ).scalar()
            if clock != expected_clock:
                return False
            await conn.execute(update(matches).where(*where).values(**values))
            await SqlTx(conn, postgres=False).append_action(
                match_id, expected + 1, seat, client_id, action, events, at, published=published
            )
            return True
    sets, args = _sets(values, 11)
    sql = (
        f"WITH bumped AS (UPDATE matches SET {sets} "
        "WHERE id = $1 AND version = $2 AND status = 'live' "
        "AND clock::jsonb IS NOT DISTINCT FROM $9::jsonb RETURNING id) "
        "INSERT INTO match_actions (match_id, seq, seat, client_id, action, events, created_at, "
        "published) SELECT id, $3, $4, $5, $6, $7, $8, $10 FROM bumped RETURNING seq"
    )
    old_clock = None if expected_clock is None else _json(expected_clock)
    async with db.raw() as pg:
        seq = await pg.fetchval(
            sql,
            match_id,
            expected,
            expected + 1,
            seat,
            client_id,
            action,
            events,
            at,
            old_clock,
            published,
            *args,
        )
    return seq is not None


async def mark_published(db: Database, batches: list[tuple[str, int]]) -> None:
    """Mark log rows ``(match_id, seq)`` as handed to the broker (rows another instance's
    sweep holds are skipped: it marks them itself).
    """
    if not batches:
        return
    if not db.is_postgres:
        async with db.transaction() as conn:
            for match_id, seq in batches:
                await conn.execute(
                    update(match_actions)
                    .where(
                        match_actions.c.match_id == match_id,
                        match_actions.c.seq == seq,
                    )
                    .values(published=True)
                )
        return
    async with db.raw() as pg:
        await pg.execute(
            "UPDATE match_actions SET published = true WHERE id IN ("
            "SELECT a.id FROM match_actions a JOIN unnest($1::varchar[], $2::int[]) "
            "AS t(m, s) ON a.match_id = t.m AND a.seq = t.s "
            "WHERE NOT a.published FOR UPDATE OF a SKIP LOCKED)",
            [m for m, _ in batches],
            [s for _, s in batches],
        )


@contextlib.asynccontextmanager
async def claim_unpublished(
    db: Database, before: datetime, limit: int = 500
) -> AsyncIterator[dict[str, int]]:
    """Claim log rows committed before ``before`` and still unpublished: yields ``{match_id:
    highest unpublished seq}``; when the block exits without error the rows are marked
    published (an error leaves them for the next sweep). Rows claimed by another instance are
    skipped (``FOR UPDATE SKIP LOCKED``).
    """
    if not db.is_postgres:
        async with db.transaction() as conn:
            rows = (
                await conn.execute(
                    select(match_actions.c.id, match_actions.c.match_id, match_actions.c.seq)
                    .where(
                        match_actions.c.published.is_(False), match_actions.c.created_at < before
                    )
                    .limit(limit)
                )
            ).all()
            yield _highest((r.match_id, r.seq) for r in rows)
            if rows:
                await conn.execute(
                    update(match_actions)
                    .where(match_actions.c.id.in_([r.id for r in rows]))
                    .values(published=True)
                )
        return
    async with db.raw() as pg, pg.transaction():
        rows = await pg.fetch(
            "SELECT id, match_id, seq FROM match_actions WHERE NOT published "
            "AND created_at < $1 ORDER BY created_at LIMIT $2 FOR UPDATE SKIP LOCKED",
            before,
            limit,
        )
        yield _highest((r["match_id"], r["seq"]) for r in rows)
        if rows:
            await pg.execute(
                "UPDATE match_actions SET published = true WHERE id = ANY($1)",
                [r["id"] for r in rows],
            )


def _highest(pairs: Any) -> dict[str, int]:
    out: dict[str, int] = {}
    for match_id, seq in pairs:
        out[match_id] = max(seq, out.get(match_id, 0))
    return out


async def match_versions(db: Database, match_ids: list[str]) -> dict[str, tuple[int, int]]:
    """``(version, notes)`` of each of ``match_ids`` as committed (absent ones are left out)."""
    if not match_ids:
        return {}
    if not db.is_postgres:
        async with db.reading() as conn:
            rows = (
                await conn.execute(
                    select(matches.c.id, matches.c.version, matches.c.notes).where(
                        matches.c.id.in_(match_ids)
                    )
                )
            ).all()
        return {r.id: (r.version, r.notes) for r in rows}
    async with db.raw() as pg:
        found = await pg.fetch(
            "SELECT id, version, notes FROM matches WHERE id = ANY($1::varchar[])", match_ids
        )
    return {r["id"]: (r["version"], r["notes"]) for r in found}


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


async def batches_since(
    db: Database, match_id: str, since: int, upto: int | None = None
) -> list[tuple[int, int, str | None, str, str | None]]:
    """``(seq, seat, client action id, events JSON, by)`` of the log after ``since`` (up to
    ``upto``), in order; ``by``: ``"computer"`` when the computer chose for a person.
    """
    query = (
        select(
            match_actions.c.seq,
            match_actions.c.seat,
            match_actions.c.client_id,
            match_actions.c.events,
            match_actions.c.by,
        )
        .where(match_actions.c.match_id == match_id, match_actions.c.seq > since)
        .order_by(match_actions.c.seq)
    )
    if upto is not None:
        query = query.where(match_actions.c.seq <= upto)
    async with db.reading() as conn:
        rows = (await conn.execute(query)).all()
    return [(int(r.seq), int(r.seat), r.client_id, str(r.events), r.by) for r in rows]


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
