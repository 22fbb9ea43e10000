"""Real server processes in tests: ``carcassonne serve`` on Postgres + Redis, and their sockets.

Every process is an :class:`~tests.support.servers.AppServer` (the one starter, shared with
``benchmarks/``). Fixtures: ``server_env`` (the worker's Postgres database, Redis and channel
prefix), ``servers`` (stops what a test started), ``private_redis`` (a ``redis-server`` of the
test's own, for tests that pause or kill Redis). Helpers: REST calls, a started match, and
reading and acting on a match socket.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection

from tests.support.frames import seen
from tests.support.private_services import PrivateRedis
from tests.support.servers import AppServer, fast_env
from tests.support.services import unavailable

#: The name tests use for one app process.
Server = AppServer


@pytest.fixture
def server_env(postgres_url: str, redis_url: str, channel_prefix: str) -> dict[str, str]:
    """Environment of a server on the worker's Postgres database and Redis (fast bots, limits
    no test reaches, on the allocator ``serve`` chooses).
    """
    return fast_env(
        postgres_url,
        redis_url,
        ENVIRONMENT="test",
        SECRET_KEY="process-test-secret-0123456789",
        CHANNEL_PREFIX=channel_prefix,
        BOT_POLL_INTERVAL="0.2",
    )


@pytest.fixture
def servers(tmp_path: Path) -> Iterator[list[Server]]:
    """Collects servers started by a test and stops them afterwards."""
    started: list[Server] = []
    yield started
    for server in started:
        server.stop()


@pytest.fixture
def private_redis(tmp_path: Path) -> Iterator[PrivateRedis]:
    """A Redis server of this test only, so it can be paused, stopped and started again."""
    server = PrivateRedis(tmp_path)
    try:
        server.start()
    except FileNotFoundError as exc:
        unavailable("redis-server", str(exc))
    yield server
    server.stop()


def rest(server: Server, method: str, path: str, token: str | None = None, **body: Any) -> Any:
    """One REST call; raises on a non-2xx answer."""
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.request(method, f"{server.url}{path}", json=body or None, headers=headers, timeout=10)
    assert r.status_code < 300, r.text
    return r.json()


def new_match(server: Server, bots: int = 0) -> tuple[str, list[str]]:
    """A started 2-player match (plus bots): ``(match_id, [token seat 0, token seat 1])``."""
    tokens = [rest(server, "POST", "/api/players", name=n)["token"] for n in ("Ann", "Ben")]
    code = rest(server, "POST", "/api/lobbies", tokens[0], seats=2 + bots)["code"]
    rest(server, "POST", f"/api/lobbies/{code}/join", tokens[1])
    for _ in range(bots):
        rest(server, "POST", f"/api/lobbies/{code}/bots", tokens[0])
    return rest(server, "POST", f"/api/lobbies/{code}/start", tokens[0])["match_id"], tokens


def recv(ws: ClientConnection, timeout: float = 10) -> dict[str, Any]:
    """The next frame that is not presence or clock."""
    while True:
        frame: dict[str, Any] = json.loads(ws.recv(timeout=timeout))
        if frame["t"] not in ("presence", "clock"):
            return frame


def recv_version(ws: ClientConnection, version: int, timeout: float = 10) -> list[dict[str, Any]]:
    """Frames up to (and including) the events frame of ``version``."""
    frames = []
    deadline = time.monotonic() + timeout
    while True:
        frame = recv(ws, max(0.1, deadline - time.monotonic()))
        frames.append(frame)
        if frame["t"] == "events" and frame["v"] >= version:
            return frames


def act(ws: ClientConnection, state: dict[str, Any], version: int, action_id: str) -> None:
    """Send the first legal placement, or a pass."""
    if state["phase"] == "place_tile":
        x, y, r = state["legal_placements"][0]
        d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
    else:
        d = {"type": "pass"}
    ws.send(json.dumps({"t": "action", "v": version, "id": action_id, "d": d}))


def play_until(
    ws: dict[int, ClientConnection],
    state: dict[str, Any],
    version: int,
    target: int,
    watcher: ClientConnection,
) -> tuple[dict[str, Any], int]:
    """Players act in turn until ``version`` reaches ``target``; returns the new state."""
    while version < target:
        seat = state["seat"]
        if seat in ws:
            act(ws[seat], state, version, f"a{version}")
        frame = recv(watcher)
        assert frame["t"] == "events" and frame["v"] == version + 1, frame
        state, version = seen(frame), frame["v"]
    return state, version
