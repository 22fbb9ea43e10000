"""The bot worker pool: answers come from worker processes; a dead or stuck worker costs a
Normal move, never a lost turn; a Strong placement's follower decision is reused.
"""

from __future__ import annotations

import asyncio
import os
import random
import time
from collections.abc import AsyncIterator
from typing import Any

import pytest

from app.bots import plan_position
from app.bots import pool as pool_module
from app.bots.pool import BotPool
from app.engine import DEPLOY, PLACE_TILE, Options, apply_in_place, legal_actions, new_game


def _worker_pid(
    position: dict[str, Any], seed: int, level: str, think: float, not_after: float
) -> list[dict[str, object]]:
    """A worker target that reports where it ran (as the seat of a pass) — for the test only."""
    return [{"type": "pass", "seat": os.getpid() % 1000}]


def _die(
    position: dict[str, Any], seed: int, level: str, think: float, not_after: float
) -> list[dict[str, object]]:
    os._exit(3)


def _hang(
    position: dict[str, Any], seed: int, level: str, think: float, not_after: float
) -> list[dict[str, object]]:
    time.sleep(3)
    return plan_position(position, seed, level, 0.0)


@pytest.fixture
async def pool() -> AsyncIterator[BotPool]:
    p = BotPool(workers=1, think=0.05, grace=120)  # starting workers is slow on a busy machine
    try:
        yield p
    finally:
        p.close()


def _state() -> Any:
    state = new_game(Options(), ["A", "B"], seed=5)
    rng = random.Random(5)
    for _ in range(10):
        apply_in_place(state, rng.choice(legal_actions(state)))
    while state.phase != PLACE_TILE:
        apply_in_place(state, legal_actions(state)[-1])
    return state


async def test_a_worker_process_decides(pool: BotPool) -> None:
    state = _state()
    actions = await pool.decide("m1", 10, state, "strong", seed=1)
    assert actions[0] in legal_actions(state)
    assert pool.answered == 1 and pool.fallbacks == 0
    pool.target = _worker_pid
    probe = await pool.decide("m1", 11, state, "normal", seed=1)
    assert probe[0].seat != os.getpid() % 1000  # thought in another process


async def test_strong_placement_brings_its_follower_decision(pool: BotPool) -> None:
    state = _state()
    first = await pool.decide("m2", 20, state, "strong", seed=2)
    assert len(first) == 2
    apply_in_place(state, first[0])
    assert state.phase == DEPLOY
    pool.target = _die  # the deploy must not need a worker at all
    second = await pool.decide("m2", 21, state, "strong", seed=2)
    assert second == [first[1]] and pool.fallbacks == 0


async def test_a_dead_worker_costs_one_normal_move_then_the_pool_recovers(pool: BotPool) -> None:
    state = _state()
    pool.target = _die
    actions = await pool.decide("m3", 1, state, "strong", seed=3)
    assert actions[0] in legal_actions(state) and pool.fallbacks == 1
    pool.target = plan_position_target
    again = await pool.decide("m3", 2, state, "strong", seed=3)
    assert again[0] in legal_actions(state) and pool.answered == 1


async def test_a_stuck_worker_times_out_into_a_normal_move() -> None:
    pool = BotPool(workers=1, think=0.05, target=_hang, grace=0.5)
    try:
        state = _state()
        started = time.perf_counter()
        actions = await pool.decide("m4", 1, state, "strong", seed=4)
        assert time.perf_counter() - started < 2.5
        assert actions[0] in legal_actions(state) and pool.fallbacks == 1
    finally:
        pool.close()


def plan_position_target(
    position: dict[str, Any], seed: int, level: str, think: float, not_after: float
) -> list[dict[str, object]]:
    """The real worker entry with no search time (fast tests)."""
    return plan_position(position, seed, level, 0.0)


_ORPHAN_SCRIPT = """
import os, signal, time
from app.bots import pool as pool_module
from app.bots.pool import BotPool
pool = BotPool(workers=1, think=0.0)
pool.warm_up()
deadline = time.time() + 120
while not pool._pool()._processes and time.time() < deadline:
    time.sleep(0.05)
print(" ".join(str(pid) for pid in pool._pool()._processes), flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


def _parent(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().split(") ", 1)[1].split()[1])


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie we are not the parent of counts as gone
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().split(") ", 1)[1][0] != "Z"
    except OSError:
        return False


def test_workers_exit_when_the_server_is_killed() -> None:
    """A server killed with SIGKILL never shuts its pool down: its workers (and the forkserver
    that started them) notice and exit instead of running on with no parent.
    """
    import signal
    import subprocess
    import sys

    proc = subprocess.Popen(
        [sys.executable, "-c", _ORPHAN_SCRIPT],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    pids: list[int] = []
    try:
        assert proc.stdout is not None
        pids = [int(pid) for pid in proc.stdout.readline().split()]
        assert proc.wait(timeout=180) == -signal.SIGKILL
        assert pids
        pids += [_parent(pid) for pid in pids if _alive(pid)]  # the forkserver
        deadline = time.monotonic() + 60
        while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not [pid for pid in pids if _alive(pid)]
    finally:
        proc.kill()
        proc.wait()
        for pid in pids:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)


async def test_a_full_queue_decides_with_normal_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pool's queue is bounded: past MAX_DECISIONS_WAITING decisions waiting or thinking,
    Normal decides in this process at once instead of the wait growing.
    """
    monkeypatch.setattr(pool_module, "MAX_DECISIONS_WAITING", 2)
    pool = BotPool(workers=1, think=0.05, target=_hang, grace=10)
    try:
        state = _state()
        waiting = [
            asyncio.create_task(pool.decide(f"q{i}", 1, state, "strong", seed=i)) for i in range(2)
        ]
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        actions = await pool.decide("q-extra", 1, state, "strong", seed=9)
        assert time.perf_counter() - started < 0.5  # not queued behind the 3 s searches
        assert actions[0] in legal_actions(state) and pool.fallbacks == 1
        for task in waiting:
            task.cancel()
    finally:
        pool.close()


async def test_one_owner_floods_only_its_own_share(monkeypatch: pytest.MonkeyPatch) -> None:
    """Tables of computers only (an arena of computers) hold at most OWNER_SHARE decisions:
    past it their own tables get Normal at once, while a person's table still waits for a
    worker's search. Before, they filled the whole queue and a person's Strong opponent
    answered in 32.8 s instead of 2.3 s.
    """
    monkeypatch.setattr(pool_module, "OWNER_SHARE", 2)
    pool = BotPool(workers=1, think=0.05, target=_hang, grace=10)
    try:
        state = _state()
        flood = [
            asyncio.create_task(pool.decide(f"c{i}", 1, state, "strong", seed=i)) for i in range(2)
        ]
        await asyncio.sleep(0.1)
        started = time.perf_counter()
        extra = await pool.decide("c-extra", 1, state, "strong", seed=9)
        assert time.perf_counter() - started < 0.5 and extra[0] in legal_actions(state)
        assert pool.fallbacks == 1
        person = asyncio.create_task(pool.decide("ann", 1, state, "strong", seed=3, owner="ann"))
        await asyncio.sleep(0.2)
        assert not person.done() and pool.fallbacks == 1  # waits for a worker: no fallback
        for task in [*flood, person]:
            task.cancel()
    finally:
        pool.close()
