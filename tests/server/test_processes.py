"""Real processes on Postgres and Redis: two instances, SIGKILL and restart, Redis outage."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest
from websockets.sync.client import connect

from tests.support.frames import Follower, seen
from tests.support.processes import Server, act, new_match, play_until, recv, recv_version, rest
from tests.support.servers import free_port
from tests.support.wait import wait_until

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.machine,
    pytest.mark.timeout(120),
]


def test_two_instances_share_one_match(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    a = Server(server_env, tmp_path / "a.log").start()
    b = Server(server_env, tmp_path / "b.log").start()
    servers += [a, b]
    match_id, tokens = new_match(a)
    with (
        connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
        connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
        connect(f"{b.ws}/ws/matches/{match_id}") as spectator,
    ):
        snap = recv(spectator)
        recv(p0), recv(p1)
        state, version = play_until({0: p0, 1: p1}, snap["d"]["state"], 0, 12, p0)
        spectator_frames = recv_version(spectator, version)
        p1_frames = recv_version(p1, version)
    assert [f["v"] for f in spectator_frames] == list(range(1, version + 1))
    assert spectator_frames == p1_frames  # identical versioned batches on instance B
    log_batches = rest(a, "GET", f"/api/matches/{match_id}/events?since=0")["batches"]
    assert [b["events"] for b in log_batches] == [f["d"]["events"] for f in spectator_frames]
    assert rest(b, "GET", f"/api/matches/{match_id}")["version"] == version


def test_sigkill_mid_match_loses_no_acknowledged_action(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    server = Server(server_env, tmp_path / "a.log").start()
    servers.append(server)
    match_id, tokens = new_match(server, bots=1)
    acked: list[dict[str, Any]] = []
    with (
        connect(f"{server.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
        connect(f"{server.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
    ):
        snap = recv(p0)
        recv(p1)
        sockets = {0: p0, 1: p1}
        state, version = snap["d"]["state"], snap["v"]
        while version < 15:
            seat = state["seat"]
            if seat in sockets:
                act(sockets[seat], state, version, f"k{version}")
            frame = recv(p0)
            acked.append(frame)  # p0 received it: committed and published
            state, version = seen(frame), frame["v"]
        # One more action in flight, then SIGKILL without waiting for its answer.
        if state["seat"] in sockets:
            act(sockets[state["seat"]], state, version, f"k{version}")
        server.kill()
    restarted = Server(server_env, tmp_path / "a2.log")
    restarted.port = server.port
    restarted.start()
    servers.append(restarted)
    match = rest(restarted, "GET", f"/api/matches/{match_id}")
    assert match["version"] >= acked[-1]["v"]
    batches = rest(restarted, "GET", f"/api/matches/{match_id}/events?since=0")["batches"]
    for frame in acked:
        assert batches[frame["v"] - 1]["events"] == frame["d"]["events"]
    # The match continues: reconnect with since, catch up, play on (the bot too).
    last = acked[-1]["v"]
    with (
        connect(f"{restarted.ws}/ws/matches/{match_id}?token={tokens[0]}&since={last}") as p0,
        connect(f"{restarted.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
    ):
        recv(p1)
        # The catch-up: its last batch carries the position, the ones before it do not (the
        # bot may have moved since the read above: then the catch-up is more than one batch).
        view = Follower(seen(acked[-1]), last)
        caught_up = view.state  # nothing to catch up if the last action never committed
        while view.version < match["version"] or caught_up is None:
            caught_up = view.feed(recv(p0))
        state, version = play_until({0: p0, 1: p1}, caught_up, view.version, view.version + 9, p0)
    final = rest(restarted, "GET", f"/api/matches/{match_id}")
    assert final["version"] >= version
    seats = [
        b["seat"]
        for b in rest(restarted, "GET", f"/api/matches/{match_id}/events?since={last}")["batches"]
    ]
    assert 2 in seats, "the bot seat kept playing after the restart"


def _health_if(server: Server, status: int) -> httpx.Response | None:
    """The server's ``/readyz`` answer if it has ``status``, else None."""
    health = httpx.get(f"{server.url}/readyz", timeout=5)
    return health if health.status_code == status else None


def test_redis_outage_actions_commit_and_clients_catch_up(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path, private_redis: Any
) -> None:
    env = dict(server_env, REDIS_URL=private_redis.url)
    a = Server(env, tmp_path / "a.log").start()
    b = Server(env, tmp_path / "b.log").start()
    servers += [a, b]
    match_id, tokens = new_match(a)
    with connect(f"{b.ws}/ws/matches/{match_id}") as spectator:
        snap = recv(spectator)
        state, version = snap["d"]["state"], 0
        private_redis.stop()
        health = wait_until(
            lambda: _health_if(a, 503), timeout=15, message="instance A never noticed Redis going"
        )
        assert health.json()["database"] is True
        for _ in range(4):  # REST actions on instance A while the broker is down
            seat = state["seat"]
            d = (
                {
                    "type": "place_tile",
                    "at": state["legal_placements"][0][:2],
                    "rotation": state["legal_placements"][0][2],
                }
                if state["phase"] == "place_tile"
                else {"type": "pass"}
            )
            out = rest(
                a,
                "POST",
                f"/api/matches/{match_id}/actions",
                tokens[seat],
                v=version,
                d=d,
                id=f"r{version}",
            )
            version = out["version"]
            state = rest(a, "GET", f"/api/matches/{match_id}")["state"]
        # Instance B's spectator catches up from the event log, broker or not.
        frames = recv_version(spectator, version, timeout=15)
        assert [f["v"] for f in frames if f["t"] == "events"] == list(range(1, version + 1))
        private_redis.start()
        wait_until(
            lambda: _health_if(a, 200),
            timeout=15,
            interval=0.2,
            message="instance A never saw Redis come back",
        )
        seat = state["seat"]
        with connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[seat]}") as player:
            recv(player)
            act(player, state, version, "after")
            assert recv(player)["v"] == version + 1
        assert recv(spectator)["v"] == version + 1  # live through Redis again
    with connect(f"{b.ws}/ws/matches/{match_id}?since=0") as late:
        assert [recv(late)["v"] for _ in range(version + 1)] == list(range(1, version + 2))


def test_a_dead_redis_port_still_commits(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    env = dict(server_env, REDIS_URL=f"redis://127.0.0.1:{free_port()}/0")
    server = Server(env, tmp_path / "dead.log").start()
    servers.append(server)
    assert httpx.get(f"{server.url}/readyz", timeout=5).status_code == 503
    assert httpx.get(f"{server.url}/healthz", timeout=5).status_code == 200  # alive
    match_id, tokens = new_match(server)
    with connect(f"{server.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0:
        snap = recv(p0)
        act(p0, snap["d"]["state"], 0, "d1")
        assert recv(p0)["v"] == 1  # local sockets still get their batches
    assert rest(server, "GET", f"/api/matches/{match_id}/events?since=0")["version"] == 1
