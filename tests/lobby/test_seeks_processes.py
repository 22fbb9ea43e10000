"""Play now across two real instances on Postgres + Redis: 2 and 3 players paired across
instances, and 50 seeks posted at once on both never paired twice (each seek in at most one
match, 25 matches, every seeker seated exactly once).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections import Counter
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest

from tests.support.processes import Server, rest
from tests.support.services import run_async

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(240)]

LIMITS = {
    "PLAYER_BURST": "1000",
    "PLAYER_RATE_PER_MINUTE": "60000",
    "SEEK_BURST": "1000",
    "SEEK_POLL_BURST": "1000",
}


def _two(server_env: dict[str, str], tmp_path: Path, servers: list[Server]) -> list[Server]:
    env = {**server_env, **LIMITS}
    for i in range(2):
        servers.append(Server(env, tmp_path / f"server{i}.log").start())
    return servers


def _poll_until_matched(
    seekers: list[tuple[Server, str, str]], timeout: float = 60
) -> dict[str, str]:
    """Poll every seek (as its page would, each on its own instance) until all are matched:
    ``{seek id: match id}``.
    """
    matched: dict[str, str] = {}
    deadline = time.monotonic() + timeout
    while len(matched) < len(seekers):
        assert time.monotonic() < deadline, f"{len(seekers) - len(matched)} seeks never paired"
        for server, token, seek_id in seekers:
            if seek_id in matched:
                continue
            seek = rest(server, "GET", f"/api/seeks/{seek_id}", token)
            assert seek["status"] in ("open", "matched"), seek
            if seek["status"] == "matched":
                matched[seek_id] = seek["match_id"]
        time.sleep(0.2)
    return matched


def _rows(url: str, query: str, *args: Any) -> list[Any]:
    async def go() -> list[Any]:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            return list(await conn.fetch(query, *args))
        finally:
            await conn.close()

    return run_async(go)


def test_pairs_across_instances(
    server_env: dict[str, str], tmp_path: Path, servers: list[Server]
) -> None:
    a, b = _two(server_env, tmp_path, servers)
    tc = {"kind": "per_turn", "seconds": 120}
    # Two players: one on each instance.
    two = []
    for server, name in ((a, "Ann"), (b, "Ben")):
        token = rest(server, "POST", "/api/players", name=name)["token"]
        seek = rest(server, "POST", "/api/seeks", token, players=2, time_control=tc)
        two.append((server, token, seek["id"]))
    pairs = _poll_until_matched(two)
    assert len(set(pairs.values())) == 1
    # Three players over both instances; the queue on either shows them waiting.
    three = []
    for server, name in ((a, "Cat"), (b, "Dan"), (a, "Eve")):
        token = rest(server, "POST", "/api/players", name=name)["token"]
        seek = rest(server, "POST", "/api/seeks", token, players=3, time_control=tc)
        if len(three) == 1:
            pools = rest(a, "GET", "/api/seeks")["pools"]
            mine = [p for p in pools if p["players"] == 3 and p["time_control"] == tc]
            assert mine and mine[0]["waiting"] == 2
        three.append((server, token, seek["id"]))
    trio = _poll_until_matched(three)
    (match_id,) = set(trio.values())
    # The match is served by both instances, seats as sought.
    for server, token, _ in three:
        match = rest(server, "GET", f"/api/matches/{match_id}", token)
        assert sorted(s["name"] for s in match["seats"]) == ["Cat", "Dan", "Eve"]


def test_fifty_concurrent_seeks_never_double_pair(
    server_env: dict[str, str], tmp_path: Path, servers: list[Server], postgres_url: str
) -> None:
    instances = _two(server_env, tmp_path, servers)
    n = 50
    tc = {"kind": "per_turn", "seconds": 300}

    async def seek_all() -> list[tuple[Server, str, str]]:
        async with httpx.AsyncClient(timeout=60) as http:

            async def one(i: int) -> tuple[Server, str, str]:
                server = instances[i % 2]
                r = await http.post(f"{server.url}/api/players", json={"name": f"P{i}"})
                token = r.json()["token"]
                r = await http.post(
                    f"{server.url}/api/seeks",
                    json={"players": 2, "time_control": tc},
                    headers={"Authorization": f"Bearer {token}"},
                )
                assert r.status_code == 201, r.text
                return server, token, r.json()["id"]

            return list(await asyncio.gather(*(one(i) for i in range(n))))

    seekers = run_async(seek_all)
    matched = _poll_until_matched(seekers)
    per_match = Counter(matched.values())
    assert len(per_match) == n // 2 and set(per_match.values()) == {2}
    # In the database: each seek in one match, each match made of exactly its two seekers.
    ids = [seek_id for _, _, seek_id in seekers]
    rows = _rows(
        postgres_url,
        "SELECT s.id, s.player_id, s.match_id, m.seats FROM seeks s "
        "JOIN matches m ON m.id = s.match_id WHERE s.id = ANY($1::text[])",
        ids,
    )
    assert len(rows) == n and {r["id"]: r["match_id"] for r in rows} == matched
    seated: Counter[str] = Counter()
    for r in rows:
        seats = json.loads(r["seats"]) if isinstance(r["seats"], str) else r["seats"]
        assert r["player_id"] in {s["player"] for s in seats}
        for s in seats:
            seated[s["player"]] += 1
    assert len(seated) == n and set(seated.values()) == {2}  # each counted by its 2 seek rows
    made = _rows(
        postgres_url,
        "SELECT count(*) AS n FROM matches WHERE id = ANY($1::text[])",
        list(per_match),
    )
    assert made[0]["n"] == n // 2
