"""Many sockets watch one tournament while entrants register: does the instance keep answering?

Starts ``carcassonne serve`` from a checkout (``--root``, default this one) with the in-process
broker on a fresh migrated Postgres database (``--database sqlite``: a fresh SQLite file),
creates a Swiss in registration and opens ``--sockets`` (300) tournament sockets from one
address (a child process holds them, so their frames cost this process nothing); then, while
this process asks ``/healthz`` every 10 ms, ``--registrations`` (10) players register, all at
once (``--one-by-one``: one after another). Prints p50 / p99 / max of ``/healthz`` from the
first registration until every socket was sent the last one (3 s at least), how long that
took, how many tournament frames the sockets got and the server's CPU seconds until then.

    .venv/bin/python benchmarks/tournament_watch.py [--root CHECKOUT] [--sockets N]
        [--database postgres|sqlite] [--one-by-one]

The target on a 2-core machine: ``/healthz`` p99 ≤ 100 ms. (Before the shared view, every
socket read and rendered the tournament itself on every change.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from benchmarks.account_flood import _summary  # noqa: E402 - one way to print a latency line
from benchmarks.load import _cpu_seconds  # noqa: E402 - a process's CPU seconds from /proc
from tests.support import postgres  # noqa: E402 - migrated databases as the tests make them
from tests.support.servers import AppServer  # noqa: E402 - the one server starter

#: Seconds ``/healthz`` is measured at least, from the first registration.
WINDOW = 3.0


def _start(root: Path, work: Path, database_url: str, redis_url: str | None) -> AppServer:
    env = dict(
        os.environ,
        DATABASE_URL=database_url,
        ENVIRONMENT="development",
        LOG_LEVEL="warning",
        WS_SOCKETS_PER_ADDRESS="100000",  # the benchmark's sockets all come from 127.0.0.1
        PLAYER_BURST="100000",
        BOT_MATCHES_PER_ADDRESS="1000",  # --computers: an organiser's computer entrants
    )
    env.pop("REDIS_URL", None)
    if redis_url:
        env.update(REDIS_URL=redis_url, CHANNEL_PREFIX=f"bench{os.getpid()}")
    server = AppServer(
        env, work / "server.log", cwd=root, ready_path="/api/presets", ready_status=200
    )
    return server.start(timeout=30)


async def _hold(ws_url: str, count: int, want: int) -> None:
    """The child: open ``count`` sockets, say ``ready``, then say ``done <seconds>`` once each
    was sent a frame of version ``want`` or later (``want`` read from stdin), with the frames.
    """
    frames = 0
    seen: list[int] = [0] * count
    got = asyncio.Event()
    target = [1 << 30]

    async def one(i: int) -> None:
        nonlocal frames
        async with websockets.connect(ws_url, max_size=None, open_timeout=60) as ws:
            async for text in ws:
                frame = json.loads(text)
                if frame.get("t") != "tournament":
                    continue
                frames += 1
                seen[i] = frame["v"]
                if min(seen) >= target[0]:
                    got.set()

    tasks = []
    for i in range(count):
        tasks.append(asyncio.create_task(one(i)))
        if i % 50 == 49:
            await asyncio.sleep(0.2)
    while min(seen) == 0:
        await asyncio.sleep(0.05)
    opened = frames
    print("ready", flush=True)
    line = await asyncio.get_running_loop().run_in_executor(None, sys.stdin.readline)
    target[0] = int(line)
    started = time.monotonic()
    if min(seen) < target[0]:
        await asyncio.wait_for(got.wait(), 120)
    print(f"done {time.monotonic() - started:.3f} {frames - opened}", flush=True)
    for task in tasks:
        task.cancel()


async def _healthz(url: str, stop: asyncio.Event, out: list[float]) -> None:
    async with httpx.AsyncClient(base_url=url, timeout=30) as http:
        while not stop.is_set():
            began = time.perf_counter()
            r = await http.get("/healthz")
            r.raise_for_status()
            out.append((time.perf_counter() - began) * 1000)
            await asyncio.sleep(0.01)


async def _run(
    server: AppServer, sockets: int, registrations: int, at_once: bool, computers: int
) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=server.url, timeout=60) as http:

        async def player(name: str) -> dict[str, str]:
            r = await http.post("/api/players", json={"name": name})
            r.raise_for_status()
            return {"Authorization": f"Bearer {r.json()['token']}"}

        host = await player("Org")
        r = await http.post("/api/tournaments", json={"name": "Cup", "rounds": 5}, headers=host)
        r.raise_for_status()
        tid, version = r.json()["id"], r.json()["version"]
        for _ in range(computers):
            r = await http.post(
                f"/api/tournaments/{tid}/computers", json={"level": "easy"}, headers=host
            )
            r.raise_for_status()
            version = r.json()["version"]
        entrants = [await player(f"P{i}") for i in range(registrations)]
        holder = await asyncio.create_subprocess_exec(
            sys.executable,
            __file__,
            "--hold",
            f"{server.ws}/ws/tournaments/{tid}",
            "--sockets",
            str(sockets),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
        )
        assert holder.stdin is not None and holder.stdout is not None
        ready = await asyncio.wait_for(holder.stdout.readline(), 120)
        assert ready.strip() == b"ready", ready
        await asyncio.sleep(1.0)  # quiet before
        stop = asyncio.Event()
        health: list[float] = []
        pinger = asyncio.create_task(_healthz(server.url, stop, health))
        await asyncio.sleep(0.5)
        health.clear()
        assert server.proc is not None
        cpu = _cpu_seconds(server.proc.pid) or 0.0
        began = time.monotonic()

        async def register(headers: dict[str, str]) -> int:
            r = await http.post(f"/api/tournaments/{tid}/entrants", headers=headers)
            r.raise_for_status()
            return int(r.json()["version"])

        if at_once:
            last = max(await asyncio.gather(*(register(h) for h in entrants)))
        else:
            last = version
            for headers in entrants:
                last = max(last, await register(headers))
        registered = time.monotonic() - began
        holder.stdin.write(f"{last}\n".encode())
        await holder.stdin.drain()
        done = (await asyncio.wait_for(holder.stdout.readline(), 150)).split()
        cpu = (_cpu_seconds(server.proc.pid) or 0.0) - cpu
        await asyncio.sleep(max(0.0, began + WINDOW - time.monotonic()))
        stop.set()
        await pinger
        await holder.wait()
    return {
        "health": health,
        "registered": registered,
        "delivered": float(done[1]),
        "frames": int(done[2]),
        "cpu": cpu,
    }


def main() -> None:
    """Run the benchmark (or, with ``--hold``, be its socket holder)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--sockets", type=int, default=300)
    parser.add_argument("--registrations", type=int, default=10)
    parser.add_argument(
        "--database",
        choices=["sqlite", "postgres"],
        default="postgres",
        help="a fresh SQLite file, or a fresh migrated database on TEST_DATABASE_URL's server",
    )
    parser.add_argument(
        "--computers", type=int, default=0, help="computer entrants added before the sockets"
    )
    parser.add_argument(
        "--redis", help="a Redis URL for the broker (default: the in-process broker)"
    )
    parser.add_argument(
        "--one-by-one", action="store_true", help="register one after another, not all at once"
    )
    parser.add_argument("--hold", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.hold:
        asyncio.run(_hold(args.hold, args.sockets, 0))
        return
    with tempfile.TemporaryDirectory() as tmp:
        if args.database == "postgres":
            database_url = asyncio.run(postgres.create_migrated(prefix="carc_bench"))
        else:
            database_url = f"sqlite+aiosqlite:///{Path(tmp) / 'watch.db'}"
        server = _start(args.root.resolve(), Path(tmp), database_url, args.redis)
        try:
            result = asyncio.run(
                _run(server, args.sockets, args.registrations, not args.one_by_one, args.computers)
            )
        finally:
            server.stop()
            if args.database == "postgres":
                asyncio.run(postgres.drop(database_url))
    how = "one by one" if args.one_by_one else "at once"
    how += f", {args.computers} computers entered before"
    broker = "redis" if args.redis else "memory"
    print(f"checkout: {args.root.resolve()}; database: {args.database}; broker: {broker}")
    print(
        f"{args.sockets} tournament sockets, {args.registrations} registrations ({how}) in "
        f"{result['registered']:.2f} s; every socket had the last one "
        f"{result['delivered']:.2f} s after; {result['frames']} tournament frames; the server "
        f"used {result['cpu']:.2f} CPU s until then"
    )
    print(_summary("/healthz", result["health"]))
    with open("/proc/loadavg") as f:
        print(f"load average: {f.read().split()[:3]}")


if __name__ == "__main__":
    main()
