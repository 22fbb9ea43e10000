"""The analysis of a finished match (docs/API.md § Analysis): asked for, computed in the bot
worker pool, stored once and shared; never for a live match; the replay's visibility; the
queue's limit per player.
"""

from __future__ import annotations

import contextlib
import logging
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert as sql_insert
from sqlalchemy.exc import OperationalError

from app.db.analyses import match_analyses
from app.services.match.insight import analyses
from app.services.runtime import Runtime
from tests.support.client import Api
from tests.support.finished import insert_finished
from tests.support.wait import wait_until

pytestmark = pytest.mark.timeout(180)


@pytest.fixture
def backend(sqlite_url: str) -> tuple[str, str | None]:
    """One backend is enough: the queries are plain, the work is the worker pool's."""
    return sqlite_url, None


def _run(client: TestClient, make: Any) -> Any:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def go() -> Any:
        async with runtime.storage.db.transaction() as conn:
            return await make(conn)

    return client.portal.call(go)  # type: ignore[union-attr]


def _finished(client: TestClient, player: str, *, private: bool = False) -> str:
    now = datetime.now(UTC)
    return str(
        _run(
            client,
            lambda conn: insert_finished(
                conn, [(player, "Ann"), (None, "Bot")], finished_at=now, private=private
            ),
        )
    )


def test_a_finished_match_is_analysed_once_and_shared(
    api: Api, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyses, "PLAYOUTS", 1)  # Strong's search, briefly: the test is the flow
    ann, _, ann_h = api.player("Ann")
    _, _, ben_h = api.player("Ben")
    match_id = _finished(client, ann, private=True)
    code = api.get(f"/api/matches/{match_id}", ann_h)["lobby_code"]
    assert api.get(f"/api/matches/{match_id}/analysis", ann_h)["status"] == "none"
    api.get(f"/api/matches/{match_id}/analysis", ben_h, status=403)  # private: as the replay
    asked = api.post(f"/api/matches/{match_id}/analysis", ann_h, status=202)
    assert asked["status"] in ("queued", "running", "done")

    def done() -> dict[str, Any] | None:
        got: dict[str, Any] = api.get(f"/api/matches/{match_id}/analysis?code={code}", ben_h)
        assert got["status"] != "failed", got
        return got if got["status"] == "done" else None

    result = wait_until(done, timeout=150, interval=0.3, message="the analysis never finished")
    analysis = result["analysis"]
    record = api.get(f"/api/matches/{match_id}/record", ann_h)
    assert len(analysis["moves"]) == len(record["moves"])
    assert [m["n"] for m in analysis["moves"]] == list(range(1, len(record["moves"]) + 1))
    for move, played in zip(analysis["moves"], record["moves"], strict=True):
        assert move["tile"] == played["tile"]
        assert move["played"]["at"] == played["at"]
        assert move["loss"] >= 0 and len(move["margins"]) == 2
    assert analysis["moves"][-1]["margins"][0] == analysis["scores"][0] - analysis["scores"][1]
    assert 1 <= len(analysis["swings"]) <= 5
    # Stored once: asking again returns it as it is.
    again = api.post(f"/api/matches/{match_id}/analysis?code={code}", ben_h, status=202)
    assert again["status"] == "done" and again["finished_at"] == result["finished_at"]


def test_no_analysis_of_a_live_match_and_a_limit_per_player(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    ann_h = people[0][2]
    r = api.client.post(f"/api/matches/{match_id}/analysis", headers=ann_h)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "analysis_live"
    r = api.client.get(f"/api/matches/{match_id}/analysis", headers=ann_h)
    assert r.status_code == 409
    # Two of Ann's analyses wait already: a third is refused, nothing queued.
    waiting = [_finished(client, people[0][0]) for _ in range(analyses.PER_PLAYER)]
    now = datetime.now(UTC)
    _run(
        client,
        lambda conn: conn.execute(
            sql_insert(match_analyses),
            [
                {
                    "match_id": m,
                    "status": "queued",
                    "requested_by": people[0][0],
                    "requested_at": now,
                }
                for m in waiting
            ],
        ),
    )
    third = _finished(client, people[0][0])
    r = api.client.post(f"/api/matches/{third}/analysis", headers=ann_h)
    assert r.status_code == 429 and r.json()["error"]["reason"] == "analysis_busy"
    assert api.get(f"/api/matches/{third}/analysis", ann_h)["status"] == "none"


def test_a_rated_match_is_analysed_when_it_ends_an_unrated_one_is_not(
    api: Api, client: TestClient, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(analyses, "PLAYOUTS", 0)
    ann, _, ann_h = api.player("Ann")
    now = datetime.now(UTC)
    rated = str(
        _run(
            client,
            lambda conn: insert_finished(
                conn, [(ann, "Ann"), (None, "Bot")], finished_at=now, rated=True
            ),
        )
    )
    unrated = _finished(client, ann)
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    for match_id in (rated, unrated):
        client.portal.call(analyses.analyse_if_rated, runtime, match_id)  # type: ignore[union-attr]
    assert api.get(f"/api/matches/{unrated}/analysis", ann_h)["status"] == "none"
    wait_until(
        lambda: api.get(f"/api/matches/{rated}/analysis", ann_h)["status"] == "done",
        timeout=150,
        interval=0.3,
        message="the rated match was not analysed",
    )


class _Database:
    """A stand-in ``rt.storage.db`` whose connections are never used (the queries are replaced)."""

    @contextlib.asynccontextmanager
    async def reading(self) -> AsyncIterator[None]:
        yield None


def _outage() -> OperationalError:
    return OperationalError("SELECT", {}, ConnectionRefusedError("the database restarts"))


async def test_a_rated_match_ending_during_a_database_restart_is_still_analysed(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The soak saw ``analyse_if_rated`` raise (a traceback, the analysis never asked for) when
    a match ended as Postgres restarted: it now waits for the database and asks.
    """
    answers: list[Any] = [_outage(), _outage(), True]
    asked: list[str] = []

    async def is_rated_match(conn: Any, match_id: str) -> bool:
        answer = answers.pop(0)
        if isinstance(answer, BaseException):
            raise answer
        return bool(answer)

    async def request_analysis(rt: Any, match_id: str, *_: Any) -> None:
        asked.append(match_id)

    async def no_wait(_: float) -> None:
        return None

    monkeypatch.setattr(analyses.queries, "is_rated_match", is_rated_match)
    monkeypatch.setattr(analyses, "request_analysis", request_analysis)
    monkeypatch.setattr(analyses.asyncio, "sleep", no_wait)
    rt = SimpleNamespace(storage=SimpleNamespace(db=_Database()))
    await analyses.analyse_if_rated(rt, "m1")  # type: ignore[arg-type]
    assert asked == ["m1"] and answers == []
    assert not [r for r in caplog.records if r.levelno >= logging.WARNING]


async def test_a_database_that_stays_away_costs_one_line_not_a_traceback(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    async def is_rated_match(conn: Any, match_id: str) -> bool:
        raise _outage()

    async def no_wait(_: float) -> None:
        return None

    monkeypatch.setattr(analyses.queries, "is_rated_match", is_rated_match)
    monkeypatch.setattr(analyses.asyncio, "sleep", no_wait)
    rt = SimpleNamespace(storage=SimpleNamespace(db=_Database()))
    with caplog.at_level(logging.WARNING, logger=analyses.log.name):
        await analyses.analyse_if_rated(rt, "m2")  # type: ignore[arg-type]
    warnings = [r for r in caplog.records if r.name == analyses.log.name]
    assert len(warnings) == 1 and warnings[0].exc_info is None
    assert "the database is unavailable" in warnings[0].getMessage()
