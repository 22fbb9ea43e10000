"""Tournaments across two real instances on Postgres + Redis. A 6-player Swiss of 3 rounds
played by computer entrants, started on both instances at once, moved on by both instances'
sweeps and match ends racing each other. Checks: the start succeeds once; every round is
paired exactly once (one game row per table, one match per game, no stray lobby or match);
no pairing repeats; every entrant plays once a round; every result is counted once (the
standings' points add up to one per game); the standings follow their tie-breaks; a live
page on the other instance hears the start. An 8-player arena (a minute, cut to 20 s; tables
of two): one match per game, no stray match, nobody at two tables at once, results counted
once. A knock-out of five with a start time: started once by the two instances' sweeps, each
bracket table paired once.
"""

from __future__ import annotations

import concurrent.futures
import json
import time
from collections import Counter
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import asyncpg
import httpx
import pytest
from websockets.sync.client import connect

from tests.support.processes import Server, rest
from tests.support.services import run_async

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(600)]


def _rows(url: str, query: str, *args: Any) -> list[Any]:
    async def go() -> list[Any]:
        conn = await asyncpg.connect(url.replace("postgresql+asyncpg://", "postgresql://"))
        try:
            return list(await conn.fetch(query, *args))
        finally:
            await conn.close()

    return run_async(go)


def test_swiss_of_six_on_two_instances(
    server_env: dict[str, str], tmp_path: Path, servers: list[Server]
) -> None:
    env = {**server_env, "BOT_THINK": "0", "PLAYER_BURST": "1000"}
    a, b = (Server(env, tmp_path / f"server{i}.log").start() for i in range(2))
    servers += [a, b]
    host = rest(a, "POST", "/api/players", name="Org")["token"]
    tid = rest(a, "POST", "/api/tournaments", host, name="Two-instance Swiss", rounds=3)["id"]
    for server in (a, b, a, b, a, b):
        rest(server, "POST", f"/api/tournaments/{tid}/computers", host, level="easy")

    # A live page on instance b: it hears the start made on either instance.
    page = connect(f"{b.ws}/ws/tournaments/{tid}", open_timeout=10)
    first = json.loads(page.recv(timeout=10))
    assert first["t"] == "tournament" and first["d"]["status"] == "registering"

    # Both instances are asked to start at once: one starts, the other refuses.
    def start(server: Server) -> int:
        r = httpx.post(
            f"{server.url}/api/tournaments/{tid}/start",
            headers={"Authorization": f"Bearer {host}"},
            timeout=30,
        )
        return r.status_code

    with concurrent.futures.ThreadPoolExecutor(4) as pool:
        codes = sorted(pool.map(start, (a, b, a, b)))
    assert codes == [200, 409, 409, 409], codes
    try:
        while True:
            frame = json.loads(page.recv(timeout=10))
            if frame["d"]["round"] >= 1:
                break
        assert frame["d"]["status"] == "running"
        assert len([p for p in frame["d"]["pairings"] if p["round"] == 1]) == 3
    finally:
        page.close()

    # Read in turn from both instances while they race to move it on.
    heard: list[int] = []
    deadline = time.monotonic() + 480
    data: dict[str, Any] = {}
    while time.monotonic() < deadline:
        data = rest(b if len(heard) % 2 else a, "GET", f"/api/tournaments/{tid}")
        if not heard or heard[-1] != data["round"]:
            heard.append(data["round"])
        if data["status"] == "finished":
            break
        time.sleep(0.5)
    assert data["status"] == "finished", data
    assert heard[-1] == 3

    url = server_env["DATABASE_URL"]
    games = _rows(
        url,
        "SELECT round, table_number, entrants, match_id, points, source FROM tournament_games"
        " WHERE tournament_id = $1 ORDER BY round, table_number",
        tid,
    )
    # Exactly once: three tables a round, one game row each, one match each, nothing stray.
    assert Counter(g["round"] for g in games) == {1: 3, 2: 3, 3: 3}
    match_ids = [g["match_id"] for g in games]
    assert None not in match_ids and len(set(match_ids)) == 9
    started = _rows(
        url, "SELECT id, status FROM matches WHERE started_from LIKE $1", f"tournament:{tid}:%"
    )
    assert sorted(r["id"] for r in started) == sorted(match_ids)
    assert all(r["status"] == "finished" for r in started)
    lobbies = _rows(url, "SELECT code FROM lobbies WHERE name LIKE $1", "Two-instance Swiss%")
    assert len(lobbies) == 9

    # No rematch, everyone once a round, every result counted once.
    pairs = [frozenset(json.loads(g["entrants"])) for g in games]
    assert len(pairs) == len(set(pairs))
    for r in (1, 2, 3):
        seated = [n for g in games if g["round"] == r for n in json.loads(g["entrants"])]
        assert sorted(seated) == [1, 2, 3, 4, 5, 6]
    assert all(g["source"] == "played" for g in games)
    assert sum(sum(json.loads(g["points"])) for g in games) == 9
    lines = data["standings"]
    assert sum(s["points"] for s in lines) == 9
    assert all(s["games"] == 3 and s["byes"] == 0 for s in lines)
    keys = [(-s["points"], -s["buchholz"], -s["sonneborn_berger"], -s["wins"]) for s in lines]
    assert keys == sorted(keys)
    # Buchholz as defined: the sum of the opponents' points.
    points = {s["number"]: s["points"] for s in lines}
    for s in lines:
        opponents = [n for p in pairs if s["number"] in p for n in p if n != s["number"]]
        assert s["buchholz"] == sum(points[o] for o in opponents)


def test_arena_of_eight_on_two_instances(
    server_env: dict[str, str], tmp_path: Path, servers: list[Server]
) -> None:
    env = {**server_env, "BOT_THINK": "0", "PLAYER_BURST": "1000"}
    a, b = (Server(env, tmp_path / f"arena{i}.log").start() for i in range(2))
    servers += [a, b]
    host = rest(b, "POST", "/api/players", name="Org")["token"]
    tid = rest(
        b,
        "POST",
        "/api/tournaments",
        host,
        name="Two-instance arena",
        format="arena",
        seats=2,
        duration_minutes=1,
    )["id"]
    for i in range(8):
        rest(a if i % 2 else b, "POST", f"/api/tournaments/{tid}/computers", host, level="easy")
    rest(a, "POST", f"/api/tournaments/{tid}/start", host)
    # The shortest arena a host can make is a minute: cut to 20 s, still a second wave.
    _rows(
        server_env["DATABASE_URL"],
        "UPDATE tournaments SET ends_at = now() + interval '20 seconds' WHERE id = $1",
        tid,
    )
    deadline = time.monotonic() + 300
    data: dict[str, Any] = {}
    while time.monotonic() < deadline:
        data = rest(a if int(time.monotonic()) % 2 else b, "GET", f"/api/tournaments/{tid}")
        if data["status"] == "finished":
            break
        time.sleep(0.5)
    assert data["status"] == "finished", data

    url = server_env["DATABASE_URL"]
    games = _rows(
        url,
        "SELECT round, table_number, entrants, match_id, points FROM tournament_games"
        " WHERE tournament_id = $1 ORDER BY round, table_number",
        tid,
    )
    assert len(games) >= 4  # the first wave at least
    # Exactly once: one match per game, no stray match, nobody at two tables at once.
    match_ids = [g["match_id"] for g in games]
    assert len(set(match_ids)) == len(match_ids)
    started = _rows(url, "SELECT id FROM matches WHERE started_from LIKE $1", f"tournament:{tid}:%")
    assert sorted(r["id"] for r in started) == sorted(match_ids)
    spans = _rows(
        url,
        "SELECT g.entrants, m.created_at, m.finished_at FROM tournament_games g"
        " JOIN matches m ON m.id = g.match_id WHERE g.tournament_id = $1",
        tid,
    )
    by_entrant: dict[int, list[tuple[Any, Any]]] = {}
    for s in spans:
        for n in json.loads(s["entrants"]):
            by_entrant.setdefault(n, []).append((s["created_at"], s["finished_at"]))
    for n, times in by_entrant.items():
        times.sort()
        for (_, end), (start, _) in zip(times, times[1:], strict=False):
            assert start >= end, f"entrant {n} sat at two tables at once"
    assert all(g["points"] is not None for g in games)
    lines = data["standings"]
    assert sum(s["points"] for s in lines) == len(games)
    keys = [(-s["points"], -s["score_total"]) for s in lines]
    assert keys == sorted(keys)


def test_scheduled_knockout_of_five_on_two_instances(
    server_env: dict[str, str], tmp_path: Path, servers: list[Server]
) -> None:
    """A knock-out of five computers with a start time: both instances' sweeps race to start
    it (once), then to count and pair (each bracket table once; byes to seeds 1-3).
    """
    env = {**server_env, "BOT_THINK": "0", "PLAYER_BURST": "1000"}
    a, b = (Server(env, tmp_path / f"server{i}.log").start() for i in range(2))
    servers += [a, b]
    host = rest(a, "POST", "/api/players", name="Org")["token"]
    soon = datetime.fromtimestamp(time.time() + 6, tz=UTC).isoformat()
    made = rest(
        a,
        "POST",
        "/api/tournaments",
        host,
        name="Two-instance Cup",
        format="knockout",
        starts_at=soon,
    )
    tid = made["id"]
    for server in (a, b, a, b, a):
        rest(server, "POST", f"/api/tournaments/{tid}/computers", host, level="easy")
    deadline = time.monotonic() + 300
    data: dict[str, Any] = {}
    while time.monotonic() < deadline:
        data = rest(b if int(time.monotonic() * 2) % 2 else a, "GET", f"/api/tournaments/{tid}")
        if data["status"] == "finished":
            break
        time.sleep(0.5)
    assert data["status"] == "finished", data
    url = server_env["DATABASE_URL"]
    games = _rows(
        url,
        "SELECT round, table_number, entrants, match_id, points, source FROM tournament_games"
        " WHERE tournament_id = $1 ORDER BY round, table_number",
        tid,
    )
    assert [(g["round"], g["table_number"]) for g in games] == [
        (1, 1),
        (1, 2),
        (1, 3),
        (1, 4),
        (2, 1),
        (2, 2),
        (3, 1),
    ]
    first = [json.loads(g["entrants"]) for g in games if g["round"] == 1]
    assert first == [[1], [4, 5], [2], [3]]
    played = [g["match_id"] for g in games if g["match_id"]]
    assert len(played) == len(set(played)) == 4
    started = _rows(url, "SELECT id FROM matches WHERE started_from LIKE $1", f"tournament:{tid}:%")
    assert sorted(r["id"] for r in started) == sorted(played)
    # The bracket: each winner is in the next round's table.
    bracket = data["bracket"]
    for r in (0, 1):
        for j, table in enumerate(bracket[r + 1]):
            assert table["entrants"] == sorted(
                [bracket[r][2 * j]["winner"], bracket[r][2 * j + 1]["winner"]]
            )
    assert data["standings"][0]["number"] == bracket[2][0]["winner"]
