"""The analysis queue against a hostile crowd (docs/API.md § Analysis): its cap holds under
concurrent requests (counted and taken in one locked step, never check-then-insert), guests
get a smaller share of it (``analysis_guests_busy``), and people's requests together never
take the room kept for rated matches' analyses (which the server asks for when they end).
"""

from __future__ import annotations

import asyncio
import secrets
from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, func, insert, select

from app.db.analyses import match_analyses
from app.db.community import accounts
from app.db.models import players
from app.services.errors import RateLimited
from app.services.match.insight import analyses
from app.services.runtime import Runtime
from tests.support.finished import insert_finished

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def backend(postgres_url: str, redis_url: str) -> tuple[str, str | None]:
    """Postgres: concurrent transactions really run at once there (SQLite has one writer)."""
    return postgres_url, redis_url


@pytest.fixture(autouse=True)
def _no_work(monkeypatch: pytest.MonkeyPatch) -> None:
    """Queued analyses stay queued: the test is the queue, not the worker pool."""

    async def run_analysis(rt: Any, match_id: str) -> None:
        return None

    monkeypatch.setattr(analyses, "run_analysis", run_analysis)


def _runtime(client: TestClient) -> Runtime:
    """The app's runtime, its analysis queue emptied (the database outlives one test)."""
    rt: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def empty() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(delete(match_analyses))

    client.portal.call(empty)  # type: ignore[union-attr]
    return rt


def _call(client: TestClient, fn: Any, *args: Any) -> Any:
    return client.portal.call(fn, *args)  # type: ignore[union-attr]


async def _people(rt: Runtime, n: int, *, account: bool) -> list[str]:
    """``n`` players written straight to the database, each an account's or a guest."""
    ids = [secrets.token_hex(8) for _ in range(n)]
    async with rt.storage.db.transaction() as conn:
        await conn.execute(insert(players), [{"id": i, "name": f"P{i[:6]}"} for i in ids])
        if account:
            await conn.execute(
                insert(accounts),
                [
                    {
                        "player_id": i,
                        "username": f"u{i}",
                        "username_key": f"u{i}",
                        "password_hash": "x",
                    }
                    for i in ids
                ],
            )
    return ids


async def _matches(rt: Runtime, n: int) -> list[str]:
    now = datetime.now(UTC)
    out = []
    async with rt.storage.db.transaction() as conn:
        for seed in range(n):
            out.append(
                await insert_finished(
                    conn, [(None, "Ann"), (None, "Bot")], finished_at=now, seed=seed % 5 + 1
                )
            )
    return out


async def _queued(rt: Runtime) -> int:
    async with rt.storage.db.reading() as conn:
        found = await conn.execute(
            select(func.count()).where(match_analyses.c.status.in_(("queued", "running")))
        )
        return int(found.scalar_one())


async def _ask_all(rt: Runtime, asks: list[tuple[str, str | None]]) -> list[str]:
    """Ask for every ``(match, player)`` at once: ``"ok"`` or the refusal's reason each."""

    async def one(match_id: str, player: str | None) -> str:
        try:
            await analyses.request_analysis(rt, match_id, player, None)
        except RateLimited as exc:
            return str(exc.reason)
        return "ok"

    return list(await asyncio.gather(*(one(m, p) for m, p in asks)))


def test_the_cap_holds_under_concurrent_requests(client: TestClient) -> None:
    """40 accounts ask at once: exactly the people's cap is queued, the rest refused (before,
    each request counted, then inserted: 21 of a cap of 16 went through).
    """
    rt = _runtime(client)
    people = _call(client, lambda: _people(rt, 40, account=True))
    matches = _call(client, lambda: _matches(rt, 40))
    answers = _call(client, lambda: _ask_all(rt, list(zip(matches, people, strict=True))))
    assert answers.count("ok") == analyses.QUEUE, answers
    assert set(answers) == {"ok", "analysis_busy"}
    assert _call(client, lambda: _queued(rt)) == analyses.QUEUE


def test_guests_get_a_smaller_share_and_rated_matches_always_find_room(
    client: TestClient,
) -> None:
    rt = _runtime(client)
    guests = _call(client, lambda: _people(rt, 12, account=False))
    members = _call(client, lambda: _people(rt, 30, account=True))
    matches = _call(client, lambda: _matches(rt, 60))
    # Twelve guests at once: only the guests' share is queued.
    answers = _call(client, lambda: _ask_all(rt, list(zip(matches[:12], guests, strict=True))))
    assert answers.count("ok") == analyses.GUEST_QUEUE < analyses.QUEUE, answers
    assert set(answers) == {"ok", "analysis_guests_busy"}
    # Accounts still find room, up to the people's cap (guests' included).
    answers = _call(client, lambda: _ask_all(rt, list(zip(matches[12:42], members, strict=True))))
    assert answers.count("ok") == analyses.QUEUE - analyses.GUEST_QUEUE, answers
    assert set(answers) == {"ok", "analysis_busy"}
    # People filled theirs: a rated match's analysis, asked by the server, still gets in.
    rated = matches[42:50]
    answers = _call(client, lambda: _ask_all(rt, [(m, None) for m in rated]))
    assert answers == ["ok"] * len(rated)
    assert _call(client, lambda: _queued(rt)) == analyses.QUEUE + len(rated)
