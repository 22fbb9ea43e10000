"""How long the Strong computer player's analysis of a match takes, and that it never slows
people down.

    python benchmarks/analysis.py                 # one 2-player base match, in this process
    python benchmarks/analysis.py --playouts 16   # a deeper search per move
    python benchmarks/analysis.py --load          # human p99 with and without analyses running
    python benchmarks/analysis.py --probe         # the server loop's stalls while analysing

The default times :func:`app.bots.analysis.analyse` on one finished 2-player base match (two
Normal computers, seed 1: followers on every kind of feature, as people play) in this process,
and prints the seconds with the machine's load average (the figure depends on what else runs).

``--load`` starts one server (Postgres + Redis, a fresh ``carcassonne_bench_analysis``
database) and runs ``benchmarks/load.py``'s human load (2-player matches of people acting about
once a second, ``latency`` mode) twice: alone, then while ``--analyses`` finished matches (each
asked for by its own player) are being analysed in the bot worker pool. The target: the human
p99 within 10 ms of the run without analyses (analyses run a few turns per worker task, never
on the event loop).

``--probe`` measures what an analysis costs the server's event loop without the noise of the
latency figures on a shared machine: an asyncio loop wakes every millisecond and records how
late it is, first idle, then while ``--analyses`` matches are analysed through a
:class:`~app.bots.pool.BotPool` exactly as the server does (a few turns per worker task).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import random
import sys
import time
from datetime import UTC, datetime
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import bot_isolation  # noqa: E402  (the server with Postgres + Redis)
import load  # noqa: E402  (the human players and their statistics)

from app.bots import choose_action  # noqa: E402
from app.bots.analysis import PLAYOUTS, analyse  # noqa: E402
from app.db.session import create_engine  # noqa: E402
from app.engine import Options, apply_in_place, export_record, new_game  # noqa: E402
from tests.support.finished import insert_finished  # noqa: E402


def normal_game(seed: int) -> object:
    """A finished 2-player base game of two Normal computers."""
    state = new_game(Options(), ["Ann", "Ben"], seed=seed)
    rng = random.Random(seed)
    while not state.is_over:
        apply_in_place(state, choose_action(state, rng, "normal"))
    return state


def time_one(playouts: int, seed: int) -> None:
    """Analyse one match and print the figure with the load average."""
    record = export_record(normal_game(seed))  # type: ignore[arg-type]
    load1, load5, _ = os.getloadavg()
    began = time.perf_counter()
    result = analyse(record, playouts=playouts)
    seconds = time.perf_counter() - began
    moves = len(result["moves"])
    blunders = sum(1 for m in result["moves"] if m["blunder"])
    print(
        f"analysis of one 2-player base match (seed {seed}): {seconds:.2f} s for {moves} moves "
        f"({seconds / moves * 1000:.0f} ms per move), {playouts} playouts per move, "
        f"{blunders} blunders; load average {load1:.2f} / {load5:.2f} on {os.cpu_count()} cores"
    )


async def _finished_matches(url: str, database_url: str, count: int) -> list[tuple[str, str]]:
    """``count`` finished matches, each of its own new player: ``[(match id, token)]``."""
    players = []
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for i in range(count):
            body = await load._rest(client, "POST", "/api/players", name=f"Analyst{i}")
            players.append((body["player"]["id"], body["token"]))
    engine = create_engine(database_url, 1, 0)
    out = []
    try:
        async with engine.begin() as conn:
            for i, (player, token) in enumerate(players):
                match_id = await insert_finished(
                    conn,
                    [(player, f"Analyst{i}"), (None, "Computer")],
                    finished_at=datetime.now(UTC),
                    state=normal_game(100 + i),
                )
                out.append((match_id, token))
    finally:
        await engine.dispose()
    return out


async def _ask(url: str, matches: list[tuple[str, str]]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        for match_id, token in matches:
            r = await client.post(
                f"/api/matches/{match_id}/analysis", headers={"Authorization": f"Bearer {token}"}
            )
            r.raise_for_status()


async def _done(url: str, matches: list[tuple[str, str]]) -> int:
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        done = 0
        for match_id, _ in matches:
            r = await client.get(f"/api/matches/{match_id}/analysis")
            done += r.json()["status"] == "done"
        return done


def under_load(args: argparse.Namespace) -> None:
    """Human latency alone, then while analyses run; print both and the p99 difference."""
    with bot_isolation._server(args.database_url, args.redis_url, 1.0) as url:
        print(
            f"server {url}: {args.matches} human matches (latency mode), {args.duration}s after "
            f"{args.warmup}s warm-up; {args.analyses} analyses asked for before the second run"
        )
        print(f"{'run':22} {'actions/s':>9} {'p50 ms':>8} {'p99 ms':>8}")
        warmup = max(args.warmup, args.matches / 50)
        alone = asyncio.run(load.run(url, args.matches, "latency", args.duration, warmup))
        print(bot_isolation._line("people only", alone, args.duration), flush=True)
        matches = asyncio.run(_finished_matches(url, args.database_url, args.analyses))
        asyncio.run(_ask(url, matches))
        mixed = asyncio.run(load.run(url, args.matches, "latency", args.duration, warmup))
        done = asyncio.run(_done(url, matches))
        print(
            bot_isolation._line(
                "with analyses", mixed, args.duration, f"(analyses done by the end: {done})"
            ),
            flush=True,
        )
        lat_a = [x * 1000 for x in alone.latencies]
        lat_b = [x * 1000 for x in mixed.latencies]
        if lat_a and lat_b:
            diff = load._percentile(lat_b, 0.99) - load._percentile(lat_a, 0.99)
            print(f"p99 difference: {diff:+.1f} ms (target: within 10 ms)")


async def _lag(stop: asyncio.Event) -> list[float]:
    out = []
    while not stop.is_set():
        began = time.perf_counter()
        await asyncio.sleep(0.001)
        out.append((time.perf_counter() - began - 0.001) * 1000)
    return out


def probe(analyses: int, playouts: int) -> None:
    """Event-loop lateness idle, then while ``analyses`` matches are analysed in the pool."""
    from app.bots.analysis import count_moves, moves_in_worker, summary
    from app.bots.pool import BotPool
    from app.services.match.insight.analyses import CHUNK

    records = [export_record(normal_game(200 + i)) for i in range(analyses)]  # type: ignore[arg-type]

    async def run() -> None:
        pool = BotPool()
        pool.warm_up()
        await asyncio.sleep(2)
        stop = asyncio.Event()
        task = asyncio.create_task(_lag(stop))
        await asyncio.sleep(5)
        stop.set()
        idle = await task
        stop = asyncio.Event()
        task = asyncio.create_task(_lag(stop))
        began = time.perf_counter()
        for record in records:
            total = await pool.offload(count_moves, record)
            moves: list[dict[str, object]] = []
            for first in range(1, total + 1, CHUNK):
                last = min(total, first + CHUNK - 1)
                moves += await pool.offload(moves_in_worker, record, first, last, playouts, 0)
            await pool.offload(summary, record, moves, playouts, 0.0)
        seconds = time.perf_counter() - began
        stop.set()
        busy = await task
        pool.close()
        for label, lags in (("idle", idle), (f"{analyses} analyses ({seconds:.1f} s)", busy)):
            print(
                f"{label:24} loop lateness p50 {load._percentile(lags, 0.5):6.2f} ms, "
                f"p99 {load._percentile(lags, 0.99):6.2f} ms, max {max(lags):6.1f} ms"
            )

    load1, _, _ = os.getloadavg()
    print(f"{pool_workers()} worker(s), load average {load1:.2f} on {os.cpu_count()} cores")
    asyncio.run(run())


def pool_workers() -> int:
    """The bot pool's default number of workers."""
    from app.bots.pool import default_workers

    return default_workers()


def main() -> int:
    """Time one analysis, or (``--load``) people's latency while analyses run."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=PLAYOUTS)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--load", action="store_true", help="human latency while analysing")
    parser.add_argument("--probe", action="store_true", help="event-loop stalls while analysing")
    parser.add_argument("--matches", type=int, default=50)
    parser.add_argument("--analyses", type=int, default=6)
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "ANALYSIS_DATABASE_URL",
            "postgresql+asyncpg://postgres@127.0.0.1:5432/carcassonne_bench_analysis",
        ),
        help="dropped and created afresh",
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    args = parser.parse_args()
    if args.probe:
        probe(max(1, args.analyses), args.playouts)
    elif args.load:
        under_load(args)
    else:
        time_one(args.playouts, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
