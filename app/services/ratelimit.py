"""Rate limits and caps: shared request limits (``limits``), per-socket frame budgets, socket caps.

- :class:`RateLimiter`: "at most ``burst`` in any ``burst / rate`` seconds" per key (a token,
  a client address), counted with the ``limits`` library's sliding-window counter. With
  ``REDIS_URL`` the counts live in Redis, so N instances together allow the rate once, not N
  times; without it, in this process's memory. When Redis does not answer, the instance falls
  back to its own memory counts for a few seconds (a limit is never a reason to refuse play).
  With ``share_every`` N > 1 (the action limit: one check per move is too dear a round trip)
  every hit is counted here (a token bucket per key: ``burst`` at once, the window's rate) and
  Redis hears of them N at a time: exact on one instance, and across instances at most N - 1
  hits per key and instance over the shared limit.
- :class:`FrameBudget`: one websocket's frames (every type: action, sync, ping, malformed). A
  token bucket of two floats on the connection: the budget dies with its socket and costs no
  lookup, lock or round trip per frame.
- :class:`SocketCaps`: open websockets per player and per client address on this instance.
"""

from __future__ import annotations

import contextlib
import logging
import time
from collections import Counter
from collections.abc import Iterator

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, RedisStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter

from app.services.errors import RateLimited

log = logging.getLogger(__name__)

#: Seconds the shared limits stay on local memory after Redis failed to answer.
REDIS_RETRY_AFTER = 5.0


def window_item(rate: float, burst: int) -> RateLimitItem:
    """``burst`` hits per window of ``burst / rate`` seconds (at least one second)."""
    return RateLimitItemPerSecond(burst, max(1, round(burst / rate)))


class RateLimiter:
    """Hits per key in a sliding window, shared through Redis when ``redis_url`` is given.

    ``rate``: sustained hits per second; ``burst``: hits allowed at once (the window's size);
    ``what``: the plural noun of the error message; ``prefix``: Redis key prefix.
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        what: str = "requests",
        *,
        redis_url: str | None = None,
        prefix: str = "carcassonne",
        share_every: int = 1,
    ) -> None:
        self.item = window_item(rate, burst)
        self.what = what
        self.share_every = max(1, share_every)
        #: Hits per key counted here but not yet in Redis (``share_every`` > 1).
        self._unshared: dict[str, int] = {}
        #: Keys Redis refused, until when (monotonic seconds).
        self._refused: dict[str, float] = {}
        #: Token buckets per key: ``[tokens, monotonic stamp]`` (``share_every`` > 1).
        self._buckets: dict[str, list[float]] = {}
        self._memory = SlidingWindowCounterRateLimiter(MemoryStorage())
        self._shared: SlidingWindowCounterRateLimiter | None = None
        self._redis_down_until = 0.0
        if redis_url:
            storage: Storage = RedisStorage(
                "async+" + redis_url,
                implementation="redispy",
                key_prefix=f"{prefix}:limits",
                socket_connect_timeout=0.5,
                socket_timeout=0.5,
            )
            self._shared = SlidingWindowCounterRateLimiter(storage)

    async def _allowed(self, key: str) -> bool:
        if self.share_every > 1 and self._shared is not None:
            return await self._allowed_batched(key, self._shared)
        if self._shared is not None and time.monotonic() >= self._redis_down_until:
            try:
                return await self._shared.hit(self.item, self.what, key)
            except Exception as exc:  # noqa: BLE001 - any Redis trouble: count locally
                log.warning(
                    "rate limits on local memory for %ss: Redis: %s", REDIS_RETRY_AFTER, exc
                )
                self._redis_down_until = time.monotonic() + REDIS_RETRY_AFTER
        return await self._memory.hit(self.item, self.what, key)

    async def _allowed_batched(self, key: str, shared: SlidingWindowCounterRateLimiter) -> bool:
        now = time.monotonic()
        until = self._refused.get(key)
        if until is not None:
            if now < until:
                return False
            del self._refused[key]
        if not self._bucket_take(key, now):
            return False
        count = self._unshared.get(key, 0) + 1
        if count < self.share_every or now < self._redis_down_until:
            if len(self._unshared) > 100_000:  # a bound; forgetting a few counts is harmless
                self._unshared.clear()
            self._unshared[key] = count
            return True
        self._unshared.pop(key, None)
        try:
            ok = await shared.hit(self.item, self.what, key, cost=count)
        except Exception as exc:  # noqa: BLE001 - any Redis trouble: the memory count decides
            log.warning("rate limits on local memory for %ss: Redis: %s", REDIS_RETRY_AFTER, exc)
            self._redis_down_until = now + REDIS_RETRY_AFTER
            return True
        if not ok:
            self._refused[key] = now + max(1.0, 1.0 / max(self.item.amount, 1))
        return ok

    def _bucket_take(self, key: str, now: float) -> bool:
        """This instance's count for ``share_every`` > 1: a token bucket per key (``burst`` at
        once, refilled at the window's rate) — O(1) per hit, where the ``limits`` memory
        storage walks every key it holds on each hit (15 % of the server's CPU with 1,000
        players).
        """
        burst = float(self.item.amount)
        rate = burst / float(self.item.get_expiry())
        held = self._buckets.get(key)
        if held is None:
            if len(self._buckets) > 100_000:  # a bound: forgetting idle keys refills them
                self._buckets.clear()
            held = self._buckets[key] = [burst, now]
        tokens = min(burst, held[0] + (now - held[1]) * rate)
        held[1] = now
        if tokens < 1.0:
            held[0] = tokens
            return False
        held[0] = tokens - 1.0
        return True

    async def hit(self, key: str) -> None:
        """Count one hit for ``key``; raises :class:`RateLimited` when over the limit."""
        if not await self._allowed(key):
            raise RateLimited(f"too many {self.what}: slow down")

    async def aclose(self) -> None:
        """Close the Redis connections of the shared count (``limits`` keeps a client per
        storage and never closes it: an unclosed-connection warning at every shutdown).
        """
        storage = self._shared.storage if self._shared is not None else None
        client = getattr(getattr(storage, "bridge", None), "storage", None)
        self._shared = None  # counted in this instance's memory from now on
        if client is not None:
            with contextlib.suppress(Exception):
                await client.aclose()
                await client.connection_pool.disconnect()


class FrameBudget:
    """One socket's frame allowance: ``rate`` frames per second refill, ``burst`` at once.

    Frames over the budget are answered with ``rate_limited`` and cost the client a strike;
    :meth:`forgive` is False once it has more strikes than ``burst`` (then close it).
    """

    def __init__(self, rate: float, burst: int, now: float | None = None) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._tokens = float(burst)
        self._stamp = time.monotonic() if now is None else now
        self._strikes = 0.0

    def take(self, now: float | None = None) -> bool:
        """Spend one frame; False when the budget is empty."""
        now = time.monotonic() if now is None else now
        elapsed, self._stamp = max(0.0, now - self._stamp), now
        self._tokens = min(self.burst, self._tokens + elapsed * self.rate)
        self._strikes = max(0.0, self._strikes - elapsed * self.rate)
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def forgive(self) -> bool:
        """Count a strike for a frame over budget; False when the client keeps flooding."""
        self._strikes += 1.0
        return self._strikes <= self.burst


class SocketCaps:
    """Open websockets of this instance per player (token) and per client address."""

    def __init__(self, per_token: int, per_address: int) -> None:
        self.per_token = per_token
        self.per_address = per_address
        self._tokens: Counter[str] = Counter()
        self._addresses: Counter[str] = Counter()

    @contextlib.contextmanager
    def hold(self, player: str | None, address: str) -> Iterator[None]:
        """Count one socket of ``player`` (None: anonymous) from ``address`` while the block runs.

        Raises :class:`RateLimited` (before the block) when either cap is reached.
        """
        if player is not None and self._tokens[player] >= self.per_token:
            raise RateLimited(f"at most {self.per_token} sockets per player: close one")
        if self._addresses[address] >= self.per_address:
            raise RateLimited(f"at most {self.per_address} sockets per address: close one")
        if player is not None:
            self._tokens[player] += 1
        self._addresses[address] += 1
        try:
            yield
        finally:
            if player is not None:
                self._tokens[player] -= 1
                if self._tokens[player] <= 0:
                    del self._tokens[player]
            self._addresses[address] -= 1
            if self._addresses[address] <= 0:
                del self._addresses[address]
