"""API tokens outlive no account, on both backends (docs/API.md § Accounts, § API tokens):
deleting the account revokes every API token it made in the same transaction — the token's
open match socket closes (``unauthorized``, then 4401) and the token gets 401
``token_revoked`` on ``/api/me``, a new lobby, the export, an action and a new socket. A token
whose account is gone is refused even if its row were left live, and the sockets sweep closes
its sockets (and a revoked token's, whatever ``ended_sessions`` says). Before, the token did all
of these after the deletion, and an action was applied in the deleted account's live match.

Across instances: tests/platform/test_api_tokens_processes.py.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import delete, select, update

from app.db.community import accounts
from app.db.models import ended_sessions
from app.db.platform import api_tokens
from app.services.community.socket_revocation import sweep_once
from app.services.runtime import Runtime
from tests.community.test_revocation_sockets import closed_with, still_open
from tests.platform.test_export import PASSWORD, account, api_token
from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(120)
T_NOW = datetime(2026, 11, 27, tzinfo=UTC)


def _token(headers: dict[str, str]) -> str:
    return headers["Authorization"].split()[1]


def live_match(api: Api, token_h: dict[str, str]) -> str:
    """A started two-seat match with the token's account in seat 0 and a guest in seat 1."""
    code = api.lobby(token_h, seats=2)["code"]
    _, _, guest = api.player("Ben")
    api.post(f"/api/lobbies/{code}/join", guest)
    match_id: str = api.post(f"/api/lobbies/{code}/start", token_h)["match_id"]
    return match_id


def refusals(client: TestClient, me: str, match_id: str, h: dict[str, str]) -> list[Any]:
    """``(status, reason)`` of what the token may do: itself, a lobby, the export, an action."""
    m = client.get(f"/api/matches/{match_id}").json()
    answers = [
        client.get("/api/me", headers=h),
        client.post("/api/lobbies", json={"seats": 2}, headers=h),
        client.get(f"/api/export/players/{me}/matches", headers=h),
        client.post(
            f"/api/matches/{match_id}/actions",
            json={"v": m["version"], "id": "late", "d": place_first(m["state"])},
            headers=h,
        ),
    ]
    return [(r.status_code, r.json().get("error", {}).get("reason")) for r in answers]


def test_deleting_the_account_revokes_its_api_tokens(api: Api, client: TestClient) -> None:
    me, session = account(client, "Del")
    token_h = api_token(client, session, "play", "read")
    spare_h = api_token(client, session, "read")
    match_id = live_match(api, token_h)
    version = api.get(f"/api/matches/{match_id}")["version"]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={_token(token_h)}") as ws:
        assert receive(ws)["d"]["you"] == 0
        r = client.post("/api/accounts/delete", json={"password": PASSWORD}, headers=session)
        assert r.status_code == 204, r.text
        code, errors = closed_with(ws)
        assert code == 4401 and [e["code"] for e in errors] == ["unauthorized"]
    assert refusals(client, me, match_id, token_h) == [(401, "token_revoked")] * 4
    r = client.get(f"/api/export/players/{me}/matches", headers=spare_h)
    assert r.status_code == 401 and r.json()["error"]["reason"] == "token_revoked"
    with client.websocket_connect(f"/ws/matches/{match_id}?token={_token(token_h)}") as ws:
        frame = receive(ws)
        assert frame["t"] == "error" and frame["d"]["code"] == "unauthorized"
    assert api.get(f"/api/matches/{match_id}")["version"] == version
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def rows() -> list[Any]:
        async with runtime.storage.db.reading() as conn:
            query = select(api_tokens.c.revoked_at).where(api_tokens.c.player_id == me)
            return list((await conn.execute(query)).all())

    revoked = client.portal.call(rows)  # type: ignore[union-attr]
    assert len(revoked) == 2 and all(r.revoked_at is not None for r in revoked)


def test_a_token_left_live_is_refused_and_swept(api: Api, client: TestClient) -> None:
    """Rows as another instance (or a token made at the moment of the deletion) may leave them:
    no ``ended_sessions`` row, the token unrevoked or revoked — the account's absence and the
    token's row decide, for requests and for the sweep.
    """
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    me, session = account(client, "Lef")
    token_h = api_token(client, session, "play", "read")
    other, other_session = account(client, "Oth")
    other_h = api_token(client, other_session, "play")
    match_id = live_match(api, token_h)
    other_match = live_match(api, other_h)

    async def write(*statements: Any) -> None:
        async with runtime.storage.db.transaction() as conn:
            for statement in statements:
                await conn.execute(statement)

    def sweep() -> int:
        """The sweep, now (the background one runs every 2 s too)."""
        closed: int = client.portal.call(sweep_once, runtime)  # type: ignore[union-attr]
        return closed

    mine = f"/ws/matches/{match_id}?token={_token(token_h)}"
    theirs = f"/ws/matches/{other_match}?token={_token(other_h)}"
    with client.websocket_connect(mine) as ws, client.websocket_connect(theirs) as live:
        assert receive(ws)["d"]["you"] == 0 and receive(live)["d"]["you"] == 0
        assert sweep() == 0
        # The account is gone, its token row left live.
        client.portal.call(  # type: ignore[union-attr]
            write, delete(accounts).where(accounts.c.player_id == me)
        )
        assert refusals(client, me, match_id, token_h) == [(401, "token_revoked")] * 4
        sweep()  # this instance's background sweep may have been first
        code, errors = closed_with(ws)
        assert code == 4401 and [e["code"] for e in errors] == ["unauthorized"]
        assert still_open(live)
        # A token revoked with no ended_sessions row: swept all the same.
        client.portal.call(  # type: ignore[union-attr]
            write,
            update(api_tokens).where(api_tokens.c.player_id == other).values(revoked_at=T_NOW),
            delete(ended_sessions).where(ended_sessions.c.player_id == other),
        )
        sweep()
        assert closed_with(live)[0] == 4401
