"""CPU-heavy work off the event loop: a small thread pool with a bounded queue.

Password hashing and verification (Argon2id through ``pwdlib``/``argon2-cffi``, which releases
the GIL while it hashes) run here, so a burst of registrations and logins never stalls the
sockets and requests of the instance: they queue for :attr:`Offload.threads` threads, and past
:attr:`Offload.max_waiting` waiting calls a new one is refused with :class:`RateLimited`
("server busy") instead of queueing without end.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from app.services.errors import RateLimited

T = TypeVar("T")


class Offload:
    """``threads`` worker threads; at most ``max_waiting`` calls queued or running."""

    def __init__(self, threads: int, max_waiting: int = 64) -> None:
        self.threads = threads
        self.max_waiting = max_waiting
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="offload")
        self._pending = 0

    async def run(self, fn: Callable[..., T], *args: object) -> T:
        """``fn(*args)`` on a worker thread; raises what it raises, or :class:`RateLimited`
        (retry after 1 s) when ``max_waiting`` calls are already pending.
        """
        if self._pending >= self.max_waiting:
            raise RateLimited("server busy: try again in a moment", retry_after=1)
        self._pending += 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, fn, *args)
        finally:
            self._pending -= 1

    def close(self) -> None:
        """Stop the threads (a call under way finishes; queued ones are cancelled)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
