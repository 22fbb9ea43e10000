"""The series of one instance read when scraped: limits' refusals, bot pool, database pools,
sockets closed.

:func:`watch_parts` hands :class:`app.services.metrics.Metrics` functions reading the live
parts' own tallies (plain integers they keep), so the hot path pays nothing for them. It
imports no runtime: the runtime passes its parts in.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, Metric

from app.bots.pool import BotPool
from app.db.session import Database
from app.realtime.connection import Connection
from app.services.limits.accounts import AccountLimits
from app.services.limits.rates import FrameBudget, RateLimiter, SocketCaps
from app.services.metrics import Metrics


def watch_parts(
    metrics: Metrics,
    *,
    limiters: Callable[[], Iterable[RateLimiter]],
    accounts: AccountLimits,
    caps: SocketCaps,
    bots: BotPool,
    db: Database,
) -> None:
    """Register the scrape-time series of these parts with ``metrics``.

    ``limiters()``: the instance's request limiters now (the chat limiter appears on first
    use). Series: ``carcassonne_rate_limit_refusals_total{limit}``,
    ``carcassonne_bot_decisions_pending``, ``carcassonne_bot_queue_waiting``,
    ``carcassonne_db_connections_in_use{pool}``, ``carcassonne_db_pool_waits_total``,
    ``carcassonne_websocket_closes_total{code,by}``.
    """
    bots.on_think = metrics.bot_think.observe

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

    def closes() -> Iterable[Metric]:
        family = CounterMetricFamily(
            "carcassonne_websocket_closes",
            "Websockets closed in this process, by close code and by whom (server: closed "
            "here; client: the receive loop saw the client's close, or its answer to ours)",
            labels=["code", "by"],
        )
        for (code, by), count in sorted(Connection.closes.items()):
            family.add_metric([str(code), by], count)
        yield family

    for source in (refusals, bot_pool, database, closes):
        metrics.add_source(source)
