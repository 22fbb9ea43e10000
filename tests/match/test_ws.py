"""The match websocket: snapshot and catch-up, actions, error frames, presence, keepalive."""

from __future__ import annotations

import json

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(60)


def test_snapshot_then_live_batches_for_players_and_spectators(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match()
    token = people[0][1]
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws,
        client.websocket_connect(f"/ws/matches/{match_id}") as spectator,
    ):
        snap = receive(ws)
        assert snap["t"] == "snapshot" and snap["v"] == 0 and snap["d"]["you"] == 0
        assert receive(spectator)["d"]["you"] is None
        ws.send_text(
            json.dumps({"t": "action", "v": 0, "id": "a1", "d": place_first(snap["d"]["state"])})
        )
        mine, theirs = receive(ws), receive(spectator)
        assert mine == theirs
        assert mine["t"] == "events" and mine["v"] == 1 and mine["d"]["action_id"] == "a1"
        assert mine["d"]["seat"] == 0 and mine["d"]["events"][0]["type"] == "TilePlaced"
        assert mine["d"]["delta"]["phase"] == "deploy" and "state" not in mine["d"]
        ws.send_text(json.dumps({"t": "action", "v": 1, "id": "a2", "d": {"type": "pass"}}))
        assert receive(ws)["v"] == 2 and receive(spectator)["v"] == 2
        ws.send_text(json.dumps({"t": "ping"}))
        assert receive(ws) == {"t": "pong"}


def test_since_catches_up_or_snapshots(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    a = people[0][2]
    state = api.get(f"/api/matches/{match_id}")["state"]
    api.post(f"/api/matches/{match_id}/actions", a, v=0, d=place_first(state))
    api.post(f"/api/matches/{match_id}/actions", a, v=1, d={"type": "pass"})
    with client.websocket_connect(f"/ws/matches/{match_id}?since=0") as ws:
        first, second = receive(ws), receive(ws)
        assert (first["t"], first["v"], second["v"]) == ("events", 1, 2)
        assert first["d"]["state"] is None and second["d"]["state"]["turn"] == 1
        # A sync for what this socket was already sent resends nothing (it is on its way, in
        # order): no version twice on one socket (the soak saw one after a SIGSTOP).
        ws.send_text(json.dumps({"t": "sync", "since": 1}))
        ws.send_text(json.dumps({"t": "ping"}))
        assert receive(ws) == {"t": "pong"}
    with client.websocket_connect(f"/ws/matches/{match_id}?since=2") as ws:
        ws.send_text(json.dumps({"t": "ping"}))
        assert receive(ws) == {"t": "pong"}  # nothing missed: nothing sent but the pong
    with client.websocket_connect(f"/ws/matches/{match_id}?since=99") as ws:
        snap = receive(ws)
        assert snap["t"] == "snapshot" and snap["v"] == 2


@pytest.mark.parametrize(
    "frame, code",
    [
        ("x" * 17_000, "validation_error"),
        (
            json.dumps({"t": "action", "v": 0, "d": {"type": "pass", "pad": "y" * 16_500}}),
            "validation_error",
        ),
        ("not json", "validation_error"),
        ("[1, 2]", "validation_error"),
        (json.dumps({"t": "dance"}), "validation_error"),
        (json.dumps({"v": 0}), "validation_error"),
        (json.dumps({"t": "action", "v": "zero", "d": {}}), "validation_error"),
        (json.dumps({"t": "action", "v": 0, "d": {}, "extra": 1}), "validation_error"),
        (json.dumps({"t": "action", "v": 0, "id": "e1", "d": {"type": "fly"}}), "invalid_action"),
        (json.dumps({"t": "action", "v": 5, "id": "e2", "d": {"type": "pass"}}), "stale_version"),
        (json.dumps({"t": "action", "v": 0, "id": "e3", "d": {"type": "pass"}}), "wrong_phase"),
        (json.dumps({"t": "sync", "since": -4}), "validation_error"),
    ],
)
def test_bad_frames_get_error_frames_and_change_nothing(
    api: Api, client: TestClient, frame: str, code: str
) -> None:
    match_id, people, _ = api.match()
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)
        ws.send_text(frame)
        error = receive(ws)
        assert error["t"] == "error" and error["d"]["code"] == code, error
        assert error["d"]["message"]
        ws.send_bytes(b"\xff\xfe")
        assert receive(ws)["d"]["code"] == "validation_error"
        ws.send_text(json.dumps({"t": "ping"}))
        assert receive(ws) == {"t": "pong"}  # still connected
    assert api.get(f"/api/matches/{match_id}")["version"] == 0


def test_spectators_and_other_seats_cannot_act(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    state = api.get(f"/api/matches/{match_id}")["state"]
    action = json.dumps({"t": "action", "v": 0, "id": "s1", "d": place_first(state)})
    _, outsider_token, _ = api.player("Zed")
    for query in ("", f"?token={outsider_token}"):
        with client.websocket_connect(f"/ws/matches/{match_id}{query}") as ws:
            receive(ws)
            ws.send_text(action)
            error = receive(ws)
            assert error["d"] == {
                "code": "not_seated",
                "message": error["d"]["message"],
                "id": "s1",
                "reason": "not_seated",
                "params": {},
            }
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ws:
        receive(ws)
        ws.send_text(action)
        assert receive(ws)["d"]["code"] == "not_your_turn"
    assert api.get(f"/api/matches/{match_id}")["version"] == 0


def test_refusals_on_connect(api: Api, client: TestClient) -> None:
    match_id, people, code = api.match(private=True)
    for query, expected in [
        ("?token=forged", "unauthorized"),
        ("", "forbidden"),
        ("?code=wrongcode", "forbidden"),
        ("?since=abc", "validation_error"),
    ]:
        with client.websocket_connect(f"/ws/matches/{match_id}{query}") as ws:
            frame = receive(ws)
            assert frame["t"] == "error" and frame["d"]["code"] == expected, query
    with client.websocket_connect("/ws/matches/nosuch") as ws:
        assert receive(ws)["d"]["code"] == "not_found"
    with client.websocket_connect(f"/ws/matches/{match_id}?code={code}") as ws:
        assert receive(ws)["t"] == "snapshot"
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ws:
        assert receive(ws)["d"]["you"] == 1


def test_presence_and_spectator_count(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match(bots=1)
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)

        def presence() -> dict[str, object]:
            while True:
                frame = receive(ws, keep=("presence",))
                if frame["t"] == "presence":
                    return dict(frame["d"])

        with client.websocket_connect(f"/ws/matches/{match_id}") as spectator:
            receive(spectator)
            seen = presence()
            while seen["spectators"] != 1:
                seen = presence()
            assert seen["seats"] == [
                {"seat": 0, "connected": True},
                {"seat": 1, "connected": False},
                {"seat": 2, "connected": True},
            ]
            match = api.get(f"/api/matches/{match_id}")
            assert match["spectators"] == 1 and match["seats"][0]["connected"] is True
        while presence()["spectators"] != 0:
            pass


def test_same_token_reclaims_the_seat_in_a_second_tab(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match()
    token = people[0][1]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as tab1:
        snap = receive(tab1)
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as tab2:
        assert receive(tab2)["d"]["you"] == 0
        tab2.send_text(
            json.dumps({"t": "action", "v": 0, "id": "t2", "d": place_first(snap["d"]["state"])})
        )
        assert receive(tab2)["v"] == 1
        tab2.send_text(
            json.dumps({"t": "action", "v": 0, "id": "t2", "d": place_first(snap["d"]["state"])})
        )
        tab2.send_text(json.dumps({"t": "ping"}))
        assert receive(tab2) == {"t": "pong"}  # the retry was answered from the log, silently
    assert api.get(f"/api/matches/{match_id}")["version"] == 1
