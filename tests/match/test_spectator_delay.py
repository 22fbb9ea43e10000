"""The spectator delay (docs/API.md § Spectator delay): spectators see a live match N moves or
M seconds behind on every path — socket, match, events, record (replay), chat — while its
players see it live; once it has ended, everyone sees all of it.
"""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update
from starlette.testclient import WebSocketTestSession

from app.db.models import chat_messages, match_actions, matches, utcnow
from app.services.errors import ValidationFailed
from app.services.spectator_delay import SpectatorDelay, parse_spectator_delay
from tests.support.client import Api, place_first

pytestmark = pytest.mark.timeout(90)

DELAY = 2


def _act(api: Api, match_id: str, people: list[Any]) -> dict[str, Any]:
    """One action by the seat to act; returns the match JSON the players read after it."""
    match = api.get(f"/api/matches/{match_id}", people[0][2])
    seat = match["state"]["seat"]
    api.post(
        f"/api/matches/{match_id}/actions",
        people[seat][2],
        v=match["version"],
        d=place_first(match["state"]),
    )
    after: dict[str, Any] = api.get(f"/api/matches/{match_id}", people[0][2])
    return after


def _frames_until(ws: WebSocketTestSession, kind: str) -> list[dict[str, Any]]:
    """Every frame up to and including the first of type ``kind``."""
    frames = []
    while True:
        frame = json.loads(ws.receive_text())
        frames.append(frame)
        if frame["t"] == kind:
            return frames


def _check(frames: list[dict[str, Any]], visible: int, positions: dict[int, Any]) -> None:
    """No frame carries a position later than ``visible``; a snapshot is exactly the match
    at its version as the players saw it then.
    """
    for frame in frames:
        assert frame["t"] in ("snapshot", "presence", "chat", "pong"), frame["t"]
        if "v" in frame:
            assert frame["v"] <= visible, (frame["t"], frame["v"], visible)
        if frame["t"] == "snapshot":
            d = frame["d"]
            assert d["version"] == frame["v"] and d["clock"] is None
            assert d["state"] == positions[frame["v"]]


def test_spectators_see_the_match_n_moves_behind_frame_by_frame(
    api: Api, client: TestClient
) -> None:
    match_id, people, code = api.match(spectator_delay={"moves": DELAY})
    lobby = api.get(f"/api/lobbies/{code}")
    assert lobby["spectator_delay"] == {"moves": DELAY}
    _, _, outsider = api.player("Zed")
    positions = {0: api.get(f"/api/matches/{match_id}", people[0][2])["state"]}
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?since=0") as spectator,
        client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as player,
    ):
        first = _frames_until(spectator, "snapshot")
        _check(first, 0, positions)
        said = False
        seen: list[dict[str, Any]] = []
        for k in range(1, 9):
            after = _act(api, match_id, people)
            assert after["version"] == k  # the players: live
            positions[k] = after["state"]
            visible = max(0, k - DELAY)
            if k == 3:
                player.send_text(json.dumps({"t": "chat", "d": {"text": "hidden for now"}}))
                _frames_until(player, "chat")  # stored and sent: the players read it at once
                said = True
            if visible == 0:
                continue
            frames = _frames_until(spectator, "snapshot")
            _check(frames, visible, positions)
            assert frames[-1]["v"] == visible
            seen += frames
            # The other paths agree, for a signed-in outsider and an anonymous reader alike.
            for headers in (outsider, None):
                match = api.get(f"/api/matches/{match_id}", headers)
                assert match["version"] == visible and match["state"] == positions[visible]
                events = api.get(f"/api/matches/{match_id}/events?since=0", headers)
                assert events["version"] == visible
                assert [b["v"] for b in events["batches"]] == list(range(1, visible + 1))
                record = api.get(f"/api/matches/{match_id}/record", headers)
                replay = api.get(f"/api/matches/{match_id}/replay", headers)
                assert len(replay["steps"]) <= len(
                    api.get(f"/api/matches/{match_id}/replay", people[0][2])["steps"]
                )
                assert record["moves"] == replay["record"]["moves"]
                chat = api.get(f"/api/matches/{match_id}/chat", headers)["messages"]
                assert bool(chat) == (said and visible >= 3)
        # Said after move 3: a spectator reads it right after move 3 shows, not before.
        order = [(f["t"], f.get("v")) for f in seen if f["t"] in ("snapshot", "chat")]
        assert order.index(("chat", None)) == order.index(("snapshot", 3)) + 1, order
        spectator.send_text(json.dumps({"t": "sync", "since": 0}))
        again = _frames_until(spectator, "snapshot")
        _check(again, 8 - DELAY, positions)
        spectator.send_text(json.dumps({"t": "ping"}))
        _check(_frames_until(spectator, "pong"), 8 - DELAY, positions)
    # The players' own record is live.
    assert len(api.get(f"/api/matches/{match_id}/events?since=0", people[1][2])["batches"]) == 8


def test_every_match_list_shows_an_outsider_the_delayed_turn(api: Api) -> None:
    match_id, people, _ = api.match(spectator_delay={"moves": 3})
    positions = {0: api.get(f"/api/matches/{match_id}", people[0][2])["state"]}
    for k in range(1, 8):
        positions[k] = _act(api, match_id, people)["state"]
    shown, live = positions[7 - 3], positions[7]
    assert shown["turn"] != live["turn"]  # the delay hides a whole turn here
    # Nobody scored in 7 actions: stand-in live scores on the row (what the lists read), so
    # a list that shows the row's scores to an outsider is caught.
    live = {**live, "scores": [5, 3]}
    rt = api.client.app.state.runtime  # type: ignore[attr-defined]

    async def score() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(matches).where(matches.c.id == match_id).values(scores=live["scores"])
            )

    api.client.portal.call(score)  # type: ignore[union-attr]
    _, _, outsider = api.player("Zed")
    for headers in (outsider, None):
        # The public tables list: the same for everyone, the players included.
        listed = api.get("/api/lobbies", headers)["matches"]
        assert [m["turn"] for m in listed if m["id"] == match_id] == [shown["turn"]]
        # A player's profile and match list, read by someone not seated in the match.
        pid = people[0][0]
        for page in (
            api.get(f"/api/players/{pid}/profile", headers)["recent"],
            api.get(f"/api/players/{pid}/matches", headers)["matches"],
        ):
            entry = next(m for m in page if m["id"] == match_id)
            assert [s["score"] for s in entry["seats"]] == shown["scores"]
    # The player themself reads their own match live on their pages.
    mine = api.get(f"/api/players/{people[0][0]}/matches", people[0][2])["matches"]
    entry = next(m for m in mine if m["id"] == match_id)
    assert [s["score"] for s in entry["seats"]] == live["scores"]
    ongoing = api.get("/api/me/matches", people[1][2])["matches"]
    assert [m["turn"] for m in ongoing if m["id"] == match_id] == [live["turn"]]


def test_a_seconds_delay_shows_what_was_committed_that_long_ago(
    api: Api, client: TestClient
) -> None:
    match_id, people, _ = api.match(spectator_delay={"seconds": 30})
    for _ in range(4):
        _act(api, match_id, people)
    assert api.get(f"/api/matches/{match_id}")["version"] == 0  # all four are recent
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def age(upto: int) -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(match_actions)
                .where(match_actions.c.match_id == match_id, match_actions.c.seq <= upto)
                .values(created_at=utcnow() - timedelta(seconds=60))
            )
            await conn.execute(
                update(chat_messages)
                .where(chat_messages.c.key == match_id)
                .values(created_at=utcnow() - timedelta(seconds=60))
            )

    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as player:
        player.send_text(json.dumps({"t": "chat", "d": {"text": "old news"}}))
        _frames_until(player, "chat")
        client.portal.call(age, 3)  # type: ignore[union-attr]
        player.send_text(json.dumps({"t": "chat", "d": {"text": "just now"}}))
        _frames_until(player, "chat")
    assert api.get(f"/api/matches/{match_id}")["version"] == 3
    assert api.get(f"/api/matches/{match_id}", people[0][2])["version"] == 4
    said = [m["text"] for m in api.get(f"/api/matches/{match_id}/chat")["messages"]]
    assert said == ["old news"]
    with client.websocket_connect(f"/ws/matches/{match_id}") as spectator:
        first = _frames_until(spectator, "snapshot")
        assert first[-1]["v"] == 3
    # The spectators' own room is not held back: it tells nothing they have not seen.
    _, fan_token, _ = api.player("Fan")
    with client.websocket_connect(f"/ws/matches/{match_id}?token={fan_token}") as fan:
        fan.send_text(json.dumps({"t": "chat", "d": {"text": "from the stands"}}))
        heard = _frames_until(fan, "chat")[-1]
        assert heard["d"]["room"] == "spectators" and heard["d"]["text"] == "from the stands"
    said = [m["text"] for m in api.get(f"/api/matches/{match_id}/chat")["messages"]]
    assert said == ["old news", "from the stands"]


def test_the_delay_is_checked_and_can_be_lifted(api: Api) -> None:
    _, _, host = api.player("Ann")
    for bad in ({"moves": 0}, {"seconds": 2}, {"minutes": 1}, {"moves": 1, "seconds": 5}):
        r = api.client.post("/api/lobbies", json={"spectator_delay": bad}, headers=host)
        assert r.status_code == 422, bad
        assert r.json()["error"]["reason"] == "spectator_delay"
    lobby = api.lobby(host, spectator_delay={"seconds": 60})
    assert lobby["spectator_delay"] == {"seconds": 60}
    r = api.client.patch(
        f"/api/lobbies/{lobby['code']}", json={"spectator_delay": {}}, headers=host
    )
    assert r.status_code == 200 and r.json()["spectator_delay"] is None


def test_cutoff_arithmetic() -> None:
    now = utcnow()
    times = {1: now - timedelta(seconds=50), 2: now - timedelta(seconds=20), 3: now}
    assert SpectatorDelay(seconds=30).cutoff(now, 3, times)[0] == 1
    assert SpectatorDelay(moves=2).cutoff(now, 3, times) == (1, times[2])
    assert SpectatorDelay(moves=5).cutoff(now, 3, times) == (0, times[1])
    assert SpectatorDelay(moves=1).cutoff(now, 0, {}) == (0, None)
    assert SpectatorDelay.from_json({"moves": 3}) == SpectatorDelay(moves=3)
    assert SpectatorDelay.from_json(None) is None
    assert parse_spectator_delay({}) is None
    with pytest.raises(ValidationFailed):
        parse_spectator_delay({"moves": True})


def test_a_tournament_delays_its_tables(api: Api) -> None:
    _, _, host = api.player("Org")
    created = api.post(
        "/api/tournaments",
        host,
        201,
        name="Delayed cup",
        format="round_robin",
        spectator_delay={"moves": 3},
    )
    assert created["spectator_delay"] == {"moves": 3}
    tid = created["id"]
    people = [api.player(name) for name in ("Ann", "Ben")]
    for _, _, headers in people:
        api.post(f"/api/tournaments/{tid}/entrants", headers)
        api.post(f"/api/tournaments/{tid}/check-in", headers)
    started = api.post(f"/api/tournaments/{tid}/start", host)
    match_id = started["pairings"][0]["match_id"]
    by_seat = sorted(people, key=lambda p: api.get(f"/api/matches/{match_id}", p[2])["you"])
    for _ in range(4):
        _act(api, match_id, by_seat)
    watched = api.get(f"/api/matches/{match_id}")
    assert watched["spectator_delay"] == {"moves": 3} and watched["version"] == 1
    assert api.get(f"/api/matches/{match_id}", by_seat[0][2])["version"] == 4
    # The organiser holds no seat: the referee view is delayed too, its clock hidden.
    (table,) = api.get(f"/api/tournaments/{tid}/referee", host)["tables"]
    assert table["version"] == 1 and table["turn"] == watched["state"]["turn"]
    assert table["scores"] == watched["state"]["scores"] and table["clock"] is None
    assert table["seat_to_act"] == watched["state"]["seat"]
