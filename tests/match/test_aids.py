"""Aid policies (docs/API.md § Aids): chosen per table in the lobby API, carried by the match
and its record, and the computed aids sent on a socket only as the policy allows — never a
byte of aid data in a match whose policy is off.
"""

from __future__ import annotations

import json
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.engine import replay
from app.engine.aids import features, impossible_holes, projected_scores
from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(90)

AID_KEYS = ("projected_scores", "impossible_holes", "features")


def _contains_aid(value: Any) -> bool:
    if isinstance(value, dict):
        return any(k in AID_KEYS or _contains_aid(v) for k, v in value.items())
    if isinstance(value, list):
        return any(_contains_aid(v) for v in value)
    return False


def test_the_lobby_api_takes_shows_and_changes_the_aid_policy(api: Api) -> None:
    _, _, ann = api.player()
    casual = api.lobby(ann)
    assert casual["aids"] == {
        "mode": "custom",
        "players": ["legal_placements"],
        "spectators": ["legal_placements"],
    }
    learning = api.lobby(ann, aids={"mode": "learning"})
    assert learning["aids"]["players"] == learning["aids"]["spectators"]
    assert "projected_scores" in learning["aids"]["players"]
    r = api.client.patch(
        f"/api/lobbies/{learning['code']}",
        json={"aids": {"mode": "custom", "spectators": ["impossible_holes"]}},
        headers=ann,
    )
    assert r.status_code == 200, r.text
    assert r.json()["aids"] == {"mode": "custom", "players": [], "spectators": ["impossible_holes"]}
    bad = api.client.post("/api/lobbies", json={"aids": {"mode": "all"}}, headers=ann)
    assert bad.status_code == 422
    bad = api.client.post("/api/lobbies", json={"aids": {"players": ["x_ray"]}}, headers=ann)
    assert bad.status_code == 422
    schema = api.client.get("/openapi.json").json()["components"]["schemas"]
    assert "AidPolicyIn" in schema and "aids" in schema["LobbyOut"]["properties"]


def _play(ws: Any, other: Any, spectator: Any, moves: int) -> list[dict[str, Any]]:
    """``moves`` actions by whoever is to act; every frame all three sockets got."""
    frames: list[dict[str, Any]] = []
    socks = [ws, other, spectator]
    snaps = [receive(s, keep=("clock", "presence")) for s in socks]
    while any(f["t"] != "snapshot" for f in snaps):
        snaps = [
            f if f["t"] == "snapshot" else receive(s) for f, s in zip(snaps, socks, strict=True)
        ]
    frames += snaps
    state = snaps[0]["d"]["state"]
    version = snaps[0]["v"]
    for _ in range(moves):
        actor = socks[state["seat"]]
        actor.send_text(
            json.dumps({"t": "action", "v": version, "id": f"m{version}", "d": place_first(state)})
        )
        got = [receive(s) for s in socks]
        frames += got
        version = got[0]["v"]
        state = {**state, **got[0]["d"]["delta"]}
    return frames


def test_a_match_whose_policy_is_off_sends_no_aid_data_to_anyone(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match(aids={"mode": "off"})
    assert api.get(f"/api/matches/{match_id}")["aids"]["mode"] == "off"
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ann,
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ben,
        client.websocket_connect(f"/ws/matches/{match_id}") as spectator,
    ):
        frames = _play(ann, ben, spectator, 6)
        for sock in (ann, ben, spectator):
            sock.send_text(json.dumps({"t": "aids"}))
            refused = receive(sock)
            assert refused["t"] == "error" and refused["d"]["reason"] == "aids_off"
            frames.append(refused)
    assert frames and not any(f["t"] == "aids" or _contains_aid(f["d"]) for f in frames)
    record = api.get(f"/api/matches/{match_id}/record", people[0][2])
    assert record["aids"]["mode"] == "off"


def test_players_and_spectators_get_the_aids_granted_to_them(api: Api, client: TestClient) -> None:
    _, _, watcher = api.player("Wes")
    match_id, people, _ = api.match(
        aids={
            "mode": "custom",
            "players": ["projected_scores"],
            "spectators": ["impossible_holes", "projected_scores", "feature_highlight"],
        }
    )
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ann,
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ben,
        client.websocket_connect(
            f"/ws/matches/{match_id}?token={watcher['Authorization'][7:]}"
        ) as spectator,
    ):
        _play(ann, ben, spectator, 10)
        ann.send_text(json.dumps({"t": "aids"}))
        mine = receive(ann)
        spectator.send_text(json.dumps({"t": "aids"}))
        theirs = receive(spectator)
    assert mine["t"] == "aids" and set(mine["d"]) == {"projected_scores"}
    assert set(theirs["d"]) == {"impossible_holes", "projected_scores", "features"}
    record = api.get(f"/api/matches/{match_id}/record", people[0][2])
    # The record lists the tiles drawn so far (whole turns: 10 actions end the fifth); the rest
    # (public counts, any order) completes it.
    remaining = api.get(f"/api/matches/{match_id}")["state"]["remaining"]
    record["draw_order"] += [t for t, n in remaining.items() for _ in range(n)]
    state, _ = replay(record)
    assert mine["v"] == 10
    assert mine["d"]["projected_scores"] == projected_scores(state)
    assert theirs["d"]["impossible_holes"] == [list(p) for p in impossible_holes(state)]
    # The feature highlight lists every feature of the board, the unoccupied ones too.
    assert theirs["d"]["features"] == features(state)
    assert any(not f["owners"] and not f["followers"] for f in theirs["d"]["features"])
    placed = {tuple(p[:2]) for f in theirs["d"]["features"] for p in f["parts"]}
    assert placed == set(state.board)


SPECTATORS_ONLY = {
    "mode": "custom",
    "players": ["projected_scores"],
    "spectators": ["impossible_holes", "projected_scores", "feature_highlight"],
}


def _aids_of(ws: Any) -> dict[str, Any]:
    """Ask a socket for its aids: the answer (an ``aids`` frame or an error)."""
    ws.send_text(json.dumps({"t": "aids"}))
    while True:
        frame = receive(ws)
        if frame["t"] in ("aids", "error"):
            return frame


def test_a_viewer_without_a_token_gets_only_what_the_players_get(
    api: Api, client: TestClient
) -> None:
    """A player watching their own table with no token is anybody: no spectators' extras."""
    match_id, people, _ = api.match(aids=SPECTATORS_ONLY)
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ann,
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ben,
        client.websocket_connect(f"/ws/matches/{match_id}") as anyone,
    ):
        _play(ann, ben, anyone, 4)
        got = _aids_of(anyone)
    assert got["t"] == "aids" and set(got["d"]) == {"projected_scores"}


def test_a_delayed_spectator_gets_the_aids_of_the_position_it_sees(
    api: Api, client: TestClient
) -> None:
    """Projected scores of the live position would tell a delayed spectator the moves it may
    not see yet: its aids are those of its visible version.
    """
    _, _, watcher = api.player("Wes")
    match_id, people, _ = api.match(aids=SPECTATORS_ONLY, spectator_delay={"moves": 4})
    for _ in range(8):
        match = api.get(f"/api/matches/{match_id}", people[0][2])  # a player: no delay
        seat = match["state"]["seat"]
        body = {"v": match["version"], "d": place_first(match["state"])}
        api.post(f"/api/matches/{match_id}/actions", people[seat][2], **body)
    latest = api.get(f"/api/matches/{match_id}", people[0][2])["version"]
    token = watcher["Authorization"][7:]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as spectator:
        snapshot = receive(spectator)
        got = _aids_of(spectator)
    assert snapshot["t"] == "snapshot" and snapshot["v"] < latest
    assert got["t"] == "aids" and got["v"] == snapshot["v"]


def test_a_rated_table_keeps_the_spectators_extras_from_a_second_identity(
    api: Api, client: TestClient
) -> None:
    """On a rated table a player's free guest identity watching is no proof of a spectator:
    without a spectator delay it gets only what the players get.
    """
    people = []
    for stem in ("Ria", "Rob"):
        r = client.post(
            "/api/accounts",
            json={"username": f"{stem}{secrets.token_hex(3)}", "password": "correct horse battery"},
        )
        assert r.status_code == 201, r.text
        people.append(r.json()["token"])
    heads = [{"Authorization": f"Bearer {t}"} for t in people]
    lobby = api.lobby(heads[0], seats=2, rated=True, aids=SPECTATORS_ONLY)
    api.post(f"/api/lobbies/{lobby['code']}/join", heads[1])
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", heads[0])["match_id"]
    _, second, _ = api.player("Ria again")
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[0]}") as ann,
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[1]}") as ben,
        client.websocket_connect(f"/ws/matches/{match_id}?token={second}") as sock,
    ):
        _play(ann, ben, sock, 4)
        got = _aids_of(sock)
    assert got["t"] == "aids" and set(got["d"]) == {"projected_scores"}
