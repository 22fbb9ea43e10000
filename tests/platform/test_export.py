"""The data export on both backends (docs/API.md § Export): a player's finished matches as
NDJSON with every filter, one match's record, every record naming rules, seats, bots, clock and
the revealed shuffle (and replaying to its scores); API tokens with scopes, revoked and unknown
tokens, and the per-token quota.
"""

from __future__ import annotations

import json
import random
import secrets
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine import replay
from app.services.runtime import Runtime
from tests.support.app import make_settings
from tests.support.client import Api
from tests.support.finished import insert_finished

pytestmark = pytest.mark.timeout(240)
PASSWORD = "correct horse battery"
T0 = datetime(2026, 11, 1, 12, 0, tzinfo=UTC)


def account(client: TestClient, stem: str = "Exp") -> tuple[str, dict[str, str]]:
    """A registered account: ``(player id, session auth headers)``."""
    r = client.post(
        "/api/accounts", json={"username": f"{stem}{secrets.token_hex(3)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["account"]["id"], {"Authorization": f"Bearer {body['token']}"}


def api_token(client: TestClient, session: dict[str, str], *scopes: str) -> dict[str, str]:
    r = client.post(
        "/api/me/tokens", json={"name": "tool", "scopes": list(scopes)}, headers=session
    )
    assert r.status_code == 201, r.text
    token = r.json()["token"]
    assert token.startswith("cat_")
    return {"Authorization": f"Bearer {token}"}


def lines(r: Any) -> list[dict[str, Any]]:
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/x-ndjson")
    return [json.loads(line) for line in r.text.splitlines() if line]


def insert(client: TestClient, seats: list[tuple[str | None, str]], **kw: Any) -> str:
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def go() -> str:
        async with runtime.storage.db.transaction() as conn:
            return await insert_finished(conn, seats, **kw)

    result: str = client.portal.call(go)  # type: ignore[union-attr]
    return result


def test_a_played_match_exports_a_record_that_replays_and_verifies(
    api: Api, client: TestClient
) -> None:
    (ann, ann_h), (ben, ben_h) = account(client, "Ann"), account(client, "Ben")
    lobby = api.lobby(ann_h, seats=3, time_control={"kind": "per_turn", "seconds": 60})
    api.post(f"/api/lobbies/{lobby['code']}/join", ben_h)
    api.post(f"/api/lobbies/{lobby['code']}/bots", ann_h)
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", ann_h)["match_id"]
    commitment = api.get(f"/api/matches/{match_id}/fairness")["commitment"]
    rng = random.Random(5)
    heads = {0: ann_h, 1: ben_h}
    m = api.get(f"/api/matches/{match_id}", ann_h)
    version = m["version"]
    while True:
        m = api.get(f"/api/matches/{match_id}", ann_h)
        state, version = m["state"], m["version"]
        if state["phase"] == "game_over":
            break
        seat = state["seat"]
        if seat not in heads:  # the computer's turn: it moves by itself
            continue
        view = api.get(f"/api/matches/{match_id}", heads[seat])["state"]
        if view["phase"] == "place_tile":
            x, y, rot = rng.choice(view["legal_placements"])
            d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": rot}
        else:
            d = {"type": "pass"}
        r = client.post(
            f"/api/matches/{match_id}/actions",
            json={"v": version, "id": f"a{version}", "d": d},
            headers=heads[seat],
        )
        assert r.status_code in (200, 409), r.text  # 409: the computer moved meanwhile
    reader = api_token(client, ben_h, "read")
    [record] = lines(client.get(f"/api/export/players/{ann}/matches", headers=reader))
    assert record["format"] == "carcassonne-record/1" and record["finished"] is True
    assert record["match"]["id"] == match_id and record["match"]["preset"] == "standard"
    assert record["rules"] == {
        "tileset": "base",
        "river": False,
        "farm_scoring": "modern",
        "small_city_two_points": False,
    }
    names = [s["name"] for s in m["seats"]]
    assert [(s["name"], s["player"], s["bot"]) for s in record["seats"]] == [
        (names[0], ann, False),
        (names[1], ben, False),
        (names[2], None, True),
    ]
    assert record["players"] == names
    assert record["seats"][2]["level"] == "normal" and record["seats"][0]["level"] is None
    assert not any(s["bot_account"] for s in record["seats"])
    assert record["clock"]["time_control"] == {"kind": "per_turn", "seconds": 60}
    assert record["clock"]["timeout_policy"]["kind"]
    assert record["fairness"]["commitment"] == commitment and record["fairness"]["seed"]
    state, _ = replay(record)
    assert state.scores == record["result"]["scores"] == m["state"]["scores"]
    verdict = client.post(f"/api/verify?commitment={commitment}", json=record).json()
    assert verdict["ok"], verdict
    one = api.get(f"/api/export/matches/{match_id}", reader)
    assert one == record


def test_filters_order_and_max(client: TestClient) -> None:
    ann, ann_h = account(client, "Ann")
    ben, _ = account(client, "Ben")
    rows = [
        ("standard", False, False, T0),
        ("river", True, False, T0 + timedelta(days=1)),
        ("standard", True, False, T0 + timedelta(days=2)),
        ("first_edition", False, True, T0 + timedelta(days=3)),
        ("standard", False, False, T0 + timedelta(days=4)),
    ]
    ids = [
        insert(
            client,
            [(ann, "Ann"), (ben, "Ben")],
            preset=p,
            rated=rated,
            private=private,
            finished_at=at,
            seed=i + 10,
        )
        for i, (p, rated, private, at) in enumerate(rows)
    ]
    reader = api_token(client, ann_h, "read")
    url = f"/api/export/players/{ann}/matches"

    def got(query: str = "", headers: dict[str, str] = reader) -> list[str]:
        return [r["match"]["id"] for r in lines(client.get(url + query, headers=headers))]

    assert got() == ids[::-1]  # newest first; her own private match included
    assert got("?max=2") == [ids[4], ids[3]]
    assert got("?preset=standard") == [ids[4], ids[2], ids[0]]
    assert got("?rated=true") == [ids[2], ids[1]]
    assert got("?rated=false") == [ids[4], ids[3], ids[0]]
    since = (T0 + timedelta(days=1)).isoformat().replace("+00:00", "Z")
    until = int((T0 + timedelta(days=3)).timestamp() * 1000)
    assert got(f"?since={since}&until={until}") == [ids[2], ids[1]]
    assert got("?preset=custom") == []
    # Another reader never sees Ann's private match.
    _, cat_h = account(client, "Cat")
    assert got(headers=api_token(client, cat_h, "read")) == [ids[4], ids[2], ids[1], ids[0]]
    for record in lines(client.get(url, headers=reader)):
        state, _ = replay(record)
        assert state.scores == record["result"]["scores"]
        assert record["seats"][1]["player"] == ben
    for bad in ("?preset=nope", "?rated=maybe", "?max=0", "?since=yesterday"):
        r = client.get(url + bad, headers=reader)
        assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error", bad
    assert client.get("/api/export/players/nobody123/matches", headers=reader).status_code == 404


def test_one_match_private_live_and_unknown(api: Api, client: TestClient) -> None:
    ann, ann_h = account(client, "Ann")
    _, cat_h = account(client, "Cat")
    private = insert(client, [(ann, "Ann"), (None, "Computer")], private=True, finished_at=T0)
    assert api.get(f"/api/export/matches/{private}", ann_h)["seats"][1]["bot"] is True
    r = client.get(f"/api/export/matches/{private}", headers=cat_h)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert client.get("/api/export/matches/nosuchmatch", headers=cat_h).status_code == 404
    live, _, _ = api.match(seats=2)
    r = client.get(f"/api/export/matches/{live}", headers=cat_h)
    assert r.status_code == 404 and r.json()["error"]["reason"] == "match_not_finished"


def test_tokens_scopes_revocation_and_errors(api: Api, client: TestClient) -> None:
    ann, ann_h = account(client, "Ann")
    url = f"/api/export/players/{ann}/matches"
    r = client.get(url)
    assert r.status_code == 401 and r.json()["error"]["code"] == "unauthorized"
    r = client.get(url, headers={"Authorization": "Bearer cat_not-a-token"})
    assert r.status_code == 401 and r.json()["error"]["reason"] == "token_unknown"
    assert client.get(url, headers={"Authorization": "Bearer garbage"}).status_code == 401

    player_only = api_token(client, ann_h, "play")
    r = client.get(url, headers=player_only)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "token_scope"
    reader = api_token(client, ann_h, "read")
    r = client.post("/api/lobbies", json={"seats": 2}, headers=reader)
    assert r.status_code == 403 and r.json()["error"]["params"] == {"scope": "play"}
    assert client.post("/api/lobbies", json={"seats": 2}, headers=player_only).status_code == 201
    # A program cannot make tokens.
    r = client.post("/api/me/tokens", json={"name": "x", "scopes": ["read"]}, headers=reader)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "session_needed"

    listed = api.get("/api/me/tokens", ann_h)["tokens"]
    assert [t["scopes"] for t in listed] == [["read"], ["play"]]
    assert all("token" not in t for t in listed)
    api_id = listed[0]["id"]
    assert client.delete(f"/api/me/tokens/{api_id}", headers=ann_h).status_code == 204
    r = client.get(url, headers=reader)
    assert r.status_code == 401 and r.json()["error"]["reason"] == "token_revoked"
    assert api.get("/api/me/tokens", ann_h)["tokens"][0]["revoked"] is True
    assert client.delete("/api/me/tokens/nope", headers=ann_h).status_code == 404
    _, guest_token, guest_h = api.player("Gus")
    r = client.post("/api/me/tokens", json={"name": "x", "scopes": ["read"]}, headers=guest_h)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "account_needed"
    r = client.post("/api/me/tokens", json={"name": "x", "scopes": ["admin"]}, headers=ann_h)
    assert r.status_code == 422


def _quota_settings(settings: Any, **limits: str) -> Any:
    return make_settings(
        settings.database_url,
        settings.redis_url,
        settings.channel_prefix + "q" + secrets.token_hex(2),
        settings.frontend_dir,
        **limits,
    )


def test_the_quota_is_per_player_whatever_the_token(settings: Any) -> None:
    """Every token of one account (its session, its API tokens) counts against one quota:
    before, each token had its own, and making more tokens multiplied it.
    """
    from app.api.app import create_app

    quota = _quota_settings(settings, export_requests_per_player="2/minute")
    with TestClient(create_app(quota)) as client:
        ann, ann_h = account(client, "Ann")
        first, second = api_token(client, ann_h, "read"), api_token(client, ann_h, "read")
        url = f"/api/export/players/{ann}/matches"
        assert lines(client.get(url, headers=first)) == []
        assert client.get("/api/export/matches/abc", headers=second).status_code == 404
        for headers in (first, second, api_token(client, ann_h, "read"), ann_h):
            r = client.get(url, headers=headers)
            assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
            assert int(r.headers["Retry-After"]) >= 1
        ben, ben_h = account(client, "Ben")  # another player has their own
        assert lines(client.get(url, headers=api_token(client, ben_h, "read"))) == []


def test_guests_are_counted_per_player_and_per_address(settings: Any) -> None:
    """A guest's session token is counted (before, it was free of any quota per player), and
    guests from one address share one quota: new guests do not multiply it.
    """
    from app.api.app import create_app

    quota = _quota_settings(
        settings, export_requests_per_player="2/minute", export_requests_per_address="3/minute"
    )
    with TestClient(create_app(quota)) as client:
        api = Api(client)
        gus, _, gus_h = api.player("Gus")
        url = f"/api/export/players/{gus}/matches"
        assert [client.get(url, headers=gus_h).status_code for _ in range(3)] == [200, 200, 429]
        _, _, guy_h = api.player("Guy")
        assert client.get(url, headers=guy_h).status_code == 200  # the address's 3rd
        _, _, gal_h = api.player("Gal")
        r = client.get(url, headers=gal_h)  # a fresh guest, the same address: refused
        assert r.status_code == 429 and r.json()["error"]["code"] == "rate_limited"
        # An account is counted by player only: the guests' address quota is not its.
        ann, ann_h = account(client, "Ann")
        assert lines(client.get(url, headers=ann_h)) == []


def test_openapi_lists_the_export_token_and_bot_routes(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in (
        "/api/export/players/{player_id}/matches",
        "/api/export/matches/{match_id}",
        "/api/me/tokens",
        "/api/me/tokens/{token_id}",
        "/api/me/bot",
        "/api/bot/stream",
        "/api/bots",
        "/api/bots/{bot_id}/challenge",
        "/api/lobbies/{code}/invite",
        "/api/challenges/{challenge_id}",
        "/api/challenges/{challenge_id}/accept",
        "/api/challenges/{challenge_id}/decline",
        "/api/challenges/{challenge_id}/cancel",
    ):
        assert path in paths, path
    export = paths["/api/export/players/{player_id}/matches"]["get"]
    assert "application/x-ndjson" in export["responses"]["200"]["content"]
    assert {"401", "403", "429"} <= set(export["responses"])
