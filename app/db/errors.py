"""Which errors mean "the database cannot be reached right now" (a restart, a failover, a
network cut) rather than a bug: callers answer those with ``503 unavailable`` / an
``unavailable`` frame and a time to retry, and log one line instead of a traceback.
"""

from __future__ import annotations

import logging
import sys

from sqlalchemy import exc as sa_exc

try:  # asyncpg is there wherever Postgres is used
    import asyncpg.exceptions as pg_exc

    _ASYNCPG: tuple[type[BaseException], ...] = (
        pg_exc.PostgresConnectionError,  # the connection is gone or could not be made
        pg_exc.OperatorInterventionError,  # shutting down, starting up (57P01, 57P03)
        pg_exc.InterfaceError,  # the connection was closed under us
        pg_exc.InternalClientError,  # a connection left mid-operation by a cut
    )
except ImportError:  # pragma: no cover - SQLite-only installs
    _ASYNCPG = ()

#: Seconds a client is told to wait before trying again.
RETRY_AFTER = 1.0


def is_database_unavailable(exc: BaseException) -> bool:
    """True when ``exc`` (or what it wraps) says the database is out of reach for now:
    SQLAlchemy's ``OperationalError`` / ``InterfaceError`` or an invalidated connection,
    asyncpg's connection and operator-intervention errors, a refused or reset connection.
    """
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, sa_exc.DBAPIError) and current.connection_invalidated:
            return True
        if isinstance(current, (sa_exc.OperationalError, sa_exc.InterfaceError)):
            return True
        if isinstance(current, (*_ASYNCPG, ConnectionError)):
            return True
        orig = getattr(current, "orig", None)
        current = orig if isinstance(orig, BaseException) else current.__cause__
    return False


def log_failure(logger: logging.Logger, what: str) -> None:
    """Log the exception being handled: one warning line when the database is out of reach for
    now (a restart: expected, and retried by the caller's loop), else the whole traceback.
    """
    exc = sys.exc_info()[1]
    if exc is not None and is_database_unavailable(exc):
        logger.warning("%s: the database is unavailable (%s: %s)", what, type(exc).__name__, exc)
    else:
        logger.exception(what)
