"""Everything one app instance holds: settings, the typed parts (storage, fan-out, limits,
push, workers), the in-process hooks, tokens, metrics and the drain's state.

Built by the app's lifespan (:func:`app.api.app.create_app`) and handed to every service call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable, Coroutine

from app.db.errors import is_database_unavailable
from app.realtime.backends import create_broker
from app.realtime.broker import Broker
from app.realtime.hubs import HubManager
from app.realtime.watches import Watches
from app.services.identity import Revocations, Tokens
from app.services.instance_metrics import watch_parts
from app.services.metrics import Metrics
from app.services.push_sender import PushSender
from app.services.runtime.hook import Hook
from app.services.runtime.parts import FanOut, Limits, Storage, Workers
from app.services.sockets.spectators import SpectatorCounts
from app.settings import Settings

__all__ = ["FanOut", "Hook", "Limits", "Runtime", "Storage", "Workers"]

log = logging.getLogger(__name__)


class Runtime:
    """The live parts of one instance. ``start()`` connects, ``close()`` releases.

    ``storage`` (database, replica, live states), ``fanout`` (broker, hubs, shared views,
    spectator counts, sockets held), ``limits`` (rate limiters, account limits, socket caps),
    ``push`` (Web Push), ``workers`` (bot pool, hashing threads): :mod:`.parts`.
    """

    def __init__(self, settings: Settings, broker: Broker | None = None) -> None:
        self.settings = settings
        self.storage = Storage.of(settings)
        broker = broker or create_broker(settings.redis_url, settings.channel_prefix)
        self.fanout = FanOut(
            prefix=settings.channel_prefix,
            broker=broker,
            hubs=HubManager(broker),
            watches=Watches(broker),
            spectators=SpectatorCounts(
                settings.redis_url,
                settings.channel_prefix,
                broker.instance_id,
                self._local_spectators,
            ),
        )
        self.limits = Limits.of(settings)
        #: Web Push: keys and the HTTP session for turn alerts (app/services/push.py).
        self.push = PushSender(settings)
        self.workers = Workers.of(settings)
        #: Announced after every committed move with ``(runtime, live, Committed)`` (the match's
        #: cached state and :class:`app.services.match.committed.Committed`), under the match's
        #: lock; subscribed at startup by :func:`app.services.match.play.subscribers.subscribe`.
        self.move_committed = Hook("move committed")
        #: Announced with ``(runtime, match id)`` once a finished match's history and ratings
        #: are settled and committed (:func:`app.services.records.history.settle`, on the
        #: instance that settled it): what series and tournaments count a game on, instead of
        #: polling for the result. Each feature subscribes its own listener at startup.
        self.match_settled = Hook("match settled")
        self.tokens = Tokens(
            settings.secret_key, settings.token_lifetime, settings.token_renew_after
        )
        self.revocations = Revocations(self.storage.db, self.tokens)
        self.metrics = Metrics()
        self._tasks: set[asyncio.Task[object]] = set()
        self._loops: list[asyncio.Task[None]] = []
        self._watch_parts()
        #: True once a drain began (SIGTERM): no new request, socket or frame is taken
        #: (app/services/drain.py).
        self.draining = False
        #: When the drain began (``time.monotonic()``); set with ``draining``.
        self.drain_started = 0.0
        #: Socket frames being handled that write (actions, chat, clock requests).
        self.in_flight = 0

    def _watch_parts(self) -> None:
        """Hand the metrics the delivery lag and the parts' scrape-time tallies."""
        self.fanout.hubs.on_batch_lag = self.metrics.delivery_lag.observe
        watch_parts(
            self.metrics,
            limiters=self.limits.limiters,
            accounts=self.limits.accounts,
            caps=self.limits.sockets,
            bots=self.workers.bots,
            db=self.storage.db,
            hooks=[self.move_committed, self.match_settled],
        )

    def _local_spectators(self, match_id: str) -> int:
        hub = self.fanout.hubs.get(self.fanout.channel("match", match_id))
        return hub.local_presence()[1] if hub is not None else 0

    async def start(self, loops: list[Callable[[Runtime], Coroutine[object, None, None]]]) -> None:
        """Connect the broker, start the hub heartbeat and the given background loops."""
        await self.fanout.broker.start()
        await self.fanout.hubs.start()
        self.metrics.start_sampling()
        for loop in loops:
            self._loops.append(asyncio.create_task(loop(self), name=loop.__name__))

    def spawn(self, coro: Coroutine[object, None, object]) -> None:
        """Run ``coro`` in the background (kept referenced; errors are logged: one warning line
        when the database is out of reach for now, the traceback otherwise).
        """
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)

        def _done(t: asyncio.Task[object]) -> None:
            self._tasks.discard(t)
            exc = None if t.cancelled() else t.exception()
            if exc is None:
                return
            if is_database_unavailable(exc):  # a restart or failover: one line, no traceback
                log.warning("background task failed: the database is unavailable (%r)", exc)
            else:
                log.error("background task failed", exc_info=exc)

        task.add_done_callback(_done)

    async def stop_loops(self) -> None:
        """Cancel the background loops (bot sweep, heartbeats, delivery) and wait for them."""
        loops, self._loops = self._loops, []
        for task in loops:
            task.cancel()
        for task in loops:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task

    async def settle(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the work started with :meth:`spawn` (publishes,
        bot moves, history) to end, including work that work spawns.
        """
        deadline = asyncio.get_running_loop().time() + timeout
        while self._tasks:
            left = deadline - asyncio.get_running_loop().time()
            if left <= 0:
                break
            await asyncio.wait(set(self._tasks), timeout=left)

    async def close(self) -> None:
        """Stop background work, close the fan-out, the limits, push, storage and workers."""
        await self.stop_loops()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.metrics.stop_sampling()
        await self.fanout.close()
        await self.push.close()
        await self.limits.aclose()
        await self.storage.dispose()
        self.workers.close()
