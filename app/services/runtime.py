"""Everything one app instance holds: settings, database, broker, hubs, caches, limits, metrics.

Built by the app's lifespan (:func:`app.api.app.create_app`) and handed to every service call.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Coroutine

from app.bots.pool import BotPool
from app.db.errors import is_database_unavailable
from app.db.session import Database
from app.realtime.backends import create_broker
from app.realtime.broker import Broker
from app.realtime.hubs import HubManager
from app.realtime.watches import Watches
from app.services.cache import StateCache
from app.services.identity import Revocations, Tokens
from app.services.instance_metrics import watch_parts
from app.services.limits.accounts import AccountLimits
from app.services.limits.rates import FrameBudget, RateLimiter, SocketCaps
from app.services.metrics import Metrics
from app.services.offload import Offload
from app.services.push_sender import PushSender
from app.services.sockets.held import OpenSockets
from app.services.sockets.spectators import SpectatorCounts
from app.settings import Settings

log = logging.getLogger(__name__)


#: The action limit is counted in memory and told to Redis this many hits at a time: one Redis
#: call per move would cost more than the move's database statement, and one per 5 moves was
#: still ~3 % of the server's CPU per move (redis-py and ``limits`` cost ~100 µs a call). The
#: bucket here caps one instance at the burst (40) whatever Redis says; across instances a
#: player may go at most 19 hits per instance over the shared count.
ACTION_LIMIT_SHARE_EVERY = 20


class Hook:
    """An ordered list of subscribers to one kind of news inside this instance (lila's Bus,
    in process): :meth:`announce` calls each subscriber in the order they subscribed, with the
    news as arguments, synchronously — a subscriber that needs to wait spawns a task
    (:meth:`Runtime.spawn`). An error of a subscriber propagates to the announcer; the later
    subscribers do not run then.

    Each call is timed (two ``time.perf_counter()`` reads): :meth:`tallies` gives every
    subscriber's seconds and calls so far, which the metrics read when scraped
    (``carcassonne_hook_subscriber_seconds_total``: the per-feature cost of a move).
    """

    def __init__(self, name: str) -> None:
        self.name = name
        self._subscribers: list[Callable[..., None]] = []
        #: Per subscriber, in subscription order: seconds spent in its calls, and the calls.
        self._seconds: list[float] = []
        self._calls: list[int] = []

    def subscribe(self, subscriber: Callable[..., None]) -> None:
        """Add ``subscriber`` at the end (once: subscribing it again changes nothing)."""
        if subscriber not in self._subscribers:
            self._subscribers.append(subscriber)
            self._seconds.append(0.0)
            self._calls.append(0)

    def unsubscribe(self, subscriber: Callable[..., None]) -> None:
        """Remove ``subscriber`` (and its tallies); nothing happens when it is not subscribed."""
        if subscriber in self._subscribers:
            i = self._subscribers.index(subscriber)
            del self._subscribers[i], self._seconds[i], self._calls[i]

    def announce(self, *news: object) -> None:
        """Call every subscriber with ``news``, in order, adding up the time each takes."""
        seconds, calls, clock = self._seconds, self._calls, time.perf_counter
        for i, subscriber in enumerate(self._subscribers):
            start = clock()
            try:
                subscriber(*news)
            finally:
                seconds[i] += clock() - start
                calls[i] += 1

    def tallies(self) -> list[tuple[str, float, int]]:
        """``(subscriber, seconds, calls)`` per subscriber in order: its name as
        ``module.function`` (last part of the module), the seconds (wall clock) spent in its
        calls since it subscribed, and how many calls.
        """
        return [
            (_name(s), seconds, calls)
            for s, seconds, calls in zip(self._subscribers, self._seconds, self._calls, strict=True)
        ]


def _name(subscriber: Callable[..., None]) -> str:
    """``delivery.on_move_committed``: the last part of the module and the function's name."""
    module = str(getattr(subscriber, "__module__", "")).rpartition(".")[2]
    return f"{module}.{getattr(subscriber, '__qualname__', type(subscriber).__name__)}"


class Runtime:
    """The live parts of one instance. ``start()`` connects, ``close()`` releases."""

    def __init__(self, settings: Settings, broker: Broker | None = None) -> None:
        self.settings = settings
        self.db = Database(settings.database_url, settings.db_pool_size, settings.db_max_overflow)
        #: Where the reads that may lag go (history, profiles, statistics, the leaderboard,
        #: record exports: docs/OPERATIONS.md): ``DATABASE_REPLICA_URL``, else the primary.
        self.replica = (
            Database(settings.database_replica_url, settings.db_pool_size, settings.db_max_overflow)
            if settings.database_replica_url
            else self.db
        )
        self.broker = broker or create_broker(settings.redis_url, settings.channel_prefix)
        self.hubs = HubManager(self.broker)
        #: Shared views (one read per change for every socket watching: tournament pages).
        self.watches = Watches(self.broker)
        self.cache = StateCache(settings.state_cache_size)
        #: ``(match id, version)`` of batches the broker took, to mark published in bulk (the
        #: log is the outbox: see :mod:`app.services.match.delivery.delivery`).
        self.published: list[tuple[str, int]] = []
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
        self.revocations = Revocations(self.db, self.tokens)
        self.metrics = Metrics()
        self.bots = BotPool(settings.bot_workers, settings.bot_think)
        self._set_up_limits(settings)
        #: Open bot event streams per bot account on this instance (docs/BOT_API.md).
        self.bot_streams: Counter[str] = Counter()
        #: Open sockets by player, closed when their token is revoked.
        self.open_sockets = OpenSockets()
        #: Every admitted socket's ``close(code, reason)`` while it is open
        #: (app/api/socket_admission.py; True: closed now): the drain closes with 1012 those
        #: no hub closed.
        self.admitted: set[Callable[[int, str], Awaitable[bool]]] = set()
        self.offload = Offload(
            settings.hash_threads, settings.hash_queue, settings.hash_queue_per_address
        )
        #: Web Push: keys and the HTTP session for turn alerts (app/services/push.py).
        self.push = PushSender(settings)
        self.socket_caps = SocketCaps(
            settings.ws_sockets_per_token, settings.ws_sockets_per_address
        )
        self.spectators = SpectatorCounts(
            settings.redis_url,
            settings.channel_prefix,
            self.broker.instance_id,
            self._local_spectators,
        )
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

    def _set_up_limits(self, settings: Settings) -> None:
        """Set up the request rate limiters and the per-account limits, in this order."""
        redis, prefix = settings.redis_url, settings.channel_prefix
        self.action_limiter = RateLimiter(
            settings.action_rate,
            settings.action_burst,
            "actions",
            redis_url=redis,
            prefix=prefix,
            share_every=ACTION_LIMIT_SHARE_EVERY,
        )
        self.lobby_limiter = RateLimiter(
            settings.lobby_rate_per_minute / 60.0,
            settings.lobby_burst,
            "new lobbies",
            redis_url=redis,
            prefix=prefix,
        )
        self.seek_limiter = RateLimiter(
            settings.seek_rate_per_minute / 60.0,
            settings.seek_burst,
            "seeks",
            redis_url=redis,
            prefix=prefix,
        )
        self.seek_poll_limiter = RateLimiter(
            settings.seek_poll_rate,
            settings.seek_poll_burst,
            "seek polls",
            redis_url=redis,
            prefix=prefix,
        )
        self.player_limiter = RateLimiter(
            settings.player_rate_per_minute / 60.0,
            settings.player_burst,
            "new players",
            redis_url=redis,
            prefix=prefix,
        )
        self.account_limits = AccountLimits(
            redis,
            prefix,
            password_attempts=settings.password_attempts,
            per_address=settings.password_attempts_per_address,
            registrations=settings.registrations_per_address,
            record_checks=settings.record_checks_per_address,
            exports=settings.export_requests_per_player,
            exports_per_address=settings.export_requests_per_address,
            push_tests=settings.push_tests_per_player,
        )

    def _watch_parts(self) -> None:
        """Hand the metrics the delivery lag and the parts' scrape-time tallies."""
        self.hubs.on_batch_lag = self.metrics.delivery_lag.observe
        watch_parts(
            self.metrics,
            limiters=self._limiters,
            accounts=self.account_limits,
            caps=self.socket_caps,
            bots=self.bots,
            db=self.db,
            hooks=[self.move_committed, self.match_settled],
        )

    def _local_spectators(self, match_id: str) -> int:
        hub = self.hubs.get(self.channel("match", match_id))
        return hub.local_presence()[1] if hub is not None else 0

    def _limiters(self) -> list[RateLimiter]:
        chat: RateLimiter | None = getattr(self, "_chat_limiter", None)
        every = [
            self.action_limiter,
            self.lobby_limiter,
            self.seek_limiter,
            self.seek_poll_limiter,
            self.player_limiter,
        ]
        return every + ([chat] if chat is not None else [])

    def frame_budget(self) -> FrameBudget:
        """A new websocket's frame allowance (settings ``WS_FRAME_RATE``/``WS_FRAME_BURST``)."""
        return FrameBudget(self.settings.ws_frame_rate, self.settings.ws_frame_burst)

    def channel(self, kind: str, key: str) -> str:
        """The broker channel of a match (``kind="match"``) or lobby."""
        return f"{self.settings.channel_prefix}:{kind}:{key}"

    async def start(self, loops: list[Callable[[Runtime], Coroutine[object, None, None]]]) -> None:
        """Connect the broker, start the hub heartbeat and the given background loops."""
        await self.broker.start()
        await self.hubs.start()
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
        """Stop background work, close hubs, broker and database."""
        await self.stop_loops()
        for task in list(self._tasks):
            task.cancel()
        for task in list(self._tasks):
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
        await self.metrics.stop_sampling()
        await self.hubs.close()
        await self.watches.close()
        await self.spectators.close()
        await self.push.close()
        for limiter in self._limiters():
            await limiter.aclose()
        await self.account_limits.aclose()
        self.offload.close()
        await self.broker.close()
        await self.db.dispose()
        if self.replica is not self.db:
            await self.replica.dispose()
        self.bots.close()
