"""Computer-player matches are bounded (docs/API.md § Limits): at most
``BOT_MATCHES_PER_ADDRESS`` live ones started from one client address and
``BOT_MATCHES_PER_INSTANCE`` per running instance; past either, starting one is a 429 with a
time to retry, and a finished match frees its place. Before, one address could start about
150 a minute, each costing CPU in the bot pool.

Each test has a database of its own: the counts are of live matches and running instances.
"""

from __future__ import annotations

import secrets
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from tests.clock.test_clocks import PER_TURN, _expire, _wait
from tests.support.app import make_settings
from tests.support.client import Api, mark_finished
from tests.support.services import MIGRATIONS, upgrade

pytestmark = pytest.mark.timeout(120)


def _app(tmp_path: Path, frontend: Path, **limits: Any) -> TestClient:
    url = f"sqlite+aiosqlite:///{tmp_path / 'caps.db'}"
    upgrade(url, MIGRATIONS)
    settings = make_settings(url, None, f"caps-{secrets.token_hex(4)}", frontend, **limits)
    return TestClient(create_app(settings))


def _bot_match(api: Api, headers: dict[str, str]) -> Any:
    code = api.lobby(headers, seats=2)["code"]
    api.post(f"/api/lobbies/{code}/bots", headers)
    return api.client.post(f"/api/lobbies/{code}/start", headers=headers)


@pytest.fixture
def capped(tmp_path: Path, frontend: Path) -> Iterator[TestClient]:
    with _app(tmp_path, frontend, bot_matches_per_address=2) as client:
        yield client


def test_one_address_has_a_few_live_bot_matches_at_most(capped: TestClient) -> None:
    api = Api(capped)
    _, _, ann = api.player("Ann")
    first, second = _bot_match(api, ann), _bot_match(api, ann)
    assert first.status_code == second.status_code == 200
    refused = _bot_match(api, ann)
    assert refused.status_code == 429, refused.text
    assert refused.json()["error"]["code"] == "rate_limited"
    assert refused.headers["Retry-After"] == "60"
    _, _, ben = api.player("Ben")  # another player from the same address: the same count
    assert _bot_match(api, ben).status_code == 429
    # A match of people only is not counted.
    code = api.lobby(ann, seats=2)["code"]
    api.post(f"/api/lobbies/{code}/join", ben)
    assert capped.post(f"/api/lobbies/{code}/start", headers=ann).status_code == 200
    # A finished match frees its place.
    mark_finished(capped, first.json()["match_id"])
    assert _bot_match(api, ann).status_code == 200


def test_the_instance_has_a_ceiling_for_everyone(tmp_path: Path, frontend: Path) -> None:
    with _app(tmp_path, frontend, bot_matches_per_instance=3) as client:
        api = Api(client)
        players = [api.player(f"P{i}")[2] for i in range(4)]
        assert [_bot_match(api, h).status_code for h in players] == [200, 200, 200, 429]
        assert "busy" in _bot_match(api, players[0]).json()["error"]["message"]


def test_an_organisers_computer_entrants_are_capped_like_matches_against_the_computer(
    capped: TestClient,
) -> None:
    """Before, one guest's arena of 64 Strong computers ran 32 computer tables at once."""
    api = Api(capped)
    _, _, org = api.player("Org")
    arena = {"format": "arena", "duration_minutes": 30}
    first = api.post("/api/tournaments", org, 201, name="Bots", **arena)["id"]
    for _ in range(2):
        api.post(f"/api/tournaments/{first}/computers", org, level="strong")
    refused = api.post(f"/api/tournaments/{first}/computers", org, 409, level="strong")
    assert refused["error"]["reason"] == "computer_budget"
    assert refused["error"]["params"] == {"max": 2}
    second = api.post("/api/tournaments", org, 201, name="More bots", **arena)["id"]
    api.post(f"/api/tournaments/{second}/computers", org, 409, level="easy")
    _, _, other = api.player("Other")
    theirs = api.post("/api/tournaments", other, 201, name="Theirs", **arena)["id"]
    api.post(f"/api/tournaments/{theirs}/computers", other, level="easy")


def test_a_seat_handed_to_the_computer_counts_against_the_caps(
    tmp_path: Path, frontend: Path
) -> None:
    """Before, a match of people whose seat the computer took over (time-outs, a leave vote)
    counted as a match of people: abandoned seats bypassed every cap on computer matches.
    """
    with _app(tmp_path, frontend, bot_matches_per_address=1) as client:
        api = Api(client)
        url = str(client.app.state.runtime.settings.database_url)  # type: ignore[attr-defined]
        match_id, people, _ = api.match(
            time_control=PER_TURN, timeout_policy={"kind": "handover", "after": 1}
        )
        _expire(url, match_id)
        taken = _wait(api, match_id, lambda m: m["clock"]["auto"] == [True, False])
        assert taken["clock"]["auto"] == [True, False]
        refused = _bot_match(api, people[1][2])
        assert refused.status_code == 429, refused.text
