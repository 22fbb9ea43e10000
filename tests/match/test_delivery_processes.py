"""Durable delivery on real processes (Postgres + Redis): a batch committed but never
published — its instance SIGKILLed between commit and publish, or Redis pausing writes — still
reaches the other instance's player and spectator, without them sending anything.

The bound promised in docs/API.md is 5 s; these tests print the catch-up time they saw and
allow more (a shared, busy machine must not make them flaky): speed lives in benchmarks.
"""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import pytest
import redis
from websockets.sync.client import connect

from tests.support.frames import seen
from tests.support.processes import Server, act, new_match, recv

pytestmark = [
    pytest.mark.postgres,
    pytest.mark.redis,
    pytest.mark.slow,
    pytest.mark.machine,
    pytest.mark.timeout(400),
]

KILL_AFTER_COMMIT = "CARCASSONNE_TEST_KILL_AFTER_COMMIT"


def _until_version(ws: Any, version: int, timeout: float = 20) -> dict[str, Any]:
    """The first events frame at ``version`` or later (a snapshot counts too)."""
    deadline = time.monotonic() + timeout
    while True:
        frame = recv(ws, max(0.1, deadline - time.monotonic()))
        if frame["t"] in ("events", "snapshot") and frame["v"] >= version:
            return frame


def test_sigkill_between_commit_and_publish(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    a = Server(dict(server_env, **{KILL_AFTER_COMMIT: "1"}), tmp_path / "a.log")
    b = Server(server_env, tmp_path / "b.log")
    servers += [a, b]  # stopped by the fixture even when a start fails
    a.start(), b.start()
    match_id, tokens = new_match(b)
    with (
        connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
        connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
        connect(f"{b.ws}/ws/matches/{match_id}") as spectator,
    ):
        snap = recv(p0)
        recv(p1), recv(spectator)
        assert snap["d"]["state"]["seat"] == 0
        act(p0, snap["d"]["state"], 0, "first")  # instance A commits version 1, then dies
        assert a.proc is not None
        a.proc.wait(20)
        died = time.monotonic()
        for ws in (p1, spectator):
            frame = _until_version(ws, 1)
            assert frame["v"] == 1
            state = seen(frame)
            assert state["seat"] == 0 and state["phase"] != "place_tile"
        print(
            f"\ncatch-up after SIGKILL between commit and publish: {time.monotonic() - died:.2f} s"
        )
    with connect(f"{b.ws}/ws/matches/{match_id}?since=0") as late:
        assert [recv(late)["v"]] == [1]


def test_redis_pausing_writes(
    server_env: dict[str, str],
    servers: list[Server],
    tmp_path: Path,
    private_redis: Any,
) -> None:
    env = dict(server_env, REDIS_URL=private_redis.url)
    a = Server(env, tmp_path / "a.log")
    b = Server(env, tmp_path / "b.log")
    servers += [a, b]  # stopped by the fixture even when a start fails
    a.start(), b.start()
    match_id, tokens = new_match(a)
    control = redis.Redis.from_url(private_redis.url)
    with (
        connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
        connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
        connect(f"{b.ws}/ws/matches/{match_id}") as spectator,
    ):
        snap = recv(p0)
        recv(p1), recv(spectator)
        act(p0, snap["d"]["state"], 0, "one")
        frame = _until_version(p0, 1)
        for ws in (p1, spectator):
            assert _until_version(ws, 1)["v"] == 1  # live through Redis
        control.execute_command("CLIENT", "PAUSE", "4000", "WRITE")
        try:
            sent = time.monotonic()
            act(p0, seen(frame), 1, "two")
            assert _until_version(p0, 2)["v"] == 2  # the mover's instance: first-hand
            for ws in (p1, spectator):
                got = _until_version(ws, 2)
                assert got["v"] == 2 and seen(got)["seat"] == 1
            print(f"\ncatch-up while Redis pauses writes: {time.monotonic() - sent:.2f} s")
        finally:
            control.execute_command("CLIENT", "UNPAUSE")
        # After the pause: live again, and nobody sees a version twice or out of order.
        state = seen(got)
        act(p1, state, 2, "three")
        assert _until_version(p0, 3)["v"] == 3
        assert _until_version(spectator, 3)["v"] == 3
    control.close()


def test_a_clock_change_while_redis_pauses_writes(
    server_env: dict[str, str],
    servers: list[Server],
    tmp_path: Path,
    private_redis: Any,
) -> None:
    """A change that is not an action (here: a leave countdown starting) reaches the other
    instance's player although its broadcast cannot get through: the version watch sees the
    match's ``notes`` count grow and sends the current clock.
    """
    env = dict(server_env, REDIS_URL=private_redis.url)
    a = Server(env, tmp_path / "a.log")
    b = Server(env, tmp_path / "b.log")
    servers += [a, b]  # stopped by the fixture even when a start fails
    a.start(), b.start()
    match_id, tokens = new_match(a)
    control = redis.Redis.from_url(private_redis.url)
    with connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1:
        assert recv(p1)["t"] == "snapshot"
        with connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0:
            assert recv(p0)["t"] == "snapshot"
            time.sleep(1.5)  # both instances heard each other's presence
            control.execute_command("CLIENT", "PAUSE", "4000", "WRITE")
        try:
            left = time.monotonic()  # Ann's last socket closed: her countdown starts on A
            deadline = left + 20
            while True:  # ``recv`` skips clock frames: read them here
                frame = json.loads(p1.recv(timeout=max(0.1, deadline - time.monotonic())))
                if frame["t"] == "clock" and "0" in (frame["d"] or {}).get("away", {}):
                    break
            print(f"\nclock change while Redis pauses writes: {time.monotonic() - left:.2f} s")
        finally:
            control.execute_command("CLIENT", "UNPAUSE")
    control.close()


def test_a_socket_joining_mid_delivery_does_not_silence_the_move_for_the_others(
    server_env: dict[str, str],
    servers: list[Server],
    tmp_path: Path,
    private_redis: Any,
) -> None:
    """Ann moves on A while Redis pauses writes, so the batch is on its way to B for seconds;
    meanwhile a spectator opens the match on B and reads the new version from the database.
    The player and the spectator already on B still get the move (B used to take the joiner's
    version as its own and drop the batch as a duplicate when it came: nothing until a reload).
    """
    env = dict(server_env, REDIS_URL=private_redis.url)
    a = Server(env, tmp_path / "a.log")
    b = Server(env, tmp_path / "b.log")
    servers += [a, b]  # stopped by the fixture even when a start fails
    a.start(), b.start()
    match_id, tokens = new_match(a)
    control = redis.Redis.from_url(private_redis.url)
    with (
        connect(f"{a.ws}/ws/matches/{match_id}?token={tokens[0]}") as p0,
        connect(f"{b.ws}/ws/matches/{match_id}?token={tokens[1]}") as p1,
        connect(f"{b.ws}/ws/matches/{match_id}") as spectator,
    ):
        snap = recv(p0)
        recv(p1), recv(spectator)
        time.sleep(1.5)  # both instances heard each other's presence: A broadcasts its batches
        control.execute_command("CLIENT", "PAUSE", "4000", "WRITE")
        try:
            act(p0, snap["d"]["state"], 0, "one")
            assert _until_version(p0, 1)["v"] == 1  # committed (A's own sockets, first-hand)
            with connect(f"{b.ws}/ws/matches/{match_id}") as joiner:
                joined = time.monotonic()
                assert recv(joiner)["v"] == 1  # the joiner read version 1 from the database
                for ws in (p1, spectator):
                    assert _until_version(ws, 1, timeout=10)["v"] == 1
                print(
                    f"\nsockets on B current after a join mid-delivery: "
                    f"{time.monotonic() - joined:.2f} s"
                )
        finally:
            control.execute_command("CLIENT", "UNPAUSE")
    control.close()
