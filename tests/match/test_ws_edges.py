"""The match websocket's edges: action ids, frame floods (``sync`` included), socket caps."""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession
from starlette.websockets import WebSocketDisconnect

from app.api.app import create_app
from tests.support.app import make_settings
from tests.support.client import Api, place_first, receive

pytestmark = pytest.mark.timeout(60)


@pytest.mark.parametrize("action_id", ["a\x00b", "has space", "é", "x" * 65, ""])
def test_websocket_action_ids_are_checked_like_rest(
    api: Api, client: TestClient, action_id: str
) -> None:
    match_id, people, _ = api.match()
    token, headers = people[0][1], people[0][2]
    body = {"v": 0, "id": action_id, "d": {"type": "pass"}}
    r = client.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
    assert r.status_code == 422 and r.json()["error"]["code"] == "validation_error"
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"t": "action", **body}))
        error = receive(ws)
        assert error["t"] == "error" and error["d"]["code"] == "validation_error", error
        ws.send_text(json.dumps({"t": "ping"}))  # the socket is still up
        assert receive(ws) == {"t": "pong"}
    assert api.get(f"/api/matches/{match_id}")["version"] == 0


@pytest.fixture
def flood_client(sqlite_url: str, channel_prefix: str, frontend: Path) -> Iterator[TestClient]:
    settings = make_settings(
        sqlite_url,
        None,
        channel_prefix,
        frontend,
        ws_frame_rate=0.01,
        ws_frame_burst=5,
        ws_sockets_per_token=3,
        ws_sockets_per_address=5,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _close_code(ws: WebSocketTestSession, limit: int = 200) -> int:
    for _ in range(limit):
        try:
            ws.receive_text()
        except WebSocketDisconnect as exc:
            return exc.code
    raise AssertionError("the socket was not closed")


@pytest.mark.parametrize(
    "frame",
    [
        {"t": "sync", "since": 0},
        {"t": "ping"},
        {"t": "action", "v": 0, "id": "f", "d": {"type": "pass"}},
    ],
)
def test_every_frame_kind_is_rate_limited_and_a_flood_closes_1013(
    flood_client: TestClient, frame: dict[str, object]
) -> None:
    api = Api(flood_client)
    match_id, people, _ = api.match()
    state = api.get(f"/api/matches/{match_id}")["state"]
    api.post(f"/api/matches/{match_id}/actions", people[0][2], v=0, d=place_first(state))
    with flood_client.websocket_connect(f"/ws/matches/{match_id}?token={people[1][1]}") as ws:
        receive(ws)
        for _ in range(5):  # the burst passes (each frame gets one answer; a sync for what
            ws.send_text(json.dumps(frame))  # the socket has, none)
        answers = [receive(ws) for _ in range(5)] if frame["t"] != "sync" else []
        assert all(a["d"]["code"] != "rate_limited" for a in answers if a["t"] == "error")
        ws.send_text(json.dumps(frame))
        refused = receive(ws)
        assert refused["t"] == "error" and refused["d"]["code"] == "rate_limited", refused
        for _ in range(40):  # keeps flooding: closed with 1013 "try again later"
            ws.send_text(json.dumps(frame))
        assert _close_code(ws) == 1013


@pytest.fixture
def paced_client(sqlite_url: str, channel_prefix: str, frontend: Path) -> Iterator[TestClient]:
    """Three frames at once, then one per 2 s: a refusal's wait is long enough to see."""
    settings = make_settings(
        sqlite_url, None, channel_prefix, frontend, ws_frame_rate=0.5, ws_frame_burst=3
    )
    with TestClient(create_app(settings)) as client:
        yield client


def test_a_refused_action_frame_names_its_action_and_when_to_send_it_again(
    paced_client: TestClient,
) -> None:
    """A refused action frame does not leave its sender waiting: the ``rate_limited`` error of
    an action frame over the socket's frame budget carries the frame's client action id and
    ``retry_after`` (seconds); sent again after that wait, the same frame is applied.
    """
    api = Api(paced_client)
    match_id, people, _ = api.match()
    state = api.get(f"/api/matches/{match_id}")["state"]
    action = {"t": "action", "v": 0, "id": "slow-1", "d": place_first(state)}
    with paced_client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)
        for _ in range(3):  # the burst
            ws.send_text(json.dumps({"t": "ping"}))
        ws.send_text(json.dumps(action))
        assert [receive(ws) for _ in range(3)] == [{"t": "pong"}] * 3
        refused = receive(ws)
        retry = refused["d"].get("retry_after")
        assert refused["t"] == "error" and refused["d"] == {
            "code": "rate_limited",
            "message": refused["d"]["message"],
            "id": "slow-1",
            "retry_after": retry,
        }, refused
        assert isinstance(retry, float | int) and 0 < retry <= 2.1, retry
        assert api.get(f"/api/matches/{match_id}")["version"] == 0  # nothing changed
        time.sleep(retry)
        ws.send_text(json.dumps(action))
        applied = receive(ws)
        assert applied["t"] == "events" and applied["v"] == 1, applied
        assert applied["d"]["action_id"] == "slow-1"
        # A refused frame of another kind has no action to name, but says when too.
        ws.send_text(json.dumps({"t": "ping"}))
        other = receive(ws)
        assert other["d"]["code"] == "rate_limited" and other["d"]["id"] is None, other
        assert 0 < other["d"]["retry_after"] <= 2.1


def test_sockets_are_capped_per_token_and_per_address(flood_client: TestClient) -> None:
    api = Api(flood_client)
    match_id, people, _ = api.match()
    path = f"/ws/matches/{match_id}"
    token = people[0][1]
    with (
        flood_client.websocket_connect(f"{path}?token={token}") as a,
        flood_client.websocket_connect(f"{path}?token={token}") as b,
        flood_client.websocket_connect(f"{path}?token={token}") as c,
    ):
        for ws in (a, b, c):
            assert receive(ws)["t"] == "snapshot"
        with flood_client.websocket_connect(f"{path}?token={token}") as d:
            error = receive(d)
            assert error["t"] == "error" and error["d"]["code"] == "rate_limited"
            assert _close_code(d) == 1013
        # other sockets of the same address: 5 in all, whatever the token
        with flood_client.websocket_connect(path) as e, flood_client.websocket_connect(path) as f:
            receive(e), receive(f)
            with flood_client.websocket_connect(path) as g:
                assert receive(g)["d"]["code"] == "rate_limited"
                assert _close_code(g) == 1013
    with flood_client.websocket_connect(f"{path}?token={token}") as again:  # freed on close
        assert receive(again)["t"] == "snapshot"
