"""Chaos run of the online service (``make soak``): three instances, many matches, faults.

Starts three ``carcassonne serve`` processes (on jemalloc where installed, as ``serve``
chooses) on a Postgres database of their own (created afresh, dropped at the end) and a
**private** ``redis-server`` on a free port (so restarting Redis harms nobody else on the
machine), then client processes (``benchmarks/soak_client.py``) that keep ``--matches``
tables playing at once — 2–5 seats, every rule set (base, River, first edition, each
first-edition option, Wheel of Fortune), some with spectators — through the public websocket
protocol only, a process of spectators that join and leave all the time, and sockets spread
over the three instances that reconnect with ``since=`` to another one when theirs dies.
Meanwhile, at random moments (``--seed``): SIGKILL an instance and start it again; Redis pauses
writes for 3 s (``CLIENT PAUSE 3000 WRITE``); Redis restarts; Postgres restarts (the machine's
cluster with ``pg_ctlcluster``, or ``--postgres private``: a cluster of the run's own);
a client process is SIGSTOPped for 20 s, then SIGCONTed.

At the end it prints and checks (exit status 1 if any fails):

* every match the tables started finished;
* acknowledged actions lost: 0 (each action whose ``events`` frame its client saw is in the
  stored log, at that version, with those events); every batch any socket saw is the log's;
* duplicated: 0 (no socket got a version twice or out of order; no client action id twice in
  the log) and no socket skipped a version;
* the longest time a connected socket stayed behind the database's version ≤ 5 s (the database
  sampled every 0.25 s against each socket's last version; time disconnected or SIGSTOPped is
  left out);
* every finished match's record (``GET /api/matches/{id}/record``) replays with
  ``app.engine.replay`` to the scores the service stored;
* no 5xx answer (clients' and the instances' access logs; ``/healthz`` answering 503 while
  Redis is down is its contract and is left out); no traceback in any instance's log.

    python benchmarks/soak.py                      # 30 tables, 20 minutes, faults
    python benchmarks/soak.py --short              # ~2 minutes, every fault kind once
    python benchmarks/soak.py --faults off --matches 10 --minutes 3 --seed 7
    python benchmarks/soak.py --short --postgres private   # restart a Postgres of its own

Everything runs on 127.0.0.1. Every process it starts is stopped on the way out (also on
SIGTERM/SIGINT). Logs stay in ``--logs`` (default a temporary folder, kept when a check fails).
"""

from __future__ import annotations

import argparse
import asyncio
import atexit
import contextlib
import json
import os
import random
import re
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from app.engine import EngineError, replay  # noqa: E402
from benchmarks.soak_client import events_hash  # noqa: E402
from tests.support.servers import AppServer  # noqa: E402 - the one server starter

PG_ADMIN_URL = os.environ.get(
    "TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
)
#: The delivery bound of docs/API.md, "Delivery guarantee".
MAX_BEHIND = 5.0
SAMPLE_EVERY = 0.25
STOP_CLIENT_FOR = 20.0
_ACCESS = re.compile(r'"(GET|POST|PUT|PATCH|DELETE|WebSocket) (\S+)(?: HTTP/[\d.]+)?" (5\d\d)')


def free_port() -> int:
    """A TCP port on 127.0.0.1 nobody listens on right now."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _dsn(url: str) -> str:
    return url.replace("postgresql+asyncpg://", "postgresql://", 1)


def _stop(proc: subprocess.Popen[bytes] | None, sig: int = signal.SIGKILL) -> None:
    """Signal ``proc`` (continued first, in case it is stopped) and reap it."""
    if proc is None or proc.poll() is not None:
        return
    with contextlib.suppress(ProcessLookupError):
        os.kill(proc.pid, signal.SIGCONT)
        proc.send_signal(sig)
    try:
        proc.wait(10)
    except subprocess.TimeoutExpired:
        proc.kill()
        proc.wait(10)


# -- the services ------------------------------------------------------------------------


class Instance:
    """One ``carcassonne serve`` process on a fixed port (a restart reuses the port)."""

    def __init__(self, name: str, env: dict[str, str], logs: Path) -> None:
        self.name = name
        self.port = free_port()
        self.env = env
        self.log = logs / f"instance-{name}.log"
        self.proc: subprocess.Popen[bytes] | None = None
        self.starts = 0
        self.jemalloc = False

    def start(self) -> None:
        """Start the process (it migrates, then serves); does not wait."""
        self.starts += 1
        with self.log.open("ab") as out:
            out.write(f"\n=== soak: start #{self.starts} at {time.time():.3f}\n".encode())
            out.flush()
        code = (
            "from app.cli import main; main(['serve', '--host', '127.0.0.1', '--port', '{port}'])"
        )
        self.proc = AppServer(self.env, self.log, code=code, port=self.port).launch().proc

    async def ready(self, timeout: float = 120) -> None:
        """Wait until it answers ``/healthz`` (any status); raises RuntimeError otherwise."""
        deadline = time.monotonic() + timeout
        async with httpx.AsyncClient(timeout=2) as http:
            while time.monotonic() < deadline:
                assert self.proc is not None
                if self.proc.poll() is not None:
                    raise RuntimeError(f"instance {self.name} exited with {self.proc.returncode}")
                with contextlib.suppress(httpx.HTTPError):
                    await http.get(f"http://127.0.0.1:{self.port}/healthz")
                    with contextlib.suppress(OSError):
                        maps = Path(f"/proc/{self.proc.pid}/maps").read_text()
                        self.jemalloc = "libjemalloc" in maps
                    return
                await asyncio.sleep(0.2)
        raise RuntimeError(f"instance {self.name} did not answer in {timeout:.0f} s")

    def kill(self) -> None:
        """SIGKILL, no shutdown."""
        _stop(self.proc, signal.SIGKILL)

    def stop(self) -> None:
        """SIGTERM (SIGKILL after 10 s)."""
        _stop(self.proc, signal.SIGTERM)


class Redis:
    """A ``redis-server`` of the run's own on a free port (as ``.ci/run`` starts the
    machine's: no persistence), so it can be paused and restarted without harming others.
    """

    def __init__(self, logs: Path) -> None:
        self.port = free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.dir = logs
        self.proc: subprocess.Popen[bytes] | None = None

    async def start(self) -> None:
        """Start it and wait until it answers PING."""
        import redis.asyncio as aredis

        with (self.dir / "redis.log").open("ab") as out:
            self.proc = subprocess.Popen(
                ["redis-server", "--port", str(self.port), "--bind", "127.0.0.1"]
                + ["--save", "", "--appendonly", "no", "--dir", str(self.dir)],
                stdout=out,
                stderr=subprocess.STDOUT,
            )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            client = aredis.Redis.from_url(self.url, socket_connect_timeout=0.5)
            try:
                if await client.ping():
                    return
            except Exception:  # noqa: BLE001 - not up yet
                await asyncio.sleep(0.1)
            finally:
                await client.aclose()
        raise RuntimeError("the private redis-server did not start")

    async def pause_writes(self, ms: int) -> None:
        """``CLIENT PAUSE <ms> WRITE``."""
        import redis.asyncio as aredis

        client = aredis.Redis.from_url(self.url, socket_connect_timeout=2)
        try:
            await client.execute_command("CLIENT", "PAUSE", str(ms), "WRITE")
        finally:
            await client.aclose()

    def kill(self) -> None:
        """SIGKILL (nothing is persisted anyway)."""
        _stop(self.proc, signal.SIGKILL)


class Postgres:
    """The run's database, on the machine's cluster (``machine``: restarted with
    ``pg_ctlcluster``) or on a cluster of the run's own (``private``: ``initdb`` as the
    ``postgres`` user into the log folder, on a free port, restarted with a fast shutdown).
    """

    def __init__(self, kind: str, logs: Path) -> None:
        self.kind = kind
        self.logs = logs
        self.name = f"carc_soak_{secrets.token_hex(4)}"
        self.proc: subprocess.Popen[bytes] | None = None
        #: The private cluster's folder: under the system's temporary folder, which the
        #: ``postgres`` user can reach (a test's own temporary folder is often private).
        self.data = Path(tempfile.mkdtemp(prefix="carcassonne-soak-pg-")) / "data"
        self.port = 5432 if kind == "machine" else free_port()
        self.admin = (
            PG_ADMIN_URL
            if kind == "machine"
            else f"postgresql+asyncpg://postgres@127.0.0.1:{self.port}/postgres"
        )
        base = self.admin.rpartition("/")[0]
        self.url = f"{base}/{self.name}"

    def _bin(self, name: str) -> str:
        found = sorted(Path("/usr/lib/postgresql").glob(f"*/bin/{name}"))
        if not found:
            raise RuntimeError(f"no {name} under /usr/lib/postgresql")
        return str(found[-1])

    def _user(self) -> dict[str, Any]:
        """Run as ``postgres`` when root (Postgres refuses root): the process itself, not a
        wrapper such as ``runuser``, so that signals reach the postmaster.
        """
        if os.geteuid() != 0:
            return {}
        return {"user": "postgres", "group": "postgres", "extra_groups": []}

    async def start(self) -> None:
        """Create the run's database (and first the private cluster)."""
        if self.kind == "private":
            if not self.data.exists():
                self.data.mkdir()
                if os.geteuid() == 0:
                    shutil.chown(self.data.parent, "postgres", "postgres")
                    shutil.chown(self.data, "postgres", "postgres")
                subprocess.run(
                    [self._bin("initdb"), "-D", str(self.data), "-U", "postgres"]
                    + ["--auth", "trust", "-E", "UTF8"],
                    check=True,
                    stdout=subprocess.DEVNULL,
                    cwd=self.data.parent,
                    **self._user(),
                )
            await self._run_private()
        await self._admin(f'CREATE DATABASE "{self.name}"')

    async def _run_private(self) -> None:
        with (self.logs / "postgres.log").open("ab") as out:
            self.proc = subprocess.Popen(
                [self._bin("postgres"), "-D", str(self.data), "-p", str(self.port)]
                + ["-c", "listen_addresses=127.0.0.1"]
                + ["-c", f"unix_socket_directories={self.data.parent}"]
                + ["-c", "fsync=off", "-c", "max_connections=200"],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=self.data.parent,
                **self._user(),
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.proc.poll() is not None:
                raise RuntimeError(f"the private Postgres exited with {self.proc.returncode}")
            with contextlib.suppress(Exception):
                await self._admin("SELECT 1")
                return
            await asyncio.sleep(0.2)
        raise RuntimeError("the private Postgres did not start")

    async def _admin(self, statement: str) -> None:
        import asyncpg

        conn = await asyncpg.connect(_dsn(self.admin), timeout=5)
        try:
            await conn.execute(statement)
        finally:
            await conn.close()

    async def restart(self) -> str:
        """Restart the cluster; returns what was done."""
        if self.kind == "private":
            old = self.proc
            _stop(old, signal.SIGINT)  # a fast shutdown, as pg_ctl restart -m fast
            if old is not None and old.returncode != 0:
                raise RuntimeError(f"the private Postgres ended with {old.returncode}")
            await self._run_private()
            return "private cluster: fast shutdown, start"
        version = sorted(os.listdir("/etc/postgresql"))[-1]
        argv = ["pg_ctlcluster", "--skip-systemctl-redirect", version, "main", "restart"]
        proc = await asyncio.create_subprocess_exec(
            *argv, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.STDOUT
        )
        out, _ = await asyncio.wait_for(proc.communicate(), 120)
        return f"{' '.join(argv)}: exit {proc.returncode} {out.decode().strip()[:200]}"

    def drop(self) -> None:
        """Drop the run's database; stop the private cluster."""
        with contextlib.suppress(Exception):
            asyncio.run(self._admin(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)'))
        _stop(self.proc, signal.SIGINT)
        shutil.rmtree(self.data.parent, ignore_errors=True)


# -- the run -----------------------------------------------------------------------------


@dataclass
class Fault:
    """One fault: what, when (unix time), details."""

    kind: str
    start: float
    end: float = 0.0
    detail: str = ""


@dataclass
class Client:
    """A client process (``benchmarks/soak_client.py``)."""

    name: str
    config: Path
    out: Path
    proc: subprocess.Popen[bytes] | None = None
    stopped: list[tuple[float, float]] = field(default_factory=list)


class Run:
    """One chaos run; :meth:`main` returns the report's failures (empty: passed)."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        if args.logs:
            self.logs = Path(args.logs).resolve()
            self.logs.mkdir(parents=True, exist_ok=True)
        else:
            self.logs = Path(tempfile.mkdtemp(prefix="carcassonne-soak-"))
        self.pg = Postgres(args.postgres, self.logs)
        self.redis = Redis(self.logs)
        self.instances: list[Instance] = []
        self.clients: list[Client] = []
        self.faults: list[Fault] = []
        self.samples: list[tuple[float, dict[str, int]]] = []
        self.started = time.time()
        self.report: list[str] = []
        self.failures: list[str] = []

    # -- setup and teardown ------------------------------------------------------------

    def env(self) -> dict[str, str]:
        """The instances' environment."""
        env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "REDIS_URL")}
        env.update(
            ENVIRONMENT="test",
            SECRET_KEY=secrets.token_urlsafe(32),
            DATABASE_URL=self.pg.url,
            REDIS_URL=self.redis.url,
            CHANNEL_PREFIX=f"soak-{secrets.token_hex(4)}",
            LOG_LEVEL="info",  # the access log: every 5xx is seen
            LOBBY_RATE_PER_MINUTE="100000",
            LOBBY_BURST="100000",
            PLAYER_RATE_PER_MINUTE="100000",
            PLAYER_BURST="100000",
            WS_SOCKETS_PER_ADDRESS="100000",  # every client comes from 127.0.0.1
            BOT_WORKERS="1",
            DB_POOL_SIZE="5",
            DB_MAX_OVERFLOW="5",
            MEMORY_ALLOCATOR="auto",
        )
        return env

    async def setup(self) -> None:
        """Database, Redis, three instances (migrated once first)."""
        from app.db.migrate import upgrade

        await self.pg.start()
        await asyncio.to_thread(upgrade, self.pg.url, ROOT / "migrations")
        await self.redis.start()
        env = self.env()
        self.instances = [Instance(n, env, self.logs) for n in ("a", "b", "c")]
        for inst in self.instances:
            inst.start()
        await asyncio.gather(*(inst.ready() for inst in self.instances))

    def teardown(self) -> None:
        """Stop every process this run started; drop the database."""
        for client in self.clients:
            _stop(client.proc, signal.SIGKILL)
        for inst in self.instances:
            inst.stop()
        self.redis.kill()
        self.pg.drop()

    def start_clients(self) -> None:
        """The players' processes and the churn process."""
        args = self.args
        now = time.time()
        new_until = now + args.duration
        base = {
            "seed": args.seed,
            "ports": [i.port for i in self.instances],
            "new_until": new_until,
            "hard_stop": new_until + args.drain,
            "stop_file": str(self.logs / "stop"),
            "think": args.think,
            "rejoin": args.rejoin,
            "stall": args.stall,
            "first_rules": self.rng.randrange(7),
        }
        procs = max(1, args.client_procs)
        for p in range(procs):
            tables = list(range(p, args.matches, procs))
            self._client(f"players{p}", dict(base, role="players", tables=tables))
        self._client("churn", dict(base, role="churn", churners=args.churners))

    def _client(self, name: str, cfg: dict[str, Any]) -> None:
        cfg["proc"] = name
        config = self.logs / f"{name}.json"
        config.write_text(json.dumps(cfg))
        client = Client(name, config, self.logs / f"{name}.out.json")
        with (self.logs / f"{name}.log").open("ab") as out:
            client.proc = subprocess.Popen(
                [sys.executable, str(ROOT / "benchmarks" / "soak_client.py")]
                + [str(config), str(client.out)],
                stdout=out,
                stderr=subprocess.STDOUT,
                cwd=ROOT,
            )
        self.clients.append(client)

    # -- during the run ----------------------------------------------------------------

    async def sample(self, done: asyncio.Event) -> None:
        """The database's version of every match, every ``SAMPLE_EVERY`` s."""
        import asyncpg

        conn = None
        while not done.is_set():
            try:
                if conn is None:
                    conn = await asyncpg.connect(_dsn(self.pg.url), timeout=3)
                before = time.time()
                rows = await conn.fetch("SELECT id, version FROM matches")
                after = time.time()
                self.samples.append(((before + after) / 2, {r["id"]: r["version"] for r in rows}))
            except Exception:  # noqa: BLE001 - Postgres restarting: try again
                if conn is not None:
                    with contextlib.suppress(Exception):
                        conn.terminate()
                conn = None
            await asyncio.sleep(SAMPLE_EVERY)
        if conn is not None:
            await conn.close()

    def schedule(self) -> list[tuple[float, str]]:
        """When (seconds after the start) which fault happens."""
        args = self.args
        if args.faults == "off":
            return []
        first, last = min(12.0, args.duration / 6), args.duration - 8
        pg_left = args.pg_restarts
        if args.short:
            kinds = ["kill", "redis_pause", "redis_restart", "client_stop", "kill"]
            kinds += ["pg_restart"] * pg_left
            self.rng.shuffle(kinds)
            step = (last - first) / max(1, len(kinds) - 1)
            return [(first + i * step, k) for i, k in enumerate(kinds)]
        plan: list[tuple[float, str]] = []
        at = first
        kinds = ["kill", "kill", "redis_pause", "redis_restart", "client_stop", "pg_restart"]
        while at < last:
            kind = self.rng.choice(kinds)
            if kind == "pg_restart":
                if pg_left <= 0:
                    continue
                pg_left -= 1
            plan.append((at, kind))
            at += self.rng.uniform(15, 40)
        return plan

    async def chaos(self, done: asyncio.Event) -> None:
        """Run the scheduled faults (one server-side fault at a time; a client stop may overlap
        the others).
        """
        side: set[asyncio.Task[None]] = set()
        for at, kind in self.schedule():
            delay = self.started + at - time.time()
            if delay > 0:
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(done.wait(), delay)
            if done.is_set():
                break
            if kind == "client_stop":
                task = asyncio.create_task(self.stop_client())
                side.add(task)
                task.add_done_callback(side.discard)
                continue
            try:
                await self.fault(kind)
            except Exception as exc:  # noqa: BLE001 - reported, the run goes on
                self.failures.append(f"fault {kind} failed: {type(exc).__name__}: {exc}")
        if side:
            await asyncio.gather(*side)

    async def fault(self, kind: str) -> None:
        """One server-side fault, then wait until the service is whole again."""
        fault = Fault(kind, time.time())
        self.faults.append(fault)
        if kind == "kill":
            inst = self.rng.choice(self.instances)
            inst.kill()
            down = self.rng.uniform(0.5, 3.0)
            await asyncio.sleep(down)
            inst.start()
            await inst.ready()
            fault.detail = f"instance {inst.name} (:{inst.port}) SIGKILLed, down {down:.1f} s"
        elif kind == "redis_pause":
            await self.redis.pause_writes(3000)
            await asyncio.sleep(3)
            fault.detail = "CLIENT PAUSE 3000 WRITE"
        elif kind == "redis_restart":
            self.redis.kill()
            await asyncio.sleep(1.0)
            await self.redis.start()
            fault.detail = "private redis-server SIGKILLed, started again after 1 s"
        elif kind == "pg_restart":
            fault.detail = await self.pg.restart()
        fault.end = time.time()
        print(
            f"[{fault.start - self.started:7.1f} s] fault {kind}: {fault.detail} "
            f"({fault.end - fault.start:.1f} s)",
            flush=True,
        )

    async def stop_client(self) -> None:
        """SIGSTOP a client process for ``STOP_CLIENT_FOR`` s, then SIGCONT."""
        running = [c for c in self.clients if c.proc is not None and c.proc.poll() is None]
        if not running:
            return
        client = self.rng.choice(running)
        assert client.proc is not None
        fault = Fault("client_stop", time.time(), detail=f"client process {client.name}")
        self.faults.append(fault)
        os.kill(client.proc.pid, signal.SIGSTOP)
        try:
            await asyncio.sleep(STOP_CLIENT_FOR)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.kill(client.proc.pid, signal.SIGCONT)
        fault.end = time.time()
        client.stopped.append((fault.start, fault.end))
        print(
            f"[{fault.start - self.started:7.1f} s] fault client_stop: {client.name} "
            f"SIGSTOPped {STOP_CLIENT_FOR:.0f} s",
            flush=True,
        )

    async def progress(self, done: asyncio.Event) -> None:
        """A line every 15 s: live and finished matches, per the samples."""
        while not done.is_set():
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(done.wait(), 15)
            if self.samples:
                t, versions = self.samples[-1]
                print(
                    f"[{t - self.started:7.1f} s] matches {len(versions)}, "
                    f"versions {sum(versions.values())}",
                    flush=True,
                )

    async def main(self) -> None:
        """Set up, play with faults until the players are done, check."""
        args = self.args
        await self.setup()
        alloc = "jemalloc" if all(i.jemalloc for i in self.instances) else "pymalloc"
        print(
            f"soak: 3 instances on :{', :'.join(str(i.port) for i in self.instances)} "
            f"({alloc}); Postgres {args.postgres} (database {self.pg.name}); private Redis "
            f":{self.redis.port}; {args.matches} tables for {args.duration:.0f} s, "
            f"faults {args.faults}, seed {args.seed}; logs {self.logs}",
            flush=True,
        )
        self.started = time.time()
        self.start_clients()
        done = asyncio.Event()
        tasks = [
            asyncio.create_task(self.sample(done)),
            asyncio.create_task(self.chaos(done)),
            asyncio.create_task(self.progress(done)),
        ]
        players = [c for c in self.clients if c.name != "churn"]
        limit = self.started + args.duration + args.drain + 60
        while time.time() < limit and any(c.proc and c.proc.poll() is None for c in players):
            await asyncio.sleep(0.5)
        (self.logs / "stop").touch()
        churn = next(c for c in self.clients if c.name == "churn")
        while time.time() < limit and churn.proc and churn.proc.poll() is None:
            await asyncio.sleep(0.5)
        done.set()
        await asyncio.gather(*tasks)
        for client in self.clients:
            if client.proc is not None and client.proc.poll() is None:
                self.failures.append(f"client process {client.name} did not end: killed")
                _stop(client.proc)
        await self.check()

    # -- the checks --------------------------------------------------------------------

    def fail_unless(self, ok: bool, line: str) -> None:
        """One line of the report; a failure when not ``ok``."""
        self.report.append(f"{'ok  ' if ok else 'FAIL'} {line}")
        if not ok:
            self.failures.append(line)

    async def check(self) -> None:
        """Every check of the module docstring, into ``report`` and ``failures``."""
        seen: list[dict[str, Any]] = []
        for client in self.clients:
            if client.out.exists():
                seen.append(json.loads(client.out.read_text()))
            else:
                self.failures.append(f"client process {client.name} wrote no results")
        log = await self._stored_log()
        # Finished matches.
        matches = [m for s in seen for m in s["matches"]]
        unfinished = [m for m in matches if not m["finished"]]
        finished = len(matches) - len(unfinished)
        by_rules: dict[str, int] = {}
        for m in matches:
            by_rules[m["rules"]] = by_rules.get(m["rules"], 0) + 1
        live = [m for m, row in log["matches"].items() if row["status"] != "finished"]
        self.fail_unless(
            not unfinished and not live and finished > 0,
            f"matches finished: {finished} of {len(matches)} "
            f"({', '.join(f'{k} {v}' for k, v in sorted(by_rules.items()))}); "
            f"not finished in the database: {len(live)} of {len(log['matches'])}",
        )
        for m in unfinished:
            db = log["matches"].get(m["id"], {})
            self.report.append(
                f"     unfinished {m['id']} ({m['rules']}, {m['seats']} seats): clients {m['ends']}"
                f" at v{m['version']}; database {db.get('status')} v{db.get('version')}; "
                + await self._describe(m["id"])
            )
        # Acknowledged actions lost; batches seen that are not the log's.
        rows = log["rows"]
        acks = [a for s in seen for a in s["acks"]]
        lost = [
            a for a in acks if rows.get((a["match"], a["v"])) != (a["seat"], a["id"], a["events"])
        ]
        self.fail_unless(not lost, f"acknowledged actions lost: {len(lost)} of {len(acks)}")
        for a in lost[:5]:
            self.report.append(f"     lost {a}; log has {rows.get((a['match'], a['v']))}")
        differ = [
            (m, v, h)
            for s in seen
            for m, v, h in s["batches"]
            if (row := rows.get((m, v))) is None or row[2] != h
        ]
        conflicts = [c for s in seen for c in s["conflicts"]]
        self.fail_unless(
            not differ and not conflicts,
            f"batches seen that differ from the log: {len(differ)} "
            f"(sockets disagreeing: {len(conflicts)})",
        )
        # Duplicates and skipped versions.
        dup_frames = [d for s in seen for d in s["duplicates"]]
        self.fail_unless(
            not dup_frames and not log["dup_ids"],
            f"duplicated: {len(dup_frames)} deliveries on a socket, "
            f"{len(log['dup_ids'])} client action ids twice in the log",
        )
        for d in dup_frames[:5]:
            self.report.append(f"     duplicate {d}")
        gaps = [g for s in seen for g in s["gaps"]]
        self.fail_unless(not gaps, f"versions skipped on a socket: {len(gaps)}")
        for g in gaps[:8]:
            self.report.append(
                f"     skipped {g['match']} {g['who']} on :{g['port']}: v{g['from']} → v{g['to']}"
                f" ({'live batch' if g['live'] else 'catch-up'}) at "
                f"{g['t'] - self.started:.1f} s"
            )
        # Lag.
        worst, where = self._max_behind(seen)
        self.fail_unless(
            worst <= MAX_BEHIND,
            f"longest a connected socket stayed behind the database: {worst:.2f} s "
            f"(bound {MAX_BEHIND:.0f} s){where}",
        )
        # Replays.
        await self._replays(log, matches)
        # 5xx and tracebacks.
        client_5xx = [h for s in seen for h in s["http_5xx"]]
        log_5xx, tracebacks = self._server_logs()
        self.fail_unless(
            not client_5xx and not log_5xx,
            f"5xx answers: {len(client_5xx)} seen by clients, {len(log_5xx)} in access logs",
        )
        for h in client_5xx[:3]:
            self.report.append(f"     {h}")
        for line in log_5xx[:5]:
            self.report.append(f"     {line}")
        self.fail_unless(
            not tracebacks, f"tracebacks in the instances' logs: {len(tracebacks)} kinds"
        )
        for name, excerpt in tracebacks[:40]:
            # The log line before it, the app's innermost frame, the exception.
            before, frames, exc = excerpt[0], excerpt[1:-1], excerpt[-1]
            lines = [x for x in (before, *frames[-1:], exc) if x]
            self.report.append(f"     {name}:\n" + "\n".join(f"       {x}" for x in lines))
        # What else happened.
        problems = [p for s in seen for p in s["problems"]]
        errors: dict[str, int] = {}
        for s in seen:
            for code, n in s["errors"].items():
                errors[code] = errors.get(code, 0) + n
        self.report.append(
            f"     actions sent {sum(s['sent'] for s in seen)}, acknowledged {len(acks)}; "
            f"sockets {sum(len(s['sockets']) for s in seen)}, reconnects "
            f"{sum(s['reconnects'] for s in seen)}; error frames {errors or 'none'}"
        )
        for p in problems[:8]:
            self.report.append(f"     client: {p}")
        for e in [e for s in seen for e in s["error_samples"]][:6]:
            self.report.append(f"     error frame: {e}")
        kinds: dict[str, int] = {}
        for f in self.faults:
            kinds[f.kind] = kinds.get(f.kind, 0) + 1
        self.report.append(
            f"     faults: {', '.join(f'{k} ×{v}' for k, v in sorted(kinds.items())) or 'none'}"
        )
        for f in sorted(self.faults, key=lambda f: f.start):
            self.report.append(
                f"       {f.start - self.started:7.1f} s  {f.kind}: {f.detail} "
                f"({f.end - f.start:.1f} s)"
            )
        with contextlib.suppress(OSError):  # for a second look at a failed run
            (self.logs / "samples.json").write_text(json.dumps(self.samples))

    async def _stored_log(self) -> dict[str, Any]:
        """The action log and the matches, read straight from the database."""
        import asyncpg

        for _ in range(60):
            try:
                conn = await asyncpg.connect(_dsn(self.pg.url), timeout=5)
                break
            except Exception:  # noqa: BLE001 - Postgres may still be restarting
                await asyncio.sleep(1)
        else:
            raise RuntimeError("the database does not answer")
        try:
            actions = await conn.fetch(
                "SELECT match_id, seq, seat, client_id, events FROM match_actions"
            )
            dup_ids = await conn.fetch(
                "SELECT match_id, seat, client_id, count(*) FROM match_actions "
                "WHERE client_id IS NOT NULL GROUP BY 1, 2, 3 HAVING count(*) > 1"
            )
            ms = await conn.fetch("SELECT id, status, version, scores FROM matches")
        finally:
            await conn.close()
        rows = {
            (r["match_id"], r["seq"]): (
                r["seat"],
                r["client_id"],
                events_hash(json.loads(r["events"])),
            )
            for r in actions
        }

        matches = {
            r["id"]: {
                "status": r["status"],
                "version": r["version"],
                "scores": json.loads(r["scores"]) if isinstance(r["scores"], str) else r["scores"],
            }
            for r in ms
        }
        return {"rows": rows, "dup_ids": [dict(r) for r in dup_ids], "matches": matches}

    async def _describe(self, match: str) -> str:
        """Where a match stands, as the service says (for a match that did not end)."""
        ports = [i.port for i in self.instances if i.proc and i.proc.poll() is None]
        try:
            async with httpx.AsyncClient(timeout=10) as http:
                base = f"http://127.0.0.1:{ports[0]}/api/matches/{match}"
                got = (await http.get(base)).json()
                batches = (await http.get(f"{base}/events?since=0")).json()["batches"]
        except (httpx.HTTPError, IndexError, KeyError, ValueError) as exc:
            return f"(could not read it: {exc})"
        st = got.get("state") or {}
        clock = got.get("clock") or {}
        last = [
            f"v{b['v']} seat {b['seat']} {b.get('action_id')} by {b.get('by')}: "
            + ",".join(e.get("type", "?") for e in b["events"])
            for b in batches[-4:]
        ]
        return (
            f"service: phase {st.get('phase')} seat {st.get('seat')} tile {st.get('tile')} "
            f"tiles left {st.get('tiles_remaining')} "
            f"placements {len(st.get('legal_placements') or [])}"
            f" spots {st.get('legal_spots')} plague {st.get('plague')}; away {clock.get('away')} "
            f"auto {clock.get('auto')}; last batches: {' | '.join(last)}"
        )

    def _max_behind(self, seen: list[dict[str, Any]]) -> tuple[float, str]:
        """The longest time a connected, running socket's last version stayed below the
        database's, from the samples; and where it happened.
        """
        stops = {c.name: c.stopped for c in self.clients}
        by_match: dict[str, list[tuple[float, int]]] = {}
        for t, versions in self.samples:
            for match, v in versions.items():
                by_match.setdefault(match, []).append((t, v))
        worst, where = 0.0, ""
        end = time.time()
        for s in seen:
            windows = stops.get(s["proc"], [])
            for sock in s["sockets"]:
                series = by_match.get(sock["match"])
                if not series:
                    continue
                opened = sock["opened"]
                closed = sock["closed"] or end
                recv = sorted(sock["recv"])
                known, i = sock["since"], 0
                # first_at[v]: the first sample showing the database at v or later.
                first_at: dict[int, float] = {}
                for t, v in series:
                    for k in range(len(first_at) + 1, v + 1):
                        first_at.setdefault(k, t)
                for t, v in series:
                    if t < opened or t > closed:
                        continue
                    while i < len(recv) and recv[i][0] <= t:
                        known = max(known, recv[i][1])
                        i += 1
                    if known >= v:
                        continue
                    if any(a <= t <= b for a, b in windows):
                        continue
                    behind = first_at.get(known + 1, t) if known >= 0 else opened
                    since = max(behind, opened)
                    since = max([since] + [b for a, b in windows if b <= t])
                    if t - since > worst:
                        worst = t - since
                        where = (
                            f" — {sock['who']} on {sock['match']} (:{sock['port']}) at v{known}"
                            f" while the database had v{v}, {t - self.started:.1f} s into the run"
                        )
        return worst, where

    async def _replays(self, log: dict[str, Any], matches: list[dict[str, Any]]) -> None:
        """Every finished match's record replays to the stored scores (and the clients')."""
        finished = [m for m, row in log["matches"].items() if row["status"] == "finished"]
        client_scores = {m["id"]: m["scores"] for m in matches}
        bad: list[str] = []
        ports = [i.port for i in self.instances if i.proc and i.proc.poll() is None]
        async with httpx.AsyncClient(timeout=30) as http:
            for n, match in enumerate(finished):
                port = ports[n % len(ports)]
                try:
                    r = await http.get(f"http://127.0.0.1:{port}/api/matches/{match}/record")
                    r.raise_for_status()
                    state, _ = replay(r.json())
                except (httpx.HTTPError, EngineError, ValueError) as exc:
                    bad.append(f"{match}: {type(exc).__name__}: {exc}")
                    continue
                stored = log["matches"][match]["scores"]
                theirs = client_scores.get(match)
                if list(state.scores) != list(stored) or (
                    theirs is not None and list(theirs) != list(stored)
                ):
                    bad.append(
                        f"{match}: replay {state.scores}, stored {stored}, clients saw {theirs}"
                    )
        self.fail_unless(
            not bad and bool(finished),
            f"records replay to the stored scores: {len(finished) - len(bad)} of {len(finished)}",
        )
        for line in bad[:5]:
            self.report.append(f"     {line}")

    def _server_logs(self) -> tuple[list[str], list[tuple[str, list[str]]]]:
        """5xx access-log lines (not ``/healthz``) and the instances' tracebacks, grouped by
        where they were raised: ``(what, excerpt)`` with the log line before the traceback,
        the app's own frames and the exception.
        """
        fives: list[str] = []
        groups: dict[str, tuple[list[str], list[str]]] = {}
        for inst in self.instances:
            lines = inst.log.read_text(errors="replace").splitlines()
            for n, line in enumerate(lines):
                m = _ACCESS.search(line)
                if m and not m.group(2).startswith("/healthz"):
                    fives.append(f"{inst.name}: {line.strip()}")
                if not line.startswith("Traceback"):
                    continue
                end = n + 1
                while end < len(lines) and (
                    lines[end].startswith(" ") or lines[end].startswith("Traceback")
                ):
                    end += 1
                body = lines[n + 1 : end]
                exc = lines[end] if end < len(lines) else "?"
                ours = [x.strip() for x in body if "/app/" in x and x.strip().startswith("File")]
                key = f"{exc.split(':')[0]} at {ours[-1] if ours else body[-2:-1]}"
                where = f"{inst.name}:{n + 1}"
                if key in groups:
                    groups[key][0].append(where)
                    continue
                before = lines[n - 1].strip()[:160] if n else ""
                excerpt = [before, *(x[:160] for x in ours[-4:]), exc[:300]]
                groups[key] = ([where], excerpt)
        tracebacks = [
            (f"{len(places)}× (instance:line {', '.join(places[:4])})", excerpt)
            for places, excerpt in groups.values()
        ]
        return fives, tracebacks


def parse(argv: list[str] | None = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--matches", type=int, help="tables playing at once (default 30; short 12)")
    p.add_argument("--minutes", type=float, help="minutes new matches start (default 20)")
    p.add_argument("--duration", type=float, help="the same in seconds (short: 75)")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--faults", choices=("on", "off"), default="on")
    p.add_argument("--short", action="store_true", help="~2 minutes, every fault kind once")
    p.add_argument(
        "--postgres",
        choices=("machine", "private"),
        default="machine",
        help="the machine's cluster (restarted with pg_ctlcluster) or a private one",
    )
    p.add_argument(
        "--pg-restarts",
        type=int,
        help="Postgres restarts at most (default: 1 short, 3 long; 0: never)",
    )
    p.add_argument("--client-procs", type=int, default=3, help="players' processes")
    p.add_argument("--churners", type=int, help="spectators joining and leaving at once")
    p.add_argument("--think", type=float, nargs=2, metavar=("LO", "HI"), help="seconds per move")
    p.add_argument("--rejoin", type=float, help="mean seconds a socket stays before rejoining")
    p.add_argument("--drain", type=float, default=150.0, help="seconds to let matches finish")
    p.add_argument("--stall", type=float, default=75.0, help="a match without news is stalled")
    p.add_argument("--logs", help="folder for the logs (default: a temporary one)")
    args = p.parse_args(argv)
    short = args.short
    if args.matches is None:
        args.matches = 12 if short else 30
    if args.duration is None:
        args.duration = args.minutes * 60 if args.minutes else (75.0 if short else 1200.0)
    if args.pg_restarts is None:
        args.pg_restarts = 1 if short else 3
    if args.churners is None:
        args.churners = 6 if short else 12
    if args.think is None:
        args.think = [0.02, 0.12] if short else [0.1, 0.6]
    if args.rejoin is None:
        args.rejoin = 25.0 if short else 60.0
    return args


def main(argv: list[str] | None = None) -> int:
    """Run; print the report; 0 when every check passed."""
    args = parse(argv)
    run = Run(args)
    atexit.register(run.teardown)
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(143))
    try:
        asyncio.run(run.main())
    except Exception as exc:  # noqa: BLE001 - reported as a failure
        run.failures.append(f"the run broke: {type(exc).__name__}: {exc}")
    finally:
        run.teardown()
    report = "\n".join(["", "soak report:", *run.report])
    print(report)
    with contextlib.suppress(OSError):
        (run.logs / "report.txt").write_text(report + "\n")
    if run.failures:
        print(f"\nFAILED ({len(run.failures)}): logs in {run.logs}")
        for f in run.failures:
            if not any(f in line for line in run.report):
                print(f"FAIL {f}")
        return 1
    print("passed")
    if not args.logs:
        shutil.rmtree(run.logs, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
