"""When the sweep next looks at a match (``matches.next_bot_at``): a move writes it as a bound
(``app.db.txs.LookBy``), so most moves leave the indexed column as it is and their row update
stays a HOT update; the sweep, looking early, finds nothing due and stores the true time.

A move keeps a stored time no later than its own due time, unless that time is already past
(or about to be: within a quarter of the move's horizon); it writes its due time when the
stored one is later, or missing. The stored time is therefore never later than the time the
match really needs a look: no bot turn, clock or abandoned turn is looked at late.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import select, update

from app.db.models import matches, utcnow
from app.services.match import reads
from app.services.match.play import bot_turns, play
from app.services.runtime import Runtime
from tests.match.test_play import _first_move, _new_match, _run

pytestmark = pytest.mark.timeout(60)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


async def _stored(rt: Runtime, match_id: str) -> datetime:
    async with rt.storage.db.reading() as conn:
        value = (
            await conn.execute(select(matches.c.next_bot_at).where(matches.c.id == match_id))
        ).scalar_one()
    assert isinstance(value, datetime)
    return value if value.tzinfo else value.replace(tzinfo=utcnow().tzinfo)


async def _store(rt: Runtime, match_id: str, at: datetime) -> None:
    async with rt.storage.db.transaction() as conn:
        await conn.execute(update(matches).where(matches.c.id == match_id).values(next_bot_at=at))
    rt.storage.cache.drop(match_id)


async def _move(rt: Runtime, match_id: str, players: list[str], n: int) -> datetime:
    """The next move of the match (a placement, else a pass), as client action ``n``; its time."""
    live = await reads.current(rt, match_id)
    seat = live.state.seat
    action: dict[str, Any] = (
        await _first_move(rt, match_id) if live.state.phase == "place_tile" else {"type": "pass"}
    )
    before = utcnow()
    await play.submit_action(rt, match_id, players[seat], live.version, f"m{n}", action)
    return before


def test_a_move_keeps_an_earlier_look_and_moves_a_later_or_past_one(db_url: str) -> None:
    async def body(rt: Runtime) -> None:
        match_id, players = await _new_match(rt)
        abandon = timedelta(seconds=rt.settings.abandon_after)
        soon = utcnow() + abandon / 2  # earlier than any move's due time, not past
        await _store(rt, match_id, soon)
        for n in range(4):
            await _move(rt, match_id, players, n)
            assert await _stored(rt, match_id) == soon  # kept: the update touched no index
        # A stored time later than the move's due time is brought forward to it.
        await _store(rt, match_id, utcnow() + 10 * abandon)
        at = await _move(rt, match_id, players, 4)
        stored = await _stored(rt, match_id)
        assert at + abandon * 0.9 <= stored <= utcnow() + abandon
        # A stored time already past is moved on (the sweep would look for nothing).
        await _store(rt, match_id, utcnow() - timedelta(seconds=5))
        at = await _move(rt, match_id, players, 5)
        assert await _stored(rt, match_id) >= at + abandon * 0.9

    _run(db_url, body)


def test_an_early_look_hands_nothing_over_and_stores_the_true_time(db_url: str) -> None:
    async def body(rt: Runtime) -> None:
        match_id, players = await _new_match(rt)
        await _move(rt, match_id, players, 0)
        await _move(rt, match_id, players, 1)  # Ben's turn now, Ben never connected
        turn_from = utcnow()
        await _store(rt, match_id, utcnow() - timedelta(seconds=1))
        assert not await bot_turns.play_due_turn(rt, match_id)
        live = await reads.current(rt, match_id)
        assert live.version == 2 and live.state.seat == 1  # still Ben's turn, nobody played it
        abandon = timedelta(seconds=rt.settings.abandon_after)
        # The next look is when Ben's turn could be abandoned, not a whole abandon_after on.
        stored = await _stored(rt, match_id)
        assert turn_from - timedelta(seconds=2) + abandon <= stored <= turn_from + abandon

    _run(db_url, body)
