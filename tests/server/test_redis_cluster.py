"""Two instances on a local 3-master Redis Cluster (``REDIS_URL=redis+cluster://...``):
matches on every shard are played across the instances through sharded pub/sub, and a match
keeps going through a restart of its shard's primary (a move made while it is down reaches the
other instance from the log; matches on the other shards keep going meanwhile; the moves after
it are live again). Rate limits and spectator counts are shared by two instances through it.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import ClientConnection, connect

from app.services.errors import RateLimited
from app.services.limits.accounts import AccountLimits
from app.services.limits.rates import RateLimiter
from app.services.sockets.spectators import SpectatorCounts
from tests.support.frames import seen
from tests.support.processes import Server, act, new_match, play_until, recv, rest
from tests.support.redis_cluster import LocalCluster

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.machine,
    pytest.mark.timeout(400),
]


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[LocalCluster]:
    """A 3-master cluster of this test only; every node is killed afterwards."""
    local = LocalCluster(tmp_path / "cluster")
    try:
        yield local.start()
    finally:
        local.stop()


def _until_version(ws: ClientConnection, version: int, timeout: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + timeout
    while True:
        frame = recv(ws, max(0.1, deadline - time.monotonic()))
        if frame["t"] in ("events", "snapshot") and frame["v"] >= version:
            return frame


def _shard_of(cluster: LocalCluster, prefix: str, match_id: str) -> int:
    return cluster.owner(f"{prefix}:{{match:{match_id}}}")


def test_matches_across_two_instances_through_a_cluster(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path, cluster: LocalCluster
) -> None:
    env = dict(server_env, REDIS_URL=cluster.url)
    a, b = Server(env, tmp_path / "a.log"), Server(env, tmp_path / "b.log")
    servers += [a, b]  # stopped by the fixture even when a start fails
    a.start(), b.start()
    prefix = env["CHANNEL_PREFIX"]
    # Enough matches that at least two shards carry one (hash slots spread them).
    matches = [new_match(a if i % 2 else b) for i in range(6)]
    shards = {_shard_of(cluster, prefix, m) for m, _ in matches}
    assert len(shards) >= 2, "six matches all hashed to one shard"
    for match_id, tokens in matches:
        with (
            connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
            connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
            connect(f"{b.ws}/ws/matches/{match_id}") as spectator,
        ):
            snap = recv(p0)
            recv(p1), recv(spectator)
            # The spectator on B sees every move made on A and on B, in order.
            state, version = play_until({0: p0, 1: p1}, snap["d"]["state"], 0, 4, spectator)
            assert version == 4
        assert rest(b, "GET", f"/api/matches/{match_id}")["version"] == 4

    # A shard primary dies and comes back: the match on it keeps going.
    match_id, tokens = matches[0]
    owners = {m: _shard_of(cluster, prefix, m) for m, _ in matches}
    port = owners[match_id]
    with (
        connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
        connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
        connect(f"{b.ws}/ws/matches/{match_id}") as spectator,
    ):
        snap = recv(spectator)
        recv(p0), recv(p1)
        state, version = snap["d"]["state"], snap["v"]
        cluster.kill(port)
        sockets = {0: p0, 1: p1}
        act(sockets[state["seat"]], state, version, "while-down")
        # The mover's instance delivers first-hand; the other one learns it from the log
        # (version watch / outbox sweep) even with the shard down.
        mover = p0 if state["seat"] == 0 else p1
        assert _until_version(mover, version + 1)["v"] == version + 1
        frame = _until_version(spectator, version + 1)
        assert frame["v"] == version + 1
        # A match on another shard keeps going meanwhile.
        other_id, other_tokens = next(m for m in matches if owners[m[0]] != port)
        with (
            connect(f"{a.ws}/ws/matches/{other_id}?token={other_tokens[0]}") as q0,
            connect(f"{b.ws}/ws/matches/{other_id}?token={other_tokens[1]}") as q1,
            connect(f"{b.ws}/ws/matches/{other_id}") as watcher,
        ):
            first = recv(watcher)
            recv(q0), recv(q1)
            _, moved = play_until({0: q0, 1: q1}, first["d"]["state"], first["v"], 6, watcher)
            assert moved == 6
        cluster.revive(port)
        for server in (a, b):  # both instances ready again once the shard is back
            deadline = time.monotonic() + 30
            while httpx.get(f"{server.url}/readyz", timeout=5).status_code != 200:
                assert time.monotonic() < deadline, "instance not ready after the shard came back"
                time.sleep(0.2)
        # Drain what the other sockets received meanwhile, then play on, live.
        state, version = seen(frame), frame["v"]
        other = p1 if mover is p0 else p0
        assert _until_version(other, version)["v"] == version
        state, version = play_until(sockets, state, version, version + 4, spectator)
    assert rest(a, "GET", f"/api/matches/{match_id}")["version"] == version
    batches = rest(b, "GET", f"/api/matches/{match_id}/events?since=0")["batches"]
    assert [x["v"] for x in batches] == list(range(1, version + 1))


async def _shared_state(url: str) -> tuple[list[bool], list[bool], dict[str, int]]:
    """Two instances' limiters and spectator counts on one cluster."""
    outcomes: list[bool] = []
    limiters = [RateLimiter(1, 3, "actions", redis_url=url, prefix="t") for _ in range(2)]
    accounts = [AccountLimits(url, "t", registrations="2/hour") for _ in range(2)]
    registrations: list[bool] = []
    a = SpectatorCounts(url, "t", "instance-a", lambda m: 2)
    b = SpectatorCounts(url, "t", "instance-b", lambda m: 1)
    try:
        for i in range(4):  # alternating instances: the count is shared
            try:
                await limiters[i % 2].hit("player")
                outcomes.append(True)
            except RateLimited:
                outcomes.append(False)
        for i in range(3):
            try:
                await accounts[i % 2].registration("192.0.2.1")
                registrations.append(True)
            except RateLimited:
                registrations.append(False)
        await a.changed("m1")
        counts = await b.counts(["m1", "m2"])
    finally:
        for limiter in limiters:
            await limiter.aclose()
        for account in accounts:
            await account.aclose()
        await a.close()
        await b.close()
    return outcomes, registrations, counts


def test_limits_and_spectator_counts_are_shared_through_a_cluster(cluster: LocalCluster) -> None:
    outcomes, registrations, counts = asyncio.run(_shared_state(cluster.url))
    assert outcomes == [True, True, True, False]
    assert registrations == [True, True, False]
    assert counts == {"m1": 3, "m2": 1}
