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

A refusal says when to try again: :class:`RateLimited` carries ``retry_after`` (seconds until
one more hit would be allowed), :meth:`FrameBudget.retry_after` the same for a socket's frames.
- :class:`SocketCaps`: open websockets per player and per client address on this instance.
"""

from __future__ import annotations

import contextlib
import logging
import math
import time
from collections import Counter
from collections.abc import Iterator

from limits import RateLimitItem, RateLimitItemPerSecond
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import SlidingWindowCounterRateLimiter
from limits.storage import storage_from_string

from app.services.errors import RateLimited

log = logging.getLogger(__name__)

#: Seconds the shared limits stay on local memory after Redis failed to answer.
REDIS_RETRY_AFTER = 5.0


def window_item(rate: float, burst: int) -> RateLimitItem:
    """``burst`` hits per window of ``burst / rate`` seconds (at least one second)."""
    return RateLimitItemPerSecond(burst, max(1, round(burst / rate)))


#: Added to a computed wait so the retry lands just after the limit frees a hit, not on it.
RETRY_MARGIN = 0.01


def sliding_retry_after(
    limit: int, expiry: float, previous: int, current: int, window_left: float
) -> float:
    """Seconds until a sliding-window counter allows one more hit.

    The counter (the ``limits`` library's) allows a hit while ``floor(previous * window_left /
    expiry + current) + 1 <= limit``: ``previous`` hits in the last whole window weigh by the
    share of it still inside the sliding window, ``current`` hits in this window count whole;
    ``window_left``: seconds until this window ends. Over the limit in this window alone, the
    wait runs past its end, when ``current`` becomes the previous window's count.
    """
    if current < limit:
        if previous <= 0:
            return 0.0
        # previous * (window_left - t) / expiry + current < limit
        return max(0.0, window_left - (limit - current) * expiry / previous) + RETRY_MARGIN
    # After the window ends: current * (expiry - t) / expiry < limit.
    return window_left + max(0.0, expiry - limit * expiry / current) + RETRY_MARGIN


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
        #: Hits refused since start (metrics).
        self.refusals = 0
        self._shared: SlidingWindowCounterRateLimiter | None = None
        self._redis_down_until = 0.0
        if redis_url:
            # ``redis+cluster://`` becomes the library's cluster storage (one URL for both).
            storage: Storage = storage_from_string(  # type: ignore[assignment]
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
        if now < self._redis_down_until:
            # Redis is out: this instance's bucket alone decides, and what it takes now is not
            # charged to Redis later (a whole outage's hits in one go would refuse the key).
            return True
        count = self._unshared.get(key, 0) + 1
        if count < self.share_every:
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
        """Count one hit for ``key``; raises :class:`RateLimited` when over the limit, with
        ``retry_after``: the seconds until a hit would be allowed again.
        """
        if not await self._allowed(key):
            self.refusals += 1
            raise RateLimited(f"too many {self.what}: slow down", await self.retry_after(key))

    async def retry_after(self, key: str) -> float:
        """Seconds until one more hit for ``key`` would be allowed (0.0: now), as the count
        that refused it sees it: this instance's token bucket or Redis's verdict (batched
        sharing), else the sliding window in Redis or in memory. A guess of one hit's share of
        the rate when the count cannot be read (Redis down).
        """
        now = time.monotonic()
        expiry = float(self.item.get_expiry())
        limit = int(self.item.amount)
        if self.share_every > 1 and self._shared is not None:
            until = self._refused.get(key)
            if until is not None and until > now:
                return until - now + RETRY_MARGIN
            held = self._buckets.get(key)
            if held is None:
                return 0.0
            tokens = min(float(limit), held[0] + (now - held[1]) * limit / expiry)
            return max(0.0, (1.0 - tokens) * expiry / limit) + RETRY_MARGIN
        shared = self._shared is not None and now >= self._redis_down_until
        counter = self._shared if shared and self._shared is not None else self._memory
        try:
            previous, _, current, _ = await counter.storage.get_sliding_window(  # type: ignore[attr-defined]
                self.item.key_for(self.what, key), int(expiry)
            )
        except Exception:  # noqa: BLE001 - Redis trouble: the rate's own pace
            return expiry / limit
        window_left = expiry - math.fmod(time.time(), expiry)
        return sliding_retry_after(limit, expiry, int(previous), int(current), window_left)

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

    #: Frames refused over budget in this process, every socket together (metrics).
    refusals = 0

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
            FrameBudget.refusals += 1
            return False
        self._tokens -= 1.0
        return True

    def retry_after(self, now: float | None = None) -> float:
        """Seconds until the budget allows one more frame (0.0: now)."""
        now = time.monotonic() if now is None else now
        tokens = min(self.burst, self._tokens + max(0.0, now - self._stamp) * self.rate)
        return max(0.0, (1.0 - tokens) / self.rate) + RETRY_MARGIN if tokens < 1.0 else 0.0

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
        #: Sockets refused over a cap since start (metrics).
        self.refusals = 0

    @contextlib.contextmanager
    def hold(self, player: str | None, address: str) -> Iterator[None]:
        """Count one socket of ``player`` (None: anonymous) from ``address`` while the block runs.

        Raises :class:`RateLimited` (before the block) when either cap is reached.
        """
        if player is not None and self._tokens[player] >= self.per_token:
            self.refusals += 1
            raise RateLimited(f"at most {self.per_token} sockets per player: close one")
        if self._addresses[address] >= self.per_address:
            self.refusals += 1
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
