"""A tournament's start time: the sweep starts it once its time has come — once, however many
instances try at the same moment — and waits while fewer than two are checked in.
"""

from __future__ import annotations

import asyncio
import time
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.tournaments import tournaments
from app.services.tournaments.starting import start_scheduled
from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)


def _due_now(client: TestClient, tid: str) -> list[bool]:
    """Move the start time into the past, then start it from three tries at once."""
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> list[bool]:
        async with rt.db.transaction() as conn:
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
        async with rt.db.transaction() as conn:
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
