"""Bots from database state: bot seats play by themselves; an abandoned seat is played for."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from tests.support.app import make_settings
from tests.support.client import Api, receive

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def quick_abandon(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> Iterator[TestClient]:
    settings = make_settings(
        backend[0], backend[1], channel_prefix, frontend, abandon_after=0.3, leave_grace=0.3
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _wait_version(api: Api, match_id: str, at_least: int, seconds: float = 10) -> int:
    deadline = time.monotonic() + seconds
    while True:
        version = int(api.get(f"/api/matches/{match_id}")["version"])
        if version >= at_least or time.monotonic() > deadline:
            return version
        time.sleep(0.05)


def test_bot_seats_play_by_themselves(api: Api) -> None:
    match_id, people, _ = api.match(seats=2, bots=1)
    a, b = people[0][2], people[1][2]
    for seat_headers in (a, b):  # the two people take one quick turn each
        state = api.get(f"/api/matches/{match_id}")["state"]
        x, y, r = state["legal_placements"][0]
        v = api.get(f"/api/matches/{match_id}")["version"]
        api.post(
            f"/api/matches/{match_id}/actions",
            seat_headers,
            v=v,
            d={"type": "place_tile", "at": [x, y], "rotation": r},
        )
        api.post(f"/api/matches/{match_id}/actions", seat_headers, v=v + 1, d={"type": "pass"})
    assert _wait_version(api, match_id, 6) >= 6  # the bot placed and decided
    batches = api.get(f"/api/matches/{match_id}/events?since=4")["batches"]
    assert [b["seat"] for b in batches[:2]] == [2, 2]
    assert all(b["action_id"] is None for b in batches[:2])


def test_an_abandoned_seat_is_played_for_but_a_connected_one_is_not(
    quick_abandon: TestClient,
) -> None:
    api = Api(quick_abandon)
    match_id, people, _ = api.match()
    with quick_abandon.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)
        time.sleep(1.0)
        assert api.get(f"/api/matches/{match_id}")["version"] == 0  # Ann is here: her turn
        ws.send_text(json.dumps({"t": "ping"}))
    # Ann has gone (and Ben never came): after her leave grace nobody is there to vote, so the
    # computer takes her seat; Ben's turn is abandoned after abandon_after.
    assert _wait_version(api, match_id, 4, seconds=45) >= 4
