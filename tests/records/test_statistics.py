"""Profile statistics (``GET /api/players/{id}/statistics``) on both backends: rating history
per preset, win rate by seat count, points by feature and their share, the longest road and the
biggest city scored, finished vs left; rows settled before statistics were kept are filled from
the action log; an unknown player is a 404.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import insert, select, update

from app.db.community import match_players
from app.db.models import match_actions, matches
from app.services.records import history
from app.services.records.statistics import seat_statistics
from app.services.runtime import Runtime
from tests.support.client import Api

pytestmark = pytest.mark.timeout(240)


def _scored(seat: int, points: int, category: str, tiles: int) -> dict[str, Any]:
    return {
        "type": "PointsScored",
        "seat": seat,
        "points": points,
        "category": category,
        "final": False,
        "tiles": [[i, 0] for i in range(tiles)],
        "pennants": 0,
        "cities": 0,
        "majority": [seat],
        "followers": [],
        "rule": "",
    }


def test_seat_statistics_adds_points_by_feature_and_keeps_the_biggest() -> None:
    events = [
        _scored(0, 4, "road", 4),
        _scored(0, 7, "road", 7),
        _scored(1, 8, "city", 3),
        _scored(0, 10, "city", 5),
        _scored(0, 9, "cloister", 9),
        _scored(1, 6, "farm", 12),
        _scored(1, 3, "fortune", 0),
        {"type": "TilePlaced", "seat": 0},
        _scored(7, 99, "road", 50),  # no such seat: ignored
    ]
    stats = seat_statistics(events, [0, 1])
    assert stats[0] == {
        "points": {"road": 11, "city": 10, "cloister": 9, "farm": 0, "other": 0},
        "longest_road": 7,
        "biggest_city": 5,
    }
    assert stats[1]["points"] == {"road": 0, "city": 8, "cloister": 0, "farm": 6, "other": 3}
    assert (stats[1]["longest_road"], stats[1]["biggest_city"]) == (0, 3)


def _account(client: TestClient, stem: str) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/accounts",
        json={"username": f"{stem}{secrets.token_hex(3)}", "password": "correct horse battery"},
    )
    assert r.status_code == 201, r.text
    return r.json()["account"]["id"], {"Authorization": f"Bearer {r.json()['token']}"}


def _finish(
    client: TestClient, match_id: str, scores: list[int], events: list[Any], left: int | None
) -> None:
    """End the match with ``scores``, one logged action per seat carrying ``events`` on the
    first, ``left`` played by the server; then settle it as the match-end hook does.
    """
    rt: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def go() -> None:
        async with rt.storage.db.transaction() as conn:
            for seat in range(len(scores)):
                await conn.execute(
                    insert(match_actions).values(
                        match_id=match_id,
                        seq=seat + 1,
                        seat=seat,
                        action='{"type": "pass"}',
                        events=json.dumps(events if seat == 0 else []),
                        by=None,
                        published=True,
                    )
                )
            await conn.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(status="finished", scores=scores)
            )
            if left is not None:
                await conn.execute(
                    update(match_players)
                    .where(match_players.c.match_id == match_id, match_players.c.seat == left)
                    .values(left=True)
                )
        await history.settle(rt, match_id)

    client.portal.call(go)  # type: ignore[union-attr]


def _match(api: Api, people: list[tuple[str, dict[str, str]]], rated: bool) -> str:
    lobby = api.lobby(people[0][1], seats=len(people), rated=rated, preset="standard")
    for _, h in people[1:]:
        api.post(f"/api/lobbies/{lobby['code']}/join", h)
    return str(api.post(f"/api/lobbies/{lobby['code']}/start", people[0][1])["match_id"])


def test_statistics_of_a_player_over_two_matches(api: Api, client: TestClient) -> None:
    ann, ben, cat = (_account(client, n) for n in ("Ann", "Ben", "Cat"))
    assert client.get(f"/api/players/{ann[0]}/statistics").json()["played"] == 0
    # A rated two-seat match Ann wins with a 6-tile road and a 4-tile city.
    first = _match(api, [ann, ben], rated=True)
    _finish(
        client,
        first,
        [30, 12],
        [_scored(0, 6, "road", 6), _scored(0, 8, "city", 4), _scored(1, 12, "farm", 9)],
        left=None,
    )
    # A casual three-seat match Ann leaves (counted last) after scoring a cloister.
    second = _match(api, [ann, ben, cat], rated=False)
    _finish(client, second, [40, 10, 5], [_scored(0, 9, "cloister", 9)], left=0)

    body = client.get(f"/api/players/{ann[0]}/statistics").json()
    assert body["played"] == 2 and body["finished"] == 1 and body["left"] == 1
    assert body["by_players"] == {"2": {"played": 1, "won": 1}, "3": {"played": 1, "won": 0}}
    assert body["average_score"] == 35
    assert body["points"] == {"road": 6, "city": 8, "cloister": 9, "farm": 0, "other": 0}
    assert body["share"]["cloister"] == round(9 / 23, 3)
    assert (body["longest_road"], body["biggest_city"]) == (6, 4)
    line = body["ratings"]["standard"]
    assert len(line) == 2 and line[1]["rating"] > line[0]["rating"]
    assert (
        client.get(f"/api/players/{ann[0]}/profile").json()["ratings"]["standard"]["rating"]
        == (line[1]["rating"])
    )
    ben_body = client.get(f"/api/players/{ben[0]}/statistics").json()
    assert ben_body["by_players"]["3"] == {"played": 1, "won": 1}
    assert (
        ben_body["ratings"]["standard"][1]["rating"] < ben_body["ratings"]["standard"][0]["rating"]
    )

    # A row settled before statistics were kept is filled from the action log when read.
    rt: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def forget() -> Any:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(match_players)
                .where(match_players.c.match_id == first)
                .values(statistics=None)
            )

    async def stored() -> Any:
        async with rt.storage.db.reading() as conn:
            return (
                await conn.execute(
                    select(match_players.c.statistics).where(
                        match_players.c.match_id == first, match_players.c.seat == 1
                    )
                )
            ).scalar_one()

    client.portal.call(forget)  # type: ignore[union-attr]
    again = client.get(f"/api/players/{ann[0]}/statistics").json()
    assert again["points"] == body["points"] and again["longest_road"] == 6
    assert client.portal.call(stored)["points"]["farm"] == 12  # type: ignore[union-attr]

    r = client.get("/api/players/nobody/statistics")
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
