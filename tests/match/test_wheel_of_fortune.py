"""Wheel of Fortune on the server (issue 5): the preset, the catalogue's icons, the fixed test
deck, Plague decisions asked of the right seat (over the websocket and REST) with a timeout
that falls back to a bot choice, bots that decide their own Plague, and a whole match whose
exported record replays to the same scores.

The server runs with ``deck_seed=WOF_SEED``; the test mirrors the match with the engine
(:mod:`tests.support.wof`), so it knows when the pig reaches Plague.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from starlette.testclient import WebSocketTestSession

from app.api.app import create_app
from app.engine import RemoveFollower, apply_in_place, replay, view
from app.engine.events import PointsScored
from app.engine.expansions.wheel_of_fortune import CrownReturned, PigMoved, plague_choices
from tests.support.app import make_settings
from tests.support.client import Api, receive
from tests.support.frames import Follower
from tests.support.wof import (
    FIRST_CROWN_SCORING,
    FIRST_PLAGUE,
    FORTUNE,
    WOF_SEED,
    new_wof_game,
    plan_action,
    wire,
)

pytestmark = pytest.mark.timeout(120)


def _client(
    backend: tuple[str, str | None], prefix: str, frontend: Path, **overrides: object
) -> Iterator[TestClient]:
    settings = make_settings(
        backend[0], backend[1], prefix, frontend, deck_seed=WOF_SEED, **overrides
    )
    with TestClient(create_app(settings)) as client:
        yield client


@pytest.fixture
def wof(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> Iterator[TestClient]:
    """The app with the fixed test deck and a Plague timeout no test waits for."""
    yield from _client(backend, channel_prefix, frontend, decision_timeout=600.0)


@pytest.fixture
def quick_plague(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> Iterator[TestClient]:
    """The fixed test deck, a 0.4 s Plague timeout, and abandoned seats left alone for long."""
    yield from _client(backend, channel_prefix, frontend, decision_timeout=0.4, abandon_after=600.0)


def _start(api: Api) -> tuple[str, list[tuple[str, str, dict[str, str]]]]:
    match_id, people, _ = api.match(seats=2, preset="wheel_of_fortune")
    return match_id, people


def _post(
    client: TestClient,
    match_id: str,
    headers: dict[str, str],
    v: int,
    d: dict[str, Any],
    action_id: str | None = None,
) -> tuple[int, dict[str, Any]]:
    body: dict[str, Any] = {"v": v, "d": d}
    if action_id:
        body["id"] = action_id
    r = client.post(f"/api/matches/{match_id}/actions", json=body, headers=headers)
    return r.status_code, r.json()


def _play_to(client: TestClient, match_id: str, people: list[Any], state: Any, stop: int) -> int:
    """Play the scripted actions before index ``stop`` over REST, mirroring them on ``state``;
    returns the version reached.
    """
    for v in range(stop):
        action = plan_action(state)
        status, body = _post(client, match_id, people[action.seat][2], v, wire(action))
        assert status == 200, body
        apply_in_place(state, action)
    return stop


def test_the_scripted_match_shows_its_milestones() -> None:
    """The engine side of the script the server and browser tests rely on."""
    state = new_wof_game()
    crowns: list[int] = []
    plague_seats: list[int] = []
    for n in range(FORTUNE + 1):
        action = plan_action(state)
        if isinstance(action, RemoveFollower):
            plague_seats.append(action.seat)
        events = apply_in_place(state, action)
        if any(isinstance(e, PointsScored) and e.category == "crown" for e in events):
            crowns.append(n)
    assert crowns[0] == FIRST_CROWN_SCORING and FIRST_PLAGUE + 1 in crowns and FORTUNE in crowns
    assert plague_seats == [0, 1]


def test_preset_catalogue_icons_and_the_fixed_deck(wof: TestClient) -> None:
    api = Api(wof)
    presets = api.get("/api/presets")["presets"]
    assert presets["wheel_of_fortune"]["tileset"] == "wheel_of_fortune"
    tiles = {t["id"]: t for t in api.get("/api/catalogue")["tiles"]}
    assert tiles["U.1"]["icon"] == 1 and tiles["V.3"]["icon"] == 3 and tiles["U"]["icon"] == 0
    assert tiles["WHEEL-00"]["count"] == 0  # a board cell, never drawn
    assert tiles["IC-RrRr.1"]["icon"] == 1 and "IC-RrRr" not in tiles

    match_id, _ = _start(api)
    m = api.get(f"/api/matches/{match_id}")
    expected = view(new_wof_game(), 0)
    assert m["state"] == json.loads(json.dumps(expected))  # the seeded deck, nothing more
    # The first tile drawn, TB-CR, has no wheel icon: the pig is still on Fortune.
    assert m["state"]["wheel"]["pig"] == "fortune" and m["state"]["plague"] is None
    assert [s["name"] for s in m["state"]["wheel"]["segments"]] == [
        "fortune",
        "tax",
        "famine",
        "storm",
        "inquisition",
        "plague",
    ]
    assert len(m["state"]["wheel"]["cells"]) == 16
    assert m["decision_timeout"] == 600.0
    assert m["plague_timeout"] == 600.0  # its name before, for the previous release's client
    assert "seed" not in json.dumps(m) and "deck" not in m["state"]


def _next_events(ws: WebSocketTestSession) -> dict[str, Any]:
    frame = receive(ws)
    assert frame["t"] == "events", frame
    return frame


def _error(ws: WebSocketTestSession) -> str:
    frame = receive(ws)
    assert frame["t"] == "error", frame
    return str(frame["d"]["code"])


def test_plague_is_asked_of_the_right_seat_over_the_websocket(wof: TestClient) -> None:
    api = Api(wof)
    match_id, people = _start(api)
    state = new_wof_game()
    v = _play_to(wof, match_id, people, state, FIRST_PLAGUE - 1)
    (_, ann_token, _), (_, ben_token, ben) = people
    with (
        wof.websocket_connect(f"/ws/matches/{match_id}?token={ann_token}") as ann_ws,
        wof.websocket_connect(f"/ws/matches/{match_id}?token={ben_token}") as ben_ws,
    ):
        snaps = [receive(ws) for ws in (ann_ws, ben_ws)]
        assert [snap["t"] for snap in snaps] == ["snapshot", "snapshot"]
        held = Follower()  # Ann's view, kept current from her frames as the browser does
        held.feed(snaps[0])
        # Ben's follower on Plague's crown; the next draw sends the pig to Plague.
        action = plan_action(state)
        assert action.seat == 1
        ben_ws.send_text(json.dumps({"t": "action", "v": v, "id": "b-crown", "d": wire(action)}))
        apply_in_place(state, action)
        v += 1
        frames = [_next_events(ann_ws), _next_events(ben_ws)]
        assert frames[0] == frames[1]
        d = frames[0]["d"]
        assert [e["segment"] for e in d["events"] if e["type"] == "PigMoved"] == ["plague"]
        seen = held.feed(frames[0])
        assert seen is not None
        plague = seen["plague"]
        # Ann, the active player, decides first; both seats see who is asked and who waits.
        assert seen["phase"] == "plague" and seen["seat"] == 0
        assert plague["seat"] == 0 and plague["waiting"] == [0, 1]
        assert plague["choices"] == [list(c) for c in plague_choices(state)]
        assert seen["legal_placements"] == [] and seen["tile"] is not None
        ann_choice = plague["choices"][0]
        ben_follower = next(f for f in seen["followers"] if f["seat"] == 1)

        # Not Ben's decision: refused, whatever he names.
        ben_ws.send_text(
            json.dumps(
                {
                    "t": "action",
                    "v": v,
                    "id": "b-early",
                    "d": {"type": "plague", "at": ben_follower["at"], "spot": ben_follower["spot"]},
                }
            )
        )
        assert _error(ben_ws) == "not_your_turn"
        # Ann may only name her own follower, and must decide before anything else.
        ann_ws.send_text(
            json.dumps(
                {
                    "t": "action",
                    "v": v,
                    "id": "a-bad",
                    "d": {"type": "plague", "at": ben_follower["at"], "spot": ben_follower["spot"]},
                }
            )
        )
        assert _error(ann_ws) == "illegal_follower"
        ann_ws.send_text(json.dumps({"t": "action", "v": v, "id": "a-pass", "d": {"type": "pass"}}))
        assert _error(ann_ws) == "wrong_phase"

        ann_ws.send_text(
            json.dumps(
                {
                    "t": "action",
                    "v": v,
                    "id": "a-plague",
                    "d": {"type": "plague", "at": ann_choice[:2], "spot": ann_choice[2]},
                }
            )
        )
        apply_in_place(state, plan_action(state))
        v += 1
        frame = _next_events(ann_ws)
        assert _next_events(ben_ws) == frame
        assert frame["d"]["seat"] == 0 and frame["d"]["action_id"] == "a-plague"
        assert frame["d"]["events"] == [
            {"type": "FollowerReturned", "seat": 0, "at": ann_choice[:2], "spot": ann_choice[2]}
        ]
        seen = held.feed(frame)
        assert seen is not None
        assert seen["plague"]["seat"] == 1 and seen["plague"]["waiting"] == [1]

        # Now Ann is refused and Ben is asked; he answers over REST.
        ann_ws.send_text(
            json.dumps(
                {
                    "t": "action",
                    "v": v,
                    "id": "a-again",
                    "d": {"type": "plague", "at": ann_choice[:2], "spot": ann_choice[2]},
                }
            )
        )
        assert _error(ann_ws) == "not_your_turn"
        action = plan_action(state)
        assert isinstance(action, RemoveFollower) and action.seat == 1
        status, body = _post(wof, match_id, ben, v, wire(action), "b-plague")
        assert status == 200, body
        apply_in_place(state, action)
        v += 1
        # The last decision ends the Plague: Plague's crown scores, the drawn tile is played.
        types = [e["type"] for e in body["events"]]
        assert types[:3] == ["FollowerReturned", "PointsScored", "CrownReturned"]
        crown = body["events"][1]
        assert (crown["seat"], crown["category"], crown["points"]) == (1, "crown", 6)
        seen = held.feed(_next_events(ann_ws))
        assert seen == json.loads(json.dumps(view(state, state.seat)))
        assert seen["plague"] is None
        assert seen["phase"] == "place_tile" and seen["seat"] == 0
    # The record gets the Plague with the move of the tile whose draw caused it.
    action = plan_action(state)
    assert _post(wof, match_id, people[0][2], v, wire(action))[0] == 200
    apply_in_place(state, action)
    assert _post(wof, match_id, people[0][2], v + 1, wire(plan_action(state)))[0] == 200
    record = api.get(f"/api/matches/{match_id}/record")
    assert record["moves"][-1]["plague"] == [
        {"seat": 0, "at": ann_choice[:2], "follower": ann_choice[2]},
        {"seat": 1, "at": ben_follower["at"], "follower": ben_follower["spot"]},
    ]


def test_a_plague_decision_times_out_to_a_bot_choice(quick_plague: TestClient) -> None:
    api = Api(quick_plague)
    match_id, people = _start(api)
    state = new_wof_game()
    (_, ann_token, _), _ = people
    with quick_plague.websocket_connect(f"/ws/matches/{match_id}?token={ann_token}") as ann_ws:
        held = Follower()
        assert held.feed(receive(ann_ws)) is not None  # the snapshot
        v = _play_to(quick_plague, match_id, people, state, FIRST_PLAGUE)
        started = time.monotonic()
        for _ in range(v):
            seen = held.feed(_next_events(ann_ws))
        assert seen is not None and seen["plague"]["seat"] == 0
        # Ann is connected but does not answer: after the timeout a bot decides for her, then
        # (Ben has no socket at all) for Ben.
        first, second = _next_events(ann_ws), _next_events(ann_ws)
        waited = time.monotonic() - started
    assert waited >= 0.3, "the bot waited for the timeout"
    for frame, seat in ((first, 0), (second, 1)):
        assert frame["d"]["seat"] == seat and frame["d"]["action_id"] is None
        returned = frame["d"]["events"][0]
        assert returned["type"] == "FollowerReturned" and returned["seat"] == seat
    assert second["d"]["delta"]["phase"] == "place_tile" and second["d"]["delta"]["seat"] == 0
    assert second["v"] == FIRST_PLAGUE + 2
    # Ann's turn to place a tile is not a Plague decision: nobody plays it for her.
    time.sleep(0.8)
    assert api.get(f"/api/matches/{match_id}")["version"] == FIRST_PLAGUE + 2


def _policy(state: dict[str, Any], turn: int) -> dict[str, Any]:
    """A client's deterministic choice from the view alone (no deck knowledge)."""
    if state["phase"] == "plague":
        x, y, spot = state["plague"]["choices"][-1]
        return {"type": "plague", "at": [x, y], "spot": spot}
    if state["phase"] == "place_tile":
        x, y, rotation = state["legal_placements"][turn % len(state["legal_placements"])]
        return {"type": "place_tile", "at": [x, y], "rotation": rotation}
    spots = state["legal_spots"]
    crowns = [s for s in spots if s.startswith("crown:")]
    land = [s for s in spots if not s.startswith(("crown:", "field:"))]
    if crowns and turn % 3 == 0:
        return {"type": "place_follower", "spot": crowns[turn % len(crowns)]}
    if land and turn % 2 == 0:
        return {"type": "place_follower", "spot": land[0]}
    return {"type": "pass"}


def test_whole_match_with_bots_replays_to_the_same_scores(wof: TestClient) -> None:
    """Two scripted people and two bots (whose moves are random: a bot may hold no follower
    at some Plague, but not both bots at all six Plagues of this deck in practice).
    """
    api = Api(wof)
    match_id, people, _ = api.match(seats=2, bots=2, preset="wheel_of_fortune")
    headers = {0: people[0][2], 1: people[1][2]}
    turn = 0
    bodies: list[str] = []
    deadline = time.monotonic() + 100
    while True:
        r = wof.get(f"/api/matches/{match_id}")
        m = r.json()
        state = m["state"]
        if m["status"] == "finished":
            break  # (a finished match may reveal its shuffle's seed: the fair bag)
        bodies.append(r.text)
        assert time.monotonic() < deadline, "the match did not finish"
        if state["seat"] not in headers:  # the bot's move (its own Plague decisions too)
            time.sleep(0.01)
            continue
        turn += 1
        status, body = _post(
            wof, match_id, headers[state["seat"]], m["version"], _policy(state, turn), f"t{turn}"
        )
        assert status == 200, body
    final = api.get(f"/api/matches/{match_id}")
    record = api.get(f"/api/matches/{match_id}/record")
    replayed, events = replay(record)
    assert replayed.scores == final["state"]["scores"] == record["result"]["scores"]
    assert list(replayed.winners) == final["state"]["winners"] == record["result"]["winners"]
    assert any(isinstance(e, PigMoved) and e.segment == "plague" for e in events)
    plagues = [p for move in record["moves"] for p in move.get("plague", [])]
    assert plagues, "a Plague decision was made"
    assert any(isinstance(e, CrownReturned) for e in events)
    assert any(str(move["follower"]).startswith("crown:") for move in record["moves"])
    batches = api.get(f"/api/matches/{match_id}/events?since=0")["batches"]
    bot_plague = [
        b
        for b in batches
        if b["seat"] >= 2 and b["events"] and b["events"][0]["type"] == "FollowerReturned"
    ]
    # Every Plague decision of a bot seat in the record is a batch the bot made by itself.
    # (Whether a bot holds a follower at some Plague depends on its random moves.)
    by_bots = [p for p in plagues if p["seat"] >= 2]
    assert [(b["seat"], b["events"][0]["at"]) for b in bot_plague] == [
        (p["seat"], p["at"]) for p in by_bots
    ]
    assert all(b["action_id"] is None for b in bot_plague)
    categories = {cat for seat in final["state"]["breakdown"] for cat in seat}
    assert {"crown", "storm"} <= categories
    for text in bodies:
        assert '"seed"' not in text and '"deck"' not in text
