"""Bots think in worker processes, never on the server's event loop.

:class:`BotPool` owns a bounded ``ProcessPoolExecutor`` (started on first use). A decision is
asked with :meth:`BotPool.decide`: the game is reduced to its public position
(:func:`app.bots.public.public_position`, computed at once, so later changes to the live state
do not matter) and sent to a worker, which rebuilds it and runs the level's search for at most
``think`` seconds. The caller awaits the answer without blocking the loop.

Failure never loses a turn: when the worker dies (the pool is rebuilt) or does not answer in
time, the move is chosen by the Normal level in this process (a few milliseconds). Workers run
at a lower CPU priority (``nice`` + 10) so that, on a busy machine, serving people comes first.
A Strong placement comes with the follower decision it was planned with; that is kept (per
match and version) so the bot's deploy needs no second search.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import multiprocessing
import os
import random
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any, TypeVar

from app.bots import DEFAULT_LEVEL, LEVELS, actions_from_json, heuristic, plan_position
from app.bots.public import public_position, redacted
from app.engine import Action, GameState, legal_actions

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Calls of :meth:`BotPool.offload` waiting or running at once; more are refused (:class:`Busy`).
MAX_OFFLOAD_WAITING = 64
#: Decisions waiting for a worker or thinking at once; past it Normal decides in this process.
MAX_DECISIONS_WAITING = 64
#: Of those, the share one owner may hold (an owner: the person at the table, or
#: :data:`NOBODY` for tables of computers only); past it Normal decides for that owner's
#: tables at once, and everyone else's still get the workers.
OWNER_SHARE = 8
#: The owner of decisions for tables where no person sits (computers playing computers).
NOBODY = "computers only"


class Busy(Exception):
    """:meth:`BotPool.offload` cannot take the work now (queue full, too slow, worker died)."""


#: Worker entry: (position, seed, level, think, not_after epoch seconds) -> action JSON list.
Target = Callable[[dict[str, Any], int, str, float, float], list[dict[str, object]]]


def default_workers() -> int:
    """Cores minus one (the event loop keeps one), at least one."""
    return max(1, (os.cpu_count() or 2) - 1)


#: Niceness added to worker processes: under CPU contention the server's event loop (people's
#: moves) goes first and searches take what is left.
WORKER_NICENESS = 10


#: Seconds between a worker's checks that the server that started it is still alive.
ORPHAN_CHECK_EVERY = 1.0


def _exit_when_orphaned(server_pid: int) -> None:
    """Worker thread: end the worker once the server process ``server_pid`` is gone.

    A server killed with SIGKILL never shuts its pool down, and the workers (children of the
    forkserver, not of the server) would otherwise wait on their task queue forever.
    """
    while True:
        time.sleep(ORPHAN_CHECK_EVERY)
        try:
            os.kill(server_pid, 0)
        except ProcessLookupError:
            os._exit(0)
        except PermissionError:  # pid reused by another user's process: ours is gone
            os._exit(0)


def _init_worker(server_pid: int | None = None) -> None:
    """Worker start: lower the process's CPU priority (best effort) and watch the server.

    ``server_pid``: the process that owns the pool; the worker exits within about
    :data:`ORPHAN_CHECK_EVERY` seconds of its death.
    """
    with contextlib.suppress(OSError, AttributeError):
        os.nice(WORKER_NICENESS)
    if server_pid is not None:
        threading.Thread(
            target=_exit_when_orphaned, args=(server_pid,), daemon=True, name="orphan-watch"
        ).start()


def think_in_worker(
    position: dict[str, Any], seed: int, level: str, think: float, not_after: float
) -> list[dict[str, object]]:
    """Run in a worker: decide, searching ``think`` seconds at most and never past
    ``not_after`` (epoch seconds; a task that started late searches less).
    """
    budget = max(0.0, min(think, not_after - time.time()))
    return plan_position(position, seed, level, budget)


class BotPool:
    """A bounded pool of bot worker processes.

    ``workers``: processes (None: :func:`default_workers`); ``think``: seconds a Strong bot
    searches per decision; ``target``: the function run in a worker (tests swap it);
    ``grace``: seconds past ``think`` after which a worker counts as stuck (generous: the
    first decision also starts the worker processes, slow on a busy machine). Decisions beyond
    ``workers`` at once wait their turn on the event loop (awaiting costs nothing).
    """

    def __init__(
        self,
        workers: int | None = None,
        think: float = 1.0,
        target: Target = think_in_worker,
        grace: float = 20.0,
    ) -> None:
        self.workers = workers or default_workers()
        self.think = think
        self.target = target
        #: Seconds past the budget before a worker counts as stuck.
        self.grace = grace
        self._slots = asyncio.Semaphore(self.workers)
        self._executor: ProcessPoolExecutor | None = None
        self._plans: OrderedDict[tuple[str, int], Action] = OrderedDict()
        self._inflight: dict[tuple[str, int], asyncio.Future[list[Action]]] = {}
        #: Matches whose due turns this instance is playing (see app.services.match.play.bot_turns).
        self.driving: set[str] = set()
        #: Offloaded calls waiting for a worker or running (:meth:`offload`).
        self._offload_waiting = 0
        #: Decisions waiting for a worker or thinking, in all and by owner.
        self._deciding = 0
        self._by_owner: dict[str, int] = {}
        #: Counters for logs and tests: decisions answered by a worker, and fallbacks.
        self.answered = 0
        self.fallbacks = 0
        #: Called with the seconds each worker decision took (the runtime's metrics).
        self.on_think: Callable[[float], None] | None = None

    def _pool(self) -> ProcessPoolExecutor:
        if self._executor is None:
            method = (
                "forkserver" if "forkserver" in multiprocessing.get_all_start_methods() else "spawn"
            )
            self._executor = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context(method),
                initializer=_init_worker,
                initargs=(os.getpid(),),
            )
        return self._executor

    def _restart(self) -> None:
        broken, self._executor = self._executor, None
        if broken is not None:
            broken.shutdown(wait=False, cancel_futures=True)

    def warm_up(self) -> None:
        """Start the worker processes now (else on the first decision)."""
        pool = self._pool()
        for _ in range(self.workers):
            pool.submit(time.sleep, 0)

    @property
    def pending(self) -> int:
        """Decisions and offloaded calls waiting for a worker or running."""
        return self._deciding + self._offload_waiting

    def close(self) -> None:
        """Stop the workers now (a search under way is abandoned)."""
        executor, self._executor = self._executor, None
        if executor is None:
            return
        processes = list((getattr(executor, "_processes", None) or {}).values())
        executor.shutdown(wait=False, cancel_futures=True)
        for process in processes:
            process.terminate()
        for process in processes:
            process.join(2)

    async def decide(
        self,
        key: str,
        version: int,
        state: GameState,
        level: str,
        seed: int,
        owner: str = NOBODY,
    ) -> list[Action]:
        """Actions for ``state.seat`` of the game ``key`` at ``version``: the first is to be
        played now. Never raises for a worker failure (Normal decides instead); two calls for
        the same ``(key, version)`` share one search. ``owner``: whose table it is (the fair
        share: :data:`OWNER_SHARE`).
        """
        planned = self._plans.pop((key, version), None)
        if planned is not None and planned in legal_actions(state):
            return [planned]
        if level not in LEVELS:
            level = DEFAULT_LEVEL
        slot = (key, version)
        running = self._inflight.get(slot)
        if running is not None:
            return await asyncio.shield(running)
        future: asyncio.Future[list[Action]] = asyncio.get_running_loop().create_future()
        self._inflight[slot] = future
        try:
            actions = await self._ask(state, level, seed, owner)
            future.set_result(actions)
        except BaseException as exc:
            future.set_exception(exc)
            future.exception()  # retrieved: no "never retrieved" warning
            raise
        finally:
            del self._inflight[slot]
        if len(actions) > 1:
            self._plans[(key, version + 1)] = actions[1]
            while len(self._plans) > 10_000:
                self._plans.popitem(last=False)
        return actions

    async def offload(self, fn: Callable[..., T], *args: Any, timeout: float = 20.0) -> T:
        """``fn(*args)`` in a worker process: CPU-heavy work that is not a bot's (a record's
        replay), never on the event loop. It waits for a free worker like a decision; past
        :data:`MAX_OFFLOAD_WAITING` calls waiting, or after ``timeout`` seconds (the pool is
        restarted: the worker may be stuck), raises :class:`Busy`. ``fn``'s own exceptions
        are raised as they are (they must pickle, as the engine's do).
        """
        if self._offload_waiting >= MAX_OFFLOAD_WAITING:
            raise Busy("the server is busy checking records: try again in a few seconds")
        self._offload_waiting += 1
        try:
            async with self._slots:
                loop = asyncio.get_running_loop()
                try:
                    return await asyncio.wait_for(
                        loop.run_in_executor(self._pool(), fn, *args), timeout
                    )
                except TimeoutError:
                    self._restart()
                    raise Busy("that took too long: try again in a few seconds") from None
                except BrokenProcessPool:
                    self._restart()
                    raise Busy("a worker failed: try again in a few seconds") from None
        finally:
            self._offload_waiting -= 1

    async def _ask(self, state: GameState, level: str, seed: int, owner: str) -> list[Action]:
        held = self._by_owner.get(owner, 0)
        if self._deciding >= MAX_DECISIONS_WAITING or held >= OWNER_SHARE:
            # The queue (or this owner's share of it) is full: Normal decides here at once
            # rather than the wait growing for everyone.
            if held >= OWNER_SHARE:
                log.debug("bot pool share of %s full (%d waiting): Normal decides", owner, held)
            else:
                log.warning("bot pool queue full (%d waiting): Normal decides", self._deciding)
            self.fallbacks += 1
            return [heuristic.choose_action(redacted(state), random.Random(seed))]
        self._deciding += 1
        self._by_owner[owner] = held + 1
        try:
            return await self._ask_worker(state, level, seed)
        finally:
            self._deciding -= 1
            left = self._by_owner[owner] - 1
            if left:
                self._by_owner[owner] = left
            else:
                del self._by_owner[owner]

    async def _ask_worker(self, state: GameState, level: str, seed: int) -> list[Action]:
        position = public_position(state)
        loop = asyncio.get_running_loop()
        async with self._slots:  # queue here, not in the executor: only thinking is timed
            wait = self.think + self.grace
            started = time.perf_counter()
            try:
                raw = await asyncio.wait_for(
                    loop.run_in_executor(
                        self._pool(),
                        self.target,
                        position,
                        seed,
                        level,
                        self.think,
                        time.time() + self.think,
                    ),
                    timeout=wait,
                )
                self.answered += 1
                if self.on_think is not None:
                    self.on_think(time.perf_counter() - started)
                return actions_from_json(raw)
            except TimeoutError:  # before OSError: TimeoutError is one
                log.warning("bot worker took over %.1f s; Normal decides this move", wait)
            except (BrokenProcessPool, OSError, RuntimeError) as exc:
                log.warning("bot worker died (%r); the pool is restarted and Normal decides", exc)
                self._restart()
            except Exception:
                log.exception("bot worker failed; Normal decides this move")
        self.fallbacks += 1
        return [heuristic.choose_action(redacted(state), random.Random(seed))]
