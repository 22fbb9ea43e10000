"""The series of one instance read when scraped: limits' refusals, bot pool, database pools
and statements, sockets closed, the time each subscriber of a hook takes.

:func:`watch_parts` hands :class:`app.services.metrics.Metrics` functions reading the live
parts' own tallies (plain integers they keep), so the hot path pays nothing for them. It
imports no runtime: the runtime passes its parts in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Protocol

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric
from sqlalchemy import event

from app.bots.pool import BotPool
from app.db.session import Database
from app.realtime.connection import Connection
from app.services.limits.accounts import AccountLimits
from app.services.limits.rates import FrameBudget, RateLimiter, SocketCaps
from app.services.metrics import Metrics, Source


class Timed(Protocol):
    """A hook whose subscribers are timed (:class:`app.services.runtime.Hook`)."""

    name: str

    def tallies(self) -> list[tuple[str, float, int]]:
        """``(subscriber, seconds, calls)`` per subscriber."""
        ...


def watch_parts(
    metrics: Metrics,
    *,
    limiters: Callable[[], Iterable[RateLimiter]],
    accounts: AccountLimits,
    caps: SocketCaps,
    bots: BotPool,
    db: Database,
    hooks: Iterable[Timed] = (),
) -> None:
    """Register the scrape-time series of these parts with ``metrics``.

    ``limiters()``: the instance's request limiters now (the chat limiter appears on first
    use). Series: ``carcassonne_rate_limit_refusals_total{limit}``,
    ``carcassonne_bot_decisions_pending``, ``carcassonne_bot_queue_waiting``,
    ``carcassonne_db_connections_in_use{pool}``, ``carcassonne_db_pool_waits_total``,
    ``carcassonne_db_statements_total{pool}`` (:func:`count_statements`),
    ``carcassonne_websocket_closes_total{code,by}``,
    ``carcassonne_hook_subscriber_seconds_total{hook,subscriber}`` and
    ``carcassonne_hook_subscriber_calls_total{hook,subscriber}`` (each subscriber of
    ``hooks``: seconds spent in it, calls).
    """
    statements = count_statements(db)
    bots.on_think = metrics.bot_think.observe
    for source in (
        _refusals(limiters, accounts, caps),
        _bot_pool(bots),
        _database(db, statements),
        _closes,
        _subscribers(list(hooks)),
    ):
        metrics.add_source(source)


def _refusals(
    limiters: Callable[[], Iterable[RateLimiter]], accounts: AccountLimits, caps: SocketCaps
) -> Source:
    """The source of ``carcassonne_rate_limit_refusals_total{limit}``."""

    def refusals() -> Iterable[Metric]:
        family = CounterMetricFamily(
            "carcassonne_rate_limit_refusals",
            "Requests, frames and sockets refused by a limit (this instance), by limit",
            labels=["limit"],
        )
        for limiter in limiters():
            family.add_metric([limiter.what], limiter.refusals)
        for what, count in sorted(accounts.refusals.items()):
            family.add_metric([what], count)
        family.add_metric(["sockets per player or address"], caps.refusals)
        family.add_metric(["socket frames"], FrameBudget.refusals)
        yield family

    return refusals


def _bot_pool(bots: BotPool) -> Source:
    """The source of the bot pool's gauges (decisions pending, waiting for a worker)."""

    def bot_pool() -> Iterable[Metric]:
        yield GaugeMetricFamily(
            "carcassonne_bot_decisions_pending",
            "Computer-player decisions and offloaded replays waiting for a worker or running",
            value=bots.pending,
        )
        yield GaugeMetricFamily(
            "carcassonne_bot_queue_waiting",
            "Of those, waiting for a free worker process",
            value=max(0, bots.pending - bots.workers),
        )

    return bot_pool


def _database(db: Database, statements: dict[str, int]) -> Source:
    """The source of the database series: connections in use, pool waits, statements sent."""

    def database() -> Iterable[Metric]:
        used = GaugeMetricFamily(
            "carcassonne_db_connections_in_use",
            "Database connections checked out, by pool (asyncpg: the write path's)",
            labels=["pool"],
        )
        for pool, count in db.pool_in_use().items():
            used.add_metric([pool], count)
        yield used
        yield CounterMetricFamily(
            "carcassonne_db_pool_waits",
            "Checkouts of the write path's pool that found every connection taken",
            value=db.raw_waits,
        )
        sent = CounterMetricFamily(
            "carcassonne_db_statements",
            "SQL statements sent to the primary database, by pool (transaction control excluded)",
            labels=["pool"],
        )
        for pool, count in statements.items():
            sent.add_metric([pool], count)
        yield sent

    return database


def _closes() -> Iterable[Metric]:
    """Yield ``carcassonne_websocket_closes_total{code,by}`` (this process's closes)."""
    family = CounterMetricFamily(
        "carcassonne_websocket_closes",
        "Websockets closed in this process, by close code and by whom (server: closed "
        "here; client: the receive loop saw the client's close, or its answer to ours)",
        labels=["code", "by"],
    )
    for (code, by), count in sorted(Connection.closes.items()):
        family.add_metric([str(code), by], count)
    yield family


def _subscribers(hooks: list[Timed]) -> Source:
    """The source of the seconds and calls of each subscriber of ``hooks``."""

    def subscribers() -> Iterable[Metric]:
        seconds = CounterMetricFamily(
            "carcassonne_hook_subscriber_seconds",
            "Seconds spent in each subscriber of an in-process hook (move committed: what "
            "each feature costs a move), by hook and subscriber",
            labels=["hook", "subscriber"],
        )
        calls = CounterMetricFamily(
            "carcassonne_hook_subscriber_calls",
            "Calls of each subscriber of an in-process hook, by hook and subscriber",
            labels=["hook", "subscriber"],
        )
        for hook in hooks:
            for name, spent, count in hook.tallies():
                seconds.add_metric([hook.name, name], spent)
                calls.add_metric([hook.name, name], count)
        yield seconds
        yield calls

    return subscribers


def count_statements(db: Database) -> dict[str, int]:
    """Count the SQL statements ``db`` sends from now on: ``{"sqlalchemy": n, "asyncpg": n}``,
    the dict kept up to date (read it when scraped).

    SQLAlchemy's through its ``before_cursor_execute`` event; the hot pool's (Postgres) through
    its connection class (:func:`_counting_connection`; set before the pool's first use).
    Transaction control (BEGIN, COMMIT, ROLLBACK, savepoints) is not counted: Postgres counts
    the commits. Cost: an integer increment and one Python call per statement.
    """
    counts = {"sqlalchemy": 0}

    def executed(*_: object) -> None:
        counts["sqlalchemy"] += 1

    event.listen(db.engine.sync_engine, "before_cursor_execute", executed)
    if db.is_postgres:
        counts["asyncpg"] = 0
        db.raw_options["connection_class"] = _counting_connection(counts)
    return counts


#: What asyncpg's own transactions send with ``execute`` and no arguments.
_TRANSACTION_CONTROL = ("BEGIN", "COMMIT", "ROLLBACK", "SAVEPOINT", "RELEASE")


def _counting_connection(counts: dict[str, int]) -> type:
    """An ``asyncpg.Connection`` counting in ``counts["asyncpg"]`` the statements sent through
    its query methods (``execute``, ``executemany``, ``fetch``, ``fetchval``, ``fetchrow``,
    ``fetchmany``; prepared statements and cursors, unused by the app, are not counted).
    """
    import asyncpg  # Postgres only (the SQLAlchemy dialect has imported it already)

    class CountingConnection(asyncpg.Connection):  # type: ignore[misc]
        async def execute(self, query: str, *args: object, **options: object) -> object:
            if args or not query.startswith(_TRANSACTION_CONTROL):
                counts["asyncpg"] += 1
            return await super().execute(query, *args, **options)

        async def executemany(self, query: str, *args: object, **options: object) -> object:
            counts["asyncpg"] += 1
            return await super().executemany(query, *args, **options)

        async def fetch(self, query: str, *args: object, **options: object) -> object:
            counts["asyncpg"] += 1
            return await super().fetch(query, *args, **options)

        async def fetchval(self, query: str, *args: object, **options: object) -> object:
            counts["asyncpg"] += 1
            return await super().fetchval(query, *args, **options)

        async def fetchrow(self, query: str, *args: object, **options: object) -> object:
            counts["asyncpg"] += 1
            return await super().fetchrow(query, *args, **options)

        async def fetchmany(self, query: str, *args: object, **options: object) -> object:
            counts["asyncpg"] += 1
            return await super().fetchmany(query, *args, **options)

    return CountingConnection
