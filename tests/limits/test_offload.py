"""The hashing queue (app/services/offload.py) is fair and bounded per caller: a flood from a
few addresses delays another person's call by one call per busy address, a caller over its
share is refused at once with ``busy_for_you``, and a caller that gives up leaves the line.
"""

from __future__ import annotations

import asyncio
import threading
import time

import pytest

from app.services.errors import RateLimited
from app.services.offload import Offload

pytestmark = pytest.mark.timeout(30)


class _Gate:
    """Calls that block on a worker thread until released; records the order they ran in."""

    def __init__(self) -> None:
        self.order: list[str] = []
        self.release = threading.Event()

    def work(self, name: str) -> str:
        self.order.append(name)
        self.release.wait(10)
        return name


async def _until(predicate: object, seconds: float = 5.0) -> None:
    deadline = time.monotonic() + seconds
    while not predicate():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        await asyncio.sleep(0.005)


def test_another_address_goes_before_a_floods_queue() -> None:
    async def run() -> list[str]:
        offload = Offload(threads=1, max_waiting=64, per_key=4)
        gate = _Gate()
        flood = [
            asyncio.create_task(offload.run(gate.work, f"{a}{i}", key=a))
            for i in range(4)
            for a in ("a", "b", "c")
        ]
        await _until(lambda: gate.order)  # the first call holds the one thread
        owner = asyncio.create_task(offload.run(gate.work, "owner", key="owner"))
        await asyncio.sleep(0.05)
        gate.release.set()
        await asyncio.gather(owner, *flood)
        offload.close()
        return gate.order

    order = asyncio.run(run())
    # Round-robin by address: the owner waits for the call running and one call of each busy
    # address, not for the 11 queued before theirs.
    assert order.index("owner") == 4
    assert order[:3] == ["a0", "b0", "c0"]


def test_an_address_over_its_share_is_refused_at_once_and_others_are_not() -> None:
    async def run() -> tuple[RateLimited, str]:
        offload = Offload(threads=1, max_waiting=64, per_key=2)
        gate = _Gate()
        mine = [asyncio.create_task(offload.run(gate.work, f"m{i}", key="me")) for i in range(2)]
        await _until(lambda: gate.order)
        with pytest.raises(RateLimited) as refused:
            await offload.run(gate.work, "m2", key="me")
        other = asyncio.create_task(offload.run(gate.work, "other", key="you"))
        gate.release.set()
        await asyncio.gather(*mine)
        result = await other
        offload.close()
        return refused.value, result

    refused, other = asyncio.run(run())
    assert refused.reason == "busy_for_you" and refused.retry_after == 1
    assert other == "other"


def test_the_instance_bound_holds_for_everyone() -> None:
    async def run() -> RateLimited:
        offload = Offload(threads=1, max_waiting=3, per_key=4)
        gate = _Gate()
        held = [asyncio.create_task(offload.run(gate.work, str(i), key=str(i))) for i in range(3)]
        await _until(lambda: gate.order)
        with pytest.raises(RateLimited) as refused:  # "0" has one in the queue already
            await offload.run(gate.work, "late", key="0")
        gate.release.set()
        await asyncio.gather(*held)
        offload.close()
        return refused.value

    assert "server busy" in asyncio.run(run()).message


def test_a_caller_that_gives_up_leaves_the_line_and_errors_reach_their_caller() -> None:
    def boom() -> None:
        raise ValueError("bad hash")

    async def run() -> list[str]:
        offload = Offload(threads=1, max_waiting=8, per_key=4)
        gate = _Gate()
        first = asyncio.create_task(offload.run(gate.work, "first", key="a"))
        await _until(lambda: gate.order)
        quitter = asyncio.create_task(offload.run(gate.work, "quitter", key="b"))
        await asyncio.sleep(0.01)
        quitter.cancel()
        failing = asyncio.create_task(offload.run(boom, key="c"))
        gate.release.set()
        await first
        with pytest.raises(ValueError, match="bad hash"):
            await failing
        with pytest.raises(asyncio.CancelledError):
            await quitter
        assert await offload.run(gate.work, "after", key="b") == "after"
        offload.close()
        return gate.order

    assert asyncio.run(run()) == ["first", "after"]


def test_a_full_queue_still_takes_one_call_of_someone_with_none_in_it() -> None:
    async def run() -> tuple[str, RateLimited]:
        offload = Offload(threads=1, max_waiting=3, per_key=4)
        gate = _Gate()
        flood = [
            asyncio.create_task(offload.run(gate.work, f"f{i}", key="flood")) for i in range(3)
        ]
        await _until(lambda: gate.order)
        owner = asyncio.create_task(offload.run(gate.work, "owner", key="owner"))
        await asyncio.sleep(0.01)
        with pytest.raises(RateLimited) as again:  # the queue is full and the owner has one
            await offload.run(gate.work, "owner2", key="owner")
        gate.release.set()
        await asyncio.gather(*flood)
        result = await owner
        offload.close()
        return result, again.value

    owner, again = asyncio.run(run())
    assert owner == "owner" and "server busy" in again.message
