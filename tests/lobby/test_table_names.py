"""A table's name on both backends (docs/API.md § Lobbies): a host who gives none gets none
stored (``name`` null), and every answer that names the table — the lobby, the tables list, the
match, the caller's ongoing matches, a player's history — carries ``host_name`` beside it, from
which each client words "{host}'s table" in its reader's language. A given name is sent as
given; the host's name follows a hand-over, a rematch's host and a deleted account.
"""

from __future__ import annotations

import secrets

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api, mark_finished

pytestmark = pytest.mark.timeout(90)


def _title(entry: dict[str, object]) -> tuple[object, object]:
    return entry["name"], entry["host_name"]


def test_a_table_without_a_name_sends_its_hosts_name_everywhere(api: Api) -> None:
    match_id, people, code = api.match(seats=2)
    (ann_id, _, ann), (ben_id, _, ben) = people
    assert _title(api.get(f"/api/lobbies/{code}")) == (None, "Ann")
    assert _title(api.get(f"/api/matches/{match_id}")) == (None, "Ann")
    listed = {m["id"]: m for m in api.get("/api/lobbies")["matches"]}
    assert _title(listed[match_id]) == (None, "Ann")
    mine = {m["id"]: m for m in api.get("/api/me/matches", ben)["matches"]}
    assert _title(mine[match_id]) == (None, "Ann")
    history = api.get(f"/api/players/{ben_id}/matches", ben)["matches"]
    assert [_title(m) for m in history] == [(None, "Ann")]
    recent = api.get(f"/api/players/{ann_id}/profile", ann)["recent"]
    assert [_title(m) for m in recent] == [(None, "Ann")]


def test_a_given_name_is_sent_as_given(api: Api) -> None:
    _, _, ann = api.player("Ann")
    lobby = api.lobby(ann, name="  Friday   night ", private=False)
    assert _title(lobby) == ("Friday night", "Ann")
    listed = {entry["code"]: entry for entry in api.get("/api/lobbies")["lobbies"]}
    assert _title(listed[lobby["code"]]) == ("Friday night", "Ann")
    with_bot = api.post(f"/api/lobbies/{lobby['code']}/bots", ann)
    assert _title(with_bot) == ("Friday night", "Ann")
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", ann)["match_id"]
    assert _title(api.get(f"/api/matches/{match_id}")) == ("Friday night", "Ann")


def test_the_hosts_name_follows_the_host(api: Api, client: TestClient) -> None:
    # A host who leaves an open table hands it over: the default is now the new host's.
    _, _, ann = api.player("Ann")
    _, _, ben = api.player("Ben")
    code = api.lobby(ann)["code"]
    api.post(f"/api/lobbies/{code}/join", ben)
    api.post(f"/api/lobbies/{code}/leave", ann)
    assert _title(api.get(f"/api/lobbies/{code}")) == (None, "Ben")

    # A rematch of an unnamed match stays unnamed, hosted by the player who asked for it.
    match_id, people, _ = api.match(seats=2)
    mark_finished(client, match_id)
    rematch = api.post(f"/api/matches/{match_id}/rematch", people[1][2])["code"]
    assert _title(api.get(f"/api/lobbies/{rematch}")) == (None, "Ben")


def test_a_deleted_hosts_name_leaves_the_default_too(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match(seats=2)
    ann = people[0][2]
    account = {"username": f"ann{secrets.token_hex(4)}", "password": "correct horse battery"}
    r = client.post("/api/accounts", json=account, headers=ann)
    assert r.status_code == 201, r.text
    ann = {"Authorization": f"Bearer {r.json()['token']}"}  # the guest token is revoked
    r = client.post("/api/accounts/delete", json={"password": account["password"]}, headers=ann)
    assert r.status_code == 204, r.text
    assert _title(api.get(f"/api/matches/{match_id}")) == (None, "Deleted player")
