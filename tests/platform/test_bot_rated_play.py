"""Bot accounts stay out of rated play with strangers (docs/BOT_API.md): a bot account's rated
Play now seek and its entry in a rated tournament are refused (``bot_not_rated``) — before,
they went through untagged and moved their opponents' rated games to the bots' pool — and an
account holding a seat at an open table, a seek or a tournament entry cannot become a bot
(``bot_has_open_play``): it would have kept them as a bot.
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.platform.test_export import account
from tests.support.client import Api

pytestmark = pytest.mark.timeout(120)


def _post(client: TestClient, path: str, headers: dict[str, str], status: int, **body: Any) -> Any:
    r = client.post(path, json=body, headers=headers)
    assert r.status_code == status, r.text
    return r.json()


def _bot(client: TestClient) -> dict[str, str]:
    """A fresh bot account's session headers."""
    _, session = account(client, "Rbot")
    assert _post(client, "/api/me/bot", session, 200)["bot_account"] is True
    return session


def test_a_bot_account_cannot_seek_rated_play_or_enter_a_rated_tournament(
    client: TestClient, api: Api
) -> None:
    bot_h = _bot(client)
    refused = _post(client, "/api/seeks", bot_h, 409, players=2, preset="standard", rated=True)
    assert refused["error"]["reason"] == "bot_not_rated"
    _, org = account(client, "Org")
    rated = api.post("/api/tournaments", org, 201, name="Rated", rounds=1, rated=True)["id"]
    refused = _post(client, f"/api/tournaments/{rated}/entrants", bot_h, 409)
    assert refused["error"]["reason"] == "bot_not_rated"
    casual = api.post("/api/tournaments", org, 201, name="Casual", rounds=1)["id"]
    _post(client, f"/api/tournaments/{casual}/entrants", bot_h, 200)


def test_an_account_with_open_play_cannot_become_a_bot(client: TestClient, api: Api) -> None:
    _, seated = account(client, "Seat")
    code = api.lobby(seated, seats=3)["code"]
    refused = _post(client, "/api/me/bot", seated, 409)
    assert refused["error"]["reason"] == "bot_has_open_play"
    assert refused["error"]["params"] == {"open": "seat"}
    api.post(f"/api/lobbies/{code}/leave", seated)

    _, seeking = account(client, "Seek")
    seek = _post(client, "/api/seeks", seeking, 201, players=5, preset="standard", rated=False)
    refused = _post(client, "/api/me/bot", seeking, 409)
    assert refused["error"]["params"] == {"open": "seek"}
    assert client.delete(f"/api/seeks/{seek['id']}", headers=seeking).status_code == 204

    _, entered = account(client, "Entry")
    _, org = account(client, "Org")
    tid = api.post("/api/tournaments", org, 201, name="Cup", rounds=1)["id"]
    _post(client, f"/api/tournaments/{tid}/entrants", entered, 200)
    refused = _post(client, "/api/me/bot", entered, 409)
    assert refused["error"]["params"] == {"open": "entry"}
    _post(client, f"/api/tournaments/{tid}/withdraw", entered, 200)
    assert _post(client, "/api/me/bot", entered, 200)["bot_account"] is True
