"""The data export streams with flat memory: the server's peak memory while it streams 100 and
then 1,000 finished matches as NDJSON (docs/API.md § Export).

Starts ``carcassonne serve`` from this checkout on a fresh SQLite file (or ``--database-url``,
an empty database it migrates), registers an account and makes a ``read`` API token, writes
``--matches`` finished matches of that account straight into the database (real engine games,
as the service leaves them at the end), then streams ``max=100`` and the whole export,
discarding the lines as they come. Prints one JSON object: records and bytes received, seconds,
records per second, and the server's resident memory (``VmRSS`` before, ``VmHWM`` — the peak —
after each stream, MB) and the highest resident memory sampled every 5 ms while each streams.
Flat memory: the highest while streaming 1,000 (or 3,000) is about that while streaming 100.

    .venv/bin/python benchmarks/export.py [--matches 1000] [--database-url URL]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import subprocess
import sys
import tempfile
import threading
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from app.db.session import create_engine  # noqa: E402
from tests.support.finished import finished_game, insert_finished  # noqa: E402
from tests.support.servers import AppServer  # noqa: E402 - the one server starter

PASSWORD = "correct horse battery"
#: Distinct engine games stored (each match gets one of them; playing 1,000 would be slow).
GAMES = 25


def _start(database_url: str, work: Path) -> tuple[subprocess.Popen[bytes], str]:
    env = dict(
        os.environ, DATABASE_URL=database_url, ENVIRONMENT="development", LOG_LEVEL="warning"
    )
    env.pop("REDIS_URL", None)
    server = AppServer(env, work / "server.log", ready_path="/api/presets", ready_status=200)
    server.start(timeout=30)
    assert server.proc is not None
    return server.proc, server.url


def _memory(pid: int) -> dict[str, float]:
    """``{"rss", "hwm"}`` of a process in MB (Linux ``/proc``)."""
    out: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            out[key[2:].lower()] = round(int(value.split()[0]) / 1024, 1)
    return out


async def _fill(database_url: str, player_id: str, name: str, n: int) -> None:
    games = [finished_game(seed, [name, "Computer"]) for seed in range(GAMES)]
    engine = create_engine(database_url, 1, 0)
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    try:
        for start in range(0, n, 100):
            async with engine.begin() as conn:
                for i in range(start, min(n, start + 100)):
                    await insert_finished(
                        conn,
                        [(player_id, name), (None, "Computer")],
                        finished_at=t0 + timedelta(minutes=i),
                        state=games[i % GAMES],
                    )
    finally:
        await engine.dispose()


def _stream(
    url: str, path: str, headers: dict[str, str], pid: int
) -> tuple[int, int, float, float]:
    """``(records, bytes, seconds, highest RSS MB)`` of one export, lines discarded as they
    arrive; the server's resident memory is sampled every 5 ms meanwhile (``VmHWM`` alone
    would show the start-up's peak).
    """
    records = size = 0
    highest = [_memory(pid)["rss"]]
    done = threading.Event()

    def sample() -> None:
        while not done.wait(0.005):
            highest[0] = max(highest[0], _memory(pid)["rss"])

    sampler = threading.Thread(target=sample, daemon=True)
    sampler.start()
    started = time.perf_counter()
    try:
        with httpx.stream("GET", url + path, headers=headers, timeout=600) as r:
            r.raise_for_status()
            for line in r.iter_lines():
                if line:
                    records += 1
                    size += len(line) + 1
    finally:
        done.set()
        sampler.join()
    return records, size, time.perf_counter() - started, highest[0]


def main() -> int:
    """Run the benchmark and print its figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=1000)
    parser.add_argument("--database-url", help="an empty database (default: a fresh SQLite)")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        work = Path(tmp)
        database_url = args.database_url or f"sqlite+aiosqlite:///{work / 'export.db'}"
        proc, url = _start(database_url, work)
        try:
            user = f"exp{secrets.token_hex(3)}"
            r = httpx.post(f"{url}/api/accounts", json={"username": user, "password": PASSWORD})
            r.raise_for_status()
            account = r.json()
            session = {"Authorization": f"Bearer {account['token']}"}
            r = httpx.post(
                f"{url}/api/me/tokens", json={"name": "bench", "scopes": ["read"]}, headers=session
            )
            r.raise_for_status()
            reader = {"Authorization": f"Bearer {r.json()['token']}"}
            player = account["account"]["id"]
            asyncio.run(_fill(database_url, player, user, args.matches))
            path = f"/api/export/players/{player}/matches"
            before = _memory(proc.pid)
            small = _stream(url, path + "?max=100", reader, proc.pid)
            after_small = _memory(proc.pid)
            records, size, seconds, highest = _stream(url, path, reader, proc.pid)
            after = _memory(proc.pid)
        finally:
            proc.terminate()
            proc.wait(10)
    out: dict[str, Any] = {
        "matches": args.matches,
        "records": records,
        "bytes": size,
        "seconds": round(seconds, 2),
        "records_per_second": round(records / seconds, 1) if seconds else None,
        "rss_before_mb": before["rss"],
        "peak_before_mb": before["hwm"],
        "peak_after_100_mb": after_small["hwm"],
        "peak_after_all_mb": after["hwm"],
        "peak_growth_100_to_all_mb": round(after["hwm"] - after_small["hwm"], 1),
        "highest_rss_streaming_100_mb": small[3],
        "highest_rss_streaming_all_mb": highest,
        "rss_after_all_mb": after["rss"],
        "records_100": small[0],
    }
    print(json.dumps(out))
    return 0 if records == args.matches else 1


if __name__ == "__main__":
    sys.exit(main())
