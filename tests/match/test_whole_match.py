"""A whole match: two scripted websocket players, a bot seat and a spectator, to the end.

Checks that every socket saw the same versioned batches, that the final scores equal the
engine's replay of the exported record, and that no message of the whole game — frames and
REST bodies alike — holds the seed or the order of tiles not drawn yet.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from fastapi.testclient import TestClient
from sqlalchemy import select

from app.db.models import matches
from app.engine import action_from_json, apply_in_place, new_game, replay
from app.engine.events import TileDrawn
from app.engine.options import Options
from app.services.runtime import Runtime
from tests.support.client import Api, receive
from tests.support.frames import seen as position

pytestmark = pytest.mark.timeout(180)


def _choose(state: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    if state["phase"] == "place_tile":
        x, y, rotation = rng.choice(state["legal_placements"])
        return {"type": "place_tile", "at": [x, y], "rotation": rotation}
    if state["legal_spots"] and rng.random() < 0.4:
        return {"type": "place_follower", "spot": rng.choice(state["legal_spots"])}
    return {"type": "pass"}


def _setup(client: TestClient, match_id: str) -> dict[str, Any]:
    """The server-side secret setup (seed and deck), read from the database."""
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    async def load() -> dict[str, Any]:
        async with runtime.storage.db.reading() as conn:
            row = (
                await conn.execute(select(matches.c.setup).where(matches.c.id == match_id))
            ).one()
        return dict(row.setup)

    return client.portal.call(load)  # type: ignore[union-attr]


def _drawn_by_version(setup: dict[str, Any], actions: list[dict[str, Any]]) -> list[int]:
    """How many tiles had been drawn at each version (index = version)."""
    state = new_game(Options.from_json(setup["rules"]), setup["players"], draw_order=setup["deck"])
    drawn = [sum(isinstance(e, TileDrawn) for e in state.opening_events)]
    for raw in actions:
        events = apply_in_place(state, action_from_json(raw))
        drawn.append(drawn[-1] + sum(isinstance(e, TileDrawn) for e in events))
    return drawn


def _string_lists(value: Any) -> list[list[str]]:
    out: list[list[str]] = []
    if isinstance(value, dict):
        for k, v in value.items():
            assert k not in ("seed", "deck"), f"secret key {k!r} in a message"
            out += _string_lists(v)
    elif isinstance(value, list):
        if value and all(isinstance(v, str) for v in value):
            out.append(value)
        for v in value:
            out += _string_lists(v)
    return out


def _contains_run(haystack: list[str], needle: list[str]) -> bool:
    n = len(needle)
    return any(haystack[i : i + n] == needle for i in range(len(haystack) - n + 1))


def test_whole_match_to_the_end(api: Api, client: TestClient) -> None:
    match_id, people, _ = api.match(seats=2, bots=1)
    (_, t0, h0), (_, t1, h1) = people
    rng = random.Random(7)
    messages: list[tuple[int, str]] = []  # (version the message reflects, text)

    def rest(path: str, headers: dict[str, str] | None = None) -> Any:
        r = client.get(path, headers=headers or {})
        assert r.status_code == 200, r.text
        body = r.json()
        version = body.get("version") if isinstance(body, dict) else None
        if version is None:
            # The bot may be ahead of the spectator: take the version right after the request
            # (its undrawn tiles are a subset of those undrawn when the body was made).
            version = client.get(f"/api/matches/{match_id}").json()["version"]
        messages.append((version, r.text))
        return body

    current = {"v": 0}
    with (
        client.websocket_connect(f"/ws/matches/{match_id}?token={t0}") as p0,
        client.websocket_connect(f"/ws/matches/{match_id}?token={t1}") as p1,
        client.websocket_connect(f"/ws/matches/{match_id}") as spectator,
    ):
        sockets = {0: p0, 1: p1}
        seen: dict[str, list[int]] = {"p0": [], "p1": [], "spectator": []}

        def read(ws: Any, who: str) -> dict[str, Any]:
            frame = receive(ws, keep=("presence",))
            messages.append((frame.get("v", current["v"]) or current["v"], json.dumps(frame)))
            if frame["t"] == "presence":
                return read(ws, who)
            if frame["t"] == "events":
                seen[who].append(frame["v"])
            return frame

        snap = read(spectator, "spectator")
        for ws, who in ((p0, "p0"), (p1, "p1")):
            assert read(ws, who)["t"] == "snapshot"
        state, version = snap["d"]["state"], snap["v"]
        while state["phase"] != "game_over":
            seat = state["seat"]
            if seat in sockets:
                sockets[seat].send_text(
                    json.dumps(
                        {
                            "t": "action",
                            "v": version,
                            "id": f"s{seat}-{version}",
                            "d": _choose(state, rng),
                        }
                    )
                )
            frame = read(spectator, "spectator")
            assert frame["t"] == "events", frame
            assert frame["v"] == version + 1, "batches arrive in version order, none missing"
            state, version = position(frame), frame["v"]
            current["v"] = version
            if version % 40 == 0:
                rest(f"/api/matches/{match_id}")
                rest(f"/api/matches/{match_id}/record")
                rest(f"/api/matches/{match_id}/fairness")
                rest(f"/api/matches/{match_id}/replay")
                rest(f"/api/matches/{match_id}/events?since={version - 5}")
        for ws, who in ((p0, "p0"), (p1, "p1")):
            while not seen[who] or seen[who][-1] != version:
                read(ws, who)
        assert seen["p0"] == seen["p1"] == seen["spectator"] == list(range(1, version + 1))

    final = rest(f"/api/matches/{match_id}", h0)
    assert final["status"] == "finished"
    record = rest(f"/api/matches/{match_id}/record", h1)
    replayed, _ = replay(record)
    assert replayed.scores == final["state"]["scores"] == record["result"]["scores"]
    bot_batches = [
        b for b in rest(f"/api/matches/{match_id}/events?since=0")["batches"] if b["seat"] == 2
    ]
    assert bot_batches, "the bot seat played"

    # Rematch: a new lobby with the same seats; every asker gets the same one.
    code = api.post(f"/api/matches/{match_id}/rematch", h0)["code"]
    assert api.post(f"/api/matches/{match_id}/rematch", h1)["code"] == code
    lobby = api.get(f"/api/lobbies/{code}")
    assert [s["name"] for s in lobby["seats"]] == ["Ann", "Ben", "Bot 1"]
    assert lobby["seats"][2]["bot"] and lobby["status"] == "open"

    # After the end (only then) the record reveals the shuffle, and it checks out.
    fair = record.pop("fairness")
    assert fair["seed"] == str(_setup(client, match_id)["seed"])
    assert api.post("/api/verify", **{**record, "fairness": fair})["ok"]
    messages = [(v, text) for v, text in messages if not _revealed(json.loads(text))]

    # Nothing secret in any message of the game (the salt included).
    setup = _setup(client, match_id)
    salt = fair["salt"]
    deck: list[str] = setup["deck"]
    drawn = _drawn_by_version(setup, _actions_from_record(record, setup))
    seed = str(setup["seed"])
    assert len(seed) >= 6
    for version, text in messages:
        assert seed not in text, "the seed leaked"
        assert salt not in text, "the salt leaked"
        undrawn = deck[drawn[min(version, len(drawn) - 1)] :]
        for strings in _string_lists(json.loads(text)):
            if len(strings) >= 6:
                assert not _contains_run(undrawn, strings), f"undrawn tiles leaked at v{version}"
        body = json.loads(text)
        if (
            isinstance(body, dict)
            and body.get("format") == "carcassonne-record/1"
            and not body["finished"]
        ):
            assert body["draw_order"] == deck[: len(body["draw_order"])]
            assert len(body["draw_order"]) <= drawn[min(version, len(drawn) - 1)]


def _revealed(body: Any) -> bool:
    """A body sent after the end that carries the revealed shuffle (allowed to hold the seed)."""
    if not isinstance(body, dict):
        return False
    if body.get("revealed") is True:
        return True
    record = body.get("record", body)
    return isinstance(record, dict) and record.get("finished") is True and "fairness" in record


def _actions_from_record(record: dict[str, Any], setup: dict[str, Any]) -> list[dict[str, Any]]:
    """The action list (engine JSON) of a finished record, seat by seat."""
    state = new_game(Options.from_json(setup["rules"]), setup["players"], draw_order=setup["deck"])
    out: list[dict[str, Any]] = []
    for move in record["moves"]:
        seat = state.seat
        place = {"type": "place_tile", "seat": seat, "at": move["at"], "rotation": move["rotation"]}
        follow = (
            {"type": "pass", "seat": seat}
            if move["follower"] is None
            else {"type": "place_follower", "seat": seat, "spot": move["follower"]}
        )
        for raw in (place, follow):
            apply_in_place(state, action_from_json(raw))
            out.append(raw)
    return out
