"""The meters of the move budget (:mod:`tests.budget.test_move_budget`).

:class:`Wire` reads what the app sends to Postgres off the wire of every asyncpg connection
(SQLAlchemy's asyncpg dialect and the play path's own pool alike); :class:`PgMeter` asks
Postgres what it counted (``pg_stat_database``, ``pg_stat_user_tables``) and logged
(``pg_walinspect``) for one database.
"""

from __future__ import annotations

import asyncio
import collections
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import pytest
from asyncpg.connection import Connection

from tests.support.postgres import asyncpg_dsn
from tests.support.services import unavailable

#: Statements that open, end or abandon a transaction block (simple queries).
_BEGIN = re.compile(r"\s*(BEGIN|START\s+TRANSACTION)\b", re.IGNORECASE)
_COMMIT = re.compile(r"\s*(COMMIT|END)\b", re.IGNORECASE)
_ROLLBACK = re.compile(r"\s*(ROLLBACK|ABORT)\b", re.IGNORECASE)


@dataclass
class Tally:
    """What the connections sent while counting: every statement executed (its SQL), the
    round trips (a simple query, or a Sync ending an extended-protocol exchange) and the
    transactions they end (committed, rolled back) as Postgres counts them.
    """

    statements: list[str] = field(default_factory=list)
    round_trips: int = 0
    commits: int = 0
    rollbacks: int = 0

    def copy(self) -> Tally:
        return Tally(list(self.statements), self.round_trips, self.commits, self.rollbacks)

    def since(self, earlier: Tally) -> Tally:
        return Tally(
            self.statements[len(earlier.statements) :],
            self.round_trips - earlier.round_trips,
            self.commits - earlier.commits,
            self.rollbacks - earlier.rollbacks,
        )


class _Reader:
    """One connection's frontend messages (type byte, length, body), parsed as they are
    written; only the messages of a counting period go into the tally.
    """

    def __init__(self, wire: Wire) -> None:
        self.wire = wire
        self.buffer = bytearray()
        self.prepared: dict[str, str] = {}  # statement name -> SQL (from Parse)
        self.portals: dict[str, str] = {}  # portal -> SQL (from Bind)
        self.in_block = False  # inside BEGIN … COMMIT
        self.implicit = False  # extended-protocol messages outside a block since the Sync

    def feed(self, data: Any) -> None:
        self.buffer += bytes(data)
        while len(self.buffer) >= 5:
            size = int.from_bytes(self.buffer[1:5], "big")
            if len(self.buffer) < 1 + size:
                return
            kind, body = chr(self.buffer[0]), bytes(self.buffer[5 : 1 + size])
            del self.buffer[: 1 + size]
            self._message(kind, body)

    def _message(self, kind: str, body: bytes) -> None:
        tally = self.wire.tally if self.wire.counting else None
        if kind == "Q":
            sql = body.split(b"\0", 1)[0].decode()
            if tally is not None:
                tally.statements.append(sql)
                tally.round_trips += 1
            if _BEGIN.match(sql):
                self.in_block = True
            elif _COMMIT.match(sql) or _ROLLBACK.match(sql):
                if tally is not None:
                    if _COMMIT.match(sql):
                        tally.commits += 1
                    else:
                        tally.rollbacks += 1
                self.in_block = False
            elif not self.in_block and tally is not None:
                tally.commits += 1  # a simple query outside a block is a transaction
        elif kind == "P":
            name, rest = body.split(b"\0", 1)
            self.prepared[name.decode()] = rest.split(b"\0", 1)[0].decode()
            self.implicit |= not self.in_block
        elif kind == "B":
            portal, statement, _ = body.split(b"\0", 2)
            self.portals[portal.decode()] = self.prepared.get(statement.decode(), "?")
        elif kind == "E":
            if tally is not None:
                tally.statements.append(self.portals.get(body.split(b"\0", 1)[0].decode(), "?"))
            self.implicit |= not self.in_block
        elif kind == "D":
            self.implicit |= not self.in_block
        elif kind == "S":
            if tally is not None:
                tally.round_trips += 1
                # Postgres ends the implicit transaction of the exchange (prepares included)
                tally.commits += self.implicit
            self.implicit = False


class Wire:
    """Counts what every asyncpg connection opened after :meth:`install` sends while
    :attr:`counting`: the frontend protocol messages written to its transport (plain text,
    before any TLS), so simple queries (``BEGIN``/``COMMIT`` of asyncpg's transactions),
    prepared statements of SQLAlchemy's dialect and the raw pool's statements all count, and
    a statement sent ahead in one write with others still counts once.
    """

    def __init__(self) -> None:
        self.tally = Tally()
        self.counting = False

    def install(self, monkeypatch: pytest.MonkeyPatch) -> None:
        original = Connection.__init__
        wire = self

        def init(conn: Connection, *args: Any, **kwargs: Any) -> None:
            original(conn, *args, **kwargs)
            wire._tap(conn)

        monkeypatch.setattr(Connection, "__init__", init)

    def _tap(self, conn: Connection) -> None:
        transport: Any = conn._transport  # type: ignore[attr-defined]
        reader = _Reader(self)
        write: Callable[[Any], None] = transport.write
        writelines: Callable[[Any], None] = transport.writelines

        def counted_write(data: Any) -> None:
            reader.feed(data)
            write(data)

        def counted_writelines(chunks: Any) -> None:
            chunks = list(chunks)
            for chunk in chunks:
                reader.feed(chunk)
            writelines(chunks)

        transport.write = counted_write
        transport.writelines = counted_writelines

    def mark(self) -> Tally:
        """The tally so far (to subtract from a later one)."""
        return self.tally.copy()


@dataclass
class Counters:
    """Postgres's own counts for the database and its ``matches`` table, and where the WAL
    was when they were read.
    """

    commits: int
    rollbacks: int
    updates: int
    hot_updates: int
    lsn: str


@dataclass
class Wal:
    """The WAL records of one database between two positions.

    :attr:`bytes`: all of them without full-page images (:attr:`fpi` apart: they follow the
    cluster's checkpoints, not the moves); :attr:`transactions`: the bytes of each transaction
    (its records carry its xid; pruning mostly comes before a statement has one);
    :attr:`kinds`: the records by resource manager and type. The updates of the ``matches``
    rows: :attr:`hot`, :attr:`same_page` (not HOT though the new version fitted on its page:
    an indexed column changed) and :attr:`new_page` (no room left on the page: the dead
    versions could not be pruned yet, which depends on every transaction of the cluster).
    """

    bytes: int = 0
    fpi: int = 0
    transactions: dict[str, int] = field(default_factory=dict)
    kinds: collections.Counter[str] = field(default_factory=collections.Counter)
    hot: int = 0
    same_page: int = 0
    new_page: int = 0

    @property
    def typical(self) -> int:
        """The median transaction's bytes: a move's, unmoved by the few that pruned late."""
        sizes = sorted(self.transactions.values())
        return sizes[len(sizes) // 2] if sizes else 0

    @property
    def hot_share_fitting(self) -> float:
        """HOT updates among the match-row updates whose new version fitted on its page."""
        fitting = self.hot + self.same_page
        return self.hot / fitting if fitting else 0.0


#: The records of one database: a block of one of its relations (``rel <tablespace>/<database
#: oid>/<relfilenode>``), or the commit (abort) of a transaction that wrote such a block.
WAL_SQL = r"""
WITH r AS (SELECT * FROM pg_get_wal_records_info($1::text::pg_lsn, $2::text::pg_lsn)),
xids AS (SELECT DISTINCT xid::text AS xid FROM r
         WHERE block_ref ~ ('rel [0-9]+/' || $3::text || '/') AND xid::text <> '0')
SELECT xid::text AS xid, resource_manager || ' ' || record_type AS kind, record_length,
       fpi_length, block_ref
FROM r
WHERE block_ref ~ ('rel [0-9]+/' || $3::text || '/')
   OR (resource_manager = 'Transaction' AND xid::text IN (SELECT xid FROM xids))
"""

#: Makes the connection running it hand Postgres its pending statistics when the statement
#: ends. Postgres 15 flushes a backend's counts at most once a second (else after 10 s idle, or
#: at exit); ``pg_stat_force_next_flush()`` asks the next flush to happen at once, but a flush
#: with no table statistics pending is skipped and leaves the transaction counts behind: the
#: look at ``matches`` makes sure there are some.
FLUSH_SQL = "SELECT pg_stat_force_next_flush(), EXISTS (SELECT FROM matches)"

#: Records that exist only because a checkpoint came by (a page's first change after one).
FPI_ONLY = {"XLOG FPI", "XLOG FPI_FOR_HINT"}


class PgMeter:
    """A connection of the test's own (superuser) to the measured database: Postgres's counts
    (flushed before they are read: ``pg_stat_force_next_flush()``) and WAL (``pg_walinspect``).

    Postgres 15 keeps a backend's statistics in the backend until it flushes them (at most
    once a second, else after 10 s idle, and at exit); :meth:`counters` forces this
    connection's flush, and the app's connections are flushed the same way by the caller
    (:func:`flush_app`), so both readings are exact. Between two readings this connection
    adds :data:`OWN_COMMITS` commits of its own.
    """

    #: The reading query of the first :meth:`counters` and the flush of the second.
    OWN_COMMITS = 2

    def __init__(self, conn: asyncpg.Connection, dboid: int, matches_node: int) -> None:
        self.conn = conn
        self.dboid = dboid
        self.matches_node = matches_node

    @classmethod
    async def open(cls, url: str) -> PgMeter:
        conn = await asyncpg.connect(asyncpg_dsn(url), timeout=10)
        try:
            if conn.get_server_version().major < 15:
                raise RuntimeError(f"Postgres {conn.get_server_version().major}: 15 or later")
            await conn.execute("CREATE EXTENSION IF NOT EXISTS pg_walinspect")
        except (RuntimeError, asyncpg.PostgresError) as exc:
            await conn.close()
            unavailable("Postgres's pg_walinspect (15 or later, contrib)", str(exc))
        # Autovacuum's work on these tables would come at random times: none here.
        await conn.execute(
            """
            DO $$ DECLARE t record; BEGIN
              FOR t IN SELECT relname FROM pg_class
                       WHERE relkind = 'r' AND relnamespace = 'public'::regnamespace LOOP
                EXECUTE format('ALTER TABLE %I SET (autovacuum_enabled = off, '
                               'toast.autovacuum_enabled = off)', t.relname);
              END LOOP;
            END $$
            """
        )
        dboid = await conn.fetchval(
            "SELECT oid FROM pg_database WHERE datname = current_database()"
        )
        node = await conn.fetchval("SELECT pg_relation_filenode('matches')")
        return cls(conn, int(dboid), int(node))

    async def counters(self) -> Counters:
        await self.conn.execute(FLUSH_SQL)
        row = await self.conn.fetchrow(
            """
            SELECT d.xact_commit, d.xact_rollback, t.n_tup_upd, t.n_tup_hot_upd,
                   pg_current_wal_insert_lsn()::text AS lsn
            FROM pg_stat_database d, pg_stat_user_tables t
            WHERE d.datname = current_database() AND t.relname = 'matches'
            """
        )
        assert row is not None
        return Counters(
            int(row["xact_commit"]),
            int(row["xact_rollback"]),
            int(row["n_tup_upd"]),
            int(row["n_tup_hot_upd"]),
            str(row["lsn"]),
        )

    async def wal(self, start: str, end: str) -> Wal:
        """This database's WAL between ``start`` and ``end`` (waits until ``end`` is flushed:
        ``pg_walinspect`` reads flushed WAL only).
        """
        for _ in range(200):
            if await self.conn.fetchval(
                "SELECT pg_current_wal_flush_lsn() >= $1::text::pg_lsn", end
            ):
                break
            await asyncio.sleep(0.05)
        wal = Wal()
        matches = f"/{self.dboid}/{self.matches_node} "
        for row in await self.conn.fetch(WAL_SQL, start, end, str(self.dboid)):
            kind, xid, refs = row["kind"], row["xid"], row["block_ref"]
            wal.kinds[kind] += 1
            wal.fpi += int(row["fpi_length"])
            if kind in FPI_ONLY:
                continue
            length = int(row["record_length"]) - int(row["fpi_length"])
            wal.bytes += length
            if xid != "0":
                wal.transactions[xid] = wal.transactions.get(xid, 0) + length
            if kind.startswith("Heap ") and "UPDATE" in kind and matches in refs:
                if "HOT_UPDATE" in kind:
                    wal.hot += 1
                elif "blkref #1" in refs or "+INIT" in kind:
                    wal.new_page += 1
                else:
                    wal.same_page += 1
        return wal

    async def close(self) -> None:
        await self.conn.close()


async def flush_app(db: Any) -> None:
    """Make the app's connections hand Postgres their pending statistics now (the pools hold
    one connection each: the scenario's settings), through the connections themselves: the
    play path's asyncpg pool (one commit) and SQLAlchemy's (a rolled-back transaction).
    """
    from sqlalchemy import text

    async with db.raw() as pg:
        await pg.execute(FLUSH_SQL)
    async with db.reading() as conn:
        await conn.execute(text(FLUSH_SQL))


#: Transactions :func:`flush_app` adds: its asyncpg statement commits, SQLAlchemy's read rolls
#: back.
FLUSH_APP_COMMITS = 1
FLUSH_APP_ROLLBACKS = 1
