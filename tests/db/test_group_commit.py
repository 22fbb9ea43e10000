"""Group commit (app/db/group_commit.py): moves of many matches made at the same moment share
one statement, and each move still gets exactly its own outcome — written, refused because its
row moved on (another version or clock), or its own unique-violation error.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from sqlalchemy import func, select

from app.db import hot
from app.db.action_log import LogRow
from app.db.group_commit import AppendBatcher
from app.db.models import match_actions, matches, utcnow
from app.db.txs import LookBy
from app.services.match import queries as outbox
from app.services.match import reads
from app.services.match.play import play
from app.services.runtime import Runtime
from tests.match.test_play import _first_move, _new_match, _run

pytestmark = [pytest.mark.timeout(120), pytest.mark.postgres]


def _values(version: int, clock: dict[str, Any] | None) -> dict[str, Any]:
    now = utcnow()
    values: dict[str, Any] = {
        "version": version,
        "seat_to_act": 1,
        "turn": 1,
        "scores": [0, 0],
        "updated_at": now,
        # The sweep must never look at these matches (their log rows are not engine actions):
        # the next look a day on, outside any test session.
        "look_by": LookBy.after(now, now + timedelta(days=1)),
    }
    if clock is not None:
        values["clock"] = clock
    return values


async def _row_version(rt: Runtime, match_id: str) -> tuple[int, int]:
    """The match row's version and its number of log rows (read directly: the test's moves
    are not real engine actions).
    """
    async with rt.storage.db.reading() as conn:
        version = (
            await conn.execute(select(matches.c.version).where(matches.c.id == match_id))
        ).scalar_one()
        logged = (
            await conn.execute(select(func.count()).where(match_actions.c.match_id == match_id))
        ).scalar_one()
    return int(version), int(logged)


async def _clock(rt: Runtime, match_id: str) -> dict[str, Any] | None:
    clock = (await reads.current(rt, match_id)).clock
    return None if clock is None else clock.to_json()


async def _append(
    rt: Runtime, match_id: str, expected: int, client_id: str, clock: dict[str, Any] | None
) -> bool:
    """One move of seat 0 through :func:`hot.append_fast` (expecting and keeping ``clock``)."""
    values = _values(expected + 1, clock)
    row = LogRow(
        match_id=match_id,
        version=expected + 1,
        seat=0,
        client_id=client_id,
        action_json='{"type": "pass"}',
        events_json="[]",
        at=values["updated_at"],
    )
    return await hot.append_fast(rt.storage.db, row, clock, values)


def test_moves_of_many_matches_share_statements_and_each_is_written(postgres_url: str) -> None:
    async def body(rt: Runtime) -> None:
        started = [await _new_match(rt) for _ in range(12)]
        moves = [await _first_move(rt, m) for m, _ in started]
        results = await asyncio.gather(
            *(
                play.submit_action(rt, m, players[0], 0, f"g{i}", move)
                for i, ((m, players), move) in enumerate(zip(started, moves, strict=True))
            )
        )
        assert [r.version for r in results] == [1] * 12
        batcher: AppendBatcher = rt.storage.db.appends
        assert batcher.moves == 12
        assert batcher.statements < 12, "moves made at once share a statement"
        for match_id, _ in started:
            rt.storage.cache.drop(match_id)
            live = await reads.current(rt, match_id)
            assert live.version == 1 and live.state.phase != "place_tile"
            assert [b[0] for b in await outbox.batches_since(rt.storage.db, match_id, 0)] == [1]

    _run(postgres_url, body)


def test_a_batch_answers_each_move_by_its_own_row(postgres_url: str) -> None:
    """In one batch: a move at the right version is written; one at a version the row has
    left, and one expecting another clock, are refused (False) and write nothing.
    """

    async def body(rt: Runtime) -> None:
        (a, _), (b, _), (c, _) = [await _new_match(rt) for _ in range(3)]
        clocks = [await _clock(rt, m) for m in (a, b, c)]
        assert clocks[2] is not None
        other_clock = {**clocks[2], "timeouts": [5, 5]}
        ok, stale, wrong_clock = await asyncio.gather(
            _append(rt, a, 0, "x1", clocks[0]),
            _append(rt, b, 7, "x2", clocks[1]),
            _append(rt, c, 0, "x3", other_clock),
        )
        assert (ok, stale, wrong_clock) == (True, False, False)
        assert rt.storage.db.appends.statements == 1
        for match_id, version in ((a, 1), (b, 0), (c, 0)):
            assert await _row_version(rt, match_id) == (version, version)

    _run(postgres_url, body)


def test_a_repeated_client_id_fails_only_its_own_move(postgres_url: str) -> None:
    """A unique violation inside a batch rolls the batch back; its moves are written again one
    by one, so only the repeated client action id gets the error.
    """

    async def body(rt: Runtime) -> None:
        (a, _), (b, _) = [await _new_match(rt) for _ in range(2)]
        ca, cb = await _clock(rt, a), await _clock(rt, b)
        assert await _append(rt, a, 0, "dup", ca)
        results = await asyncio.gather(
            _append(rt, a, 1, "dup", ca), _append(rt, b, 0, "fresh", cb), return_exceptions=True
        )
        assert isinstance(results[0], hot.DUPLICATE)
        assert results[1] is True
        for match_id, version in ((a, 1), (b, 1)):
            assert await _row_version(rt, match_id) == (version, version)

    _run(postgres_url, body)


def test_a_failing_database_reaches_every_move_of_the_batch(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(rt: Runtime) -> None:
        (a, _), (b, _) = [await _new_match(rt) for _ in range(2)]
        ca, cb = await _clock(rt, a), await _clock(rt, b)
        assert await _append(rt, a, 0, "warm", ca)  # the batcher exists

        async def broken(*_args: Any, **_kw: Any) -> Any:
            raise OSError("the database went away")

        monkeypatch.setattr(
            "app.db.group_commit.AppendBatcher._write_batch", lambda *_a, **_k: broken()
        )
        results = await asyncio.gather(
            _append(rt, a, 1, "y1", ca), _append(rt, b, 0, "y2", cb), return_exceptions=True
        )
        assert all(isinstance(r, OSError) for r in results), results
        monkeypatch.undo()
        assert await _append(rt, b, 0, "y3", cb)  # the batcher goes on afterwards

    _run(postgres_url, body)
