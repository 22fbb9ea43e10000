"""Bots never slow people down: human action → event latency with and without Strong bots.

Starts one server (Postgres + Redis, on a fresh ``carcassonne_bench_bots`` database by
default) and reuses ``benchmarks/load.py``'s websocket players and measurement: the same human
load runs twice — ``--matches`` 2-player matches of people acting about once a second (load.py's
``latency`` mode) — first alone, then with ``--bots`` extra matches in which two Strong
computers play each other (a Strong bot and an absent host whose seat the computer plays at
Strong), so that many Strong searches are asked for at once. Searches run in the bot worker
pool (``BOT_WORKERS``, default cores − 1), never on the event loop; the target is a human p99
within 10 ms of the run without bots.

    python benchmarks/bot_isolation.py                  # 100 human matches, 20 bot matches
    python benchmarks/bot_isolation.py --probe          # event-loop stalls, no server

``--probe`` measures what the server's loop pays for bots without the noise of a shared
machine's scheduler in the latency figures: an asyncio loop wakes every millisecond and records
how late it is (its stalls), first idle, then while ``--bots`` Strong decisions (mid-game
positions) are asked of a :class:`~app.bots.pool.BotPool` at once, then while the same number
of Normal decisions are computed on the loop (what the server did before the pool).
    python benchmarks/bot_isolation.py --matches 50 --bots 20 --duration 20
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx

sys.path.insert(0, str(Path(__file__).resolve().parent))
import load  # noqa: E402  (benchmarks/load.py: the human players and their statistics)

from tests.support.servers import AppServer, running  # noqa: E402 - the one server starter

ROOT = Path(__file__).resolve().parent.parent


async def _fresh_database(url: str) -> None:
    """Drop and create the benchmark's database: live matches of earlier runs, handed to the
    computer after ``ABANDON_AFTER``, would otherwise be played by bots during the run.
    """
    import asyncpg

    name = url.rpartition("/")[2]
    admin = url.rpartition("/")[0].replace("postgresql+asyncpg://", "postgresql://") + "/postgres"
    conn = await asyncpg.connect(admin)
    try:
        await conn.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        await conn.execute(f'CREATE DATABASE "{name}"')
    finally:
        await conn.close()


@contextlib.contextmanager
def _server(database_url: str, redis_url: str, think: float) -> Any:
    asyncio.run(_fresh_database(database_url))
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        REDIS_URL=redis_url,
        ENVIRONMENT="development",
        LOG_LEVEL="warning",
        ACTION_RATE="1000",
        ACTION_BURST="1000",
        LOBBY_RATE_PER_MINUTE="100000",
        LOBBY_BURST="100000",
        BOT_MATCHES_PER_ADDRESS="100000",
        PLAYER_RATE_PER_MINUTE="1000000",
        PLAYER_BURST="100000",
        ABANDON_AFTER="1",
        BOT_THINK=str(think),
        # Every bench socket comes from 127.0.0.1: lift the per-address socket cap (without it
        # a third of the people's sockets were refused and the run measured 32 actions/s).
        WS_SOCKETS_PER_ADDRESS="100000",
    )
    server = AppServer(
        env, Path(tempfile.mkdtemp()) / "server.log", ready_path="/readyz", ready_status=200
    )
    with running(server, timeout=15):
        yield server.url


async def _bot_matches(url: str, count: int) -> list[str]:
    """``count`` matches of two Strong computers (one stands in for an absent host)."""
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        ids = []
        for i in range(count):
            token = (await load._rest(client, "POST", "/api/players", name=f"Away{i}"))["token"]
            code = (await load._rest(client, "POST", "/api/lobbies", token, seats=2))["code"]
            await load._rest(client, "POST", f"/api/lobbies/{code}/bots", token, level="strong")
            await load._rest(
                client, "POST", f"/api/lobbies/{code}/seats/0/level", token, level="strong"
            )
            started = await load._rest(client, "POST", f"/api/lobbies/{code}/start", token)
            ids.append(str(started["match_id"]))
        return ids


async def _versions(url: str, ids: list[str]) -> int:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        total = 0
        for match_id in ids:
            total += int((await client.get(f"/api/matches/{match_id}")).json()["version"])
        return total


def _line(label: str, stats: load.Stats, duration: float, extra: str = "") -> str:
    lat = [x * 1000 for x in stats.latencies]
    return (
        f"{label:22} {stats.actions / duration:9.0f} "
        f"{statistics.median(lat) if lat else float('nan'):8.1f} "
        f"{load._percentile(lat, 0.99):8.1f}  {stats.errors or ''} {extra}"
    )


def _positions(count: int) -> list[Any]:
    import random

    from app.engine import Options, apply_in_place, legal_actions, new_game

    out = []
    for i in range(count):
        state = new_game(Options(), ["A", "B"], seed=i)
        rng = random.Random(i)
        for _ in range(40):
            apply_in_place(state, rng.choice(legal_actions(state)))
        out.append(state)
    return out


async def _lag_while(work: Any, seconds: float) -> list[float]:
    """Stalls (ms) of a loop that wants to wake every 1 ms while ``work`` runs (at least
    ``seconds``).
    """
    stalls: list[float] = []
    done = asyncio.Event()

    async def probe() -> None:
        while not done.is_set():
            before = time.perf_counter()
            await asyncio.sleep(0.001)
            stalls.append((time.perf_counter() - before - 0.001) * 1000)

    task = asyncio.create_task(probe())
    started = time.perf_counter()
    await work()
    await asyncio.sleep(max(0.0, seconds - (time.perf_counter() - started)))
    done.set()
    await task
    return stalls


def probe(bots: int, think: float) -> None:
    """Loop stalls idle, with ``bots`` Strong decisions in the pool, with Normal on the loop."""
    import random

    from app.bots import choose_action
    from app.bots.pool import BotPool

    states = _positions(bots)

    async def run() -> None:
        pool = BotPool(think=think)
        pool.warm_up()
        await asyncio.sleep(3)

        async def idle() -> None:
            await asyncio.sleep(0)

        async def strong() -> None:
            await asyncio.gather(
                *(pool.decide(f"m{i}", 1, s, "strong", i) for i, s in enumerate(states))
            )

        async def normal_inline() -> None:
            for i, s in enumerate(states):
                choose_action(s, random.Random(i), "normal")
                await asyncio.sleep(0)

        print(f"{'event loop':34} {'p50 ms':>7} {'p99 ms':>7} {'max ms':>7} {'wall s':>7}")
        for label, work in (
            ("idle", idle),
            (f"{bots} Strong decisions in {pool.workers} worker(s)", strong),
            (f"{bots} Normal decisions on the loop", normal_inline),
        ):
            started = time.perf_counter()
            stalls = await _lag_while(work, 2.0)
            print(
                f"{label:34} {statistics.median(stalls):7.2f} "
                f"{load._percentile(stalls, 0.99):7.2f} {max(stalls):7.2f} "
                f"{time.perf_counter() - started:7.1f}",
                flush=True,
            )
        print(f"pool: {pool.answered} answered, {pool.fallbacks} fell back to Normal")
        pool.close()

    asyncio.run(run())


def main() -> int:
    """Run the load without, then with, bot matches; print one line each."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=100)
    parser.add_argument("--bots", type=int, default=20, help="matches of two Strong computers")
    parser.add_argument("--think", type=float, default=1.0)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "BOTS_DATABASE_URL",
            "postgresql+asyncpg://postgres@127.0.0.1:5432/carcassonne_bench_bots",
        ),
        help="dropped and created afresh",
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument("--probe", action="store_true", help="event-loop stalls only")
    args = parser.parse_args()
    if args.probe:
        probe(args.bots, args.think)
        return 0
    with _server(args.database_url, args.redis_url, args.think) as url:
        print(
            f"server {url}: {args.matches} human matches (latency mode), "
            f"{args.duration}s after {args.warmup}s warm-up; Strong thinks {args.think}s"
        )
        print(f"{'run':22} {'actions/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        warmup = max(args.warmup, args.matches / 50)
        alone = asyncio.run(load.run(url, args.matches, "latency", args.duration, warmup))
        print(_line("people only", alone, args.duration), flush=True)
        ids = asyncio.run(_bot_matches(url, args.bots))
        time.sleep(3)  # the absent hosts' seats are handed to the computer after 1 s
        before = asyncio.run(_versions(url, ids))
        mixed = asyncio.run(load.run(url, args.matches, "latency", args.duration, warmup))
        moves = asyncio.run(_versions(url, ids)) - before
        print(
            _line(
                f"with {args.bots} Strong matches",
                mixed,
                args.duration,
                f"(bot actions meanwhile: {moves})",
            ),
            flush=True,
        )
        lat_a = [x * 1000 for x in alone.latencies]
        lat_b = [x * 1000 for x in mixed.latencies]
        if lat_a and lat_b:
            diff = load._percentile(lat_b, 0.99) - load._percentile(lat_a, 0.99)
            print(f"p99 difference: {diff:+.1f} ms (target: within 10 ms)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
