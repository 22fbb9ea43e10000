"""The serving loop paces the garbage collector (app/collector.py): young and middle
generations are collected every few tens of milliseconds by time, whatever the allocation
count says, so each collection only walks what the last moment left alive.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import weakref
from typing import Any

from app import collector


class _Node:
    me: Any = None


async def test_the_pace_collects_young_garbage_by_time_not_by_count() -> None:
    seen: list[int] = []

    def heard(phase: str, info: dict[str, Any]) -> None:
        if phase == "stop":
            seen.append(int(info["generation"]))

    thresholds = gc.get_threshold()
    gc.set_threshold(10**9, 10**9, 10**9)  # no collection by count: only the pace's
    gc.callbacks.append(heard)
    pacer = asyncio.get_running_loop().create_task(collector.pace(0.01))
    try:
        node = _Node()
        node.me = node  # a cycle: unreachable once dropped, only a collection frees it
        gone = weakref.ref(node)
        del node
        for _ in range(100):
            await asyncio.sleep(0.01)
            if gone() is None:
                break
        assert gone() is None, "the cycle was not collected by the pace"
        assert seen and set(seen) == {1}  # young and middle together, never a full one
    finally:
        pacer.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await pacer
        gc.callbacks.remove(heard)
        gc.set_threshold(*thresholds)


def test_thresholds_leave_full_collections_minutes_apart() -> None:
    young, middle, full = collector.THRESHOLDS
    assert full * collector.PACE_SECONDS >= 300  # a full collection at most every 5 minutes
    assert young >= 1_000 and middle >= 1
