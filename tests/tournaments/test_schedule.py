"""A tournament's start time: the sweep starts it once its time has come — once, however many
instances try at the same moment — and waits while fewer than two are checked in; one still
short of entrants ``START_GRACE`` after its start time is cancelled, and waiting ones cost the
sweep one read, not a locked transaction each. An organiser has at most ``MAX_REGISTERING``
tournaments in registration.
"""

from __future__ import annotations

import asyncio
import time
from contextvars import ContextVar
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import event, update

from app.db.tournaments import tournaments
from app.services.tournaments.starting import start_scheduled
from app.services.tournaments.sweep import START_GRACE, sweep_once
from app.services.tournaments.tournaments import MAX_REGISTERING
from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)


def _due_now(client: TestClient, tid: str) -> list[bool]:
    """Move the start time into the past, then start it from three tries at once."""
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> list[bool]:
        async with rt.storage.db.transaction() as conn:
            past = datetime.now(UTC) - timedelta(seconds=1)
            await conn.execute(
                update(tournaments).where(tournaments.c.id == tid).values(starts_at=past)
            )
        return list(await asyncio.gather(*(start_scheduled(rt, tid) for _ in range(3))))

    result: list[bool] = client.portal.call(run)  # type: ignore[union-attr]
    return result


def test_scheduled_start_once_and_waits_for_two(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, _, ann = api.player("Ann")
    past = (datetime.now(UTC) - timedelta(minutes=1)).isoformat()
    api.post("/api/tournaments", host, 422, name="Late", starts_at=past)
    api.post("/api/tournaments", host, 422, name="Naive", starts_at="2030-01-01T10:00:00")
    soon = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    made = api.post("/api/tournaments", host, 201, name="Evening", rounds=1, starts_at=soon)
    tid = made["id"]
    assert made["starts_at"] and made["status"] == "registering"
    api.post(f"/api/tournaments/{tid}/entrants", ann)  # registered, not checked in
    api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    # One checked in: too few; it waits (nothing written, Ann not dropped).
    assert _due_now(client, tid) == [False, False, False]
    data = api.get(f"/api/tournaments/{tid}")
    assert data["status"] == "registering"
    assert {e["name"]: e["status"] for e in data["entrants"]}["Ann"] == "registered"
    api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    tries = _due_now(client, tid)
    data = api.get(f"/api/tournaments/{tid}")
    # Started once (by one of the three, or by the sweep just before them).
    assert tries.count(True) <= 1 and data["status"] in ("running", "finished")
    assert [p["round"] for p in data["pairings"]] == [1]
    assert {e["name"]: e["status"] for e in data["entrants"]}["Ann"] == "dropped"


def test_the_sweep_starts_it(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    tid = api.post("/api/tournaments", host, 201, name="Soon", rounds=1, starts_at=later)["id"]
    for _ in range(2):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def due() -> None:
        async with rt.storage.db.transaction() as conn:
            past = datetime.now(UTC) - timedelta(seconds=1)
            await conn.execute(
                update(tournaments).where(tournaments.c.id == tid).values(starts_at=past)
            )

    client.portal.call(due)  # type: ignore[union-attr]
    deadline = time.monotonic() + 30
    data: dict[str, Any] = {}
    while time.monotonic() < deadline:
        data = api.get(f"/api/tournaments/{tid}")
        if data["status"] != "registering":
            break
        time.sleep(0.2)
    assert data["status"] in ("running", "finished") and len(data["pairings"]) == 1


def _move_start(client: TestClient, ids: list[str], ago: timedelta) -> None:
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(tournaments)
                .where(tournaments.c.id.in_(ids))
                .values(starts_at=datetime.now(UTC) - ago)
            )

    client.portal.call(run)  # type: ignore[union-attr]


def _statements_about(client: TestClient, ids: list[str]) -> int:
    """SQL statements of one pass of the sweep (counted in its own task only: the background
    sweep may run at the same moment) that name one of the tournaments ``ids``.
    """
    rt = client.app.state.runtime  # type: ignore[attr-defined]
    mine: ContextVar[bool] = ContextVar("mine", default=False)
    seen: list[str] = []
    wanted = set(ids)

    def count(conn: Any, cursor: Any, statement: str, parameters: Any, *args: Any) -> None:
        values = parameters.values() if isinstance(parameters, dict) else parameters
        if mine.get():
            seen.append("x")
            if wanted & {v for v in values if isinstance(v, str)}:
                seen.append(statement)

    async def counted() -> None:
        mine.set(True)
        await sweep_once(rt)

    engine = rt.storage.db.engine.sync_engine
    event.listen(engine, "before_cursor_execute", count)
    try:
        client.portal.call(counted)  # type: ignore[union-attr]
    finally:
        event.remove(engine, "before_cursor_execute", count)
    assert "x" in seen, "the counter sees the sweep's statements"
    return len([s for s in seen if s != "x"])


def test_waiting_scheduled_tournaments_cost_one_read_and_the_overdue_are_cancelled(
    client: TestClient, api: Api
) -> None:
    later = (datetime.now(UTC) + timedelta(hours=1)).isoformat()
    ids = []
    for i in range(4):
        _, _, host = api.player(f"Org{i}")
        for j in range(MAX_REGISTERING):
            made = api.post(
                "/api/tournaments", host, 201, name=f"T{i}.{j}", rounds=1, starts_at=later
            )
            ids.append(made["id"])
    _move_start(client, ids, timedelta(seconds=1))
    # Twenty due, none with anyone checked in: the pass's reads skip them, no transaction each.
    assert _statements_about(client, ids) == 0
    assert {api.get(f"/api/tournaments/{t}")["status"] for t in ids} == {"registering"}
    # Past the grace they are cancelled: out of registration, at the end of the list.
    _move_start(client, ids[:10], START_GRACE + timedelta(seconds=1))
    client.portal.call(sweep_once, client.app.state.runtime)  # type: ignore[union-attr,attr-defined]
    statuses = [api.get(f"/api/tournaments/{t}")["status"] for t in ids]
    assert statuses == ["cancelled"] * 10 + ["registering"] * 10
    _, _, ann = api.player("Ann")
    refused = api.post(f"/api/tournaments/{ids[0]}/entrants", ann, 409)
    assert refused["error"]["reason"] == "tournament_started"
    listed = [t["id"] for t in api.get("/api/tournaments")]
    assert max(map(listed.index, ids[10:])) < min(map(listed.index, ids[:10]))


def test_an_organiser_has_a_budget_of_tournaments_in_registration(
    client: TestClient, api: Api
) -> None:
    _, _, host = api.player("Org")
    for i in range(MAX_REGISTERING):
        api.post("/api/tournaments", host, 201, name=f"Open {i}", rounds=1)
    refused = api.post("/api/tournaments", host, 409, name="One more", rounds=1)
    assert refused["error"]["reason"] == "tournament_budget"
    assert refused["error"]["params"] == {"max": MAX_REGISTERING}
    _, _, other = api.player("Other")
    api.post("/api/tournaments", other, 201, name="Theirs", rounds=1)
