"""Accounts on both backends: register, log in elsewhere, change password, delete, a guest
keeping its matches, bad input refused (naming the field, creating nothing), the same error for
an unknown user and a wrong password (the limits: tests/limits/test_account_limits.py).
"""

from __future__ import annotations

import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import func, select

from app.db.community import accounts
from app.db.models import players
from app.services.runtime import Runtime
from tests.support.client import Api

pytestmark = pytest.mark.timeout(120)
PASSWORD = "correct horse battery"


def _counts(client: TestClient) -> tuple[int, int]:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def count() -> tuple[int, int]:
        async with runtime.storage.db.reading() as conn:
            a = (await conn.execute(select(func.count()).select_from(accounts))).scalar_one()
            p = (await conn.execute(select(func.count()).select_from(players))).scalar_one()
        return int(a), int(p)

    return client.portal.call(count)  # type: ignore[union-attr]


def _register(
    client: TestClient,
    username: str,
    password: str = PASSWORD,
    headers: dict[str, str] | None = None,
) -> Any:
    return client.post(
        "/api/accounts", json={"username": username, "password": password}, headers=headers or {}
    )


def _name(stem: str) -> str:
    """A username no other test of the session uses (the databases are shared)."""
    return f"{stem}{secrets.token_hex(3)}"


def _auth(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def test_register_login_elsewhere_change_password_delete(api: Api, client: TestClient) -> None:
    user = _name("Ann_")
    r = _register(client, user)
    assert r.status_code == 201, r.text
    ann = r.json()
    assert ann["account"]["username"] == user and ann["account"]["name"] == user
    assert api.get("/api/me", _auth(ann["token"]))["id"] == ann["account"]["id"]

    # Another device: log in (any case) and get a token for the same player.
    other = api.post("/api/accounts/login", username=user.lower(), password=PASSWORD)
    assert other["account"]["id"] == ann["account"]["id"]
    assert api.get("/api/accounts/me", _auth(other["token"]))["username"] == user

    # The same answer for an unknown user and a wrong password.
    wrong = client.post("/api/accounts/login", json={"username": user, "password": "nope-nope"})
    unknown = client.post("/api/accounts/login", json={"username": "Nobody", "password": PASSWORD})
    assert wrong.status_code == unknown.status_code == 401
    assert wrong.json() == unknown.json()

    # Change password: the current one is checked, the new one must be strong.
    h = _auth(ann["token"])
    bad = client.post(
        "/api/accounts/password",
        headers=h,
        json={"password": "wrong-pass", "new_password": "another good one"},
    )
    assert bad.status_code == 401
    weak = client.post(
        "/api/accounts/password", headers=h, json={"password": PASSWORD, "new_password": "password"}
    )
    assert weak.status_code == 422 and "new_password" in weak.json()["error"]["message"]
    ok = client.post(
        "/api/accounts/password",
        headers=h,
        json={"password": PASSWORD, "new_password": "another good one"},
    )
    assert ok.status_code == 204
    assert (
        client.post(
            "/api/accounts/login", json={"username": user, "password": PASSWORD}
        ).status_code
        == 401
    )
    api.post("/api/accounts/login", username=user, password="another good one")
    # Every other device is signed out (the other login, the old token of this one); this
    # device carries on with the fresh token of the answer.
    for old in (other["token"], ann["token"]):
        refused = client.get("/api/accounts/me", headers=_auth(old))
        assert refused.status_code == 401 and "revoked" in refused.json()["error"]["message"]
    h = _auth(ok.headers["X-Renewed-Token"])
    assert api.get("/api/accounts/me", h)["username"] == user

    # Delete: password checked; the player stays (anonymised), the account is gone.
    assert (
        client.post("/api/accounts/delete", headers=h, json={"password": PASSWORD}).status_code
        == 401
    )
    assert (
        client.post(
            "/api/accounts/delete", headers=h, json={"password": "another good one"}
        ).status_code
        == 204
    )
    assert (
        client.post(
            "/api/accounts/login", json={"username": user, "password": "another good one"}
        ).status_code
        == 401
    )
    assert client.get("/api/me", headers=h).status_code == 401  # deleted: signed out everywhere
    profile = api.get(f"/api/players/{ann['account']['id']}/profile")
    assert profile["player"] == {
        "id": ann["account"]["id"],
        "name": "Deleted player",
        "username": None,
        "bot_account": False,
    }
    # The name is free again.
    assert _register(client, user.upper()).status_code == 201


@pytest.mark.parametrize(
    "body, field, status",
    [
        ({"username": "ab", "password": PASSWORD}, "username", 422),
        ({"username": "has space", "password": PASSWORD}, "username", 422),
        ({"username": "x" * 300, "password": PASSWORD}, "username", 422),
        ({"username": "Cat", "password": "short"}, "password", 422),
        ({"username": "Cat", "password": "password1"}, "password", 422),
        ({"username": "Cat", "password": "aaaaaaaaaaaa"}, "password", 422),
        ({"username": "Cat", "password": "y" * 300}, "password", 422),
        ({"username": "Cat"}, "password", 422),
        ({"username": "Cat", "password": PASSWORD, "admin": True}, "admin", 422),
        ({"username": "taken", "password": PASSWORD}, "username", 409),
    ],
)
def test_bad_input_names_the_field_and_creates_nothing(
    client: TestClient, body: dict[str, Any], field: str, status: int
) -> None:
    taken = _name("Taken")
    assert _register(client, taken).status_code == 201
    before = _counts(client)
    if body.get("username") == "taken":
        body = {**body, "username": taken.lower()}
    r = client.post("/api/accounts", json=body)
    assert r.status_code == status, r.text
    assert field in r.json()["error"]["message"]
    assert _counts(client) == before


def test_guest_becomes_an_account_and_keeps_its_matches(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match(seats=2)
    guest_id, _, guest_headers = people[0]
    user = _name("AnnPlays")
    r = _register(client, user, headers=guest_headers)
    assert r.status_code == 201, r.text
    assert r.json()["account"] == {
        "id": guest_id,
        "name": "Ann",
        "username": user,
        "bot_account": False,
    }
    # The guest token is revoked: only the account's token gets in from now on.
    assert client.get("/api/me", headers=guest_headers).status_code == 401
    account = _auth(r.json()["token"])
    assert api.get("/api/me", account)["id"] == guest_id
    # Registering again with the same identity is refused, and creates nothing.
    again = _register(client, _name("AnnAgain"), headers=account)
    assert again.status_code == 409
    # Logged in on another device, the match is in the history.
    token = api.post("/api/accounts/login", username=user, password=PASSWORD)["token"]
    page = api.get(f"/api/players/{guest_id}/matches", _auth(token))
    assert [m["id"] for m in page["matches"]] == [match_id]
    assert page["matches"][0]["seat"] == 0 and page["matches"][0]["status"] == "live"


def test_deleting_an_account_keeps_its_matches_with_the_name_anonymised(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match(seats=2)
    guest_id, _, guest = people[1]
    registered = _register(client, _name("Ben"), headers=guest)
    assert registered.status_code == 201
    headers = _auth(registered.json()["token"])
    assert (
        client.post(
            "/api/accounts/delete", headers=headers, json={"password": PASSWORD}
        ).status_code
        == 204
    )
    match = api.get(f"/api/matches/{match_id}")
    assert [s["name"] for s in match["seats"]] == ["Ann", "Deleted player"]
    assert api.get(f"/api/matches/{match_id}/record")["players"] == ["Ann", "Deleted player"]
    page = api.get(f"/api/players/{people[0][0]}/matches")
    assert [s["name"] for s in page["matches"][0]["seats"]] == ["Ann", "Deleted player"]


def test_sign_out_everywhere(api: Api, client: TestClient) -> None:
    user = _name("Eve_")
    first = _register(client, user).json()["token"]
    second = api.post("/api/accounts/login", username=user, password=PASSWORD)["token"]
    r = client.post("/api/accounts/sign-out-everywhere", headers=_auth(second))
    assert r.status_code == 200 and r.json()["token"] == r.headers["X-Renewed-Token"]
    fresh = r.json()["token"]
    for old in (first, second):
        assert client.get("/api/me", headers=_auth(old)).status_code == 401
    assert api.get("/api/accounts/me", _auth(fresh))["username"] == user
    # A login afterwards gets a token of the new generation; so does a renewal of the fresh one.
    again = api.post("/api/accounts/login", username=user, password=PASSWORD)["token"]
    assert api.get("/api/me", _auth(again))["name"] == user
    # A revoked token cannot open a socket either.
    with client.websocket_connect(f"/ws/lobbies/NOSUCHCODE?token={first}") as ws:
        frame = ws.receive_json()
        assert frame["t"] == "error" and frame["d"]["code"] == "unauthorized"
    # Guests cannot: their token is their only way back in.
    _, _, guest = api.player("Gus")
    r = client.post("/api/accounts/sign-out-everywhere", headers=guest)
    assert r.status_code == 404 and r.json()["error"]["code"] == "not_found"
    assert client.get("/api/me", headers=guest).status_code == 200


def test_logging_out_ends_this_devices_session_only(api: Api, client: TestClient) -> None:
    """Log out on one device: its token (and a renewal of it) is refused, on REST and on
    sockets; the same account's other device stays signed in; a guest's logout changes nothing
    on the server; logging out twice is harmless.
    """
    user = _name("Lou_")
    laptop = _register(client, user).json()["token"]
    phone = api.post("/api/accounts/login", username=user, password=PASSWORD)["token"]
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    renewed = runtime.tokens.issue(*runtime.tokens.read(laptop), runtime.tokens.session(laptop))
    assert client.get("/api/me", headers=_auth(renewed)).status_code == 200

    r = client.post("/api/accounts/logout", headers=_auth(laptop))
    assert r.status_code == 204
    for gone in (laptop, renewed):
        r = client.get("/api/accounts/me", headers=_auth(gone))
        assert r.status_code == 401 and "logged out" in r.json()["error"]["message"]
    with client.websocket_connect(f"/ws/lobbies/NOSUCHCODE?token={laptop}") as ws:
        frame = ws.receive_json()
        assert frame["t"] == "error" and frame["d"]["code"] == "unauthorized"
    assert api.get("/api/accounts/me", _auth(phone))["username"] == user
    assert client.post("/api/accounts/logout", headers=_auth(laptop)).status_code == 401
    # A new login on the laptop is a new session.
    again = api.post("/api/accounts/login", username=user, password=PASSWORD)["token"]
    assert api.get("/api/me", _auth(again))["name"] == user

    _, _, guest = api.player("Gus")
    assert client.post("/api/accounts/logout", headers=guest).status_code == 204
    assert client.get("/api/me", headers=guest).status_code == 200
    r = client.post("/api/accounts/logout")
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
