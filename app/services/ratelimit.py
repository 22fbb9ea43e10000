"""Per-key token buckets (in process): actions and lobby creation per token.

Each instance limits on its own; behind N instances a client gets at most N times the rate,
which is enough to stop floods without a round trip to Redis per action.
"""

from __future__ import annotations

import time

from app.services.errors import RateLimited


class RateLimiter:
    """Token buckets keyed by string: ``rate`` tokens per second refill, ``burst`` capacity."""

    MAX_KEYS = 100_000

    def __init__(self, rate: float, burst: int, what: str = "requests") -> None:
        self.rate = rate
        self.burst = float(burst)
        self.what = what
        self._buckets: dict[str, tuple[float, float]] = {}

    def hit(self, key: str, now: float | None = None) -> None:
        """Take one token for ``key``; raises :class:`RateLimited` when the bucket is empty."""
        now = time.monotonic() if now is None else now
        tokens, stamp = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - stamp) * self.rate)
        if tokens < 1.0:
            self._buckets[key] = (tokens, now)
            raise RateLimited(f"too many {self.what}: slow down")
        if len(self._buckets) >= self.MAX_KEYS and key not in self._buckets:
            self._buckets.clear()  # crude but bounded; full buckets are the default anyway
        self._buckets[key] = (tokens - 1.0, now)
