"""A small, stable pseudo-random generator for shuffling decks.

The shuffle must give the same deck for the same seed on every Python version and machine, so it
does not use :mod:`random` (whose algorithms may change between releases). SplitMix64 with
rejection sampling and a Fisher–Yates shuffle is enough: the deck order is hidden from players and
nothing here is security-sensitive beyond keeping the seed on the server.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TypeVar

_MASK = (1 << 64) - 1
T = TypeVar("T")


class SplitMix64:
    """SplitMix64 (Steele, Lea, Flood 2014); ``seed`` is any int, reduced modulo 2**64."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next64(self) -> int:
        """The next 64-bit unsigned output."""
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        """A uniform integer in ``[0, n)``; raises ValueError when ``n <= 0``."""
        if n <= 0:
            raise ValueError("n must be positive")
        limit = ((1 << 64) // n) * n
        while True:
            z = self.next64()
            if z < limit:
                return z % n


def shuffled(items: Sequence[T], rng: SplitMix64) -> list[T]:
    """A new list with ``items`` in Fisher–Yates order drawn from ``rng``."""
    out = list(items)
    for i in range(len(out) - 1, 0, -1):
        j = rng.below(i + 1)
        out[i], out[j] = out[j], out[i]
    return out
