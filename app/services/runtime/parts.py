"""The typed parts one instance's :class:`~app.services.runtime.Runtime` is made of: where state
lives (:class:`Storage`), how news reaches sockets and other instances (:class:`FanOut`), what
is rationed (:class:`Limits`) and who works off the event loop (:class:`Workers`). A function
that needs one part takes it, not the whole runtime, where it can.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field

from app.bots.pool import BotPool
from app.db.session import Database
from app.realtime.broker import Broker
from app.realtime.hubs import HubManager
from app.realtime.watches import Watches
from app.services.cache import StateCache
from app.services.limits.accounts import AccountLimits
from app.services.limits.rates import FrameBudget, RateLimiter, SocketCaps
from app.services.offload import Offload
from app.services.sockets.held import OpenSockets
from app.services.sockets.spectators import SpectatorCounts
from app.settings import Settings

#: The action limit is counted in memory and told to Redis this many hits at a time: one Redis
#: call per move would cost more than the move's database statement, and one per 5 moves was
#: still ~3 % of the server's CPU per move (redis-py and ``limits`` cost ~100 µs a call). The
#: bucket here caps one instance at the burst (40) whatever Redis says; across instances a
#: player may go at most 19 hits per instance over the shared count.
ACTION_LIMIT_SHARE_EVERY = 20


@dataclass(eq=False)
class Storage:
    """Where the state lives: the database, its replica and this instance's live states.

    ``db``: the primary (every write and every read that must be current); ``replica``: where
    the reads that may lag go (history, profiles, statistics, the leaderboard, record exports:
    docs/OPERATIONS.md) — ``DATABASE_REPLICA_URL``, else the primary itself; ``cache``: the
    engine states of live matches, trusted only at the locked row's version.
    """

    db: Database
    replica: Database
    cache: StateCache

    @classmethod
    def of(cls, settings: Settings) -> Storage:
        """The storage ``settings`` describe (pools: ``DB_POOL_SIZE``, ``DB_MAX_OVERFLOW``)."""
        db = Database(settings.database_url, settings.db_pool_size, settings.db_max_overflow)
        replica = (
            Database(settings.database_replica_url, settings.db_pool_size, settings.db_max_overflow)
            if settings.database_replica_url
            else db
        )
        return cls(db=db, replica=replica, cache=StateCache(settings.state_cache_size))

    async def dispose(self) -> None:
        """Close the database pools (the replica's too when it is another database)."""
        await self.db.dispose()
        if self.replica is not self.db:
            await self.replica.dispose()


@dataclass(eq=False)
class FanOut:
    """How news leaves a move: the broker between instances, the hubs of this instance's
    sockets, the shared views, the spectator counts, and the sockets held here.

    ``published``: ``(match id, version)`` of batches the broker took, to mark published in
    bulk (the log is the outbox: :mod:`app.services.match.delivery.delivery`);
    ``open_sockets``: open sockets by player, closed when their token is revoked;
    ``admitted``: every admitted socket's ``close(code, reason)`` while it is open
    (app/api/socket_admission.py; True: closed now) — the drain closes with 1012 those no hub
    closed; ``bot_streams``: open bot event streams per bot account (docs/BOT_API.md).
    """

    prefix: str
    broker: Broker
    hubs: HubManager
    watches: Watches
    spectators: SpectatorCounts
    published: list[tuple[str, int]] = field(default_factory=list)
    open_sockets: OpenSockets = field(default_factory=OpenSockets)
    admitted: set[Callable[[int, str], Awaitable[bool]]] = field(default_factory=set)
    bot_streams: Counter[str] = field(default_factory=Counter)

    def channel(self, kind: str, key: str) -> str:
        """The broker channel of a match (``kind="match"``) or lobby: ``prefix:kind:key``."""
        return f"{self.prefix}:{kind}:{key}"

    async def close(self) -> None:
        """Close the hubs, the shared views, the spectator counts and the broker, in order."""
        await self.hubs.close()
        await self.watches.close()
        await self.spectators.close()
        await self.broker.close()


@dataclass(eq=False)
class Limits:
    """What is rationed: the request rate limiters (token buckets, shared through Redis when
    set), the per-account limits (passwords, registrations, exports, push tests), the sockets
    per token and address, and each socket's frame allowance.

    ``chat`` appears on the first chat message (:mod:`app.services.community.chat` sets it).
    """

    settings: Settings
    actions: RateLimiter
    lobbies: RateLimiter
    seeks: RateLimiter
    seek_polls: RateLimiter
    players: RateLimiter
    accounts: AccountLimits
    sockets: SocketCaps
    chat: RateLimiter | None = None

    @classmethod
    def of(cls, settings: Settings) -> Limits:
        """The limits ``settings`` set (rates per second or per minute, bursts, Redis URL)."""
        redis, prefix = settings.redis_url, settings.channel_prefix

        def limiter(rate: float, burst: int, what: str, every: int = 1) -> RateLimiter:
            return RateLimiter(rate, burst, what, redis_url=redis, prefix=prefix, share_every=every)

        return cls(
            settings=settings,
            actions=limiter(
                settings.action_rate, settings.action_burst, "actions", ACTION_LIMIT_SHARE_EVERY
            ),
            lobbies=limiter(
                settings.lobby_rate_per_minute / 60.0, settings.lobby_burst, "new lobbies"
            ),
            seeks=limiter(settings.seek_rate_per_minute / 60.0, settings.seek_burst, "seeks"),
            seek_polls=limiter(settings.seek_poll_rate, settings.seek_poll_burst, "seek polls"),
            players=limiter(
                settings.player_rate_per_minute / 60.0, settings.player_burst, "new players"
            ),
            accounts=AccountLimits(
                redis,
                prefix,
                password_attempts=settings.password_attempts,
                per_address=settings.password_attempts_per_address,
                registrations=settings.registrations_per_address,
                record_checks=settings.record_checks_per_address,
                exports=settings.export_requests_per_player,
                exports_per_address=settings.export_requests_per_address,
                push_tests=settings.push_tests_per_player,
            ),
            sockets=SocketCaps(settings.ws_sockets_per_token, settings.ws_sockets_per_address),
        )

    def limiters(self) -> list[RateLimiter]:
        """The request limiters now, in a fixed order (the chat's last, once it exists)."""
        every = [self.actions, self.lobbies, self.seeks, self.seek_polls, self.players]
        return every + ([self.chat] if self.chat is not None else [])

    def frame_budget(self) -> FrameBudget:
        """A new websocket's frame allowance (settings ``WS_FRAME_RATE``/``WS_FRAME_BURST``)."""
        return FrameBudget(self.settings.ws_frame_rate, self.settings.ws_frame_burst)

    async def aclose(self) -> None:
        """Close every limiter's Redis connection."""
        for limiter in self.limiters():
            await limiter.aclose()
        await self.accounts.aclose()


@dataclass(eq=False)
class Workers:
    """Who works off the event loop: the computer players' pool (``BOT_WORKERS`` processes)
    and the threads that hash passwords (``HASH_THREADS``, queues bounded per address).
    """

    bots: BotPool
    offload: Offload

    @classmethod
    def of(cls, settings: Settings) -> Workers:
        """The workers ``settings`` ask for."""
        return cls(
            bots=BotPool(settings.bot_workers, settings.bot_think),
            offload=Offload(
                settings.hash_threads, settings.hash_queue, settings.hash_queue_per_address
            ),
        )

    def close(self) -> None:
        """Stop the hashing threads and the bot pool."""
        self.offload.close()
        self.bots.close()
