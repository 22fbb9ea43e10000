"""API tokens outlive no account, across instances (docs/API.md § Accounts, § API tokens):
deleting the account on instance A revokes every API token it made — on instance B the
token's open match socket closes (``unauthorized``, then 4401) within the sweep's seconds, and
the token gets 401 ``token_revoked`` on REST (``/api/me``, a new lobby, the export, an action)
and on a new socket. Before, the token did all of these and an action was applied in the
deleted account's live match.
"""

from __future__ import annotations

import json
import secrets
import time
from pathlib import Path

import httpx
import pytest
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tests.support.processes import Server, recv, rest

pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(120)]
PASSWORD = "correct horse battery"


def test_deleting_the_account_on_one_instance_revokes_its_api_tokens_on_the_other(
    server_env: dict[str, str], servers: list[Server], tmp_path: Path
) -> None:
    a = Server(server_env, tmp_path / "a.log")
    b = Server(server_env, tmp_path / "b.log")
    servers += [a, b]
    a.start(), b.start()
    user = f"ann{secrets.token_hex(3)}"
    made = rest(a, "POST", "/api/accounts", username=user, password=PASSWORD)
    me, session = made["account"]["id"], made["token"]
    token = rest(a, "POST", "/api/me/tokens", session, name="tool", scopes=["play", "read"])[
        "token"
    ]
    guest = rest(a, "POST", "/api/players", name="Ben")["token"]
    code = rest(a, "POST", "/api/lobbies", token, seats=2)["code"]
    rest(a, "POST", f"/api/lobbies/{code}/join", guest)
    match_id = rest(a, "POST", f"/api/lobbies/{code}/start", token)["match_id"]
    auth = {"Authorization": f"Bearer {token}"}
    with connect(f"{b.ws}/ws/matches/{match_id}?token={token}") as ws:
        snapshot = recv(ws)
        assert snapshot["t"] == "snapshot" and snapshot["d"]["you"] == 0
        r = httpx.post(
            f"{a.url}/api/accounts/delete",
            json={"password": PASSWORD},
            headers={"Authorization": f"Bearer {session}"},
        )
        assert r.status_code == 204, r.text
        deleted = time.monotonic()
        errors = []
        with pytest.raises(ConnectionClosed) as closed:
            while True:
                frame = json.loads(ws.recv(timeout=15))
                if frame["t"] == "error":
                    errors.append(frame["d"]["code"])
        took = time.monotonic() - deleted
        print(f"\nthe token's socket on the other instance closed {took:.2f} s after deleting")
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4401
    assert errors == ["unauthorized"]
    assert took < 5
    state, version = snapshot["d"]["state"], snapshot["v"]
    x, y, rotation = state["legal_placements"][0]
    action = {"type": "place_tile", "at": [x, y], "rotation": rotation}
    refused = [
        httpx.get(f"{b.url}/api/me", headers=auth),
        httpx.post(f"{b.url}/api/lobbies", json={"seats": 2}, headers=auth),
        httpx.get(f"{b.url}/api/export/players/{me}/matches", headers=auth),
        httpx.post(
            f"{b.url}/api/matches/{match_id}/actions",
            json={"v": version, "id": "after-deletion", "d": action},
            headers=auth,
        ),
    ]
    assert [(r.status_code, r.json()["error"].get("reason")) for r in refused] == [
        (401, "token_revoked")
    ] * 4
    with connect(f"{b.ws}/ws/matches/{match_id}?token={token}") as ws:
        frame = json.loads(ws.recv(timeout=10))
        assert frame["t"] == "error" and frame["d"]["code"] == "unauthorized"
    assert rest(b, "GET", f"/api/matches/{match_id}")["version"] == version
