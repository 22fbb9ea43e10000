"""The organiser's tools over REST on both backends: a message to every player (the page and
each live match's chat), the referee view of every live table's clock, and a no-show replaced
by the computer or by a forfeit (dropped from the next rounds either way).
"""

from __future__ import annotations

from typing import Any

import pytest
from fastapi.testclient import TestClient

from tests.support.client import Api

pytestmark = pytest.mark.timeout(60)


def _game_of(data: dict[str, Any], number: int) -> dict[str, Any]:
    found: dict[str, Any] = next(p for p in data["pairings"] if number in p["entrants"])
    return found


def test_message_referee_and_no_shows(client: TestClient, api: Api) -> None:
    _, _, host = api.player("Org")
    _, _, ann = api.player("Ann")
    _, _, ben = api.player("Ben")
    tid = api.post("/api/tournaments", host, 201, name="Open", format="swiss", rounds=2)["id"]
    for who in (ann, ben):
        api.post(f"/api/tournaments/{tid}/entrants", who)
        api.post(f"/api/tournaments/{tid}/check-in", who)
    for _ in range(2):
        api.post(f"/api/tournaments/{tid}/computers", host, level="easy")
    started = api.post(f"/api/tournaments/{tid}/start", host)
    ann_game, ben_game = _game_of(started, 1), _game_of(started, 2)
    assert ann_game["id"] != ben_game["id"]

    # A message to all: on the page and in each live match's chat.
    api.post(f"/api/tournaments/{tid}/messages", ann, 403, text="hi")
    api.post(f"/api/tournaments/{tid}/messages", host, 422, text=" ")
    sent = api.post(f"/api/tournaments/{tid}/messages", host, 201, text="Round 1: good luck!")
    assert sent["room"] == "organiser" and sent["name"] == "Org"
    page = api.get(f"/api/tournaments/{tid}", ann)
    assert [m["text"] for m in page["messages"]] == ["Round 1: good luck!"]
    chat = api.get(f"/api/matches/{ann_game['match_id']}/chat", ann)["messages"]
    assert any(m["room"] == "organiser" and m["text"] == "Round 1: good luck!" for m in chat)

    # The referee: every live table with its clock.
    client_r = client.get(f"/api/tournaments/{tid}/referee", headers=ann)
    assert client_r.status_code == 403
    tables = api.get(f"/api/tournaments/{tid}/referee", host)["tables"]
    assert {t["match_id"] for t in tables} == {ann_game["match_id"], ben_game["match_id"]}
    assert all(t["clock"] is not None and "remaining" in t["clock"] for t in tables)
    assert all(len(t["names"]) == 2 for t in tables)

    # Ann did not come: the computer takes her seat; Ben did not come: he forfeits.
    replace = f"/api/tournaments/{tid}/games/{ann_game['id']}/replace"
    api.post(replace, host, 422, entrant=2, by="computer")  # Ben is not at Ann's table
    api.post(replace, ann, 403, entrant=1, by="computer")
    after = api.post(replace, host, entrant=1, by="computer")
    seat = ann_game["entrants"].index(1)
    clock = api.get(f"/api/matches/{ann_game['match_id']}", ann)["clock"]
    assert clock["auto"][seat] is True
    forfeited = api.post(
        f"/api/tournaments/{tid}/games/{ben_game['id']}/replace", host, entrant=2, by="forfeit"
    )
    game = next(p for p in forfeited["pairings"] if p["id"] == ben_game["id"])
    assert game["source"] == "forfeit" and game["reason"] == "no-show: Ben"
    assert game["points"] == [0.0 if n == 2 else 1.0 for n in ben_game["entrants"]]
    statuses = {e["name"]: e["status"] for e in forfeited["entrants"]}
    assert statuses["Ann"] == "dropped" and statuses["Ben"] == "dropped"
    assert after["version"] < forfeited["version"]
    api.post(
        f"/api/tournaments/{tid}/games/{ben_game['id']}/replace", host, 409, entrant=2, by="forfeit"
    )
