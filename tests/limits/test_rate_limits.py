"""Per-token rate limits on actions (REST and websocket) and on lobby creation."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from app.api.app import create_app
from tests.support.app import make_settings
from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(60)


@pytest.fixture
def strict_client(sqlite_url: str, channel_prefix: str, frontend: Path) -> Iterator[TestClient]:
    settings = make_settings(
        sqlite_url,
        None,
        channel_prefix,
        frontend,
        action_rate=0.01,
        action_burst=2,
        lobby_rate_per_minute=0.1,
        lobby_burst=2,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def test_lobby_creation_is_limited_per_token(strict_client: TestClient) -> None:
    api = Api(strict_client)
    _, _, a = api.player("Ann")
    _, _, b = api.player("Ben")
    api.lobby(a)
    api.lobby(a)
    r = strict_client.post("/api/lobbies", json={}, headers=a)
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    api.lobby(b)  # another token has its own bucket


def test_actions_are_limited_per_token(strict_client: TestClient) -> None:
    api = Api(strict_client)
    match_id, people, _ = api.match()
    token, headers = people[0][1], people[0][2]
    state = api.get(f"/api/matches/{match_id}")["state"]
    api.post(f"/api/matches/{match_id}/actions", headers, v=0, d=place_first(state))
    with strict_client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"t": "action", "v": 1, "id": "w1", "d": {"type": "pass"}}))
        assert receive(ws)["v"] == 2
        ws.send_text(json.dumps({"t": "action", "v": 2, "id": "w2", "d": {"type": "pass"}}))
        error = receive(ws)
        # The refusal names the action and when the token may act again (2 actions per 200 s:
        # when the window that holds both has slid by).
        retry = error["d"]["retry_after"]
        assert error["d"] == {
            "code": "rate_limited",
            "message": error["d"]["message"],
            "id": "w2",
            "retry_after": retry,
        }
        assert 0 < retry <= 200.1
    r = strict_client.post(
        f"/api/matches/{match_id}/actions", headers=headers, json={"v": 2, "d": {"type": "pass"}}
    )
    assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
    assert 1 <= int(r.headers["Retry-After"]) <= 201
    assert api.get(f"/api/matches/{match_id}")["version"] == 2


def test_the_action_limits_slack_across_instances_is_stated_with_its_bound() -> None:
    """The action limit tells Redis its hits ``ACTION_LIMIT_SHARE_EVERY`` at a time, so across
    instances a token may go past the shared count by up to one batch less one per instance:
    docs/API.md's limits table says so, with the figures the code has.
    """
    from app.services.runtime.parts import ACTION_LIMIT_SHARE_EVERY
    from app.settings import ROOT

    row = next(
        line
        for line in (ROOT / "docs" / "API.md").read_text(encoding="utf-8").splitlines()
        if line.startswith("| Actions per token")
    )
    assert f"tells Redis {ACTION_LIMIT_SHARE_EVERY} at a time" in row
    assert f"at most {ACTION_LIMIT_SHARE_EVERY - 1} × N actions over the shared count" in row
