"""Match REST: view, actions through the one write path, events, record, rematch, privacy."""

from __future__ import annotations

import pytest
from fastapi.testclient import TestClient

from app.engine import replay
from tests.support.client import Api, place_first

pytestmark = pytest.mark.timeout(60)


def _act(
    client: TestClient,
    match_id: str,
    headers: dict[str, str],
    v: int,
    d: dict[str, object],
    action_id: str | None = None,
) -> tuple[int, dict[str, object]]:
    body: dict[str, object] = {"v": v, "d": d}
    if action_id is not None:
        body["id"] = action_id
    r = client.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
    return r.status_code, r.json()


def test_view_shows_legal_moves_to_everyone_and_no_secrets(api: Api) -> None:
    match_id, people, _ = api.match()
    for headers in (people[0][2], people[1][2], {}):
        m = api.get(f"/api/matches/{match_id}", headers)
        assert m["status"] == "live" and m["version"] == 0
        assert m["state"]["seat"] == 0 and m["state"]["legal_placements"]
        assert "seed" not in m["state"] and "deck" not in m["state"]
    assert api.get(f"/api/matches/{match_id}", people[1][2])["you"] == 1
    assert api.get(f"/api/matches/{match_id}")["you"] is None


def test_actions_advance_the_version_and_are_checked(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    a, b = people[0][2], people[1][2]
    state = api.get(f"/api/matches/{match_id}")["state"]
    status, body = _act(client, match_id, b, 0, place_first(state))
    assert status == 409 and body["error"]["code"] == "not_your_turn"
    status, body = _act(client, match_id, a, 0, {"type": "pass"})
    assert status == 409 and body["error"]["code"] == "wrong_phase"
    status, body = _act(client, match_id, a, 0, {"type": "place_tile", "at": [0, 0], "rotation": 0})
    assert status == 409 and body["error"]["code"] == "illegal_placement"
    status, body = _act(client, match_id, a, 0, {"type": "fly"})
    assert status == 422 and body["error"]["code"] == "invalid_action"
    status, body = _act(client, match_id, a, 0, place_first(state), "c-1")
    assert status == 200 and body["version"] == 1
    assert body["events"][0]["type"] == "TilePlaced"
    again_status, again = _act(client, match_id, a, 0, place_first(state), "c-1")
    assert again_status == 200 and again == body  # the first result, nothing applied twice
    status, body = _act(client, match_id, a, 0, {"type": "pass"}, "c-2")
    assert status == 409 and body["error"]["code"] == "stale_version"
    status, body = _act(client, match_id, a, 1, {"type": "place_follower", "spot": "moon:N"})
    assert status == 422 and body["error"]["code"] == "invalid_action"
    status, body = _act(client, match_id, a, 1, {"type": "pass"}, "c-2")
    assert status == 200 and body["version"] == 2
    assert api.get(f"/api/matches/{match_id}")["version"] == 2


def test_outsiders_cannot_act(api: Api, client: TestClient) -> None:
    match_id, _, _ = api.match()
    _, _, stranger = api.player("Zed")
    state = api.get(f"/api/matches/{match_id}")["state"]
    status, body = _act(client, match_id, stranger, 0, place_first(state))
    assert status == 403 and body["error"]["code"] == "not_seated"
    r = client.post(f"/api/matches/{match_id}/actions", json={"v": 0, "d": {"type": "pass"}})
    assert r.status_code == 401
    status, body = _act(client, "nosuchmatch", stranger, 0, {"type": "pass"})
    assert status == 404 and body["error"]["code"] == "not_found"


@pytest.mark.parametrize(
    "body",
    [
        {},
        {"v": 0},
        {"d": {}},
        {"v": -1, "d": {}},
        {"v": "x", "d": {}},
        {"v": 0, "d": []},
        {"v": 0, "d": {}, "id": ""},
        {"v": 0, "d": {}, "id": "x" * 65},
        {"v": 0, "d": {}, "x": 1},
        {"v": 0, "d": {"type": "place_tile", "at": [1e9, "a"], "rotation": 45}},
    ],
)
def test_malformed_actions_change_nothing(
    api: Api, client: TestClient, body: dict[str, object]
) -> None:
    match_id, people, _ = api.match()
    r = client.post(f"/api/matches/{match_id}/actions", json=body, headers=people[0][2])
    assert r.status_code == 422, r.text
    assert r.json()["error"]["code"] in ("validation_error", "invalid_action")
    assert api.get(f"/api/matches/{match_id}")["version"] == 0


def test_events_since_and_record(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    a = people[0][2]
    state = api.get(f"/api/matches/{match_id}")["state"]
    _act(client, match_id, a, 0, place_first(state), "p1")
    _act(client, match_id, a, 1, {"type": "pass"}, "p2")
    events = api.get(f"/api/matches/{match_id}/events?since=0")
    assert events["version"] == 2 and [b["v"] for b in events["batches"]] == [1, 2]
    assert events["batches"][0]["seat"] == 0
    assert [e["type"] for e in events["opening"]] == ["TileDrawn"]  # the setup's first draw
    assert events["opening"][0]["tile"] == state["tile"]
    assert api.get(f"/api/matches/{match_id}/events?since=1")["batches"][0]["v"] == 2
    assert api.get(f"/api/matches/{match_id}/events?since=2")["batches"] == []
    assert api.get(f"/api/matches/{match_id}/events?since=-1", status=422)
    record = api.get(f"/api/matches/{match_id}/record")
    assert record["format"] == "carcassonne-record/1" and record["finished"] is False
    # Every tile drawn, in order: the setup's draw, then each turn's (a tile that fits nowhere is
    # drawn, discarded and followed by another draw, RULES.md §3.2c: the count depends on the deck).
    drawn = [e["tile"] for e in events["opening"] if e["type"] == "TileDrawn"]
    drawn += [e["tile"] for b in events["batches"] for e in b["events"] if e["type"] == "TileDrawn"]
    assert len(record["moves"]) == 1 and record["draw_order"] == drawn and len(drawn) >= 2
    replayed, _ = replay(record)
    assert replayed.scores == api.get(f"/api/matches/{match_id}")["state"]["scores"]


def test_private_match_needs_a_seat_or_the_code(api: Api) -> None:
    match_id, people, code = api.match(private=True)
    _, _, stranger = api.player("Zed")
    for path in ("", "/events", "/record"):
        assert (
            api.get(f"/api/matches/{match_id}{path}", stranger, status=403)["error"]["code"]
            == "forbidden"
        )
        api.get(f"/api/matches/{match_id}{path}?code={code}", stranger)
        api.get(f"/api/matches/{match_id}{path}", people[1][2])
    assert match_id not in {m["id"] for m in api.get("/api/lobbies")["matches"]}


def test_rematch_only_after_the_end(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    r = client.post(f"/api/matches/{match_id}/rematch", headers=people[0][2])
    assert r.status_code == 409
    _, _, stranger = api.player("Zed")
    r = client.post(f"/api/matches/{match_id}/rematch", headers=stranger)
    assert r.status_code == 403
