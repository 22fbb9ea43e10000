"""Sockets outlive no token (docs/API.md § Limits, "Revoked tokens"): registering with a guest
token, logging out, changing the password, signing out everywhere and deleting the account
close the sockets opened with the revoked tokens — an ``unauthorized`` error frame, then close
code 4401 — and the seat takes the ordinary disconnect path. Sockets of tokens still valid stay
open. Before, a socket opened before any of these kept playing moves (3 of 3 applied).

Across instances: tests/community/test_revocation_processes.py.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from tests.support.client import Api, receive

pytestmark = pytest.mark.timeout(120)
PASSWORD = "correct horse battery"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def closed_with(ws: WebSocketTestSession) -> tuple[int, list[dict[str, Any]]]:
    """Read until the server closes the socket: ``(close code, error frames seen)``."""
    errors = []
    while True:
        message = ws.receive()
        if message["type"] == "websocket.close":
            return int(message["code"]), errors
        frame = json.loads(message.get("text") or "{}")
        if frame.get("t") == "error":
            errors.append(frame["d"])


def still_open(ws: WebSocketTestSession) -> bool:
    """A ping is answered: the socket is open."""
    ws.send_text(json.dumps({"t": "ping"}))
    return receive(ws)["t"] == "pong"


def test_every_revocation_closes_the_sockets_of_the_revoked_tokens(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match(seats=2)
    _, guest, _ = people[0]
    url = f"/ws/matches/{match_id}?token="
    # Registering with the guest's token revokes it: its socket closes.
    with client.websocket_connect(url + guest) as ws:
        assert receive(ws)["t"] == "snapshot"
        user = f"ann{secrets.token_hex(3)}"
        r = client.post(
            "/api/accounts", json={"username": user, "password": PASSWORD}, headers=_auth(guest)
        )
        assert r.status_code == 201, r.text
        code, errors = closed_with(ws)
        assert code == 4401 and errors[-1]["code"] == "unauthorized"
    desk = r.json()["token"]
    phone = api.post("/api/accounts/login", username=user, password=PASSWORD)["token"]
    # Logging the phone out closes the phone's socket only.
    with client.websocket_connect(url + desk) as on_desk:
        assert receive(on_desk)["t"] == "snapshot"
        with client.websocket_connect(url + phone) as on_phone:
            assert receive(on_phone)["t"] == "snapshot"
            assert client.post("/api/accounts/logout", headers=_auth(phone)).status_code == 204
            assert closed_with(on_phone)[0] == 4401
        assert still_open(on_desk)
        # A password change closes every older token's socket, the desk's own included.
        r = client.post(
            "/api/accounts/password",
            json={"password": PASSWORD, "new_password": "a brand new passphrase"},
            headers=_auth(desk),
        )
        assert r.status_code == 204, r.text
        assert closed_with(on_desk)[0] == 4401
    fresh = r.headers["X-Renewed-Token"]
    with client.websocket_connect(url + fresh) as ws:
        assert receive(ws)["t"] == "snapshot"
        r = client.post("/api/accounts/sign-out-everywhere", headers=_auth(fresh))
        assert r.status_code == 200
        assert closed_with(ws)[0] == 4401
    last = r.json()["token"]
    with client.websocket_connect(url + last) as ws:
        assert receive(ws)["t"] == "snapshot"
        r = client.post(
            "/api/accounts/delete",
            json={"password": "a brand new passphrase"},
            headers=_auth(last),
        )
        assert r.status_code == 204, r.text
        assert closed_with(ws)[0] == 4401


def test_a_revoked_socket_cannot_act(api: Api, client: TestClient) -> None:
    """The seat's socket closed by "sign out everywhere" sends no more moves."""
    match_id, people, _ = api.match(seats=2)
    _, guest, _ = people[0]
    user = f"ann{secrets.token_hex(3)}"
    token = api.post("/api/accounts", _auth(guest), status=201, username=user, password=PASSWORD)[
        "token"
    ]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        version = receive(ws)["v"]
        assert api.post("/api/accounts/sign-out-everywhere", _auth(token))["token"]
        assert closed_with(ws)[0] == 4401
    assert api.get(f"/api/matches/{match_id}")["version"] == version
