"""One address floods the account routes: does the instance keep answering everyone else?

Starts ``carcassonne serve`` from a checkout (``--root``, default this one) on the embedded
default (a fresh SQLite file, in-process broker) with the production password hasher
(Argon2id as ``pwdlib`` recommends), plays one 2-player match on it, then — while a pinger
measures ``/healthz`` and the match socket's ``ping`` → ``pong`` ten times a second, and the match's
players keep acting about twice a second — one address sends ``--registrations`` registrations
and ``--logins`` logins at once. Prints p50 / p99 / max of each during the flood and how the
flood's requests were answered.

``--limits production`` keeps the service's own limits (most of the flood is refused at once);
``--limits off`` lifts them, so every request hashes: the loop's isolation from the hashing.
``--addresses N`` spreads the flood over N client addresses (``X-Forwarded-For``, trusted from
127.0.0.1), each within its own limits, while the account's owner logs in from another one:
prints how long the owner's login took and how it was answered (the hashing queue's fairness).

    .venv/bin/python benchmarks/account_flood.py [--root CHECKOUT] [--limits off|production]
        [--addresses N]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import websockets

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))
from tests.support.servers import AppServer  # noqa: E402 - the one server starter

PASSWORD = "correct horse battery"


def _start(root: Path, work: Path, limits: str) -> tuple[subprocess.Popen[bytes], str]:
    env = dict(
        os.environ,
        DATABASE_URL=f"sqlite+aiosqlite:///{work / 'flood.db'}",
        ENVIRONMENT="development",
        LOG_LEVEL="warning",
    )
    env.pop("REDIS_URL", None)
    if limits == "off":
        env.update(
            REGISTRATIONS_PER_ADDRESS="100000/minute",
            PASSWORD_ATTEMPTS="100000/minute",
            PASSWORD_ATTEMPTS_PER_ADDRESS="100000/minute",
            PLAYER_BURST="100000",
        )
    server = AppServer(
        env, work / "server.log", cwd=root, ready_path="/api/presets", ready_status=200
    )
    server.start(timeout=30)
    assert server.proc is not None
    return server.proc, server.url


def _summary(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no samples"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{name}: n={len(values)} p50={statistics.median(values):.1f} ms "
        f"p99={p99:.1f} ms max={ordered[-1]:.1f} ms"
    )


async def _flood(url: str, registrations: int, logins: int, addresses: int) -> dict[str, Any]:
    async with httpx.AsyncClient(base_url=url, timeout=60) as http:
        user = f"flood{secrets.token_hex(3)}"
        r = await http.post("/api/accounts", json={"username": user, "password": PASSWORD})
        r.raise_for_status()
        tokens = [(await http.post("/api/players", json={"name": n})).json()["token"] for n in "AB"]
        auth = [{"Authorization": f"Bearer {t}"} for t in tokens]
        code = (await http.post("/api/lobbies", json={"seats": 2}, headers=auth[0])).json()["code"]
        await http.post(f"/api/lobbies/{code}/join", headers=auth[1])
        started = await http.post(f"/api/lobbies/{code}/start", headers=auth[0])
        match_id = started.json()["match_id"]
        ws_url = url.replace("http", "ws")
        socks = [
            await websockets.connect(f"{ws_url}/ws/matches/{match_id}?token={t}") for t in tokens
        ]
        state: dict[str, Any] = {"snap": None, "v": 0}
        pongs: asyncio.Queue[float] = asyncio.Queue()
        events: dict[int, float] = {}

        async def reader(i: int) -> None:
            async for text in socks[i]:
                frame = json.loads(text)
                if frame["t"] == "pong" and i == 0:
                    pongs.put_nowait(time.perf_counter())
                elif frame["t"] in ("snapshot", "events") and frame.get("v", -1) >= state["v"]:
                    state["v"] = frame["v"]
                    events.setdefault(frame["v"], time.perf_counter())
                    if frame["t"] == "snapshot":
                        state["snap"] = frame["d"]["state"]
                    else:
                        state["snap"] = None

        readers = [asyncio.create_task(reader(i)) for i in range(2)]
        health: list[float] = []
        pings: list[float] = []
        moves: list[float] = []
        stop = asyncio.Event()

        async def probe() -> None:
            # A client of its own (the flood's requests must not hold its connections), and
            # 10 pings a second: the socket's frame budget is 20 a second.
            async with httpx.AsyncClient(base_url=url, timeout=60) as own:
                while not stop.is_set():
                    t0 = time.perf_counter()
                    await own.get("/healthz")
                    health.append((time.perf_counter() - t0) * 1000)
                    t0 = time.perf_counter()
                    await socks[0].send(json.dumps({"t": "ping"}))
                    pong = await asyncio.wait_for(pongs.get(), 60)
                    pings.append((pong - t0) * 1000)
                    await asyncio.sleep(0.1)

        async def play() -> None:
            while not stop.is_set():
                match = (await http.get(f"/api/matches/{match_id}", headers=auth[0])).json()
                seat, version = match["state"]["seat"], match["version"]
                s = match["state"]
                if s["phase"] == "place_tile":
                    x, y, r = s["legal_placements"][0]
                    d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
                else:
                    d = {"type": "pass"}
                t0 = time.perf_counter()
                await socks[seat].send(
                    json.dumps({"t": "action", "v": version, "id": secrets.token_hex(4), "d": d})
                )
                for _ in range(200):
                    if version + 1 in events:
                        moves.append((events[version + 1] - t0) * 1000)
                        break
                    await asyncio.sleep(0.005)
                await asyncio.sleep(0.5)

        tasks = [asyncio.create_task(probe()), asyncio.create_task(play())]
        await asyncio.sleep(2.0)
        quiet = (list(health), list(pings), list(moves))
        for samples in (health, pings, moves):
            samples.clear()
        t0 = time.perf_counter()
        bodies = [
            ("/api/accounts", {"username": f"r{secrets.token_hex(4)}", "password": PASSWORD})
            for _ in range(registrations)
        ] + [("/api/accounts/login", {"username": user, "password": "a wrong guess"})] * logins

        def sent_from(i: int) -> dict[str, str]:
            return {"X-Forwarded-For": f"10.1.0.{i % addresses + 1}"} if addresses > 1 else {}

        async def owner() -> tuple[float, int]:
            await asyncio.sleep(0.3)  # the flood has filled the queue
            t = time.perf_counter()
            body = {"username": user, "password": PASSWORD}
            r = await http.post(
                "/api/accounts/login", json=body, headers={"X-Forwarded-For": "10.2.0.1"}
            )
            return (time.perf_counter() - t) * 1000, r.status_code

        own = asyncio.create_task(owner())
        answers = await asyncio.gather(
            *(http.post(p, json=b, headers=sent_from(i)) for i, (p, b) in enumerate(bodies))
        )
        flood_s = time.perf_counter() - t0
        owner_ms, owner_code = await own
        await asyncio.sleep(0.5)
        stop.set()
        for task in tasks + readers:
            task.cancel()
        for s in socks:
            await s.close()
        return {
            "quiet": quiet,
            "flood": (health, pings, moves),
            "seconds": flood_s,
            "codes": Counter(r.status_code for r in answers),
            "owner": (owner_ms, owner_code),
        }


def main() -> int:
    """Run one flood against a fresh server and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--root", type=Path, default=ROOT, help="the checkout to serve")
    parser.add_argument("--registrations", type=int, default=20)
    parser.add_argument("--logins", type=int, default=40)
    parser.add_argument("--limits", choices=("production", "off"), default="off")
    parser.add_argument("--addresses", type=int, default=1, help="client addresses flooding")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        proc, url = _start(args.root.resolve(), Path(tmp), args.limits)
        try:
            out = asyncio.run(_flood(url, args.registrations, args.logins, args.addresses))
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                proc.wait(10)
            except subprocess.TimeoutExpired:
                proc.kill()
    load = os.getloadavg()[0]
    print(f"root={args.root} limits={args.limits} load={load:.2f}")
    print(
        f"flood: {args.registrations} registrations + {args.logins} logins at once, answered "
        f"in {out['seconds']:.2f} s: {dict(out['codes'])}"
    )
    owner_ms, owner_code = out["owner"]
    print(
        f"  from {args.addresses} address(es); the owner's login meanwhile: {owner_code} "
        f"in {owner_ms:.0f} ms"
    )
    for label, (health, pings, moves) in (("quiet", out["quiet"]), ("flood", out["flood"])):
        print(f"  {label}: {_summary('/healthz', health)}")
        print(f"  {label}: {_summary('ws ping', pings)}")
        print(f"  {label}: {_summary('action->event', moves)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
