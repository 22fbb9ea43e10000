"""Clocks and leaving through the API, on SQLite and on Postgres + Redis: time controls on
lobbies (and their 422s), the clock in snapshots and frames, a time-out played by the computer
exactly once (also with two instances), handover and take-back, the leave vote's paths, the
live ↔ correspondence switch, refusals that change nothing, and the outage credit.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select, update

from app.api.app import create_app
from app.db.models import instance_heartbeats, matches
from app.db.session import create_engine
from app.services.clock.rules import HANDOVER_AFTER
from tests.match.test_wheel_of_fortune import _play_to, quick_plague  # noqa: F401 - a fixture
from tests.support.app import make_settings
from tests.support.client import Api, place_first, receive
from tests.support.services import run_async
from tests.support.wof import FIRST_PLAGUE, new_wof_game

pytestmark = pytest.mark.timeout(90)

PER_TURN = {"kind": "per_turn", "seconds": 30}


@pytest.fixture
def quick(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> Iterator[TestClient]:
    """An app whose leave grace (0.3 s) and vote (2 s) are short, and which never abandons a
    turn by itself.
    """
    settings = make_settings(
        backend[0],
        backend[1],
        channel_prefix,
        frontend,
        leave_grace=0.3,
        leave_vote=2.0,
        abandon_after=600.0,
    )
    with TestClient(create_app(settings)) as client:
        yield client


def _db(url: str, *statements: Any) -> list[Any]:
    """Run statements on the test database (outside the app), return the last one's rows."""

    async def run() -> list[Any]:
        engine = create_engine(url, 1, 0)
        try:
            async with engine.begin() as conn:
                result = None
                for stmt in statements:
                    result = await conn.execute(stmt)
                return list(result.all()) if result is not None and result.returns_rows else []
        finally:
            await engine.dispose()

    return run_async(run)


def _expire(url: str, match_id: str, seconds: float = 31.0) -> None:
    """Move the running clock ``seconds`` into the past (as if the seat sat on its turn)."""
    clock = _db(url, select(matches.c.clock).where(matches.c.id == match_id))[0][0]
    clock["running"]["since"] -= int(seconds * 1000)
    _db(
        url,
        update(matches)
        .where(matches.c.id == match_id)
        .values(clock=clock, next_bot_at=datetime.now(UTC)),
    )


def _wait(api: Api, match_id: str, until: Any, seconds: float = 20) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        match: dict[str, Any] = api.get(f"/api/matches/{match_id}")
        if until(match) or time.monotonic() > deadline:
            return match
        time.sleep(0.05)


def test_time_controls_on_lobbies_and_422s_naming_the_field(api: Api) -> None:
    _, _, ann = api.player("Ann")
    lobby = api.lobby(ann, time_control={"kind": "fischer", "bank": 300, "increment": 10})
    assert lobby["time_control"] == {"kind": "fischer", "bank": 300, "increment": 10}
    assert lobby["time_label"] == "5 min + 10 s" and "computer plays" in lobby["at_zero"]
    assert api.lobby(ann)["time_label"] == "untimed"
    before = len(api.get("/api/lobbies")["lobbies"])
    for body, field in [
        ({"kind": "per_turn", "seconds": 7}, "time_control.seconds"),
        ({"kind": "sudden"}, "time_control.kind"),
        ({"kind": "correspondence", "days": 4}, "time_control.days"),
    ]:
        r = api.client.post("/api/lobbies", json={"time_control": body}, headers=ann)
        assert r.status_code == 422 and r.json()["error"]["message"].startswith(field), r.text
    assert len(api.get("/api/lobbies")["lobbies"]) == before  # no half-created lobby
    r = api.client.patch(
        f"/api/lobbies/{lobby['code']}",
        headers=ann,
        json={"time_control": {"kind": "per_turn", "seconds": 1}},
    )
    assert r.status_code == 422 and "time_control.seconds" in r.text
    patched = api.client.patch(
        f"/api/lobbies/{lobby['code']}", headers=ann, json={"time_control": PER_TURN}
    ).json()
    assert patched["time_label"] == "30 s per turn"


def test_the_clock_in_snapshot_and_frames(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match(time_control={"kind": "fischer", "bank": 60, "increment": 5})
    match = api.get(f"/api/matches/{match_id}")
    clock = match["clock"]
    assert clock["running"] == 0 and clock["label"] == "1 min + 5 s"
    assert 55_000 < clock["remaining"][0] <= 60_000 and clock["remaining"][1] == 60_000
    assert abs(clock["server_now"] - time.time() * 1000) < 5_000
    assert clock["deadline"] > clock["server_now"]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={people[0][1]}") as ws:
        snap = receive(ws)
        assert snap["d"]["clock"]["running"] == 0
        x, y, r = snap["d"]["state"]["legal_placements"][0]
        ws.send_text(
            json.dumps(
                {
                    "t": "action",
                    "v": 0,
                    "id": "a",
                    "d": {"type": "place_tile", "at": [x, y], "rotation": r},
                }
            )
        )
        assert receive(ws)["d"]["clock"]["running"] == 0
        ws.send_text(json.dumps({"t": "action", "v": 1, "id": "b", "d": {"type": "pass"}}))
        frame = receive(ws)
        assert frame["d"]["clock"]["running"] == 1
        assert frame["d"]["clock"]["remaining"][0] > 60_000  # the increment was added
        assert "by" not in frame["d"]


def test_a_timeout_is_played_by_the_computer_once_and_marked(
    api: Api, client: TestClient, backend: tuple[str, str | None]
) -> None:
    match_id, _, _ = api.match(time_control=PER_TURN)
    _expire(backend[0], match_id)
    match = _wait(api, match_id, lambda m: m["version"] >= 2 and m["clock"]["running"] == 1)
    assert match["version"] == 2 and match["clock"]["timeouts"] == [1, 0]
    batches = api.get(f"/api/matches/{match_id}/events?since=0")["batches"]
    assert [(b["seat"], b["by"]) for b in batches] == [(0, "computer"), (0, "computer")]
    record = api.get(f"/api/matches/{match_id}/record")
    assert record["moves"][0]["by"] == "computer"
    time.sleep(1.0)  # the sweep keeps running: nothing fires twice, Ben's clock is fresh
    match = api.get(f"/api/matches/{match_id}")
    assert match["version"] == 2 and match["clock"]["remaining"][1] > 25_000


def test_repeated_timeouts_hand_the_seat_over_and_its_player_takes_it_back(
    api: Api, client: TestClient, backend: tuple[str, str | None]
) -> None:
    match_id, people, _ = api.match(time_control=PER_TURN)
    ben = people[1][2]
    for turn in range(HANDOVER_AFTER):
        seat = 0
        match = api.get(f"/api/matches/{match_id}")
        assert match["clock"]["running"] == seat
        _expire(backend[0], match_id)
        match = _wait(api, match_id, lambda m: m["clock"]["running"] == 1)
        # Ben plays his turn himself.
        v = match["version"]
        x, y, r = match["state"]["legal_placements"][0]
        api.post(
            f"/api/matches/{match_id}/actions",
            ben,
            v=v,
            d={"type": "place_tile", "at": [x, y], "rotation": r},
        )
        api.post(f"/api/matches/{match_id}/actions", ben, v=v + 1, d={"type": "pass"})
        if turn < HANDOVER_AFTER - 1:
            assert api.get(f"/api/matches/{match_id}")["clock"]["auto"] == [False, False]
    match = _wait(api, match_id, lambda m: m["clock"]["running"] == 1)
    assert match["clock"]["auto"] == [True, False]  # the computer played Ann's turn at once
    api.post(f"/api/matches/{match_id}/take-back", people[1][2], status=409)  # not Ben's
    clock = api.post(f"/api/matches/{match_id}/take-back", people[0][2])
    assert clock["auto"] == [False, False] and clock["timeouts"] == [0, 0]


def test_leave_vote_end_now_scores_the_position_and_marks_it(quick: TestClient) -> None:
    api = Api(quick)
    match_id, people, _ = api.match(seats=3)
    (_, ann_t, ann), (_, ben_t, ben), (_, cat_t, cat) = people
    outsider = api.player("Zed")[2]
    other_match, _, _ = api.match()
    with (
        quick.websocket_connect(f"/ws/matches/{match_id}?token={ann_t}") as wa,
        quick.websocket_connect(f"/ws/matches/{match_id}?token={ben_t}") as wb,
    ):
        receive(wa), receive(wb)
        with quick.websocket_connect(f"/ws/matches/{match_id}?token={cat_t}") as wc:
            receive(wc)
        # Cat's sockets are gone: everyone sees her countdown at once.
        while True:
            frame = json.loads(wa.receive_text())
            if frame["t"] == "clock" and "2" in frame["d"]["away"]:
                break
        assert frame["d"]["away"]["2"]["until"] - frame["d"]["server_now"] <= 300
        match = _wait(api, match_id, lambda m: m["clock"]["vote"] is not None)
        assert match["clock"]["vote"]["seat"] == 2
        # Refusals change nothing: a spectator, an outsider, the leaver, the wrong match.
        with quick.websocket_connect(f"/ws/matches/{match_id}") as spectator:
            receive(spectator)
            spectator.send_text(json.dumps({"t": "vote", "d": {"choice": "end"}}))
            assert receive(spectator)["d"]["code"] == "not_seated"
        api.post(f"/api/matches/{match_id}/vote", outsider, status=403, choice="end")
        assert (
            api.post(f"/api/matches/{match_id}/vote", cat, status=403, choice="end")["error"][
                "code"
            ]
            == "not_a_voter"
        )
        assert (
            api.post(f"/api/matches/{other_match}/vote", ann, status=403, choice="end")["error"][
                "code"
            ]
            == "not_seated"
        )
        api.post(f"/api/matches/{match_id}/vote", ann, status=422, choice="maybe")
        assert api.get(f"/api/matches/{match_id}")["clock"]["vote"]["ballots"] == {}
        # Ann and Ben: end now.
        wa.send_text(json.dumps({"t": "vote", "d": {"choice": "end"}}))
        api.post(f"/api/matches/{match_id}/vote", ben, choice="end")
        match = _wait(api, match_id, lambda m: m["status"] == "finished")
    assert match["status"] == "finished" and match["clock"]["ended_early"]
    assert match["state"]["phase"] == "game_over"
    record = api.get(f"/api/matches/{match_id}/record")
    assert (
        record["finished"] is False and record["ended_early"]["scores"] == match["state"]["scores"]
    )


def test_leave_vote_default_hands_to_computer_and_wait_restarts(quick: TestClient) -> None:
    api = Api(quick)
    match_id, people, _ = api.match(seats=2)
    (_, ann_t, ann), (_, ben_t, _) = people
    with quick.websocket_connect(f"/ws/matches/{match_id}?token={ann_t}") as wa:
        receive(wa)
        with quick.websocket_connect(f"/ws/matches/{match_id}?token={ben_t}") as wb:
            receive(wb)
        _wait(api, match_id, lambda m: m["clock"]["vote"] is not None)
        clock = api.post(f"/api/matches/{match_id}/vote", ann, choice="wait")
        assert clock["vote"] is None and "1" in clock["away"]  # a new countdown
        match = _wait(api, match_id, lambda m: m["clock"]["vote"] is not None)
        assert match["clock"]["vote"]["ballots"] == {}
        # Nobody answers this time: the computer takes Ben's seat when the vote runs out.
        match = _wait(api, match_id, lambda m: m["clock"]["auto"][1], seconds=20)
    assert match["clock"]["auto"] == [False, True] and match["clock"]["vote"] is None


def test_switch_to_correspondence_needs_every_human(api: Api) -> None:
    match_id, people, _ = api.match(seats=2, bots=1, time_control=PER_TURN)
    ann, ben = people[0][2], people[1][2]
    outsider = api.player("Zed")[2]
    assert (
        api.post(f"/api/matches/{match_id}/switch", ann, status=409, accept=True)["error"]["code"]
        == "no_proposal_open"
    )
    clock = api.post(f"/api/matches/{match_id}/switch", ann, accept=False)
    assert clock["proposal"]["to"] == "correspondence" and clock["proposal"]["accepted"] == [0]
    api.post(f"/api/matches/{match_id}/switch", outsider, status=403, accept=True)
    assert not api.get(f"/api/matches/{match_id}")["clock"]["correspondence"]
    clock = api.post(f"/api/matches/{match_id}/switch", ben, accept=True)
    assert clock["correspondence"] and clock["label"] == "1 day per move"
    assert clock["deadline"] - clock["server_now"] > 86_000_000
    api.post(f"/api/matches/{match_id}/switch", ben, accept=False)
    clock = api.post(f"/api/matches/{match_id}/switch", ann, accept=True)
    assert clock["label"] == "30 s per turn" and not clock["can_switch_back"]


def test_a_restart_costs_nobody_time(
    backend: tuple[str, str | None], channel_prefix: str, frontend: Path
) -> None:
    settings = make_settings(backend[0], backend[1], channel_prefix, frontend)
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        match_id, _, _ = api.match(time_control=PER_TURN)
        before = api.get(f"/api/matches/{match_id}")["clock"]
    # Nobody serves for 60 s (the instance's heartbeats stop; the clock keeps running).
    _db(
        backend[0],
        update(instance_heartbeats).values(beat_at=datetime.now(UTC) - timedelta(seconds=60)),
    )
    clock = _db(backend[0], select(matches.c.clock).where(matches.c.id == match_id))[0][0]
    clock["running"]["since"] -= 60_000
    _db(backend[0], update(matches).where(matches.c.id == match_id).values(clock=clock))
    with TestClient(create_app(settings)) as client:
        api = Api(client)
        after = _wait(
            api,
            match_id,
            lambda m: m["clock"]["remaining"][0] >= before["remaining"][0] - 5_000,
            seconds=10,
        )["clock"]
    assert after["remaining"][0] >= before["remaining"][0] - 5_000  # the outage was credited
    assert after["running"] == 0 and after["timeouts"] == [0, 0]


@pytest.mark.postgres
@pytest.mark.redis
def test_a_timeout_fires_once_with_two_instances(
    postgres_url: str, redis_url: str, channel_prefix: str, frontend: Path
) -> None:
    settings = make_settings(
        postgres_url, redis_url, channel_prefix, frontend, bot_poll_interval=0.01
    )
    with TestClient(create_app(settings)) as one, TestClient(create_app(settings)) as two:
        api, other = Api(one), Api(two)
        ids = [api.match(time_control=PER_TURN)[0] for _ in range(4)]
        for match_id in ids:
            _expire(postgres_url, match_id)
        for match_id in ids:
            _wait(other, match_id, lambda m: m["clock"]["running"] == 1)
        time.sleep(0.5)
        for match_id in ids:
            match = other.get(f"/api/matches/{match_id}")
            assert match["version"] == 2 and match["clock"]["timeouts"] == [1, 0]
            batches = api.get(f"/api/matches/{match_id}/events?since=0")["batches"]
            assert [(b["v"], b["seat"], b["by"]) for b in batches] == [
                (1, 0, "computer"),
                (2, 0, "computer"),
            ]


def test_a_correspondence_match_from_the_start_has_no_live_clock_to_switch_to(api: Api) -> None:
    match_id, people, _ = api.match(time_control={"kind": "correspondence", "days": 2})
    refused = api.post(f"/api/matches/{match_id}/switch", people[0][2], status=409, accept=False)
    assert refused["error"]["code"] == "conflict"
    clock = api.get(f"/api/matches/{match_id}")["clock"]
    assert clock["proposal"] is None and clock["label"] == "2 days per move"


def test_a_computer_plague_choice_is_marked_on_its_removal_not_on_the_move_before(
    quick_plague: TestClient,  # noqa: F811 - the fixture imported above
) -> None:
    api = Api(quick_plague)
    match_id, people, _ = api.match(seats=2, preset="wheel_of_fortune")
    ann = people[0][2]
    v = _play_to(quick_plague, match_id, people, new_wof_game(), FIRST_PLAGUE)
    # Nobody answers the Plague: the computer decides for Ann, then for Ben.
    match = _wait(api, match_id, lambda m: m["version"] >= v + 2)
    assert match["version"] == v + 2 and match["state"]["phase"] == "place_tile"
    batches = api.get(f"/api/matches/{match_id}/events?since=0")["batches"]
    assert [b["by"] for b in batches] == [None] * v + ["computer", "computer"]
    # Ann places the Plague tile herself: its move entry now appears in the record.
    state = match["state"]
    api.post(f"/api/matches/{match_id}/actions", ann, v=v + 2, d=place_first(state))
    api.post(f"/api/matches/{match_id}/actions", ann, v=v + 3, d={"type": "pass"})
    moves = api.get(f"/api/matches/{match_id}/record")["moves"]
    plague_move = moves[-1]
    assert [r["seat"] for r in plague_move["plague"]] == [0, 1]
    assert [r.get("by") for r in plague_move["plague"]] == ["computer", "computer"]
    assert not any("by" in m for m in moves)  # every tile was placed by its own player
