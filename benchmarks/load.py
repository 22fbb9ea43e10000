"""Load benchmark of the online service (``make bench-server``): websocket players, real server.

Runs N concurrent 2-player matches, each driven by two websocket clients, against a server on
Postgres + Redis, and prints, per load, a row: actions/s, the p50/p99 of the action → event
round trip (from sending an action frame to receiving the ``events`` frame carrying its action
id), the **server process's CPU per action** (µs, from ``/proc``, inside the measuring window
only), the worst event-loop lag and the longest GC pause inside the server (ms; a probe on its
loop, :mod:`lagprobe`), this client's own CPU share, the games finished and any errors. Under
the row, indented (:mod:`figures`), what a move cost inside the window:

* ``loop:`` stalls (wake-ups of the probe's 10 ms sleep more than 20 ms late) and the worst
  lag; ``GC:`` collections (by generation), the longest pause and how many took over 10 ms;
* ``per action:`` Postgres commits of the bench database, SQL statements the server sent
  (its ``/metrics`` ``carcassonne_db_statements_total``, by pool; transaction control not
  counted), WAL bytes (the whole cluster), updates of the ``matches`` rows and their HOT share
  (``pg_stat_user_tables``), Redis commands;
* ``move committed, µs per action:`` the wall-clock time each subscriber of
  ``rt.move_committed`` took (its ``/metrics`` ``carcassonne_hook_subscriber_seconds_total``),
  the sum, and the moves announced per answered action.

Per action means divided by the actions answered inside the window. The bare pipelines serve
no ``/metrics``: no statements or subscribers for them. Two loads:

* ``latency``: the player to act waits about a second (0.8–1.2 s) before each action;
* ``capacity``: the player to act acts as soon as it is their turn.

The window opens once every socket is connected, after a warm-up. A finished game is followed
by a new match for the same pair, so the load stays constant. Then ``--idle`` spectator
sockets are opened and closed to print the server's memory per idle socket and what is left
after they close. The client stays light: orjson, one parse per frame.

Without ``--url`` the script starts its own server (``carcassonne serve``, one process, from
``--root``: another checkout can be measured the same way) on ``DATABASE_URL`` (default: a
``carcassonne_bench`` database on 127.0.0.1:5432, dropped and created afresh) and ``REDIS_URL``
(default redis://127.0.0.1:6379/0), with rate limits and the per-socket frame budget lifted,
on the memory allocator ``carcassonne serve`` would choose (``--allocator auto``: jemalloc
where installed, app/allocator.py; ``--allocator pymalloc`` for CPython's own, whichever
checkout or bare pipeline runs). A server given with ``--url`` must allow that many players
and actions per token (no CPU, lag or store figures then; its ``/metrics`` are read if served).

    python benchmarks/load.py                       # 10, 100, 300, 500 matches, both loads
    python benchmarks/load.py --matches 300 --mode latency --duration 30
    python benchmarks/load.py --root ../before --database-url ...bench_before   # compare
    python benchmarks/load.py --bare asyncpg        # the yardstick: bare.py on the same load

``BENCH_EXTRA`` (environment): Python statements the started server runs before it serves, to
try a setting without editing the app, e.g.
``BENCH_EXTRA="import app.collector; app.collector.PACE_SECONDS = 0.1;"``.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import orjson
from websockets.asyncio.client import connect

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.allocator import Allocator, allocator_env, find_jemalloc  # noqa: E402
from benchmarks import figures  # noqa: E402
from tests.support.servers import AppServer, free_port, running  # noqa: E402 - the one starter


@dataclass
class Stats:
    """Samples of one run (only those inside the measuring window count)."""

    window_start: float = 0.0
    window_end: float = 0.0
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    #: Server CPU seconds and this client's CPU share inside the window; wall-clock bounds.
    server_cpu: float | None = None
    client_cpu: float = 0.0
    wall_start: float = 0.0
    wall_end: float = 0.0
    errors: dict[str, int] = field(default_factory=dict)
    games: int = 0
    #: Sockets that received their first frame (the window opens once all are in).
    connected: int = 0
    #: The counters' growth inside the window (:func:`figures.counters` after minus before):
    #: Postgres commits, WAL bytes, match-row updates, Redis commands, the server's statements
    #: and the seconds and calls of each ``move committed`` subscriber.
    counted: dict[str, float] = field(default_factory=dict)

    def record(self, sent: float, received: float) -> None:
        """One round trip."""
        if self.window_start <= sent and received <= self.window_end:
            self.latencies.append(received - sent)
            self.actions += 1


async def _rest(
    client: httpx.AsyncClient, method: str, path: str, token: str | None = None, **body: Any
) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    for attempt in range(5):
        try:
            r = await client.request(method, path, json=body or None, headers=headers)
        except httpx.TransportError:  # a kept-alive connection closed under us: try again
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        if r.status_code < 300:
            return r.json()
        if r.status_code == 429 or r.status_code >= 500:
            await asyncio.sleep(0.2 * (attempt + 1))
            continue
        raise RuntimeError(f"{method} {path}: {r.status_code} {r.text}")
    raise RuntimeError(f"{method} {path}: gave up")


async def _new_match(client: httpx.AsyncClient, tokens: list[str]) -> str:
    code = (await _rest(client, "POST", "/api/lobbies", tokens[0], seats=2))["code"]
    await _rest(client, "POST", f"/api/lobbies/{code}/join", tokens[1])
    return str((await _rest(client, "POST", f"/api/lobbies/{code}/start", tokens[0]))["match_id"])


def _choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if state["phase"] == "place_tile":
        x, y, r = rng.choice(state["legal_placements"])
        return {"type": "place_tile", "at": [x, y], "rotation": r}
    if state["legal_spots"] and rng.random() < 0.3:
        return {"type": "place_follower", "spot": rng.choice(state["legal_spots"])}
    return {"type": "pass"}


async def _player(
    ws_url: str,
    match_id: str,
    token: str,
    seat: int,
    mode: str,
    stats: Stats,
    stop: asyncio.Event,
    rng: random.Random,
) -> bool:
    """Play one match as ``seat``; True when the game ended (False: time is up)."""
    pending: dict[str, float] = {}
    counter = 0
    async with connect(
        f"{ws_url}/ws/matches/{match_id}?token={token}", max_size=2**22, ping_interval=None
    ) as ws:
        first = True

        async def act(state: dict[str, Any], version: int) -> None:
            nonlocal counter
            if mode == "latency":
                await asyncio.sleep(rng.uniform(0.8, 1.2))
            if stop.is_set():
                return
            counter += 1
            action_id = f"{seat}-{counter}"
            pending[action_id] = time.perf_counter()
            await ws.send(
                orjson.dumps(
                    {"t": "action", "v": version, "id": action_id, "d": _choose(state, rng)}
                ).decode()
            )

        task: asyncio.Task[None] | None = None
        state: dict[str, Any] | None = None
        while not stop.is_set():
            try:
                # asyncio.timeout, not wait_for (a task per frame: a quarter of a core with
                # 1,000 sockets).
                async with asyncio.timeout(1.0):
                    raw = await ws.recv()
            except TimeoutError:
                continue
            frame = orjson.loads(raw)
            if first:
                first = False
                stats.connected += 1
            kind = frame["t"]
            if kind == "events":
                sent = pending.pop(frame["d"].get("action_id") or "", None)
                if sent is not None:
                    stats.record(sent, time.perf_counter())
                d = frame["d"]
                if d.get("delta") is not None and state is not None:
                    # A live batch: what changed (the legal moves of the seat to act are in it).
                    state.update(d["delta"])
                else:
                    state = d.get("state")  # a catch-up: the whole view on its last batch
            elif kind == "snapshot":
                state = frame["d"]["state"]
            elif kind == "error":
                code = frame["d"]["code"]
                stats.errors[code] = stats.errors.get(code, 0) + 1
                if code == "stale_version":
                    await ws.send(orjson.dumps({"t": "sync", "since": 0}).decode())
                continue
            else:
                continue
            if state is None:
                continue
            if state["phase"] == "game_over":
                if seat == 0:
                    stats.games += 1
                return True
            if state["seat"] == seat:
                if task is not None and not task.done():
                    task.cancel()
                task = asyncio.create_task(act(state, frame["v"]))
        if task is not None:
            task.cancel()
    return False


async def _pair(
    client: httpx.AsyncClient,
    ws_url: str,
    tokens: list[str],
    mode: str,
    stats: Stats,
    stop: asyncio.Event,
    seed: int,
) -> None:
    rng = random.Random(seed)
    while not stop.is_set():
        match_id = await _new_match(client, tokens)
        results = await asyncio.gather(
            *(
                _player(
                    ws_url, match_id, tokens[s], s, mode, stats, stop, random.Random(rng.random())
                )
                for s in (0, 1)
            )
        )
        if not all(results):
            return


async def run(
    url: str, matches: int, mode: str, duration: float, warmup: float, pid: int | None = None
) -> Stats:
    """One load of ``matches`` concurrent matches for ``duration`` seconds after ``warmup``."""
    ws_url = url.replace("http://", "ws://").replace("https://", "wss://")
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(base_url=url, timeout=30, limits=limits) as client:
        gate = asyncio.Semaphore(40)

        async def player(name: str) -> str:
            async with gate:
                return str((await _rest(client, "POST", "/api/players", name=name))["token"])

        tokens = await asyncio.gather(*(player(f"P{i}") for i in range(2 * matches)))
        stats = Stats()
        stop = asyncio.Event()
        stats.window_start = stats.window_end = float("inf")  # nothing counts yet
        pairs = [
            asyncio.create_task(
                _pair(client, ws_url, tokens[2 * i : 2 * i + 2], mode, stats, stop, i)
            )
            for i in range(matches)
        ]
        # Everyone connected (sign-ups and connects are slow on a busy machine), then warm up.
        deadline = time.monotonic() + 300
        while stats.connected < 2 * matches and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        await asyncio.sleep(warmup)
        now = time.perf_counter()
        stats.window_start = now
        stats.window_end = now + duration
        # CPU is counted inside the window only (not the sign-ups and connects, nor the
        # scrapes of /metrics around it).
        before = await figures.counters(client)
        cpu_before, client_before = _cpu_seconds(pid), time.process_time()
        stats.wall_start = time.time()
        await asyncio.sleep(duration)
        cpu_after, client_after = _cpu_seconds(pid), time.process_time()
        stats.wall_end = time.time()
        stats.counted = figures.difference(before, await figures.counters(client))
        if cpu_before is not None and cpu_after is not None:
            stats.server_cpu = cpu_after - cpu_before
        stats.client_cpu = (client_after - client_before) / duration
        stop.set()
        done, _ = await asyncio.wait(pairs, timeout=15)
        for task in pairs:
            task.cancel()
        for task in done:
            if not task.cancelled() and task.exception() is not None:
                name = type(task.exception()).__name__
                stats.errors[name] = stats.errors.get(name, 0) + 1
        return stats


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def _fresh_database(url: str) -> None:
    """Drop and create the bench database: matches left live by an earlier run would time out
    and be played by the server's computer meanwhile, on the CPU this bench measures.
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
def _server(
    database_url: str,
    redis_url: str,
    root: Path,
    lag_log: Path,
    bare: str | None = None,
    allocator: Allocator = "auto",
) -> Any:
    asyncio.run(_fresh_database(database_url))
    port = free_port()
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
        ABANDON_AFTER="3600",
        # The sockets of a finished load leave their matches: no countdown may hand them to
        # the computer (which would play them on the CPU of the next load's window).
        LEAVE_GRACE="86400",
        # Every bench socket comes from 127.0.0.1: lift the per-address cap (issue 10).
        WS_SOCKETS_PER_ADDRESS="100000",
        # And the per-socket frame budget: capacity players send as fast as they are answered
        # (with the default budget they stalled on `rate_limited` refusals).
        WS_FRAME_RATE="100000",
        WS_FRAME_BURST="100000",
    )
    # The environment `carcassonne serve` re-executes itself in (the bench starts `serve()`).
    env = allocator_env(env, allocator, find_jemalloc()) or env
    # The probe measures the event-loop lag inside the server, whichever checkout it runs.
    serve = f"from app.server import serve; serve(host='127.0.0.1', port={port})"
    if bare is not None:  # the yardstick (bare.py), with the same probe
        serve = (
            f"import bare; bare.serve('127.0.0.1', {port}, {database_url!r}, {redis_url!r}, "
            f"{bare!r})"
        )
    code = (
        f"import sys; sys.path.insert(0, {str(ROOT / 'benchmarks')!r}); import lagprobe; "
        f"lagprobe.install({str(lag_log)!r}); {os.environ.get('BENCH_EXTRA', '')} {serve}"
    )
    server = AppServer(
        env,
        lag_log.with_suffix(".server.log"),
        code=code,
        cwd=root,
        port=port,
        ready_path="/readyz",
        ready_status=200,
    )
    with running(server, timeout=60):
        assert server.proc is not None
        yield server.url, server.proc.pid


def _rss_kb(pid: int | None) -> int | None:
    if pid is None:
        return None
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


async def idle_sockets(url: str, pid: int | None, count: int) -> None:
    """Open ``count`` idle spectator sockets on 10 matches; print the server's RSS per socket
    and what is left after they close.
    """
    ws_url = url.replace("http://", "ws://")
    async with httpx.AsyncClient(base_url=url, timeout=30) as client:
        tokens = [
            str((await _rest(client, "POST", "/api/players", name=f"I{i}"))["token"])
            for i in range(20)
        ]
        ids = [await _new_match(client, tokens[2 * i : 2 * i + 2]) for i in range(10)]
        # Two rounds: the first also grows the allocator's arenas, the second reuses them.
        gate = asyncio.Semaphore(50)  # connect 50 at a time (one by one takes minutes)

        async def spectate(i: int) -> Any:
            async with gate:
                ws = await connect(
                    f"{ws_url}/ws/matches/{ids[i % 10]}", ping_interval=None, max_size=2**22
                )
                await ws.recv()
                return ws

        base = _rss_kb(pid) or 0
        rows = []
        for _ in range(2):
            before = _rss_kb(pid) or 0

            sockets = await asyncio.gather(*(spectate(i) for i in range(count)))
            await asyncio.sleep(2)
            full = _rss_kb(pid)
            await asyncio.gather(*(ws.close() for ws in sockets))
            await asyncio.sleep(5)  # the server gives memory back a quiet second after
            rows.append((before, full or 0, _rss_kb(pid) or 0))
        if pid is not None:
            (b1, f1, a1), (b2, f2, a2) = rows
            print(
                f"idle sockets {count}: {(f1 - b1) / count:.1f} KB per socket "
                f"({(f2 - b2) / count:.1f} KB the second time); RSS {base} KB before, "
                f"{f1} KB with them, {a1} KB after they closed "
                f"({a2} KB after the second round): {a2 - base:+d} KB kept",
                flush=True,
            )


def _cpu_seconds(pid: int | None) -> float | None:
    if pid is None:
        return None
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except (OSError, IndexError, ValueError):
        return None


def _print_run(
    mode: str, matches: int, stats: Stats, duration: float, probe: figures.Probe | None
) -> None:
    """A run's row (the columns of :func:`main`'s header), then what a move cost
    (:func:`figures.detail_lines`).
    """
    rate = stats.actions / duration
    cpu = (
        stats.server_cpu * 1e6 / max(stats.actions, 1)
        if stats.server_cpu is not None
        else float("nan")
    )
    lag, gc_ms = (probe.worst_lag_ms, probe.gc_max_ms) if probe else (float("nan"),) * 2
    lat = [x * 1000 for x in stats.latencies]
    p50 = statistics.median(lat) if lat else 0.0
    print(
        f"{mode:9} {matches:7d} {rate:10.0f} {p50:8.1f} "
        f"{_percentile(lat, 0.99):8.1f} {cpu:21.0f} {lag:10.1f} {gc_ms:9.1f} "
        f"{stats.client_cpu:10.0%} {stats.games:6d}  {stats.errors or ''}",
        flush=True,
    )
    for line in figures.detail_lines(stats.counted, stats.actions, probe):
        print(line, flush=True)


def main() -> int:
    """Run the loads and print one line per (mode, matches)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--url", help="a running server (default: start one)")
    parser.add_argument("--matches", default="10,100,300,500")
    parser.add_argument("--mode", choices=("latency", "capacity", "both"), default="both")
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--warmup", type=float, default=5.0)
    parser.add_argument(
        "--idle", type=int, default=1000, help="idle sockets for the memory measure (0: skip)"
    )
    parser.add_argument(
        "--root",
        type=Path,
        default=ROOT,
        help="the checkout whose server to run (to compare two versions)",
    )
    parser.add_argument(
        "--database-url",
        default=os.environ.get(
            "DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/carcassonne_bench"
        ),
    )
    parser.add_argument(
        "--redis-url", default=os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")
    )
    parser.add_argument(
        "--bare",
        choices=("sqlalchemy", "asyncpg"),
        help="measure the bare pipeline (bare.py: INSERT, PUBLISH, send) instead of our server",
    )
    parser.add_argument(
        "--allocator",
        choices=("auto", "jemalloc", "pymalloc"),
        default="auto",
        help="the started server's memory allocator (auto: as `carcassonne serve` chooses)",
    )
    args = parser.parse_args()
    with contextlib.suppress(ImportError):
        import uvloop

        uvloop.install()
    counts = [int(n) for n in args.matches.split(",") if n]
    modes = ["latency", "capacity"] if args.mode == "both" else [args.mode]
    lag_log = Path(os.environ.get("TMPDIR", "/tmp")) / f"carcassonne-lag-{os.getpid()}.log"
    lag_log.unlink(missing_ok=True)
    if not args.url:
        figures.STORES.update(database=args.database_url, redis=args.redis_url)
    server = (
        _server(args.database_url, args.redis_url, args.root, lag_log, args.bare, args.allocator)
        if not args.url
        else None
    )
    try:
        with (
            server if server is not None else contextlib.nullcontext((args.url, None)) as (
                url,
                pid,
            )
        ):
            what = f"bare pipeline, {args.bare}" if args.bare else str(args.root)
            jemalloc = allocator_env(os.environ, args.allocator, find_jemalloc()) is not None
            print(
                f"server {url} ({what}, {'jemalloc' if jemalloc else 'pymalloc'})  "
                f"duration {args.duration}s after warm-up"
            )
            print(
                f"{'mode':9} {'matches':>7} {'actions/s':>10} {'p50 ms':>8} {'p99 ms':>8} "
                f"{'server cpu us/action':>21} {'max lag ms':>10} {'max gc ms':>9} "
                f"{'client cpu':>10} "
                f"{'games':>6}  errors"
            )
            for mode in modes:
                for n in counts:
                    # Connecting hundreds of sockets takes a moment: warm up longer for more.
                    warmup = max(args.warmup, n / 50)
                    stats = asyncio.run(run(url, n, mode, args.duration, warmup, pid))
                    probe = (
                        figures.probe_figures(lag_log, stats.wall_start, stats.wall_end)
                        if server is not None
                        else None
                    )
                    _print_run(mode, n, stats, args.duration, probe)
            if args.idle:
                asyncio.run(idle_sockets(url, pid, args.idle))
    finally:
        lag_log.unlink(missing_ok=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
