"""A knock-out over REST on both backends: the seeded bracket with byes to the top seeds,
winners paired two tables to one, a draw sending the better seed through, the bracket in the
Tournament JSON, and a knock-out seeded from a finished Swiss's standings.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def settings(backend: tuple[str, str | None], channel_prefix: str, frontend: Any) -> Any:
    """Fast computers."""
    from tests.support.app import make_settings

    return make_settings(backend[0], backend[1], channel_prefix, frontend, bot_think=0.0)


def _decide(
    api: Api, tid: str, host: dict[str, str], entrants: list[int], places: list[int]
) -> Any:
    data = api.get(f"/api/tournaments/{tid}", host)
    game = next(p for p in data["pairings"] if p["entrants"] == entrants and p["points"] is None)
    return api.post(
        f"/api/tournaments/{tid}/games/{game['id']}/result", host, places=places, reason="test"
    )


def test_knockout_of_five_with_byes_and_a_drawn_game(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    tid = api.post("/api/tournaments", host, 201, name="Cup", format="knockout")["id"]
    for _ in range(5):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    before = api.get(f"/api/tournaments/{tid}", host)
    assert [len(r) for r in before["bracket"]] == [4, 2, 1]
    started = api.post(f"/api/tournaments/{tid}/start", host)
    assert started["rounds"] == 3 and started["round"] == 1
    first = sorted((p["table"], p["entrants"], p["source"]) for p in started["pairings"])
    assert first == [(1, [1], "bye"), (2, [4, 5], None), (3, [2], "bye"), (4, [3], "bye")]

    # A drawn game: the better seed (4) goes through.
    second = _decide(api, tid, host, [4, 5], [1, 1])
    assert second["round"] == 2
    assert sorted(p["entrants"] for p in second["pairings"] if p["round"] == 2) == [[1, 4], [2, 3]]
    assert second["bracket"][0][1]["winner"] == 4
    _decide(api, tid, host, [1, 4], [2, 1])
    final = _decide(api, tid, host, [2, 3], [2, 1])
    assert final["round"] == 3
    assert [p["entrants"] for p in final["pairings"] if p["round"] == 3] == [[3, 4]]
    assert final["bracket"][2][0]["entrants"] == [3, 4]
    done = _decide(api, tid, host, [3, 4], [2, 1])
    assert done["status"] == "finished"
    assert done["bracket"][2][0]["winner"] == 4
    assert done["standings"][0]["number"] == 4
    # Exactly once: one game per table of each round.
    keys = [(p["round"], p["table"]) for p in done["pairings"]]
    assert len(keys) == len(set(keys)) == 7


def test_knockout_seeded_from_a_finished_swiss(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, _, other = api.player("Else")
    swiss = api.post("/api/tournaments", host, 201, name="Qualifier", format="swiss", rounds=1)
    sid = swiss["id"]
    for _ in range(4):
        api.post(f"/api/tournaments/{sid}/computers", host, level="easy")
    running = api.post(f"/api/tournaments/{sid}/start", host)
    body = dict(name="Final four", format="knockout", seed_from=sid)
    api.post("/api/tournaments", host, 409, **body)  # the Swiss is not finished
    for p in running["pairings"]:
        _decide(api, sid, host, p["entrants"], [2, 1])  # the second seat wins each game
    finished = api.get(f"/api/tournaments/{sid}", host)
    assert finished["status"] == "finished"
    top = [s["name"] for s in finished["standings"]][:2]
    api.post("/api/tournaments", other, 403, **body)
    api.post("/api/tournaments", host, 422, **{**body, "format": "swiss", "rounds": 1})
    cup = api.post("/api/tournaments", host, 201, qualifiers=2, **body)
    assert [e["name"] for e in cup["entrants"]] == top
    assert all(e["status"] == "checked_in" for e in cup["entrants"])
    started = api.post(f"/api/tournaments/{cup['id']}/start", host)
    assert [p["entrants"] for p in started["pairings"]] == [[1, 2]] and started["rounds"] == 1


def test_the_organisers_seeded_list(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, _, ann = api.player("Ann")
    tid = api.post("/api/tournaments", host, 201, name="Seeded", format="knockout")["id"]
    for _ in range(4):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    api.post(f"/api/tournaments/{tid}/seeds", ann, 403, order=[4, 3, 2, 1])
    api.post(f"/api/tournaments/{tid}/seeds", host, 422, order=[4, 4])
    api.post(f"/api/tournaments/{tid}/seeds", host, 422, order=[9])
    seeded = api.post(f"/api/tournaments/{tid}/seeds", host, order=[4, 3])
    assert seeded["seeds"] == [4, 3, 1, 2]
    started = api.post(f"/api/tournaments/{tid}/start", host)
    tables = sorted((p["table"], p["entrants"]) for p in started["pairings"])
    assert tables == [(1, [4, 2]), (2, [3, 1])]  # seed 1 (4) meets seed 4 (2), 2 (3) meets 3 (1)
    api.post(f"/api/tournaments/{tid}/seeds", host, 409, order=[1])
    _decide(api, tid, host, [4, 2], [1, 1])  # a draw: the better seed, 4, goes through
    final = _decide(api, tid, host, [3, 1], [2, 1])  # 1 beats 3
    assert [p["entrants"] for p in final["pairings"] if p["round"] == 2] == [[4, 1]]
    swiss = api.post("/api/tournaments", host, 201, name="S", rounds=1)["id"]
    api.post(f"/api/tournaments/{swiss}/seeds", host, 409, order=[1])
