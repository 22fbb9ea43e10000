"""Errors carry a stable ``reason`` and its ``params`` beside ``code`` and ``message``, in REST
bodies and websocket error frames alike, so a client can word them in its reader's language
(docs/API.md § Limits and every error).
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(120)

RECORD: dict[str, Any] = {
    "format": "carcassonne-record/1",
    "players": ["Ann", "Ben"],
    "draw_order": ["V", "O", "P", "E", "X"],
    "moves": [
        {"tile": "V", "at": [1, 0], "rotation": 90, "follower": "road:W"},
        {"tile": "O", "at": [0, -1], "rotation": 180, "follower": "city:S"},
        {"tile": "P", "at": [1, -1], "rotation": 0, "follower": "field:SSW"},
        {"tile": "E", "at": [1, -2], "rotation": 180, "follower": None},
        {"tile": "X", "at": [2, -1], "rotation": 0, "follower": "road:N"},
    ],
}


def _error(r: Any, status: int) -> dict[str, Any]:
    assert r.status_code == status, r.text
    error: dict[str, Any] = r.json()["error"]
    assert error["message"]  # the English sentence stays (API compatibility)
    return error


def test_account_and_lobby_errors_name_their_reason(api: Api, client: TestClient) -> None:
    user = f"Ann_{secrets.token_hex(3)}"
    short = client.post("/api/accounts", json={"username": user, "password": "short"})
    error = _error(short, 422)
    assert (error["code"], error["reason"], error["params"]) == (
        "validation_error",
        "password_length",
        {"min": 8, "max": 128},
    )
    good = {"username": user, "password": "correct horse battery"}
    assert client.post("/api/accounts", json=good).status_code == 201
    taken = _error(client.post("/api/accounts", json=good), 409)
    assert (taken["code"], taken["reason"], taken["params"]) == ("conflict", "username_taken", {})

    _, _, host = api.player("Ann")
    lobby = api.lobby(host, seats=2)
    _, _, ben = api.player("Ben")
    api.post(f"/api/lobbies/{lobby['code']}/join", ben)
    _, _, cat = api.player("Cat")
    full = _error(client.post(f"/api/lobbies/{lobby['code']}/join", headers=cat), 409)
    assert (full["code"], full["reason"]) == ("conflict", "lobby_full")
    start = _error(client.post(f"/api/lobbies/{lobby['code']}/start", headers=ben), 403)
    assert (start["code"], start["reason"]) == ("forbidden", "not_host")
    # The schema's own refusals have no reason: the body keeps its old shape.
    seats = _error(client.post("/api/lobbies", json={"seats": 9}, headers=host), 422)
    assert set(seats) == {"code", "message"}


def test_match_errors_name_their_reason(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match(private=True)
    private = _error(client.get(f"/api/matches/{match_id}"), 403)
    assert (private["code"], private["reason"], private["params"]) == (
        "forbidden",
        "match_private",
        {},
    )
    state = api.get(f"/api/matches/{match_id}", people[0][2])["state"]
    body = {"v": 0, "d": place_first(state)}
    turn = _error(
        client.post(f"/api/matches/{match_id}/actions", json=body, headers=people[1][2]), 409
    )
    assert (turn["code"], turn["reason"], turn["params"]) == (
        "not_your_turn",
        "not_your_turn",
        {"seat": 0},
    )
    stale = {"v": 3, "d": place_first(state)}
    r = client.post(f"/api/matches/{match_id}/actions", json=stale, headers=people[0][2])
    error = _error(r, 409)
    assert (error["code"], error["reason"], error["params"]) == (
        "stale_version",
        "stale_version",
        {"version": 0, "sent": 3},
    )
    occupied = {"v": 0, "d": {"type": "place_tile", "at": [0, 0], "rotation": 0}}
    r = client.post(f"/api/matches/{match_id}/actions", json=occupied, headers=people[0][2])
    error = _error(r, 409)
    assert (error["code"], error["reason"], error["params"]) == (
        "illegal_placement",
        "placement_occupied",
        {"at": [0, 0]},
    )


def test_websocket_error_frames_carry_reason_and_params(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    state = api.get(f"/api/matches/{match_id}")["state"]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"t": "action", "v": 0, "id": "w1", "d": place_first(state)}))
        error = receive(ws)["d"]
    assert error["code"] == "not_your_turn" and error["id"] == "w1"
    assert (error["reason"], error["params"]) == ("not_your_turn", {"seat": 0})
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"t": "action", "v": 7, "id": "w2", "d": {"type": "pass"}}))
        error = receive(ws)["d"]
    assert (error["code"], error["reason"], error["params"]) == (
        "stale_version",
        "stale_version",
        {"version": 0, "sent": 7},
    )


@pytest.mark.parametrize(
    "change, reason, params",
    [
        (lambda r: r["moves"][1].update(tile="D"), "record_tile_not_next", {"move": 2}),
        (lambda r: r["moves"][2].update(at=[5, 5]), "record_move_illegal", {"move": 3}),
        (lambda r: r["moves"][0].update(rotation="up"), "record_move_field", {"move": 1}),
        (lambda r: r.update(format="chess"), "record_format", {"move": 0}),
    ],
)
def test_record_errors_name_the_move_and_why(
    client: TestClient, change: Any, reason: str, params: dict[str, Any]
) -> None:
    record = json.loads(json.dumps(RECORD))
    change(record)
    error = _error(client.post("/api/replay", json=record), 422)
    assert (error["code"], error["reason"]) == ("invalid_record", reason)
    assert params.items() <= error["params"].items(), error
    if reason == "record_tile_not_next":
        assert error["params"] == {"move": 2, "tile": "D", "expected": "O"}
    if reason == "record_move_illegal":
        assert error["params"]["error"] == "illegal_placement"
        assert error["params"]["why"] == "placement_not_adjacent"
