"""Aid policies (docs/API.md § Aids): chosen per table in the lobby API, carried by the match
and its record, and the computed aids sent on a socket only as the policy allows — never a
byte of aid data in a match whose policy is off.
"""

from __future__ import annotations

import json
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
        client.websocket_connect(f"/ws/matches/{match_id}") as spectator,
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
