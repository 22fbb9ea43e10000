"""CPU-heavy work off the event loop: a small thread pool with a bounded, fair queue.

Password hashing and verification (Argon2id through ``pwdlib``/``argon2-cffi``, which releases
the GIL while it hashes) run here, so a burst of registrations and logins never stalls the
sockets and requests of the instance: they queue for :attr:`Offload.threads` threads.

The queue is **fair**: each call names who asks (``key``: the client address), every key has
its own line, and a free thread takes the next call of the next key in turn (round-robin), so
a flood from a few addresses delays another person's login by one call per busy key, not by
the whole queue. It is **bounded**: a key with :attr:`Offload.per_key` calls waiting or running
is refused at once with :class:`RateLimited` (reason ``busy_for_you``), and past
:attr:`Offload.max_waiting` calls in all a new one is refused (``server busy``) instead of
queueing without end — unless its key has nothing in the queue: a person's one login gets in
even while others fill it (up to twice ``max_waiting`` in all). A caller that gives up (its
request cancelled) leaves the line.
"""

from __future__ import annotations

import asyncio
import functools
from collections import OrderedDict, deque
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from app.services.errors import RateLimited

T = TypeVar("T")

#: The key of calls that name nobody (tests, the command line).
NOBODY = "-"


class _Queued(Protocol):
    """A call in a key's line, whatever it answers."""

    def given_up(self) -> bool: ...

    def cancel(self) -> None: ...

    def start(
        self, loop: asyncio.AbstractEventLoop, pool: ThreadPoolExecutor, then: Callable[[], None]
    ) -> None: ...


@dataclass(eq=False)
class _Call(Generic[T]):
    """``fn()`` (its arguments bound) and the future its caller awaits."""

    fn: Callable[[], T]
    done: asyncio.Future[T]

    def given_up(self) -> bool:
        """Whether the call is settled already: its caller gave up (or it ran)."""
        return self.done.done()

    def cancel(self) -> None:
        """Cancel a call not settled yet."""
        if not self.done.done():
            self.done.cancel()

    def start(
        self, loop: asyncio.AbstractEventLoop, pool: ThreadPoolExecutor, then: Callable[[], None]
    ) -> None:
        """Run ``fn`` on ``pool``; its outcome settles :attr:`done`, then ``then()`` runs."""
        future = loop.run_in_executor(pool, self.fn)
        future.add_done_callback(functools.partial(self._settle, then))

    def _settle(self, then: Callable[[], None], future: asyncio.Future[T]) -> None:
        if not self.done.done():
            if future.cancelled():
                self.done.cancel()
            elif (error := future.exception()) is not None:
                self.done.set_exception(error)
            else:
                self.done.set_result(future.result())
        then()


class Offload:
    """``threads`` worker threads; at most ``max_waiting`` calls queued or running, at most
    ``per_key`` of them for one key; calls taken round-robin across keys.
    """

    def __init__(self, threads: int, max_waiting: int = 64, per_key: int = 32) -> None:
        self.threads = threads
        self.max_waiting = max_waiting
        self.per_key = per_key
        self._executor = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="offload")
        self._lines: OrderedDict[str, deque[_Queued]] = OrderedDict()
        self._held: dict[str, int] = {}  # calls waiting or running, by key
        self._pending = 0
        self._running = 0

    async def run(self, fn: Callable[..., T], *args: object, key: str = NOBODY) -> T:
        """``fn(*args)`` on a worker thread when ``key``'s turn comes; returns or raises what
        ``fn`` does. Raises :class:`RateLimited` (retry after 1 s) at once when ``key``
        already has :attr:`per_key` calls pending (reason ``busy_for_you``) or the instance
        :attr:`max_waiting` (``server busy``; a key with nothing pending is still taken, up to
        twice that).
        """
        if self._held.get(key, 0) >= self.per_key:
            raise RateLimited(
                "too many password checks from you at once: wait for them",
                reason="busy_for_you",
                retry_after=1,
            )
        full = self.max_waiting if key in self._held else 2 * self.max_waiting
        if self._pending >= full:
            raise RateLimited("server busy: try again in a moment", retry_after=1)
        done: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        call = _Call(functools.partial(fn, *args), done)
        self._pending += 1
        self._held[key] = self._held.get(key, 0) + 1
        self._lines.setdefault(key, deque()).append(call)
        self._pump()
        try:
            return await done
        finally:
            self._pending -= 1
            left = self._held[key] - 1
            if left:
                self._held[key] = left
            else:
                del self._held[key]
            call.cancel()  # given up while waiting: leave the line

    def _pump(self) -> None:
        """Start the next calls, one per key in turn, while a thread is free."""
        loop = asyncio.get_running_loop()
        while self._running < self.threads and self._lines:
            key, line = next(iter(self._lines.items()))
            queued = line.popleft()
            if line:
                self._lines.move_to_end(key)  # its next call waits for the other keys' turn
            else:
                del self._lines[key]
            if queued.given_up():  # its caller gave up
                continue
            self._running += 1
            queued.start(loop, self._executor, self._finished)

    def _finished(self) -> None:
        self._running -= 1
        self._pump()

    def close(self) -> None:
        """Stop the threads (a call under way finishes; queued ones are cancelled)."""
        self._executor.shutdown(wait=False, cancel_futures=True)
        for line in self._lines.values():
            for queued in line:
                queued.cancel()
        self._lines.clear()
