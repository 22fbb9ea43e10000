"""Spectator counts: a burst of sockets coming and going shares Redis writes.

redis-py's pool keeps every connection it ever opened; one write per socket, concurrently,
opened one connection per concurrent write and kept them (with their objects) for good.
"""

from __future__ import annotations

import asyncio
from typing import Any

from app.services.sockets.spectators import SpectatorCounts
from tests.support.services import run_async


class FakePipeline:
    """Records the commands of one pipeline; ``execute`` takes a round trip."""

    def __init__(self, client: FakeRedis) -> None:
        self.client = client
        self.commands: list[tuple[str, ...]] = []

    def hset(self, key: str, field: str, value: str) -> None:
        self.commands.append(("hset", key, value))

    def expire(self, key: str, seconds: int) -> None:
        self.commands.append(("expire", key))

    def hdel(self, key: str, field: str) -> None:
        self.commands.append(("hdel", key))

    async def execute(self) -> list[Any]:
        self.client.in_flight += 1
        self.client.most_in_flight = max(self.client.most_in_flight, self.client.in_flight)
        try:
            await asyncio.sleep(0.005)
        finally:
            self.client.in_flight -= 1
        self.client.executed.append(self.commands)
        return [None] * len(self.commands)


class FakeRedis:
    """A Redis client whose pipelines count how many run at once."""

    def __init__(self) -> None:
        self.in_flight = 0
        self.most_in_flight = 0
        self.executed: list[list[tuple[str, ...]]] = []

    def pipeline(self, transaction: bool = True) -> FakePipeline:
        return FakePipeline(self)

    async def aclose(self) -> None:
        pass


def test_a_burst_of_changes_is_written_one_pipeline_at_a_time_and_ends_current() -> None:
    async def run() -> tuple[FakeRedis, dict[str, int]]:
        local = {f"m{i}": 0 for i in range(10)}
        counts = SpectatorCounts(None, "p", "me", lambda m: local[m])
        fake = counts._client = FakeRedis()

        async def join(i: int) -> None:
            local[f"m{i % 10}"] += 1
            await counts.changed(f"m{i % 10}")

        await asyncio.gather(*(join(i) for i in range(1000)))
        written = {c[1]: int(c[2].split()[0]) for p in fake.executed for c in p if c[0] == "hset"}
        await counts.close()
        return fake, written

    fake, written = run_async(run)
    assert fake.most_in_flight == 1  # one pooled connection, however many sockets
    assert len(fake.executed) <= 5  # coalesced: not one write per socket
    assert written == {f"p:spectators:m{i}": 100 for i in range(10)}  # the final counts


def test_a_cancelled_caller_does_not_cancel_the_shared_write() -> None:
    async def run() -> int:
        counts = SpectatorCounts(None, "p", "me", lambda m: 1)
        fake = counts._client = FakeRedis()
        first = asyncio.create_task(counts.changed("a"))
        second = asyncio.create_task(counts.changed("b"))
        await asyncio.sleep(0)
        first.cancel()
        await second
        await asyncio.sleep(0.05)
        written = sum(len(p) for p in fake.executed)
        await counts.close()
        return written

    assert run_async(run) == 4  # hset + expire for both matches
