"""``/metrics``: every series an operator runs on is there, and each one moves when what it
counts happens (both backends); production keeps it off the public port (``METRICS_PORT``).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import Iterator
from datetime import timedelta
from pathlib import Path
from typing import Any

import httpx
import pytest
from fastapi.testclient import TestClient
from prometheus_client.parser import text_string_to_metric_families
from sqlalchemy import update

from app.api.app import create_app
from app.api.shell.metrics_endpoint import render
from app.db.models import match_actions, utcnow
from app.realtime.protocol import broker_message
from app.services.match.delivery import delivery
from app.settings import Settings
from tests.support.app import make_settings
from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(120)

Samples = dict[tuple[str, tuple[tuple[str, str], ...]], float]

SERIES = [
    "carcassonne_delivery_lag_seconds",
    "carcassonne_outbox_unpublished_batches",
    "carcassonne_outbox_oldest_unpublished_seconds",
    "carcassonne_version_watch_catch_ups",
    "carcassonne_outbox_sweep_announced",
    "carcassonne_rate_limit_refusals",
    "carcassonne_bot_decisions_pending",
    "carcassonne_bot_queue_waiting",
    "carcassonne_bot_think_seconds",
    "carcassonne_db_connections_in_use",
    "carcassonne_db_pool_waits",
    "carcassonne_gc_pause_seconds",
    "carcassonne_event_loop_lag_seconds",
    "carcassonne_websocket_closes",
    "carcassonne_actions_applied",
    "carcassonne_action_latency_seconds",
    "carcassonne_db_statements",
    "carcassonne_hook_subscriber_seconds",
    "carcassonne_hook_subscriber_calls",
]


#: The first subscriber of a committed move (app/services/match/play/subscribers.py).
DELIVERY = {"hook": "move committed", "subscriber": "delivery.on_move_committed"}


def parse(text: str) -> tuple[set[str], Samples]:
    """``(family names, {(sample name, sorted labels): value})`` of an exposition text."""
    names, samples = set(), {}
    for family in text_string_to_metric_families(text):
        names.add(family.name)
        for s in family.samples:
            samples[(s.name, tuple(sorted(s.labels.items())))] = s.value
    return names, samples


def total(samples: Samples, name: str, **labels: str) -> float:
    """The sum of ``name``'s samples whose labels include ``labels``."""
    want = set(labels.items())
    return sum(v for (n, ls), v in samples.items() if n == name and want <= set(ls))


def scrape(client: TestClient) -> Samples:
    r = client.get("/metrics")
    assert r.status_code == 200
    return parse(r.text)[1]


@pytest.fixture
def tight(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> Iterator[TestClient]:
    """The app with one lobby a day allowed (a long window: a sliding window counter lets a
    hit through just after a window boundary), and no background loops (the outbox sweep would
    publish the batch the test leaves unpublished).
    """
    settings = make_settings(
        backend[0],
        backend[1],
        channel_prefix,
        frontend,
        lobby_burst=1,
        lobby_rate_per_minute=1 / 1440,
    )
    with TestClient(create_app(settings, with_loops=False)) as c:
        yield c


def test_every_series_is_there_and_moves(tight: TestClient) -> None:
    client, api = tight, Api(tight)
    rt: Any = client.app.state.runtime  # type: ignore[attr-defined]
    names, before = parse(client.get("/metrics").text)
    assert not set(SERIES) - names

    # Rate limits: the second lobby of the day is refused.
    match_id, people, _ = api.match()
    api.post("/api/lobbies", people[0][2], status=429, seats=2)
    # Sockets: a client closing its socket; an action applied.
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        snap = receive(ws)
        ws.send_json({"t": "action", "v": 0, "id": "m1", "d": place_first(snap["d"]["state"])})
        assert receive(ws)["v"] == 1
        channel = rt.fanout.channel("match", match_id)

        async def fall_behind_and_watch() -> None:
            rt.fanout.hubs.get(channel).last_v = 0  # as if the broadcast of version 1 was lost
            await delivery.watch_versions(rt)

        # The version watch finds this instance's hub behind the database.
        client.portal.call(fall_behind_and_watch)  # type: ignore[union-attr]
        # A batch from another instance arrives through the broker: its delivery is timed.
        stamp = f"other@{time.time() - 0.05:.4f}"
        message = broker_message(stamp, "batch", 1, "{}")
        client.portal.call(rt.fanout.broker.publish, channel, message)  # type: ignore[union-attr]
        ws.close(1000)
    # The outbox: one batch left unpublished for a minute.
    old = utcnow() - timedelta(seconds=60)

    async def unpublish() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(match_actions)
                .where(match_actions.c.match_id == match_id)
                .values(published=False, created_at=old)
            )

    client.portal.call(unpublish)
    gc.collect()  # a GC pause
    time.sleep(0.6)  # the loop-lag sampler wakes a few times

    after = scrape(client)
    grew = {
        "refusals": ("carcassonne_rate_limit_refusals_total", {"limit": "new lobbies"}),
        "client close": ("carcassonne_websocket_closes_total", {"code": "1000", "by": "client"}),
        "actions": ("carcassonne_actions_applied_total", {}),
        "delivery lag": ("carcassonne_delivery_lag_seconds_count", {}),
        "watch": ("carcassonne_version_watch_catch_ups_total", {}),
        "gc": ("carcassonne_gc_pause_seconds_count", {}),
        "loop lag": ("carcassonne_event_loop_lag_seconds_count", {}),
        "statements": ("carcassonne_db_statements_total", {}),
        "move subscriber time": ("carcassonne_hook_subscriber_seconds_total", DELIVERY),
        "move subscriber calls": ("carcassonne_hook_subscriber_calls_total", DELIVERY),
    }
    if rt.storage.db.is_postgres:  # the move's own statement, on the hot pool
        grew["hot pool statements"] = ("carcassonne_db_statements_total", {"pool": "asyncpg"})
    for what, (name, labels) in grew.items():
        assert total(after, name, **labels) > total(before, name, **labels), what
    assert total(after, "carcassonne_outbox_unpublished_batches") >= 1
    assert total(after, "carcassonne_outbox_oldest_unpublished_seconds") >= 50


def test_pools_and_bots_move(client: TestClient, api: Api) -> None:
    rt: Any = client.app.state.runtime  # type: ignore[attr-defined]
    before = scrape(client)

    async def scrape_holding_a_connection() -> Samples:
        async with rt.storage.db.reading():
            return parse((await render(rt)).decode())[1]

    held = client.portal.call(scrape_holding_a_connection)
    assert total(held, "carcassonne_db_connections_in_use", pool="sqlalchemy") >= 1
    # A computer player thinks in a worker process: its think time is observed.
    match_id, people, _ = api.match(seats=1, bots=1)
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        frame = receive(ws)
        state, version = frame["d"]["state"], frame["v"]
        deadline = time.monotonic() + 60
        name = "carcassonne_bot_think_seconds_count"
        while total(scrape(client), name) <= total(before, name):
            assert time.monotonic() < deadline, "no bot decision timed"
            if state["seat"] == 0:
                ws.send_json(
                    {"t": "action", "v": version, "id": f"a{version}", "d": place_first(state)}
                )
            frame = receive(ws)
            if frame["t"] == "events":
                version = frame["v"]
                state = {**state, **frame["d"].get("delta", {})}


async def _waits(rt: Any) -> int:
    """Hold every connection of the hot pool and ask for one more (Postgres only)."""
    size = rt.storage.db._pool_size
    entered = asyncio.Event()
    release = asyncio.Event()
    holding = 0

    async def hold() -> None:
        nonlocal holding
        async with rt.storage.db.raw():
            holding += 1
            if holding == size:
                entered.set()
            await release.wait()

    tasks = [asyncio.create_task(hold()) for _ in range(size + 1)]
    await asyncio.wait_for(entered.wait(), 30)
    await asyncio.sleep(0.05)
    release.set()
    await asyncio.gather(*tasks)
    return int(rt.storage.db.raw_waits)


@pytest.mark.postgres
def test_hot_pool_waits_are_counted(postgres_url: str, channel_prefix: str, frontend: Path) -> None:
    settings = make_settings(
        postgres_url, None, channel_prefix, frontend, db_pool_size=1, db_max_overflow=1
    )
    with TestClient(create_app(settings, with_loops=False)) as client:
        rt: Any = client.app.state.runtime  # type: ignore[attr-defined]
        assert client.portal.call(_waits, rt) >= 1  # type: ignore[union-attr]
        assert total(scrape(client), "carcassonne_db_pool_waits_total") >= 1


def _settings(frontend: Path, sqlite_url: str, **overrides: Any) -> Settings:
    return make_settings(sqlite_url, None, "m", frontend, **overrides)


def test_production_keeps_metrics_off_the_public_port(frontend: Path, sqlite_url: str) -> None:
    prod = _settings(frontend, sqlite_url, environment="production")
    with TestClient(create_app(prod)) as client:
        assert client.get("/metrics").status_code == 404
    own_port = _settings(frontend, sqlite_url, environment="production", metrics_port=0)
    with TestClient(create_app(own_port)) as client:
        assert client.get("/metrics").status_code == 404
        listener = client.app.state.metrics_listener  # type: ignore[attr-defined]
        url = f"http://127.0.0.1:{listener.port}"
        r = httpx.get(f"{url}/metrics", timeout=10)
        assert r.status_code == 200 and "carcassonne_actions_applied" in r.text
        assert httpx.get(f"{url}/", timeout=10).status_code == 404
    public = _settings(frontend, sqlite_url, environment="production", metrics_public=True)
    with TestClient(create_app(public)) as client:
        assert client.get("/metrics").status_code == 200
