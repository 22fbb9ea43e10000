"""One verdict for a match someone left, on both backends: two accounts play a rated match,
one leaves (socket gone, the leave countdown, the other votes "computer"), the computer plays
the rest of that seat's turns and ends ahead on points. The match JSON, the ratings answer,
the history, the replay and the record all say the same: the seat that stayed won, the
leaver is last and left at a given record move; the engine's ``result`` keeps the score's
order (the rules' winner).
"""

from __future__ import annotations

import random
import secrets
import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.clock.test_clocks import quick  # noqa: F401 - a fixture
from tests.support.client import Api, receive

pytestmark = pytest.mark.timeout(240)
PASSWORD = "correct horse battery"


def _account(client: TestClient, stem: str) -> tuple[str, str, dict[str, str]]:
    r = client.post(
        "/api/accounts", json={"username": f"{stem}{secrets.token_hex(3)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["account"]["id"], body["token"], {"Authorization": f"Bearer {body['token']}"}


def _wait(api: Api, match_id: str, until: Any, seconds: float = 30) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        match: dict[str, Any] = api.get(f"/api/matches/{match_id}")
        if until(match) or time.monotonic() > deadline:
            return match
        time.sleep(0.05)


def _move(
    api: Api, match_id: str, headers: dict[str, str], rng: random.Random, follow: bool
) -> None:
    """One action of the seat ``headers`` holds (a placement, or a follower decision)."""
    m = api.get(f"/api/matches/{match_id}", headers)
    state = m["state"]
    if state["phase"] == "place_tile":
        x, y, r = rng.choice(state["legal_placements"])
        d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
    elif follow and state["legal_spots"]:
        d = {"type": "place_follower", "spot": rng.choice(state["legal_spots"])}
    else:
        d = {"type": "pass"}
    r2 = api.client.post(
        f"/api/matches/{match_id}/actions",
        headers=headers,
        json={"v": m["version"], "id": f"m{m['version']}", "d": d},
    )
    assert r2.status_code in (200, 409), r2.text  # 409: the computer moved meanwhile


def test_a_leaver_ahead_on_points_is_last_everywhere(quick: TestClient) -> None:  # noqa: F811
    api = Api(quick)
    ann_id, ann_t, ann = _account(quick, "ann")
    ben_id, ben_t, ben = _account(quick, "ben")
    lobby = api.lobby(ann, seats=2, rated=True, preset="standard")
    api.post(f"/api/lobbies/{lobby['code']}/join", ben)
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", ann)["match_id"]
    rng = random.Random(7)
    with quick.websocket_connect(f"/ws/matches/{match_id}?token={ann_t}") as wa:
        receive(wa)
        _leave_and_finish(api, quick, match_id, ann, ben, ben_t, rng)
    match = api.get(f"/api/matches/{match_id}")
    _check_verdict(api, quick, match_id, match, ann_id, ann, ben_id, ben)


def _leave_and_finish(
    api: Api,
    client: TestClient,
    match_id: str,
    ann: dict[str, str],
    ben: dict[str, str],
    ben_t: str,
    rng: random.Random,
) -> None:
    seats = [ann, ben]
    # Ben plays his first twelve turns himself (more than a third of his moves: rated), with
    # followers; Ann never places a follower (she scores little).
    with client.websocket_connect(f"/ws/matches/{match_id}?token={ben_t}") as wb:
        receive(wb)
        while True:
            state = api.get(f"/api/matches/{match_id}")["state"]
            if state["turn"] >= 24 and state["phase"] == "place_tile" and state["seat"] == 1:
                break
            _move(api, match_id, seats[state["seat"]], rng, follow=state["seat"] == 1)
    # Ben's socket closed: after the countdown Ann hands his seat to the computer.
    _wait(api, match_id, lambda m: m["clock"]["vote"] is not None)
    api.post(f"/api/matches/{match_id}/vote", ann, choice="computer")
    match = _wait(api, match_id, lambda m: m["clock"]["auto"][1])
    assert match["verdict"] is None  # live: no verdict yet
    while match["status"] != "finished":
        if match["state"]["seat"] == 0:
            _move(api, match_id, ann, rng, follow=False)
        else:
            time.sleep(0.02)
        match = api.get(f"/api/matches/{match_id}")


def _check_verdict(
    api: Api,
    client: TestClient,
    match_id: str,
    match: dict[str, Any],
    ann_id: str,
    ann: dict[str, str],
    ben_id: str,
    ben: dict[str, str],
) -> None:
    scores = match["state"]["scores"]
    if scores[1] <= scores[0]:
        pytest.skip(f"the computer did not end ahead this time ({scores}); nothing to judge")
    assert match["state"]["winners"] == [1]  # the rules' winner: the best score
    verdict = _wait(api, match_id, lambda m: m["verdict"] is not None)["verdict"]
    assert verdict["places"] == [1, 2] and verdict["winners"] == [0]
    assert verdict["scores"] == scores
    (gone,) = verdict["left"]
    assert gone["seat"] == 1 and gone["move"] >= 25

    ratings = api.get(f"/api/matches/{match_id}/ratings", ann)
    assert ratings["unrated"] is None and ratings["verdict"] == verdict
    assert [c["delta"] > 0 for c in ratings["changes"]] == [True, False]

    (mine,) = api.get(f"/api/players/{ann_id}/matches", ann)["matches"]
    assert mine["place"] == 1 and mine["won"] and not mine["left"] and mine["left_at"] is None
    (his,) = api.get(f"/api/players/{ben_id}/matches", ben)["matches"]
    assert his["place"] == 2 and not his["won"] and his["left"]
    assert his["left_at"] == gone["move"] and his["score"] == scores[1]
    assert api.get(f"/api/players/{ben_id}/profile")["won"] == 0

    record = api.get(f"/api/matches/{match_id}/record", ann)
    assert record["verdict"] == verdict
    assert record["result"]["winners"] == [1]  # the engine's, by score
    # The first move the computer chose for Ben is the move he left at.
    marked = [n for n, e in enumerate(record["moves"], start=1) if e.get("by") == "computer"]
    assert marked and marked[0] == gone["move"]
    replay = api.get(f"/api/matches/{match_id}/replay", ann)
    assert replay["verdict"] == verdict
    # A record with its verdict still replays and verifies.
    assert client.post("/api/replay", json=record).status_code == 200
