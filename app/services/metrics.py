"""Prometheus metrics of this instance (served at ``/metrics``, or on ``METRICS_PORT``).

What an operator needs in an incident, and where each series comes from (docs/OPERATIONS.md
lists them with what to do when they move):

- the write path: actions applied and refused, their latency, publish failures;
- delivery: ``carcassonne_delivery_lag_seconds`` (a batch's publish after its commit to its
  arrival here through the broker: the other instances' path; this instance's own sockets get
  it at commit), the outbox backlog and the age of its oldest unpublished batch (read from the
  database at scrape time), version-watch catch-ups and outbox-sweep announcements;
- limits: refusals by limit (read at scrape time from the limiters' own tallies);
- bots: decisions waiting for a worker, think time;
- the database pools: connections in use, checkouts that waited for the hot pool;
- the process: GC pauses by generation, event-loop lag, sockets closed by code.

The hot path only increments an integer or observes a histogram; everything that can be read
when scraped is read then (:meth:`Metrics.add_source`).
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import time
from collections.abc import Callable, Iterable

from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.core import Metric
from prometheus_client.registry import Collector

log = logging.getLogger(__name__)

#: Seconds between two event-loop lag samples.
LAG_EVERY = 0.25

_LATENCY = (0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)
_SLOW = (0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)

Source = Callable[[], Iterable[Metric]]


class _Sources(Collector):
    """Series computed at scrape time by the functions given to :meth:`Metrics.add_source`."""

    def __init__(self) -> None:
        self.sources: list[Source] = []

    def collect(self) -> Iterable[Metric]:
        for source in self.sources:
            try:
                yield from source()
            except Exception:  # one broken source must not hide the others
                log.exception("metrics source failed")


class Metrics:
    """One registry per app (tests build several apps in one process)."""

    def __init__(self) -> None:
        self.registry = CollectorRegistry()
        r = self.registry
        self.matches_live = Gauge(
            "carcassonne_matches_live", "Matches being played (all instances)", registry=r
        )
        self.websockets = Gauge(
            "carcassonne_websocket_connections",
            "Open websockets on this instance",
            ["kind"],
            registry=r,
        )
        self.actions = Counter(
            "carcassonne_actions_applied", "Actions applied by this instance", ["by"], registry=r
        )
        self.action_latency = Histogram(
            "carcassonne_action_latency_seconds",
            "submit_action: lock, check, apply, commit and local fan-out",
            buckets=_LATENCY,
            registry=r,
        )
        self.publish_failures = Counter(
            "carcassonne_broker_publish_failures", "Broker publishes that failed", registry=r
        )
        self.rejected = Counter(
            "carcassonne_actions_rejected", "Actions refused, by error code", ["code"], registry=r
        )
        self.delivery_lag = Histogram(
            "carcassonne_delivery_lag_seconds",
            "A batch's publish (right after its commit) to its arrival at this instance "
            "through the broker",
            buckets=_LATENCY,
            registry=r,
        )
        self.watch_catch_ups = Counter(
            "carcassonne_version_watch_catch_ups",
            "Hubs the version watch found behind the database (a broadcast lost or late)",
            registry=r,
        )
        self.sweep_announced = Counter(
            "carcassonne_outbox_sweep_announced",
            "Matches whose unpublished batches the outbox sweep announced",
            registry=r,
        )
        self.outbox_backlog = Gauge(
            "carcassonne_outbox_unpublished_batches",
            "Committed batches not yet marked published (all instances; read when scraped)",
            registry=r,
        )
        self.outbox_oldest = Gauge(
            "carcassonne_outbox_oldest_unpublished_seconds",
            "Age of the oldest unpublished batch (0: none; read when scraped)",
            registry=r,
        )
        self.bot_think = Histogram(
            "carcassonne_bot_think_seconds",
            "A computer player's decision in a worker process (waiting excluded)",
            buckets=_SLOW,
            registry=r,
        )
        self.gc_pause = Histogram(
            "carcassonne_gc_pause_seconds",
            "Garbage collector pauses, by generation",
            ["generation"],
            buckets=_LATENCY,
            registry=r,
        )
        self.loop_lag = Histogram(
            "carcassonne_event_loop_lag_seconds",
            f"How late a {LAG_EVERY} s sleep of the event loop woke up",
            buckets=_LATENCY,
            registry=r,
        )
        self._sources = _Sources()
        r.register(self._sources)
        self._gc_started: float | None = None
        self._sampler: asyncio.Task[None] | None = None

    def add_source(self, source: Source) -> None:
        """Call ``source()`` at every scrape; it yields metric families (read-only, quick)."""
        self._sources.sources.append(source)

    # ------------------------------------------------------------------ process sampling

    def _on_gc(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._gc_started = time.perf_counter()
        elif self._gc_started is not None:
            self.gc_pause.labels(str(info.get("generation", "?"))).observe(
                time.perf_counter() - self._gc_started
            )
            self._gc_started = None

    async def _sample_loop_lag(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            before = loop.time()
            await asyncio.sleep(LAG_EVERY)
            self.loop_lag.observe(max(0.0, loop.time() - before - LAG_EVERY))

    def start_sampling(self) -> None:
        """Start timing GC pauses and the event loop's lag (call inside the running loop)."""
        if self._on_gc not in gc.callbacks:
            gc.callbacks.append(self._on_gc)
        if self._sampler is None:
            self._sampler = asyncio.get_running_loop().create_task(
                self._sample_loop_lag(), name="loop-lag"
            )

    async def stop_sampling(self) -> None:
        """Stop what :meth:`start_sampling` started."""
        with contextlib.suppress(ValueError):
            gc.callbacks.remove(self._on_gc)
        if self._sampler is not None:
            self._sampler.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sampler
            self._sampler = None
