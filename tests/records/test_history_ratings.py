"""Rated lobbies, history and ratings on both backends: who may sit at a rated table, a whole
rated match from start to rating change (values checked against ``openskill`` called
directly), ties and leavers for 2–5 players, profile, paginated history, leaderboard, the
replay steps, the zip of one's records and the shuffle check of a played match; a rated
table's match where a seat did not make its own moves ends unrated; a private match's rating
changes need its code.
"""

from __future__ import annotations

import asyncio
import io
import json
import random
import secrets
import zipfile
from typing import Any

import pytest
from fastapi.testclient import TestClient
from openskill.models import PlackettLuce
from sqlalchemy import insert, update

from app.db.community import match_players
from app.db.models import match_actions, matches
from app.services.records import history
from app.services.runtime import Runtime
from tests.support.client import Api

pytestmark = pytest.mark.timeout(240)
PASSWORD = "correct horse battery"


def _account(client: TestClient, stem: str) -> tuple[str, dict[str, str]]:
    r = client.post(
        "/api/accounts", json={"username": f"{stem}{secrets.token_hex(3)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    body = r.json()
    return body["account"]["id"], {"Authorization": f"Bearer {body['token']}"}


def _rated_match(
    api: Api, client: TestClient, n: int, preset: str = "standard"
) -> tuple[str, list[tuple[str, dict[str, str]]]]:
    people = [_account(client, f"R{i}") for i in range(n)]
    lobby = api.lobby(people[0][1], seats=n, rated=True, preset=preset)
    assert lobby["rated"] is True
    for _, h in people[1:]:
        api.post(f"/api/lobbies/{lobby['code']}/join", h)
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", people[0][1])["match_id"]
    return match_id, people


def _run(client: TestClient, fn: Any) -> Any:
    return client.portal.call(fn)  # type: ignore[union-attr]


def _finish_with(
    client: TestClient,
    match_id: str,
    scores: list[int],
    left: tuple[int, ...] = (),
    moves: dict[int, tuple[int, int]] | None = None,
) -> None:
    """Pretend the match ended with ``scores`` (seats in ``left`` were played by the server)
    and settle it as the match-end hook does. ``moves``: ``{seat: (own, by the computer)}``
    moves written to the log (default: three own moves per seat).
    """
    _end(client, match_id, scores, left, moves)
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    _run(client, lambda: history.settle(runtime, match_id))


def _end(
    client: TestClient,
    match_id: str,
    scores: list[int],
    left: tuple[int, ...] = (),
    moves: dict[int, tuple[int, int]] | None = None,
) -> None:
    """Write the end of :func:`_finish_with` (its moves, scores and leavers), unsettled."""
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    counts = moves if moves is not None else {seat: (3, 0) for seat in range(len(scores))}
    log = [
        (seat, by)
        for seat, (own, computer) in sorted(counts.items())
        for by in [None] * own + ["computer"] * computer
    ]

    async def go() -> None:
        async with runtime.storage.db.transaction() as conn:
            for seq, (seat, by) in enumerate(log, start=1):
                await conn.execute(
                    insert(match_actions).values(
                        match_id=match_id,
                        seq=seq,
                        seat=seat,
                        action='{"type": "pass"}',
                        events="[]",
                        by=by,
                        published=True,
                    )
                )
            await conn.execute(
                update(matches)
                .where(matches.c.id == match_id)
                .values(status="finished", scores=scores)
            )
            for seat in left:
                await conn.execute(
                    update(match_players)
                    .where(match_players.c.match_id == match_id, match_players.c.seat == seat)
                    .values(left=True)
                )

    _run(client, go)


def test_who_may_sit_at_a_rated_table(api: Api, client: TestClient) -> None:
    host, h = _account(client, "Host")
    _, _, guest_h = api.player("Guest")
    # Custom rules cannot be rated; a guest cannot create or join one; no computers.
    r = client.post(
        "/api/lobbies",
        headers=h,
        json={
            "rated": True,
            "rules": {"tileset": "base", "river": True, "farm_scoring": "original"},
        },
    )
    assert r.status_code == 422 and "rated" in r.json()["error"]["message"]
    assert client.post("/api/lobbies", headers=guest_h, json={"rated": True}).status_code == 409
    lobby = api.lobby(h, seats=3, rated=True)
    code = lobby["code"]
    assert client.post(f"/api/lobbies/{code}/join", headers=guest_h).status_code == 409
    assert client.post(f"/api/lobbies/{code}/bots", headers=h).status_code == 409
    assert (
        client.patch(
            f"/api/lobbies/{code}",
            headers=h,
            json={"rules": {"tileset": "base", "river": True, "small_city_two_points": True}},
        ).status_code
        == 422
    )
    after = api.get(f"/api/lobbies/{code}")
    assert [s["player"] for s in after["seats"]] == [host, None, None]
    assert after["version"] == lobby["version"]


@pytest.mark.parametrize(
    "scores, left, places",
    [
        ([30, 20], (), [1, 2]),
        ([12, 12], (), [1, 1]),
        ([40, 40, 10], (), [1, 1, 3]),
        ([5, 50, 50, 5], (), [3, 1, 1, 3]),
        ([10, 20, 30, 40, 50], (), [5, 4, 3, 2, 1]),
        ([90, 20, 30], (0,), [3, 2, 1]),
        ([90, 20, 30, 30], (0, 1), [3, 3, 1, 1]),
    ],
)
def test_rating_updates_match_the_library(
    api: Api, client: TestClient, scores: list[int], left: tuple[int, ...], places: list[int]
) -> None:
    match_id, people = _rated_match(api, client, len(scores))
    _finish_with(client, match_id, scores, left)
    model = PlackettLuce()
    want = model.rate([[model.rating()] for _ in scores], ranks=[float(p) for p in places])
    for seat, (pid, _) in enumerate(people):
        page = api.get(f"/api/players/{pid}/profile")
        rating = page["ratings"]["standard"]
        assert rating["mu"] == pytest.approx(want[seat][0].mu, abs=1e-9)
        assert rating["sigma"] == pytest.approx(want[seat][0].sigma, abs=1e-9)
        assert rating["games"] == 1
        assert rating["rating"] == round(want[seat][0].ordinal(alpha=40, target=1000))
        entry = page["recent"][0]
        assert entry["id"] == match_id and entry["place"] == places[seat]
        assert entry["left"] == (seat in left)
        assert entry["rating_change"]["after"] == rating["rating"]
    # Settling again changes nothing.
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    assert _run(client, lambda: history.settle(runtime, match_id)) is False
    changes = api.get(f"/api/matches/{match_id}/ratings")["changes"]
    assert [c["seat"] for c in changes] == list(range(len(scores)))


def test_second_match_uses_the_stored_ratings(api: Api, client: TestClient) -> None:
    match_id, people = _rated_match(api, client, 2)
    _finish_with(client, match_id, [10, 5])
    lobby = api.lobby(people[0][1], seats=2, rated=True)
    api.post(f"/api/lobbies/{lobby['code']}/join", people[1][1])
    second = api.post(f"/api/lobbies/{lobby['code']}/start", people[0][1])["match_id"]
    _finish_with(client, second, [3, 9])
    model = PlackettLuce()
    a, b = model.rate([[model.rating()], [model.rating()]], ranks=[1.0, 2.0])
    a, b = model.rate([a, b], ranks=[2.0, 1.0])
    got = [api.get(f"/api/players/{pid}/profile")["ratings"]["standard"] for pid, _ in people]
    assert got[0]["mu"] == pytest.approx(a[0].mu) and got[1]["mu"] == pytest.approx(b[0].mu)
    assert got[0]["games"] == got[1]["games"] == 2
    board = api.get("/api/leaderboard/standard?per_page=100")
    ids = [p["id"] for p in board["players"]]
    assert people[0][0] in ids and people[1][0] in ids
    ratings_seen = [p["rating"] for p in board["players"]]
    assert ratings_seen == sorted(ratings_seen, reverse=True)
    both = api.get(f"/api/ratings?preset=standard&players={people[0][0]},{people[1][0]}")
    assert set(both["ratings"]) == {people[0][0], people[1][0]}
    assert client.get("/api/leaderboard/nope").status_code == 404


def _choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if state["phase"] == "place_tile":
        x, y, rotation = rng.choice(state["legal_placements"])
        return {"type": "place_tile", "at": [x, y], "rotation": rotation}
    if state["legal_spots"] and rng.random() < 0.3:
        return {"type": "place_follower", "spot": rng.choice(state["legal_spots"])}
    return {"type": "pass"}


def test_a_whole_rated_match_history_replay_zip_and_verify(api: Api, client: TestClient) -> None:
    match_id, people = _rated_match(api, client, 2)
    by_seat = [h for _, h in people]
    fair = api.get(f"/api/matches/{match_id}/fairness")
    assert set(fair) == {"scheme", "commitment", "revealed"} and not fair["revealed"]
    rng = random.Random(3)
    m = api.get(f"/api/matches/{match_id}")
    state, version = m["state"], m["version"]
    while state["phase"] != "game_over":
        h = by_seat[state["seat"]]
        view = api.get(f"/api/matches/{match_id}", h)["state"]
        out = api.post(
            f"/api/matches/{match_id}/actions", h, v=version, id=f"a{version}", d=_choose(view, rng)
        )
        version = out["version"]
        state = api.get(f"/api/matches/{match_id}")["state"]
        if version == 20:  # a spectator scrolling back sees only what was played
            live = api.get(f"/api/matches/{match_id}/replay")
            assert live["finished"] is False and live["fairness"] is None
            assert len(live["steps"]) == len(live["record"]["moves"]) <= 10
    scores = state["scores"]

    profile = api.get(f"/api/players/{people[0][0]}/profile")
    assert profile["played"] == 1 and profile["won"] == (1 if scores[0] >= scores[1] else 0)
    assert profile["recent"][0]["rating_change"] is not None
    page = api.get(f"/api/players/{people[1][0]}/matches?page=1&per_page=5")
    assert page["total"] == 1 and page["matches"][0]["score"] == scores[1]

    replay = api.get(f"/api/matches/{match_id}/replay")
    assert len(replay["steps"]) == len(replay["record"]["moves"])
    assert replay["steps"][-1]["scores"] == scores
    assert replay["commitment"] == fair["commitment"]
    assert [c["seat"] for c in replay["rating_changes"]] == [0, 1]
    revealed = api.get(f"/api/matches/{match_id}/fairness")
    assert revealed["revealed"] and revealed["commitment"] == fair["commitment"]
    verdict = client.post(
        f"/api/verify?commitment={fair['commitment']}", json=replay["record"]
    ).json()
    assert verdict["ok"], verdict

    r = client.get("/api/me/records.zip", headers=by_seat[0])
    assert r.status_code == 200 and r.headers["content-type"] == "application/zip"
    with zipfile.ZipFile(io.BytesIO(r.content)) as archive:
        names = archive.namelist()
        assert len(names) == 1 and names[0].endswith(f"-{match_id}.json")
        record = json.loads(archive.read(names[0]))
    assert record["fairness"]["seed"] == revealed["seed"]
    assert client.post("/api/verify", json=record).json()["ok"]


def test_uploaded_records(api: Api, client: TestClient) -> None:
    record = {
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
        "result": {"scores": [8, 10]},
    }
    out = api.post("/api/replay", **record)
    assert len(out["steps"]) == 5 and out["steps"][-1]["scores"] == [8, 10]
    assert out["steps"][0]["placed"] == {"at": [1, 0], "rotation": 90, "tile": "V"}
    bad = json.loads(json.dumps(record))
    bad["moves"][2]["at"] = [5, 5]
    r = client.post("/api/replay", json=bad)
    assert r.status_code == 422
    assert r.json()["error"]["code"] == "invalid_record"
    assert r.json()["error"]["message"].startswith("move 3: ")
    assert client.post("/api/replay", json=[1, 2]).status_code == 422
    # No fairness block: verification says so instead of failing obscurely.
    verdict = api.post("/api/verify", **record)
    assert not verdict["ok"] and verdict["problem"].startswith("revealed:")


def test_a_match_against_a_sock_that_never_played_ends_unrated(
    api: Api, client: TestClient
) -> None:
    """Before, one rated match against an account that never connected gave both +32. A seat
    whose own player made fewer than a third of its moves (here: none, the computer played
    them all) makes the match unrated: no rating moves, and it says why everywhere.
    """
    match_id, people = _rated_match(api, client, 2)
    _finish_with(client, match_id, [40, 30], moves={0: (6, 0), 1: (0, 6)})
    out = api.get(f"/api/matches/{match_id}/ratings", people[0][1])
    assert out["changes"] == [] and out["unrated"] == "not_played"
    for pid, headers in people:
        assert "standard" not in api.get(f"/api/players/{pid}/profile")["ratings"]
        (entry,) = api.get(f"/api/players/{pid}/matches", headers)["matches"]
        assert entry["rated"] is False and entry["unrated"] == "not_played"


def test_a_leaver_who_played_a_third_of_the_moves_is_rated_last(
    api: Api, client: TestClient
) -> None:
    """Leaving after playing (4 own moves of 12) keeps the match rated, the leaver last."""
    match_id, people = _rated_match(api, client, 2)
    _finish_with(client, match_id, [30, 50], left=(1,), moves={0: (12, 0), 1: (4, 8)})
    out = api.get(f"/api/matches/{match_id}/ratings", people[0][1])
    assert out["unrated"] is None
    assert [c["delta"] > 0 for c in out["changes"]] == [True, False]


def test_a_private_matchs_rating_changes_need_a_seat_or_its_code(
    api: Api, client: TestClient
) -> None:
    """Before, ``/api/matches/{id}/ratings`` answered anyone for a private match."""
    people = [_account(client, f"P{i}") for i in range(2)]
    lobby = api.lobby(people[0][1], seats=2, rated=True, preset="standard", private=True)
    api.post(f"/api/lobbies/{lobby['code']}/join", people[1][1])
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", people[0][1])["match_id"]
    _finish_with(client, match_id, [40, 30])
    path = f"/api/matches/{match_id}/ratings"
    _, _, stranger = api.player("Eve")
    r = client.get(path, headers=stranger)
    assert r.status_code == 403 and r.json()["error"]["code"] == "forbidden"
    assert len(api.get(f"{path}?code={lobby['code']}", stranger)["changes"]) == 2
    assert len(api.get(path, people[1][1])["changes"]) == 2


def test_two_settles_at_once_rate_a_match_once(api: Api, client: TestClient) -> None:
    """The match-end hook of one instance and the missed-settle sweep of another may settle the
    same match at the same moment: its ratings change once, its history is written once, and
    ``match_settled`` (what series and tournaments count a game on) is announced once.
    """
    match_id, people = _rated_match(api, client, 2)
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    _end(client, match_id, [30, 20])
    heard: list[str] = []

    def listener(rt: Runtime, settled: str) -> None:
        if settled == match_id:
            heard.append(settled)

    async def both() -> list[bool]:
        twice = [history.settle(runtime, match_id), history.settle(runtime, match_id)]
        return list(await asyncio.gather(*twice))

    runtime.match_settled.subscribe(listener)
    try:
        assert sorted(_run(client, both)) == [False, True]
    finally:
        runtime.match_settled.unsubscribe(listener)
    assert heard == [match_id]  # announced once, by the settler that wrote the result
    for pid, _ in people:
        assert api.get(f"/api/players/{pid}/profile")["ratings"]["standard"]["games"] == 1
    assert len(api.get(f"/api/matches/{match_id}/ratings")["changes"]) == 2


def test_series_and_tournaments_count_a_game_once_it_settles(client: TestClient) -> None:
    """Series and tournaments listen to ``match_settled`` (the result is there to count), not
    to every committed move with a poll for the result.
    """
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    settled = [name for name, _, _ in runtime.match_settled.tallies()]
    assert "series_games.on_match_settled" in settled
    assert "sweep.on_match_settled" in settled
    moved = [name for name, _, _ in runtime.move_committed.tallies()]
    assert not [n for n in moved if n.startswith(("series_games.", "sweep."))], moved
