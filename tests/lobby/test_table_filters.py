"""The Tables page's filters (``GET /api/lobbies?preset=&seats=&clock=&rated=&language=``) on
both backends: each narrows the open public tables, together they combine, a private table is
never listed, a table keeps the language its host gave it, and bad values are a 422.
"""

from __future__ import annotations

import secrets

from fastapi.testclient import TestClient

from tests.support.client import Api


def _codes(client: TestClient, **query: object) -> set[str]:
    r = client.get("/api/lobbies", params=query)
    assert r.status_code == 200, r.text
    return {lobby["code"] for lobby in r.json()["lobbies"]}


def test_filters_narrow_the_open_tables(api: Api, client: TestClient) -> None:
    _, _, h = api.player("Ann")
    r = client.post(
        "/api/accounts", json={"username": f"ra{secrets.token_hex(3)}", "password": "a long secret"}
    )
    account = {"Authorization": f"Bearer {r.json()['token']}"}
    base = api.lobby(h, seats=2, language="de")["code"]
    river = api.lobby(h, seats=3, preset="river", language="fr")["code"]
    timed = api.lobby(h, seats=4, time_control={"kind": "per_turn", "seconds": 60})["code"]
    corr = api.lobby(h, seats=2, time_control={"kind": "correspondence", "days": 3})["code"]
    rated = api.lobby(account, seats=2, rated=True, preset="standard", language="en")["code"]
    custom = api.lobby(
        h, seats=5, rules={"tileset": "base", "river": True, "farm_scoring": "original"}
    )["code"]
    hidden = api.lobby(h, seats=2, private=True, language="de")["code"]
    mine = {base, river, timed, corr, rated, custom}

    assert mine <= _codes(client) and hidden not in _codes(client)
    assert api.get(f"/api/lobbies/{base}")["language"] == "de"
    assert api.get(f"/api/lobbies/{timed}")["language"] is None
    assert _codes(client, language="de") & mine == {base}
    assert _codes(client, language="fr") & mine == {river}
    assert _codes(client, preset="river") & mine == {river}
    assert _codes(client, preset="custom") & mine == {custom}
    assert _codes(client, seats=2) & mine == {base, corr, rated}
    assert _codes(client, clock="per_turn") & mine == {timed}
    assert _codes(client, clock="correspondence") & mine == {corr}
    assert _codes(client, clock="untimed") & mine == {base, river, rated, custom}
    assert _codes(client, rated=True) & mine == {rated}
    assert _codes(client, rated=False) & mine == mine - {rated}
    assert _codes(client, seats=2, clock="untimed", rated=False) & mine == {base}
    assert _codes(client, seats=3, language="de") & mine == set()
    for bad in ({"seats": 7}, {"clock": "blitz"}, {"language": "xx"}, {"rated": "maybe"}):
        r = client.get("/api/lobbies", params=bad)
        assert r.status_code == 422, (bad, r.text)
    r = client.post("/api/lobbies", headers=h, json={"language": "klingon"})
    assert r.status_code == 422
