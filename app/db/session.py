"""The async engine and session factory, one :class:`Database` per app.

Postgres (``postgresql+asyncpg://``) is the production database; SQLite (``sqlite+aiosqlite://``)
is the embedded default for a single process. SQLite allows one writer at a time, so writers
in this process take :meth:`Database.writing` first (a no-op on Postgres, where row locks do
the work).
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import event, text
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import (
    AsyncConnection,
    AsyncEngine,
    async_sessionmaker,
    create_async_engine,
)

from app.db.errors import is_database_unavailable


def as_utc(value: datetime) -> datetime:
    """``value`` as an aware UTC datetime (SQLite hands back naive ones)."""
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


def ensure_sqlite_dir(url: str) -> None:
    """Create the folder of a SQLite database file (``sqlite+aiosqlite:///var/x.db``)."""
    parsed = make_url(url)
    if parsed.get_backend_name() == "sqlite" and parsed.database not in (None, "", ":memory:"):
        Path(str(parsed.database)).parent.mkdir(parents=True, exist_ok=True)


def create_engine(url: str, pool_size: int = 10, max_overflow: int = 20) -> AsyncEngine:
    """An async engine for ``url``; SQLite gets WAL mode and a busy timeout."""
    if url.startswith("sqlite"):
        ensure_sqlite_dir(url)
        engine = create_async_engine(url, connect_args={"timeout": 30})

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.close()

        return engine
    return create_async_engine(
        url, pool_size=pool_size, max_overflow=max_overflow, pool_recycle=1800
    )


class Database:
    """The engine, a session factory and the SQLite writer lock.

    ``is_postgres`` tells whether ``SELECT … FOR UPDATE [SKIP LOCKED]`` is available.
    """

    def __init__(self, url: str, pool_size: int = 10, max_overflow: int = 20) -> None:
        self.url = url
        self.engine = create_engine(url, pool_size, max_overflow)
        self.sessions = async_sessionmaker(self.engine, expire_on_commit=False)
        self.is_postgres = self.engine.dialect.name == "postgresql"
        self._write_lock = asyncio.Lock() if not self.is_postgres else None
        self._pool_size = pool_size + max_overflow
        self._raw_pool: Any = None
        self.raw_options: dict[str, Any] = {"reset": _no_reset}  # the hot pool's create_pool
        self._raw_lock = asyncio.Lock()
        #: The play path's group commit (``app.db.group_commit.AppendBatcher``), made on first
        #: use by :func:`app.db.hot.append_fast` (Postgres only).
        self.appends: Any = None
        #: Users of the hot pool holding or waiting for a connection, and how many of them
        #: found every connection taken (metrics).
        self.raw_holders = 0
        self.raw_waits = 0

    def pool_in_use(self) -> dict[str, int]:
        """Connections in use now: ``{"sqlalchemy": n, "asyncpg": n}`` (the hot pool only on
        Postgres once used).
        """
        pool: Any = self.engine.pool
        used = {"sqlalchemy": int(pool.checkedout()) if hasattr(pool, "checkedout") else 0}
        if self._raw_pool is not None:
            used["asyncpg"] = min(self.raw_holders, self._pool_size)
        return used

    @contextlib.asynccontextmanager
    async def raw(self) -> AsyncIterator[Any]:
        """A plain ``asyncpg`` connection from a pool of its own (Postgres only), for the hot
        path: no SQLAlchemy layers, no reset query when a connection goes back (a transaction
        left open is still rolled back).
        """
        if self._raw_pool is None:
            async with self._raw_lock:
                if self._raw_pool is None:
                    import asyncpg

                    dsn = self.engine.url.set(drivername="postgresql").render_as_string(
                        hide_password=False
                    )
                    self._raw_pool = await asyncpg.create_pool(
                        dsn, min_size=0, max_size=self._pool_size, **self.raw_options
                    )
        if self.raw_holders >= self._pool_size:
            self.raw_waits += 1
        self.raw_holders += 1
        try:
            async with self._raw_pool.acquire() as conn:
                try:
                    yield conn
                except BaseException as exc:
                    # A connection cut mid-operation (the database restarting) or abandoned by
                    # a cancellation must not go back to the pool in that state: the next user
                    # would get "another operation is in progress". Drop it; the pool makes a
                    # new one.
                    if isinstance(exc, asyncio.CancelledError):
                        conn.terminate()
                    elif is_database_unavailable(exc):
                        # The server went away (a restart): every idle connection of the pool
                        # is as dead as this one. Drop them all, so the next use connects
                        # afresh.
                        conn.terminate()
                        await self._raw_pool.expire_connections()
                    raise
        finally:
            self.raw_holders -= 1

    @contextlib.asynccontextmanager
    async def writing(self) -> AsyncIterator[None]:
        """Hold the process's SQLite writer lock (nothing on Postgres)."""
        if self._write_lock is None:
            yield
            return
        async with self._write_lock:
            yield

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[AsyncConnection]:
        """A connection in a write transaction: committed on success, rolled back on error."""
        async with self.writing(), self.engine.begin() as conn:
            yield conn

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[AsyncConnection]:
        """A connection for reads (its implicit transaction is rolled back at the end)."""
        async with self.engine.connect() as conn:
            yield conn

    async def ping(self) -> bool:
        """True when the database answers ``SELECT 1``."""
        try:
            async with self.engine.connect() as conn:
                await conn.execute(text("SELECT 1"))
            return True
        except Exception:
            return False

    async def dispose(self) -> None:
        """Close every pooled connection (after the group commit's statements in flight)."""
        if self.appends is not None:
            await self.appends.close()
        if self._raw_pool is not None:
            pool, self._raw_pool = self._raw_pool, None
            await pool.close()
        await self.engine.dispose()


async def _no_reset(_conn: Any) -> None:
    """The raw pool's reset: nothing beyond asyncpg's rollback of an open transaction (the
    hot path sets no session state), saving a round trip per checkout.
    """
