"""Computer levels in the waiting room and in play: chosen per seat, checked, carried into the
match, and played by the worker pool.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from tests.support.app import make_settings
from tests.support.client import Api

pytestmark = pytest.mark.timeout(120)


@pytest.fixture
def quick_bots(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> Iterator[TestClient]:
    settings = make_settings(
        backend[0],
        backend[1],
        channel_prefix,
        frontend,
        abandon_after=0.3,
        bot_think=0.05,
        bot_workers=1,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def test_levels_are_chosen_per_seat_and_checked(api: Api) -> None:
    ann, _, a = api.player("Ann")
    _, _, b = api.player("Ben")
    code = api.lobby(a, seats=4)["code"]
    api.post(f"/api/lobbies/{code}/join", b)
    lobby = api.post(f"/api/lobbies/{code}/bots", a)
    assert lobby["seats"][2]["bot"] and lobby["seats"][2]["level"] == "normal"
    lobby = api.post(f"/api/lobbies/{code}/bots", a, level="strong")
    assert lobby["seats"][3]["level"] == "strong"
    lobby = api.post(f"/api/lobbies/{code}/seats/2/level", a, level="easy")
    assert [s["level"] for s in lobby["seats"]] == [None, None, "easy", "strong"]
    # the host picks who stands in for Ben if he leaves
    lobby = api.post(f"/api/lobbies/{code}/seats/1/level", a, level="strong")
    assert lobby["seats"][1]["level"] == "strong"
    api.post(f"/api/lobbies/{code}/seats/2/level", a, level="genius", status=422)
    api.post(f"/api/lobbies/{code}/seats/2/level", b, level="easy", status=403)
    api.post(f"/api/lobbies/{code}/bots", a, level="expert", status=422)
    assert quick_delete(api, f"/api/lobbies/{code}/bots/3", a) == 200
    api.post(f"/api/lobbies/{code}/seats/3/level", a, level="easy", status=409)
    match_id = api.post(f"/api/lobbies/{code}/start", a)["match_id"]
    assert ann
    seats = api.get(f"/api/matches/{match_id}")["seats"]
    assert [s["bot"] for s in seats] == [False, False, True]


def test_strong_and_easy_bots_play_from_the_worker_pool(quick_bots: TestClient) -> None:
    api = Api(quick_bots)
    _, _, a = api.player("Ann")
    code = api.lobby(a, seats=3)["code"]
    api.post(f"/api/lobbies/{code}/bots", a, level="strong")
    api.post(f"/api/lobbies/{code}/bots", a, level="easy")
    api.post(f"/api/lobbies/{code}/seats/0/level", a, level="strong")  # Ann's stand-in
    match_id = api.post(f"/api/lobbies/{code}/start", a)["match_id"]
    # Ann never connects: after abandon_after the computer plays for her at Strong too
    deadline = time.monotonic() + 90
    version = 0
    while version < 12 and time.monotonic() < deadline:
        version = int(api.get(f"/api/matches/{match_id}")["version"])
        time.sleep(0.1)
    assert version >= 12
    batches = api.get(f"/api/matches/{match_id}/events?since=0")["batches"]
    assert {b["seat"] for b in batches} == {0, 1, 2}
    pool = quick_bots.app.state.runtime.workers.bots
    assert pool.answered >= 6 and pool.fallbacks == 0


def quick_delete(api: Api, path: str, headers: dict[str, str]) -> int:
    """DELETE and return the status."""
    return int(api.client.delete(path, headers=headers).status_code)
