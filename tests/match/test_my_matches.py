"""``GET /api/me/matches`` on SQLite and on Postgres + Redis: the caller's ongoing matches,
"your turn" first (nearest deadline first), with the caller's time left; only the caller's
live matches, nothing secret, 401 without a valid token.
"""

from __future__ import annotations

import pytest
from sqlalchemy import update

from app.db.models import matches
from tests.clock.test_clocks import PER_TURN, _db
from tests.support.client import Api, place_first

pytestmark = pytest.mark.timeout(90)

CORR = {"kind": "correspondence", "days": 1}
DAY_MS = 86_400_000
KEYS = {
    "id",
    "name",
    "host_name",
    "private",
    "seat",
    "to_act",
    "your_turn",
    "turn",
    "seats",
    "time_control",
    "time_label",
    "correspondence",
    "remaining",
    "deadline",
    "auto",
    "updated_at",
}


def _started(api: Api, host: dict[str, str], guests: list[dict[str, str]], **lobby: object) -> str:
    code = api.lobby(host, seats=1 + len(guests), **lobby)["code"]
    for headers in guests:
        api.post(f"/api/lobbies/{code}/join", headers)
    match_id: str = api.post(f"/api/lobbies/{code}/start", host)["match_id"]
    return match_id


def test_your_turn_first_with_the_time_left(api: Api, backend: tuple[str, str | None]) -> None:
    _, _, ann = api.player("Ann")
    _, _, ben = api.player("Ben")
    _, _, cat = api.player("Cat")
    untimed = _started(api, ann, [ben])  # Ann to play, no clock
    corr_ben = _started(api, ben, [ann], time_control=CORR)  # Ben to play
    per_turn = _started(api, ann, [ben], time_control=PER_TURN)  # Ann to play, 30 s
    corr_ann = _started(api, ann, [ben, cat], time_control=CORR, private=True)  # Ann, 1 day
    others = _started(api, ben, [cat])  # not Ann's
    finished = _started(api, ann, [cat])
    _db(backend[0], update(matches).where(matches.c.id == finished).values(status="finished"))

    mine = api.get("/api/me/matches", ann)
    listed = [m["id"] for m in mine["matches"]]
    # Ann's turn first, the nearest deadline first (untimed last among them); then the rest.
    assert listed == [per_turn, corr_ann, untimed, corr_ben]
    assert others not in listed and finished not in listed
    by_id = {m["id"]: m for m in mine["matches"]}
    assert all(set(m) == KEYS for m in mine["matches"])  # nothing else (no state, no deck)
    first = by_id[per_turn]
    assert first["your_turn"] and first["seat"] == 0 and first["to_act"] == 0
    assert first["time_label"] == "30 s per turn" and not first["correspondence"]
    assert 20_000 < first["remaining"] <= 30_000
    assert first["deadline"] - mine["server_now"] == pytest.approx(first["remaining"], abs=50)
    corr = by_id[corr_ann]
    assert corr["correspondence"] and corr["private"] and corr["time_label"] == "1 day per move"
    assert DAY_MS - 60_000 < corr["remaining"] <= DAY_MS
    assert [s["name"] for s in corr["seats"]] == ["Ann", "Ben", "Cat"]
    assert set(corr["seats"][0]) == {"seat", "name", "colour", "bot"}
    waiting = by_id[corr_ben]
    assert not waiting["your_turn"] and waiting["seat"] == 1 and waiting["to_act"] == 0
    assert waiting["remaining"] == DAY_MS and waiting["deadline"] is None  # not running
    assert by_id[untimed]["remaining"] is None and by_id[untimed]["deadline"] is None

    # Ben sees his own list: his correspondence turn first.
    assert api.get("/api/me/matches", ben)["matches"][0]["id"] == corr_ben

    # Ann plays her per-turn move: it leaves the "your turn" group.
    state = api.get(f"/api/matches/{per_turn}")["state"]
    api.post(f"/api/matches/{per_turn}/actions", ann, v=0, d=place_first(state))
    api.post(f"/api/matches/{per_turn}/actions", ann, v=1, d={"type": "pass"})
    after = api.get("/api/me/matches", ann)["matches"]
    assert [m["id"] for m in after if m["your_turn"]] == [corr_ann, untimed]
    moved = next(m for m in after if m["id"] == per_turn)
    assert moved["to_act"] == 1 and moved["deadline"] is None and moved["turn"] >= 1


def test_needs_a_valid_token(api: Api) -> None:
    assert api.get("/api/me/matches", status=401)["error"]["code"] == "unauthorized"
    bad = {"Authorization": "Bearer not-a-token"}
    assert api.get("/api/me/matches", bad, status=401)["error"]["code"] == "unauthorized"
    _, _, zed = api.player("Zed")
    assert api.get("/api/me/matches", zed)["matches"] == []
