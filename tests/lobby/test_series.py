"""Best-of-N series at one table over REST on both backends: the lobby option, the start
player rotating each game, the score after each game, the early end once decided, a game
counted once however often its end is heard, and the rematch offering another series.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.models import matches, utcnow
from app.services.lobby import series_games
from app.services.records import history
from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)


def _finish(client: TestClient, match_id: str, scores: list[int]) -> list[bool]:
    """End a match with ``scores`` (by match seat), settle its history (which announces
    ``match_settled``: the series' listener counts it in the background), then hear its end
    three times more at once (the sweep, other instances): what each of those three said.
    """
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> list[bool]:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(status="finished", scores=scores, finished_at=utcnow(), next_bot_at=None)
            )
        assert await history.settle(rt, match_id)
        return list(
            await asyncio.gather(*(series_games.count_game(rt, match_id) for _ in range(3)))
        )

    result: list[bool] = client.portal.call(run)  # type: ignore[union-attr]
    return result


def _series(api: Api, match_id: str, headers: dict[str, str]) -> dict[str, Any]:
    found: dict[str, Any] = api.get(f"/api/matches/{match_id}/series", headers)
    return found


def test_best_of_three_rotates_and_ends_when_decided(client: TestClient, api: Api) -> None:
    first, people, code = api.match(best_of=3)
    (ann, _, ann_h), (ben, _, _) = people
    assert api.get(f"/api/lobbies/{code}")["best_of"] == 3
    s = _series(api, first, ann_h)
    assert (s["game"], s["best_of"], s["status"], s["score"]) == (1, 3, "playing", [0, 0])
    assert [p["player"] for p in s["players"]] == [ann, ben]
    r = client.post(f"/api/matches/{first}/rematch", headers=ann_h)
    assert r.status_code == 409  # still being played

    # Game 1: Ann (match seat 0) wins; counted once however many hear of it (the score).
    assert _finish(client, first, [12, 5]).count(True) <= 1
    s = _series(api, first, ann_h)
    assert s["score"] == [1, 0] and s["status"] == "playing" and s["next_match"]
    second = s["next_match"]
    assert api.get(f"/api/lobbies/{code}")["match_id"] == second
    seats = api.get(f"/api/matches/{second}", ann_h)["seats"]
    assert [x["name"] for x in seats] == ["Ben", "Ann"]  # Ben starts game 2
    r = client.post(f"/api/matches/{first}/rematch", headers=ann_h)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "series_running"

    # Game 2: Ann (now match seat 1) wins again: 2–0 decides a best of 3; no third game.
    assert _finish(client, second, [3, 9]).count(True) <= 1
    s = _series(api, second, ann_h)
    assert s["game"] == 2 and s["score"] == [2, 0] and s["status"] == "decided"
    assert s["winners"] == [0] and s["next_match"] is None and len(s["games"]) == 2
    assert [g["first"] for g in s["games"]] == [0, 1]
    assert api.get(f"/api/lobbies/{code}")["match_id"] == second

    # Another series: the rematch keeps the length.
    again = api.post(f"/api/matches/{second}/rematch", ann_h)["code"]
    assert api.get(f"/api/lobbies/{again}")["best_of"] == 3


def test_a_draw_shares_the_point_and_three_players_rotate(client: TestClient, api: Api) -> None:
    first, people, _ = api.match(seats=3, best_of=3)
    headers = people[0][2]
    _finish(client, first, [7, 7, 1])  # Ann and Ben share game 1
    s = _series(api, first, headers)
    assert s["score"] == [0.5, 0.5, 0] and s["next_match"]
    second = s["next_match"]
    seats = api.get(f"/api/matches/{second}", headers)["seats"]
    assert [x["name"] for x in seats] == ["Ben", "Cat", "Ann"]
    _finish(client, second, [0, 0, 20])  # Ann (match seat 2) wins game 2: 1.5, 0.5, 0
    s = _series(api, second, headers)
    assert s["score"] == [1.5, 0.5, 0] and s["status"] == "playing"
    third = s["next_match"]
    assert [x["name"] for x in api.get(f"/api/matches/{third}", headers)["seats"]] == [
        "Cat",
        "Ann",
        "Ben",
    ]
    _finish(client, third, [0, 1, 30])  # Ben wins game 3: 1.5–1.5 after 3 of 3, level
    s = _series(api, third, headers)
    assert s["status"] == "decided" and s["score"] == [1.5, 1.5, 0] and s["winners"] == [0, 1]


def test_series_option_and_reads(client: TestClient, api: Api) -> None:
    _, _, headers = api.player("Ann")
    r = client.post("/api/lobbies", json={"best_of": 2}, headers=headers)
    assert r.status_code == 422
    single, people, _ = api.match()
    r = client.get(f"/api/matches/{single}/series", headers=people[0][2])
    assert r.status_code == 404 and r.json()["error"]["reason"] == "no_series"
    hidden, people, code = api.match(best_of=5, private=True)
    _, _, stranger = api.player("Zed")
    assert client.get(f"/api/matches/{hidden}/series", headers=stranger).status_code == 403
    s = api.get(f"/api/matches/{hidden}/series?code={code}", stranger)
    assert s["best_of"] == 5
    lobby = api.lobby(headers, best_of=3)
    patched = client.patch(
        f"/api/lobbies/{lobby['code']}", json={"best_of": 5}, headers=headers
    ).json()
    assert patched["best_of"] == 5


def test_the_sweep_counts_a_game_nobody_settled(client: TestClient, api: Api) -> None:
    """A game that ended without a move (an early end by vote) has no subscriber to settle
    it: the sweep settles it once it is late, counts it and deals the next game.
    """
    first, people, _ = api.match(best_of=3)
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> int:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(matches)
                .where(matches.c.id == first)
                .values(
                    status="finished",
                    scores=[3, 8],
                    finished_at=utcnow() - timedelta(seconds=30),
                    next_bot_at=None,
                )
            )
        return await series_games.sweep_once(rt)

    # The sweep settles the history; the settled news may count the game before the sweep's own
    # count does (both under the table's lock): either way it is counted once when it returns.
    client.portal.call(run)  # type: ignore[union-attr]
    s = _series(api, first, people[0][2])
    assert s["score"] == [0, 1] and s["next_match"]
    assert [g["points"] is not None for g in s["games"]] == [True, False]
    # A second pass finds nothing left to count: the game counted once.
    assert client.portal.call(series_games.sweep_once, rt) == 0  # type: ignore[union-attr]
    assert _series(api, first, people[0][2])["score"] == [0, 1]
