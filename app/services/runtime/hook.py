"""News inside one instance: :class:`Hook`, an ordered list of subscribers (lila's Bus, in
process), timed per subscriber for the metrics.
"""

from __future__ import annotations

import time
from collections.abc import Callable


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
