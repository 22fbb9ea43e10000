"""The bare pipeline: the yardstick issue 9's CPU target is set against (``load.py --bare``).

A minimal service written the way a tutorial would: FastAPI websocket → one INSERT per action
in its own transaction → Redis ``PUBLISH`` → this instance's subscriber sends the frame to the
match's sockets. No rules, no clocks, no outbox, no rate limits, no metrics: what our server's
write path costs without doing anything of its own. ``--driver sqlalchemy`` (the default) runs
the INSERT through SQLAlchemy's async engine, ``--driver asyncpg`` on a plain asyncpg pool.

It speaks just enough of our protocol for :mod:`load`'s players: ``POST /api/players``, the
three lobby calls that make a 2-seat match, and ``/ws/matches/{id}?token=`` with a
``snapshot`` frame on connect and an ``events`` frame (``action_id`` and a ``delta`` naming the
next seat) per action. The "state" is a constant: one legal placement, no follower spots.

    python benchmarks/bare.py --port 8100 --database-url postgresql+asyncpg://…/bench_bare
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import secrets
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import asyncpg
import redis.asyncio as redis
import uvicorn
from fastapi import FastAPI, Header, WebSocket, WebSocketDisconnect
from sqlalchemy import Column, DateTime, Integer, MetaData, String, Table, Text, insert
from sqlalchemy.ext.asyncio import create_async_engine

metadata = MetaData()
actions = Table(
    "bare_actions",
    metadata,
    Column("id", Integer, primary_key=True),
    Column("match_id", String(40), nullable=False, index=True),
    Column("seq", Integer, nullable=False),
    Column("seat", Integer, nullable=False),
    Column("action", Text, nullable=False),
    Column("created_at", DateTime(timezone=True), nullable=False),
)

#: The whole "view" a player gets: load.py's players pick from these lists.
STATE = {"phase": "place_tile", "legal_placements": [[0, 1, 0]], "legal_spots": []}


def create_app(database_url: str, redis_url: str, driver: str = "sqlalchemy") -> FastAPI:
    """The bare service on ``database_url`` (``postgresql+asyncpg://``) and ``redis_url``;
    ``driver``: ``"sqlalchemy"`` or ``"asyncpg"`` for the INSERT.
    """
    engine = create_async_engine(database_url, pool_size=10, max_overflow=10)
    pool: asyncpg.Pool | None = None
    broker = redis.from_url(redis_url)
    lobbies: dict[str, list[str]] = {}  # code → tokens by seat
    versions: dict[str, int] = {}
    sockets: dict[str, set[WebSocket]] = {}

    async def listen() -> None:
        pubsub = broker.pubsub()
        await pubsub.psubscribe("bare:*")
        async for message in pubsub.listen():
            if message["type"] != "pmessage":
                continue
            match_id = message["channel"].decode().partition(":")[2]
            text = message["data"].decode()
            for ws in list(sockets.get(match_id, ())):
                with contextlib.suppress(Exception):
                    await ws.send_text(text)

    @contextlib.asynccontextmanager
    async def lifespan(_: FastAPI) -> AsyncIterator[None]:
        nonlocal pool
        async with engine.begin() as conn:
            await conn.run_sync(metadata.create_all)
        if driver == "asyncpg":
            pool = await asyncpg.create_pool(
                database_url.replace("postgresql+asyncpg://", "postgresql://"),
                min_size=2,
                max_size=20,
            )
        listener = asyncio.create_task(listen())
        yield
        listener.cancel()
        if pool is not None:
            await pool.close()
        await engine.dispose()
        await broker.aclose()

    app = FastAPI(lifespan=lifespan)

    @app.get("/healthz")
    async def healthz() -> dict[str, bool]:
        return {"ok": True}

    @app.get("/readyz")  # what benchmarks/load.py waits for
    async def readyz() -> dict[str, bool]:
        return {"ok": True}

    @app.post("/api/players")
    async def new_player() -> dict[str, str]:
        return {"token": secrets.token_urlsafe(16)}  # any token will do: nothing checks it

    def bearer(header: str) -> str:
        return header.removeprefix("Bearer ")

    @app.post("/api/lobbies")
    async def new_lobby(authorization: str = Header()) -> dict[str, str]:
        code = secrets.token_hex(8)
        lobbies[code] = [bearer(authorization)]
        return {"code": code}

    @app.post("/api/lobbies/{code}/join")
    async def join(code: str, authorization: str = Header()) -> dict[str, str]:
        lobbies[code].append(bearer(authorization))
        return {"code": code}

    @app.post("/api/lobbies/{code}/start")
    async def start(code: str) -> dict[str, str]:
        versions[code] = 0
        return {"match_id": code}

    async def store(match_id: str, seq: int, seat: int, action: str) -> None:
        row = {
            "match_id": match_id,
            "seq": seq,
            "seat": seat,
            "action": action,
            "created_at": datetime.now(UTC),
        }
        if pool is not None:
            await pool.execute(
                "INSERT INTO bare_actions (match_id, seq, seat, action, created_at) "
                "VALUES ($1, $2, $3, $4, $5)",
                *row.values(),
            )
            return
        async with engine.begin() as conn:
            await conn.execute(insert(actions).values(**row))

    @app.websocket("/ws/matches/{match_id}")
    async def match_socket(ws: WebSocket, match_id: str, token: str = "") -> None:
        seats = lobbies.get(match_id, [])
        seat = seats.index(token) if token in seats else None
        await ws.accept()
        sockets.setdefault(match_id, set()).add(ws)
        state = {**STATE, "seat": versions.get(match_id, 0) % 2}
        await ws.send_text(
            json.dumps({"t": "snapshot", "v": versions.get(match_id, 0), "d": {"state": state}})
        )
        try:
            while True:
                frame = json.loads(await ws.receive_text())
                if frame.get("t") != "action" or seat is None:
                    continue
                version = versions[match_id] = versions[match_id] + 1
                await store(match_id, version, seat, json.dumps(frame["d"]))
                delta = {**STATE, "seat": version % 2}
                event: dict[str, Any] = {"action_id": frame.get("id"), "delta": delta}
                await broker.publish(
                    f"bare:{match_id}", json.dumps({"t": "events", "v": version, "d": event})
                )
        except WebSocketDisconnect:
            pass
        finally:
            sockets[match_id].discard(ws)

    return app


def serve(host: str, port: int, database_url: str, redis_url: str, driver: str) -> None:
    """Serve the bare pipeline with uvicorn's defaults (uvloop, httptools), as our server does
    (no per-message deflate).
    """
    uvicorn.run(
        create_app(database_url, redis_url, driver),
        host=host,
        port=port,
        ws_per_message_deflate=False,
        log_level="warning",
    )


def main() -> None:
    """Command line: ``--port``, ``--database-url``, ``--redis-url``, ``--driver``."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--port", type=int, default=8100)
    parser.add_argument("--database-url", required=True)
    parser.add_argument("--redis-url", default="redis://127.0.0.1:6379/0")
    parser.add_argument("--driver", choices=("sqlalchemy", "asyncpg"), default="sqlalchemy")
    args = parser.parse_args()
    serve("127.0.0.1", args.port, args.database_url, args.redis_url, args.driver)


if __name__ == "__main__":
    main()
