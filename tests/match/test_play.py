"""The write path without HTTP: ``submit_action`` (idempotency, stale version, another
instance writing first, the cache dropped on a failed write) and a read that races a commit.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import pytest
from sqlalchemy.exc import IntegrityError

from app.db import hot
from app.services import identity
from app.services.clock import requests as clock_requests
from app.services.errors import Conflict, StaleVersion
from app.services.lobby import dealing, lobby, seats
from app.services.match import queries as outbox
from app.services.match import reads
from app.services.match.play import play
from app.services.runtime import Runtime
from app.settings import ROOT
from tests.support.app import make_settings
from tests.support.services import run_async

pytestmark = pytest.mark.timeout(60)


def _runtime(url: str) -> Runtime:
    return Runtime(make_settings(url, None, "test-play", ROOT / "frontend"))


async def _new_match(rt: Runtime) -> tuple[str, list[str]]:
    players = [
        (await identity.create_player(rt.storage.db, rt.tokens, n))[0]["id"] for n in ("Ann", "Ben")
    ]
    code = (
        await lobby.create_lobby(
            rt, players[0], name=None, preset=None, rules=None, seats=2, private=False
        )
    )["code"]
    await seats.join(rt, code, players[1])
    return await dealing.start(rt, code, players[0]), players


async def _first_move(rt: Runtime, match_id: str) -> dict[str, Any]:
    live = await reads.current(rt, match_id)
    assert live.view is not None
    x, y, r = live.view["legal_placements"][0]
    return {"type": "place_tile", "at": [x, y], "rotation": r}


def _run(url: str, body: Callable[[Runtime], Awaitable[None]]) -> None:
    async def go() -> None:
        rt = _runtime(url)
        try:
            await body(rt)
        finally:
            await rt.close()

    run_async(go)


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def db_url(request: pytest.FixtureRequest) -> str:
    return str(request.getfixturevalue(f"{request.param}_url"))


def test_a_repeated_action_id_is_applied_once(db_url: str) -> None:
    async def body(rt: Runtime) -> None:
        match_id, players = await _new_match(rt)
        move = await _first_move(rt, match_id)
        first = await play.submit_action(rt, match_id, players[0], 0, "a1", move)
        again = await play.submit_action(rt, match_id, players[0], 0, "a1", move)
        assert first == again and first.version == 1
        rt.storage.cache.drop(match_id)  # answered from the log too, not only from memory
        assert await play.submit_action(rt, match_id, players[0], 0, "a1", move) == first
        assert [b[0] for b in await outbox.batches_since(rt.storage.db, match_id, 0)] == [1]

    _run(db_url, body)


def test_a_stale_version_is_refused_and_changes_nothing(db_url: str) -> None:
    async def body(rt: Runtime) -> None:
        match_id, players = await _new_match(rt)
        move = await _first_move(rt, match_id)
        with pytest.raises(StaleVersion):
            await play.submit_action(rt, match_id, players[0], 3, "s1", move)
        assert (await reads.current(rt, match_id)).version == 0

    _run(db_url, body)


def test_a_failed_write_drops_the_cached_state(
    db_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(rt: Runtime) -> None:
        match_id, players = await _new_match(rt)
        move = await _first_move(rt, match_id)

        async def broken(*_args: Any, **_kw: Any) -> bool:
            raise OSError("the database went away")

        monkeypatch.setattr(play, "append_fast", broken)
        with pytest.raises(OSError):
            await play.submit_action(rt, match_id, players[0], 0, "f1", move)
        assert rt.storage.cache.get(match_id) is None  # its state was ahead of the database
        live = await reads.current(rt, match_id)
        assert live.version == 0 and live.state.phase == "place_tile"

        async def duplicate(*_args: Any, **_kw: Any) -> bool:
            raise IntegrityError("INSERT", {}, Exception("unique"))

        monkeypatch.setattr(play, "append_fast", duplicate)
        with pytest.raises(Conflict):
            await play.submit_action(rt, match_id, players[0], 0, "f2", move)
        assert rt.storage.cache.get(match_id) is None

    _run(db_url, body)


@pytest.mark.postgres
def test_another_instance_writing_first(postgres_url: str) -> None:
    async def body(a: Runtime) -> None:
        b = _runtime(postgres_url)
        try:
            match_id, players = await _new_match(a)
            move = await _first_move(a, match_id)  # A caches version 0
            await _first_move(b, match_id)
            done = await play.submit_action(b, match_id, players[0], 0, "w1", move)
            # A's cache is behind: its one-statement write finds version 1 and falls back.
            with pytest.raises(StaleVersion):
                await play.submit_action(a, match_id, players[0], 0, "w2", move)
            # The same action id retried on A answers B's result: applied once in all.
            assert await play.submit_action(a, match_id, players[0], 0, "w1", move) == done
            assert (await reads.current(a, match_id)).version == 1
        finally:
            await b.close()

    _run(postgres_url, body)


@pytest.mark.postgres
def test_a_read_racing_a_commit_sees_one_version(
    postgres_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def body(a: Runtime) -> None:
        b = _runtime(postgres_url)
        try:
            match_id, players = await _new_match(b)
            move = await _first_move(b, match_id)
            original = hot.PgTx.snapshot
            raced = []

            async def commit_in_between(self: hot.PgTx, match: str) -> dict[str, Any]:
                if not raced:  # after A read the match row, before it reads the log
                    raced.append(await play.submit_action(b, match_id, players[0], 0, "r1", move))
                return await original(self, match)

            monkeypatch.setattr(hot.PgTx, "snapshot", commit_in_between)
            live = await reads.current(a, match_id)  # no RuntimeError: one consistent version
            assert raced and live.version == 0 and live.state.phase == "place_tile"
            monkeypatch.setattr(hot.PgTx, "snapshot", original)
            assert (await reads.current(a, match_id)).version == 1
        finally:
            await b.close()

    _run(postgres_url, body)


def test_a_clock_changed_between_actions_is_not_overwritten_by_the_fast_path(db_url: str) -> None:
    """A leave countdown starts (the clock changes, the version does not) while this instance
    caches the match: the next move must build on the stored clock, not the cached one.
    """

    async def body(rt: Runtime) -> None:
        match_id, players = await _new_match(rt)
        move = await _first_move(rt, match_id)
        await play.submit_action(rt, match_id, players[0], 0, "c1", move)
        cached = rt.storage.cache.get(match_id)
        assert cached is not None and cached.version == 1 and cached.clock is not None
        assert not cached.clock.away
        # Ben's socket went
        await clock_requests.seat_presence_changed(rt, match_id, 1, present=False)
        applied = await play.submit_action(rt, match_id, players[0], 1, "c2", {"type": "pass"})
        assert applied.version == 2
        live = await reads.current(rt, match_id)
        assert live.version == 2 and live.clock is not None
        assert "1" in live.clock.away  # the countdown survived Ann's move
        rt.storage.cache.drop(match_id)
        stored = await reads.current(rt, match_id)
        assert stored.clock is not None and "1" in stored.clock.away

    _run(db_url, body)
