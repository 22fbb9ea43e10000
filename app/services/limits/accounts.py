"""Limits on the routes that cost CPU or guard an account: registrations, logins, password
checks, record replays — each attempt counted *before* its check, in one atomic step.

Counted with the ``limits`` library's moving window (``hit`` takes an entry or refuses in one
step: a Lua script on Redis, a lock in memory), on Redis when ``REDIS_URL`` is set so the
limits hold across instances, in this process's memory otherwise. A burst of N attempts at
once gets exactly the window's count through, never more.

Logins and password checks (delete the account, change the password) are limited per
``(username, address)`` first: someone guessing from one address is stopped there and locks
nobody else out. Per address across usernames, a higher limit stops one address from trying
many accounts. Across addresses no lock-out: after :data:`SLOW_AFTER` failures for one
username in the window, every further attempt for it is answered only after
:data:`SLOW_DELAY` seconds (the owner still gets in; a guesser is slowed, and still bound by
each address's own limit). docs/API.md § Limits lists every limit.

A burst never escapes the counts: at most :data:`REDIS_SLOTS` counts talk to Redis at once
(the rest wait their turn, below the client's connection pool, which would refuse them), and
when Redis does not answer, password attempts are refused (429, ``limits_unavailable``) rather
than counted in this instance's memory, where every instance would give its own window's
worth of guesses; the other limits count in memory meanwhile.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import Counter

from limits import RateLimitItem, parse
from limits.aio.storage import MemoryStorage, Storage
from limits.aio.strategies import MovingWindowRateLimiter
from limits.storage import storage_from_string

from app.services.errors import RateLimited

log = logging.getLogger(__name__)

#: Failures for one username from all addresses before its attempts are slowed down.
USERNAME_FAILURES = "20/15minutes"
#: Seconds an attempt on a username past :data:`USERNAME_FAILURES` waits before its answer.
SLOW_DELAY = 2.0
#: Counts talking to Redis at once per instance (its connection pool holds 100).
REDIS_SLOTS = 32


class AccountLimits:
    """The limits of this module on one storage (Redis URL, or None for this process).

    ``prefix``: the namespace of the counts (the instance's ``CHANNEL_PREFIX``). The limits
    (``limits`` notation, e.g. ``"10/minute"``) come from the settings: ``password_attempts``
    per username and address, ``per_address`` password attempts per address,
    ``registrations`` and ``record_checks`` per address, ``exports`` per player (and
    ``exports_per_address`` for guests), ``push_tests`` (test alerts) per player.
    """

    def __init__(
        self,
        redis_url: str | None,
        prefix: str,
        *,
        password_attempts: str = "10/minute",
        per_address: str = "30/minute",
        registrations: str = "5/hour",
        record_checks: str = "20/minute",
        exports: str = "30/minute",
        exports_per_address: str = "30/minute",
        push_tests: str = "10/hour",
    ) -> None:
        url = "async+" + redis_url if redis_url else "async+memory://"
        options = {"implementation": "redispy"} if redis_url else {}
        self._storage: Storage = storage_from_string(url, **options)  # type: ignore[assignment]
        self._limiter = MovingWindowRateLimiter(self._storage)
        #: Counts while Redis does not answer (a limit is never a reason for a 500).
        self._memory = MovingWindowRateLimiter(MemoryStorage())
        self._shared = redis_url is not None
        self._slots = asyncio.Semaphore(REDIS_SLOTS)
        self._prefix = prefix
        #: Refusals since start by what was limited (metrics).
        self.refusals: Counter[str] = Counter()
        self._pair = parse(password_attempts)
        self._address = parse(per_address)
        self._failures = parse(USERNAME_FAILURES)
        self._registrations = parse(registrations)
        self._record_checks = parse(record_checks)
        self._exports = parse(exports)
        self._exports_per_address = parse(exports_per_address)
        self._push_tests = parse(push_tests)

    async def _take(
        self, item: RateLimitItem, what: str, *keys: str, fail_closed: bool = False
    ) -> None:
        """Count one hit, or raise :class:`RateLimited` with the seconds until one is free.
        ``fail_closed``: when Redis does not answer, refuse (``limits_unavailable``) instead
        of counting in this instance's memory.
        """
        limiter = self._limiter
        try:
            async with self._slots:
                if await limiter.hit(item, self._prefix, what, *keys):
                    return
                reset, _ = await limiter.get_window_stats(item, self._prefix, what, *keys)
        except Exception as exc:  # noqa: BLE001 - Redis trouble: refused, or memory counts
            if fail_closed:
                log.warning("%s refused: the shared counts do not answer: %s", what, exc)
                self.refusals[what] += 1
                raise RateLimited(
                    "the login counts are unavailable: try again in a moment",
                    retry_after=1,
                    reason="limits_unavailable",
                ) from None
            log.warning("account limits on local memory: Redis: %s", exc)
            limiter = self._memory
            if await limiter.hit(item, self._prefix, what, *keys):
                return
            reset, _ = await limiter.get_window_stats(item, self._prefix, what, *keys)
        wait = max(1, int(reset - time.time() + 0.999))
        self.refusals[what] += 1
        raise RateLimited(f"too many {what}: try again in {wait} s", retry_after=wait)

    async def password_attempt(self, username_key: str, address: str) -> None:
        """Before checking a password for ``username_key`` (lower-cased) from ``address``:
        count the attempt (raises :class:`RateLimited`), and wait :data:`SLOW_DELAY` seconds
        when the username is past its failures from all addresses.
        """
        shared = self._shared
        await self._take(self._pair, "password attempts", username_key, address, fail_closed=shared)
        await self._take(
            self._address, "password attempts from this address", address, fail_closed=shared
        )
        item = self._failures
        with contextlib.suppress(Exception):  # Redis trouble: no slowing down
            async with self._slots:
                slowed = not await self._limiter.test(item, self._prefix, "failures", username_key)
            if slowed:
                await asyncio.sleep(SLOW_DELAY)

    async def password_failed(self, username_key: str) -> None:
        """Count a wrong password for ``username_key`` (from any address)."""
        item = self._failures
        with contextlib.suppress(Exception):  # Redis trouble: the per-address limits still hold
            async with self._slots:
                await self._limiter.hit(item, self._prefix, "failures", username_key)

    async def registration(self, address: str) -> None:
        """Count an account registration from ``address``; raises :class:`RateLimited`."""
        await self._take(self._registrations, "registrations from this address", address)

    async def replay(self, address: str) -> None:
        """Count a record replay or shuffle check from ``address``; raises :class:`RateLimited`."""
        await self._take(self._record_checks, "record checks from this address", address)

    async def export(self, player_id: str, address: str | None = None) -> None:
        """Count a data export request of ``player_id`` (an account or a guest: every token
        of the player counts here), and — ``address`` given, for a guest — of the client
        address (every guest of one address together, so new guests do not multiply it).
        Raises :class:`RateLimited` with the seconds to wait.
        """
        await self._take(self._exports, "export requests for this player", player_id)
        if address is not None:
            await self._take(
                self._exports_per_address, "export requests from this address", address
            )

    async def push_test(self, player_id: str) -> None:
        """Count a test alert (``POST /api/push/test``) of ``player_id``; raises
        :class:`RateLimited` with the seconds to wait.
        """
        await self._take(self._push_tests, "test alerts for this player", player_id)

    async def aclose(self) -> None:
        """Close the Redis connections of the counts (nothing for the memory storage)."""
        client = getattr(getattr(self._storage, "bridge", None), "storage", None)
        if client is not None:
            try:
                await client.aclose()
                await client.connection_pool.disconnect()
            except Exception:  # noqa: BLE001 - closing on the way out: nothing to report
                pass
