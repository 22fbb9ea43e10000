"""The host's time-out policy through the API, on SQLite and on Postgres + Redis: chosen on
the lobby (create and PATCH, 422s naming the field, nothing changed), carried into the match's
clock and record; ``skip`` places the drawn tile at the first legal placement with no
follower; ``handover`` gives the seat to the computer for good after N time-outs.
"""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.clock.test_clocks import PER_TURN, _expire, _wait
from tests.support.client import Api

pytestmark = pytest.mark.timeout(90)


def test_the_policy_is_chosen_on_the_lobby_and_bad_ones_change_nothing(api: Api) -> None:
    _, _, ann = api.player("Ann")
    lobby = api.lobby(ann, time_control=PER_TURN)
    assert lobby["timeout_policy"] == {"kind": "computer"}  # today's behaviour, the default
    skip = api.lobby(ann, time_control=PER_TURN, timeout_policy={"kind": "skip"})
    assert skip["timeout_policy"] == {"kind": "skip"} and "skipped" in skip["at_zero"]
    assert skip["time_control"] == PER_TURN  # the policy is not part of the time control
    before = len(api.get("/api/lobbies")["lobbies"])
    for body, field in [
        ({"kind": "forfeit"}, "timeout_policy.kind"),
        ({"kind": "handover"}, "timeout_policy.after"),
        ({"kind": "handover", "after": 6}, "timeout_policy.after"),
        ({"kind": "handover", "after": True}, "timeout_policy.after"),
        ({"kind": "skip", "after": 2}, "timeout_policy.after"),
        ("skip", "timeout_policy"),
    ]:
        r = api.client.post("/api/lobbies", json={"timeout_policy": body}, headers=ann)
        assert r.status_code == 422, r.text
        assert r.json()["error"]["message"].startswith(field), r.text
    assert len(api.get("/api/lobbies")["lobbies"]) == before  # no half-created lobby
    code = lobby["code"]
    r = api.client.patch(
        f"/api/lobbies/{code}", headers=ann, json={"timeout_policy": {"kind": "handover"}}
    )
    assert r.status_code == 422 and "timeout_policy.after" in r.text
    assert api.get(f"/api/lobbies/{code}")["version"] == lobby["version"]  # nothing changed
    patched = api.client.patch(
        f"/api/lobbies/{code}",
        headers=ann,
        json={"timeout_policy": {"kind": "handover", "after": 3}},
    ).json()
    assert patched["timeout_policy"] == {"kind": "handover", "after": 3}
    assert patched["time_control"] == PER_TURN and "after 3 time-outs" in patched["at_zero"]
    # Changing the time control keeps the policy, and the other way round.
    fischer = {"kind": "fischer", "bank": 60, "increment": 5}
    patched = api.client.patch(
        f"/api/lobbies/{code}", headers=ann, json={"time_control": fischer}
    ).json()
    assert patched["timeout_policy"] == {"kind": "handover", "after": 3}
    assert patched["time_control"] == fischer
    _, _, ben = api.player("Ben")
    r = api.client.patch(f"/api/lobbies/{code}", headers=ben, json={"timeout_policy": None})
    assert r.status_code == 403


def test_skip_places_the_tile_first_legal_with_no_follower_and_never_hands_over(
    api: Api, client: TestClient, backend: tuple[str, str | None]
) -> None:
    match_id, people, _ = api.match(time_control=PER_TURN, timeout_policy={"kind": "skip"})
    match = api.get(f"/api/matches/{match_id}")
    assert match["clock"]["policy"] == {"kind": "skip"}
    assert match["clock"]["handover_after"] is None
    first = min(tuple(p) for p in match["state"]["legal_placements"])
    ben = people[1][2]
    for turn in range(3):  # more time-outs than the default handover: Ann keeps her seat
        _expire(backend[0], match_id)
        match = _wait(api, match_id, lambda m: m["clock"]["running"] == 1)
        assert match["clock"]["running"] == 1 and match["clock"]["auto"] == [False, False]
        assert match["clock"]["timeouts"][0] == turn + 1
        v = match["version"]
        x, y, r = match["state"]["legal_placements"][0]
        api.post(
            f"/api/matches/{match_id}/actions",
            ben,
            v=v,
            d={"type": "place_tile", "at": [x, y], "rotation": r},
        )
        api.post(f"/api/matches/{match_id}/actions", ben, v=v + 1, d={"type": "pass"})
    batches = api.get(f"/api/matches/{match_id}/events?since=0")["batches"]
    skipped = [b for b in batches if b["seat"] == 0]
    assert len(skipped) == 6 and all(b["by"] == "computer" for b in skipped)
    # Each skipped turn: the tile placed, then no follower (no FollowerPlaced anywhere).
    kinds = [e["type"] for b in skipped for e in b["events"]]
    assert "FollowerPlaced" not in kinds
    placed = next(e for e in skipped[0]["events"] if e["type"] == "TilePlaced")
    assert (placed["at"][0], placed["at"][1], placed["rotation"]) == first
    record = api.get(f"/api/matches/{match_id}/record")
    assert record["timeout_policy"] == {"kind": "skip"}
    assert record["moves"][0]["by"] == "computer" and record["moves"][0].get("follower") is None
    # The record replays (the skip is made of ordinary engine actions).
    replay = api.client.post("/api/replay", json=record)
    assert replay.status_code == 200, replay.text


def test_handover_after_n_timeouts_keeps_the_seat_for_good(
    api: Api, client: TestClient, backend: tuple[str, str | None]
) -> None:
    match_id, people, _ = api.match(
        time_control=PER_TURN, timeout_policy={"kind": "handover", "after": 1}
    )
    ann, ben = people[0][2], people[1][2]
    assert api.get(f"/api/matches/{match_id}")["clock"]["handover_after"] == 1
    _expire(backend[0], match_id)
    match: dict[str, Any] = _wait(api, match_id, lambda m: m["clock"]["running"] == 1)
    assert match["clock"]["auto"] == [True, False] and match["clock"]["timeouts"] == [1, 0]
    before = match["clock"]
    r = api.client.post(f"/api/matches/{match_id}/take-back", headers=ann)
    assert r.status_code == 409 and r.json()["error"]["code"] == "conflict", r.text
    assert "for good" in r.json()["error"]["message"]
    after = api.get(f"/api/matches/{match_id}")["clock"]
    assert after["auto"] == before["auto"] and after["timeouts"] == before["timeouts"]
    # Ben plays; the computer keeps playing Ann's seat without a time-out.
    v = match["version"]
    x, y, r2 = match["state"]["legal_placements"][0]
    api.post(
        f"/api/matches/{match_id}/actions",
        ben,
        v=v,
        d={"type": "place_tile", "at": [x, y], "rotation": r2},
    )
    api.post(f"/api/matches/{match_id}/actions", ben, v=v + 1, d={"type": "pass"})
    match = _wait(api, match_id, lambda m: m["version"] >= v + 4, seconds=30)
    assert match["version"] >= v + 4 and match["clock"]["auto"] == [True, False]


def test_the_default_policy_is_unchanged(
    api: Api, client: TestClient, backend: tuple[str, str | None]
) -> None:
    match_id, _, _ = api.match(time_control=PER_TURN)
    clock = api.get(f"/api/matches/{match_id}")["clock"]
    assert clock["policy"] == {"kind": "computer"} and clock["handover_after"] == 2
    _expire(backend[0], match_id)
    match = _wait(api, match_id, lambda m: m["clock"]["running"] == 1)
    assert match["clock"]["timeouts"] == [1, 0] and match["clock"]["auto"] == [False, False]
    time.sleep(0.2)
    assert api.get(f"/api/matches/{match_id}/record")["timeout_policy"] == {"kind": "computer"}
