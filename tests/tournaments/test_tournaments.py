"""Tournaments over REST on both backends: create, register, check in, no-shows dropped at the
start, a Swiss played out by computer entrants (pairings without rematch, one bye each at most,
results counted once), standings with tie-breaks and their export, the organiser's tools and
bad input.
"""

from __future__ import annotations

import json
import time
from datetime import UTC, datetime, timedelta
from itertools import combinations
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import update

from app.db.tournaments import tournaments
from app.engine import replay
from app.services.runtime import Runtime
from app.services.tournaments import rounds
from tests.support.client import Api

pytestmark = pytest.mark.timeout(300)


@pytest.fixture
def settings(backend: tuple[str, str | None], channel_prefix: str, frontend: Any) -> Any:
    """Fast computers: a whole game takes a moment."""
    from tests.support.app import make_settings

    return make_settings(backend[0], backend[1], channel_prefix, frontend, bot_think=0.0)


def _pairing(data: dict[str, Any], game_id: int) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in data["pairings"] if p["id"] == game_id)
    return found


def _wait(api: Api, tid: str, done: Any, seconds: float = 240) -> dict[str, Any]:
    deadline = time.monotonic() + seconds
    while True:
        data: dict[str, Any] = api.get(f"/api/tournaments/{tid}")
        if done(data) or time.monotonic() > deadline:
            return data
        time.sleep(0.2)


DAY_MS = 24 * 3600 * 1000


def _wait_clock(api: Api, match_id: str, headers: dict[str, str], ok: Any) -> int:
    """Milliseconds from the server's now to the match's running deadline, once ``ok`` of it
    holds (or after 15 s).
    """
    deadline = time.monotonic() + 15
    while True:
        clock = api.get(f"/api/matches/{match_id}", headers)["clock"]
        left = int(clock["deadline"] - clock["server_now"]) if clock["deadline"] else -1
        if ok(left) or time.monotonic() > deadline:
            return left
        time.sleep(0.2)


@pytest.mark.slow  # a tournament of computers played out: not for test-fast
def test_swiss_of_computers_plays_out(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, _, late = api.player("Late")
    created = api.post("/api/tournaments", host, 201, name="Autumn Swiss", format="swiss", rounds=3)
    tid = created["id"]
    assert created["status"] == "registering" and created["is_host"]
    listed = api.get("/api/tournaments")
    assert any(t["id"] == tid for t in listed)
    for _ in range(5):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    joined = api.post(f"/api/tournaments/{tid}/entrants", late)
    assert joined["me"]["status"] == "registered"
    # Not checked in: a no-show, dropped at the start.
    started = api.post(f"/api/tournaments/{tid}/start", host)
    assert started["status"] == "running" and started["round"] == 1
    assert started["me"] is None
    statuses = {e["name"]: e["status"] for e in started["entrants"]}
    assert statuses["Late"] == "dropped"
    round_one = [p for p in started["pairings"] if p["round"] == 1]
    assert sorted(len(p["entrants"]) for p in round_one) == [1, 2, 2]
    # Registration is closed; a second start changes nothing.
    api.post(f"/api/tournaments/{tid}/entrants", late, 409)
    api.post(f"/api/tournaments/{tid}/start", host, 409)

    data = _wait(api, tid, lambda d: d["status"] == "finished")
    assert data["status"] == "finished", data
    pairings = data["pairings"]
    assert {p["round"] for p in pairings} == {1, 2, 3}
    games = [frozenset(p["entrants"]) for p in pairings if len(p["entrants"]) == 2]
    assert len(games) == len(set(games)) == 6
    byes = [p["entrants"][0] for p in pairings if len(p["entrants"]) == 1]
    assert len(byes) == len(set(byes)) == 3
    assert all(p["points"] is not None for p in pairings)
    assert all(p["source"] == "played" for p in pairings if len(p["entrants"]) == 2)
    # Every round seats each of the five once.
    for r in (1, 2, 3):
        seated = [n for p in pairings if p["round"] == r for n in p["entrants"]]
        assert sorted(seated) == sorted(e["number"] for e in data["entrants"] if e["bot"])
    lines = data["standings"]
    total = sum(line["points"] for line in lines)
    assert total == 6 + 3  # one point per game, one per bye
    keys = [(-s["points"], -s["buchholz"], -s["sonneborn_berger"], -s["wins"]) for s in lines]
    assert keys == sorted(keys)
    # A result is counted once: the sweep on a finished tournament changes nothing.
    rt: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    assert client.portal.call(rounds.advance, rt, tid) is False  # type: ignore[union-attr]

    csv_text = client.get(f"/api/tournaments/{tid}/standings?format=csv").text
    assert csv_text.splitlines()[0].startswith("rank,number,name,points,buchholz")
    assert len(csv_text.strip().splitlines()) == 1 + len(lines)
    exported = api.get(f"/api/tournaments/{tid}/standings")
    assert exported["standings"] == lines

    # Every played game's record, in playing order, naming its round and table; each replays
    # to the scores the tournament counted.
    answer = client.get(f"/api/export/tournaments/{tid}/matches", headers=host)
    assert answer.status_code == 200 and answer.headers["content-type"].startswith(
        "application/x-ndjson"
    )
    records = [json.loads(line) for line in answer.text.splitlines()]
    played = [p for p in pairings if len(p["entrants"]) == 2]
    assert len(records) == len(played) == 6
    order = [(r["tournament"]["round"], r["tournament"]["table"]) for r in records]
    assert order == sorted(order) and {r["tournament"]["id"] for r in records} == {tid}
    by_match = {p["match_id"]: p for p in played}
    for record in records:
        state, _ = replay(record)
        assert list(state.scores) == record["result"]["scores"]
        assert by_match[record["match"]["id"]]["scores"] == record["result"]["scores"]
    assert (
        len(
            client.get(
                f"/api/export/tournaments/{tid}/matches?max=2", headers=host
            ).text.splitlines()
        )
        == 2
    )
    client_404 = client.get("/api/export/tournaments/nosuchtournament/matches", headers=host)
    assert client_404.status_code == 404


def test_a_players_tournaments_on_their_profile(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    ann, _, ann_h = api.player("Ann")
    _, _, ben_h = api.player("Ben")
    public = api.post("/api/tournaments", host, 201, name="Open", rounds=1)["id"]
    hidden = api.post("/api/tournaments", host, 201, name="Club", rounds=1, private=True)["id"]
    for tid in (public, hidden):
        api.post(f"/api/tournaments/{tid}/entrants", ann_h)
    api.post(f"/api/tournaments/{public}/check-in", ann_h)
    api.post(f"/api/tournaments/{public}/computers", host, level="easy")
    api.post(f"/api/tournaments/{public}/start", host)
    own = api.get(f"/api/players/{ann}/tournaments", ann_h)
    assert [e["id"] for e in own] == [hidden, public]
    assert own[1]["status"] == "running" and own[1]["entry"] == "checked_in"
    assert own[1]["rank"] in (1, 2) and own[1]["entrants"] == 2
    # Another reader sees only the public one.
    assert [e["id"] for e in api.get(f"/api/players/{ann}/tournaments", ben_h)] == [public]


@pytest.mark.slow  # a tournament of computers played out: not for test-fast
def test_round_robin_with_a_person_and_organiser_tools(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    ann, _, ann_h = api.player("Ann")
    created = api.post(
        "/api/tournaments",
        host,
        201,
        name="League",
        format="round_robin",
        time_control={"kind": "fischer", "bank": 600, "increment": 5},
    )
    tid = created["id"]
    for _ in range(2):
        api.post(f"/api/tournaments/{tid}/computers", host)
    api.post(f"/api/tournaments/{tid}/entrants", ann_h)
    number = api.post(f"/api/tournaments/{tid}/check-in", ann_h)["me"]["number"]
    assert number == 3
    # Only the organiser starts, pauses and adjudicates.
    api.post(f"/api/tournaments/{tid}/start", ann_h, 403)
    started = api.post(f"/api/tournaments/{tid}/start", host)
    assert started["rounds"] == 3  # three entrants: three rounds, one bye each
    # Berger round 1 of three: 2 meets 3, 1 has the bye.
    mine = next(p for p in started["pairings"] if number in p["entrants"])
    assert sorted(mine["entrants"]) == [2, 3]
    paused = api.post(f"/api/tournaments/{tid}/pause", host, paused=True)
    assert paused["paused"] is True
    api.post(f"/api/tournaments/{tid}/pause", ann_h, 403, paused=False)
    match = api.get(f"/api/matches/{mine['match_id']}", ann_h)
    assert match["you"] == 1 and match["seats"][1]["name"] == "Ann"
    # Held: the running deadline is days away (a turn begun since is held by the sweep).
    held = _wait_clock(api, mine["match_id"], ann_h, lambda left: left > 20 * DAY_MS)
    assert held > 20 * DAY_MS
    resumed = api.post(f"/api/tournaments/{tid}/pause", host, paused=False)
    assert resumed["paused"] is False
    # Released: Ann's bank (10 min) runs again, none of the pause charged.
    left = _wait_clock(api, mine["match_id"], ann_h, lambda left: left <= 605_000)
    assert 0 < left <= 605_000
    api.post(
        f"/api/tournaments/{tid}/games/{mine['id']}/result",
        ann_h,
        403,
        places=[1, 2],
        reason="no",
    )
    api.post(
        f"/api/tournaments/{tid}/games/{mine['id']}/result",
        host,
        422,
        places=[1, 2],
        reason=" ",
    )
    decided = api.post(
        f"/api/tournaments/{tid}/games/{mine['id']}/result",
        host,
        places=[2, 1],
        reason="Ann's connection failed; agreed by both",
    )
    game = next(p for p in decided["pairings"] if p["id"] == mine["id"])
    assert game["source"] == "adjudicated" and game["points"] == [0.0, 1.0]
    assert game["reason"].startswith("Ann's connection")
    # The match is ended early; the result stays the organiser's.
    ended = _wait(api, tid, lambda d: _pairing(d, mine["id"])["match_status"] == "finished")
    assert _pairing(ended, mine["id"])["points"] == [0.0, 1.0]
    assert _pairing(ended, mine["id"])["source"] == "adjudicated"
    api.post(f"/api/tournaments/{tid}/withdraw", ann_h)
    data = _wait(api, tid, lambda d: d["status"] == "finished")
    assert data["status"] == "finished", data
    pairs = [frozenset(p["entrants"]) for p in data["pairings"] if len(p["entrants"]) == 2]
    numbers = [e["number"] for e in data["entrants"]]
    assert sorted(pairs, key=sorted) == sorted(
        (frozenset(c) for c in combinations(numbers, 2)), key=sorted
    )
    # Ann withdrew: her games not yet played are forfeits she loses.
    forfeits = [p for p in data["pairings"] if p["source"] == "forfeit"]
    assert forfeits and all(p["points"][p["entrants"].index(number)] == 0.0 for p in forfeits)


def test_bad_input_is_refused(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    api.post("/api/tournaments", host, 422, name="X", format="ladder")
    api.post("/api/tournaments", host, 422, name="X", format="swiss")  # no rounds
    api.post("/api/tournaments", host, 422, name="X", rounds=3, preset="nope")
    api.post("/api/tournaments", None, 401, name="X", rounds=3)
    api.get("/api/tournaments/0123456789ab", status=404)
    api.get("/api/tournaments/not-an-id", status=422)
    tid = api.post("/api/tournaments", host, 201, name="Tiny", rounds=1)["id"]
    api.post(f"/api/tournaments/{tid}/start", host, 409)  # nobody checked in
    api.post(f"/api/tournaments/{tid}/check-in", host, 404)  # not registered
    api.post(f"/api/tournaments/{tid}/computers", host, 422, level="godlike")
    api.post(f"/api/tournaments/{tid}/pause", host, 409, paused=True)


def test_live_socket_sends_the_tournament_and_its_changes(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, token, ann_h = api.player("Ann")
    tid = api.post("/api/tournaments", host, 201, name="Live", rounds=1)["id"]
    with client.websocket_connect(f"/ws/tournaments/{tid}?token={token}") as ws:
        first = ws.receive_json()
        assert first["t"] == "tournament" and first["d"]["id"] == tid and first["d"]["me"] is None
        api.post(f"/api/tournaments/{tid}/entrants", ann_h)
        changed = ws.receive_json()
        assert changed["v"] > first["v"]
        assert changed["d"]["me"]["status"] == "registered"
        ws.send_json({"t": "ping"})
        assert ws.receive_json()["t"] in ("pong", "tournament")
    with client.websocket_connect("/ws/tournaments/0123456789ab") as ws:
        refused = ws.receive_json()
        assert refused["t"] == "error" and refused["d"]["code"] == "not_found"


#: How long the tests' arenas run: the shortest one a host can make (a minute) is cut to this
#: once started, long enough for a second wave of tables.
ARENA_SECONDS = 20


def _end_arena_in(client: TestClient, tid: str, seconds: float) -> None:
    """Move a running arena's end to ``seconds`` from now (what a minute's wait would do)."""
    rt = client.app.state.runtime  # type: ignore[attr-defined]

    async def run() -> None:
        async with rt.storage.db.transaction() as conn:
            await conn.execute(
                update(tournaments)
                .where(tournaments.c.id == tid)
                .values(ends_at=datetime.now(UTC) + timedelta(seconds=seconds))
            )

    client.portal.call(run)  # type: ignore[union-attr]


# An arena on the embedded backend only: Postgres plays arenas (on two instances) in
# tests/tournaments/test_tournaments_processes.py::test_arena_of_eight_on_two_instances.
@pytest.mark.slow  # a tournament of computers played out: not for test-fast
@pytest.mark.parametrize("backend", ["sqlite"], indirect=True)
def test_arena_of_computers_in_pods_of_three(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    created = api.post(
        "/api/tournaments", host, 201, name="Arena", format="arena", seats=3, duration_minutes=1
    )
    tid = created["id"]
    assert created["seats"] == 3 and created["duration_minutes"] == 1
    for _ in range(6):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    started = api.post(f"/api/tournaments/{tid}/start", host)
    assert started["ends_at"] is not None
    assert sorted(len(p["entrants"]) for p in started["pairings"]) == [3, 3]
    _end_arena_in(client, tid, ARENA_SECONDS)
    data = _wait(api, tid, lambda d: d["status"] == "finished", seconds=200)
    assert data["status"] == "finished", data
    pairings = data["pairings"]
    assert all(len(p["entrants"]) == 3 and p["points"] is not None for p in pairings)
    # Nobody sits at two tables at once: within a wave every entrant appears once.
    for wave in {p["round"] for p in pairings}:
        seated = [n for p in pairings if p["round"] == wave for n in p["entrants"]]
        assert len(seated) == len(set(seated))
    # Placement points (2, 1, 0 at three seats; ties share), then the total score.
    assert sum(s["points"] for s in data["standings"]) == 3 * len(pairings)
    keys = [(-s["points"], -s["score_total"]) for s in data["standings"]]
    assert keys == sorted(keys)
    api.post("/api/tournaments", host, 422, name="X", format="arena", seats=3)  # no duration
    api.post("/api/tournaments", host, 422, name="X", format="swiss", rounds=2, seats=3)


@pytest.mark.slow  # a tournament of computers played out: not for test-fast
def test_late_joiners_enter_a_running_swiss_not_a_round_robin(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, _, zoe_h = api.player("Zoe")
    tid = api.post("/api/tournaments", host, 201, name="Late Swiss", rounds=2)["id"]
    for _ in range(4):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    api.post(f"/api/tournaments/{tid}/start", host)
    joined = api.post(f"/api/tournaments/{tid}/entrants", zoe_h)
    zoe = joined["me"]["number"]
    assert joined["me"]["status"] == "checked_in" and zoe == 5
    assert all(zoe not in p["entrants"] for p in joined["pairings"])
    data = _wait(api, tid, lambda d: d["round"] == 2)
    assert any(zoe in p["entrants"] for p in data["pairings"] if p["round"] == 2)

    rr = api.post("/api/tournaments", host, 201, name="League", format="round_robin")["id"]
    for _ in range(2):
        api.post(f"/api/tournaments/{rr}/computers", host, level="easy")
    api.post(f"/api/tournaments/{rr}/start", host)
    api.post(f"/api/tournaments/{rr}/entrants", zoe_h, 409)


def test_a_dropped_player_cannot_withdraw_to_come_back(client: TestClient, api: Api) -> None:
    """A no-show of a Swiss is dropped at the start; before, withdrawing turned the entry into
    a withdrawn one, and registering again then joined late as if never dropped.
    """
    _, _, host = api.player("Org")
    _, _, ann = api.player("Ann")
    tid = api.post("/api/tournaments", host, 201, name="Drop", rounds=3)["id"]
    api.post(f"/api/tournaments/{tid}/entrants", ann)  # registered, never checked in
    for _ in range(2):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    api.post(f"/api/tournaments/{tid}/start", host)
    refused = api.post(f"/api/tournaments/{tid}/withdraw", ann, 409)
    assert refused["error"]["reason"] == "tournament_dropped"
    again = api.post(f"/api/tournaments/{tid}/entrants", ann, 409)
    assert again["error"]["reason"] == "tournament_dropped"
    entry = {e["name"]: e["status"] for e in api.get(f"/api/tournaments/{tid}")["entrants"]}
    assert entry["Ann"] == "dropped"
