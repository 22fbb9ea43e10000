"""Chat over the lobby and match websockets, on SQLite + memory broker and Postgres + Redis:
who reads what (spectators' messages reach players only after the end), the host's mute, and
bad input (empty, too long, too fast, not allowed) answered with a stable code, storing
nothing.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api, mark_finished, receive

pytestmark = pytest.mark.timeout(60)


def _say(ws: Any, text: str | None = None, quick: str | None = None) -> None:
    body: dict[str, Any] = {}
    if text is not None:
        body["text"] = text
    if quick is not None:
        body["quick"] = quick
    ws.send_text(json.dumps({"t": "chat", "d": body}))


def _next(ws: Any, kind: str) -> dict[str, Any]:
    """The next frame's data, skipping presence and lobby updates (seats' connection state)."""
    frame = receive(ws)
    while frame["t"] == "lobby" and kind != "lobby":
        frame = receive(ws)  # a lobby socket's presence update (someone joined meanwhile)
    assert frame["t"] == kind, frame
    return dict(frame["d"])


def _pong(ws: Any) -> None:
    """Nothing but lobby updates is queued for ``ws``: the next other frame is the pong."""
    ws.send_text(json.dumps({"t": "ping"}))
    frame = receive(ws)
    while frame["t"] == "lobby":
        frame = receive(ws)
    assert frame == {"t": "pong"}


def test_players_and_spectators_chat_and_spectators_stay_hidden_until_the_end(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match()
    (_, ann_tok, ann), (_, ben_tok, _) = people
    _, cat_tok, cat = api.player("Cat")
    url = f"/ws/matches/{match_id}"
    with (
        client.websocket_connect(f"{url}?token={ann_tok}") as a,
        client.websocket_connect(f"{url}?token={ben_tok}") as b,
        client.websocket_connect(f"{url}?token={cat_tok}") as c,
    ):
        for ws in (a, b, c):
            assert receive(ws)["t"] == "snapshot"
        _say(a, "<b>hello</b> & welcome")
        got = [_next(ws, "chat") for ws in (a, b, c)]
        assert got[0] == got[1] == got[2]
        assert got[0]["text"] == "<b>hello</b> & welcome"  # stored as typed; shown as text
        assert (got[0]["room"], got[0]["seat"], got[0]["name"]) == ("players", 0, "Ann")
        assert got[0]["colour"]

        # A spectator's message reaches spectators only while the match is live.
        _say(c, "go for the big city!")
        seen = _next(c, "chat")
        assert (seen["room"], seen["seat"], seen["name"]) == ("spectators", None, "Cat")
        _pong(a)
        _pong(b)
        assert [m["text"] for m in api.get(f"/api/matches/{match_id}/chat", ann)["messages"]] == [
            "<b>hello</b> & welcome"
        ]
        assert len(api.get(f"/api/matches/{match_id}/chat", cat)["messages"]) == 2

        # Quick messages travel by name; each client words them in its language.
        _say(b, quick="good_game")
        assert [_next(ws, "chat")["quick"] for ws in (a, b, c)] == ["good_game"] * 3

        # Once the match is over, players read the spectators' chat too, live and in history.
        mark_finished(client, match_id)
        _say(c, "what a game")
        assert [_next(ws, "chat")["text"] for ws in (a, b, c)] == ["what a game"] * 3
        texts = [m["text"] for m in api.get(f"/api/matches/{match_id}/chat", ann)["messages"]]
        assert texts == ["<b>hello</b> & welcome", "go for the big city!", "", "what a game"]


BAD = [
    ({"text": ""}, "chat_empty"),
    ({"text": "   \n\t "}, "chat_empty"),
    ({}, "chat_empty"),
    ({"quick": "insult"}, "chat_empty"),
    ({"text": "x" * 301}, "chat_too_long"),
]


@pytest.mark.parametrize("body, code", BAD)
def test_bad_messages_get_a_code_and_store_nothing(
    api: Api, client: TestClient, body: dict[str, Any], code: str
) -> None:
    match_id, people, _ = api.match()
    _, tok, headers = people[0]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={tok}") as ws:
        receive(ws)
        ws.send_text(json.dumps({"t": "chat", "d": body}))
        error = _next(ws, "error")
        assert error["code"] == code, error
        _pong(ws)
    assert api.get(f"/api/matches/{match_id}/chat", headers)["messages"] == []


def test_exactly_300_characters_pass_and_wrong_shapes_are_validation_errors(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match()
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        receive(ws)
        _say(ws, "é" * 300)
        assert len(_next(ws, "chat")["text"]) == 300
        for frame in (
            {"t": "chat", "d": {"text": 5}},
            {"t": "chat", "d": {"text": "a", "x": 1}},
            {"t": "chat"},
        ):
            ws.send_text(json.dumps(frame))
            assert _next(ws, "error")["code"] == "validation_error"


def test_too_fast_and_not_allowed(api: Api, client: TestClient) -> None:
    match_id, people, code = api.match()
    _, tok, headers = people[0]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={tok}") as ws:
        receive(ws)
        for i in range(5):
            _say(ws, f"message {i}")
            assert _next(ws, "chat")["text"] == f"message {i}"
        _say(ws, "one too many")
        assert _next(ws, "error")["code"] == "chat_too_fast"
    # A spectator without a name cannot write.
    with client.websocket_connect(f"/ws/matches/{match_id}") as anonymous:
        receive(anonymous)
        _say(anonymous, "hi")
        assert _next(anonymous, "error")["code"] == "chat_not_allowed"
    # Someone not at the table cannot write in its waiting room.
    lobby = api.lobby(headers, seats=2)
    _, stranger_tok, _ = api.player("Zed")
    with client.websocket_connect(f"/ws/lobbies/{lobby['code']}?token={stranger_tok}") as ws:
        assert receive(ws)["t"] == "lobby"
        _say(ws, "let me in")
        assert _next(ws, "error")["code"] == "chat_not_allowed"
    assert len(api.get(f"/api/matches/{match_id}/chat", headers)["messages"]) == 5
    assert api.get(f"/api/lobbies/{lobby['code']}/chat", headers)["messages"] == []


def test_the_host_mutes_and_unmutes_in_the_waiting_room(api: Api, client: TestClient) -> None:
    ann_id, ann_tok, ann = api.player("Ann")
    ben_id, ben_tok, ben = api.player("Ben")
    code = api.lobby(ann, seats=3)["code"]
    api.post(f"/api/lobbies/{code}/join", ben)
    with (
        client.websocket_connect(f"/ws/lobbies/{code}?token={ann_tok}") as a,
        client.websocket_connect(f"/ws/lobbies/{code}?token={ben_tok}") as b,
    ):
        receive(a)
        receive(b)
        _say(b, "hi all")
        assert _next(a, "chat")["name"] == "Ben" and _next(b, "chat")["room"] == "lobby"
        api.post(f"/api/lobbies/{code}/mute", ben, status=403, player=ann_id)
        assert api.post(f"/api/lobbies/{code}/mute", ann, player=ben_id)["muted"] == [ben_id]
        assert _next(a, "chat_muted")["muted"] == [ben_id]
        assert _next(b, "chat_muted")["muted"] == [ben_id]
        _say(b, "spam")
        assert _next(b, "error")["code"] == "chat_muted"
        _pong(a)
        assert api.get(f"/api/lobbies/{code}/chat", ann)["muted"] == [ben_id]
        api.post(f"/api/lobbies/{code}/mute", ann, player=ben_id, muted=False)
        _say(b, "sorry")
        assert _next(b, "chat_muted")["muted"] == []
        assert _next(b, "chat")["text"] == "sorry"
    texts = [m["text"] for m in api.get(f"/api/lobbies/{code}/chat", ann)["messages"]]
    assert texts == ["hi all", "sorry"]


def test_a_malformed_player_id_to_mute_is_a_validation_error(api: Api) -> None:
    _, _, ann = api.player("Ann")
    code = api.lobby(ann, seats=2)["code"]
    r = api.client.post(f"/api/lobbies/{code}/mute", json={"player": "a\x00b"}, headers=ann)
    assert r.status_code == 422, r.text
