"""Bot accounts on both backends (docs/BOT_API.md): becoming one (one-way, only a fresh
account, never with an API token), challenges (accept, decline, cancel, lobby invitations),
the event stream's lines, a bot seat marked everywhere, the bot on the match websocket with its
API token, a rated match against a bot counted in the bots' pool only.
"""

from __future__ import annotations

import asyncio
import json
import random
import secrets
from typing import Any

import pytest
from fastapi.testclient import TestClient

from app.services.platform import bot_stream, credentials
from app.services.platform.credentials import Credential
from app.services.runtime import Runtime
from tests.platform.test_export import account, api_token
from tests.support.client import Api, receive

pytestmark = pytest.mark.timeout(240)


def make_bot(client: TestClient, stem: str = "Bot") -> tuple[str, dict[str, str], dict[str, str]]:
    """A fresh bot account: ``(id, session headers, play+read API token headers)``."""
    bot, session = account(client, stem)
    r = client.post("/api/me/bot", headers=session)
    assert r.status_code == 200 and r.json()["bot_account"] is True, r.text
    return bot, session, api_token(client, session, "play", "read")


def credential(client: TestClient, headers: dict[str, str]) -> Credential:
    """The verified credential of the bearer token in ``headers``."""
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    token = headers["Authorization"].split()[1]
    held: Credential = client.portal.call(credentials.verify, runtime, token)  # type: ignore[union-attr]
    return held


def stream_lines(client: TestClient, bot_h: dict[str, str], n: int) -> list[dict[str, Any]]:
    """The first ``n`` non-empty lines of the event stream of the bot whose token is in
    ``bot_h`` (a new stream each call).
    """
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    held = credential(client, bot_h)

    async def take() -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        lines = bot_stream.events(runtime, held, 0.02)
        try:
            while len(out) < n:
                line = await asyncio.wait_for(lines.__anext__(), 20)
                if line.strip():
                    out.append(json.loads(line))
        finally:
            await lines.aclose()
        return out

    result: list[dict[str, Any]] = client.portal.call(take)  # type: ignore[union-attr]
    return result


def test_becoming_a_bot(api: Api, client: TestClient) -> None:
    _, _, guest = api.player("Gus")
    r = client.post("/api/me/bot", headers=guest)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "account_needed"
    player, session = account(client, "Pat")
    token = api_token(client, session, "play")
    r = client.post("/api/me/bot", headers=token)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "session_needed"
    r = client.get("/api/bot/stream", headers=token)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "not_a_bot"
    lobby = api.lobby(session, seats=2)  # an account that sat in a match cannot become a bot
    api.post(f"/api/lobbies/{lobby['code']}/bots", session)
    api.post(f"/api/lobbies/{lobby['code']}/start", session)
    r = client.post("/api/me/bot", headers=session)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "bot_has_played"
    bot, bot_session, _ = make_bot(client)
    assert client.post("/api/me/bot", headers=bot_session).json()["bot_account"] is True
    profile = api.get(f"/api/players/{bot}/profile")
    assert profile["player"]["bot_account"] is True
    assert api.get(f"/api/players/{player}/profile")["player"]["bot_account"] is False


def test_challenge_decline_cancel_and_who_may(api: Api, client: TestClient) -> None:
    bot, _, bot_h = make_bot(client)
    human, human_h = account(client, "Hum")
    _, other_h = account(client, "Oth")
    r = client.post(f"/api/bots/{human}/challenge", json={}, headers=other_h)
    assert r.status_code == 404 and r.json()["error"]["reason"] == "no_such_bot"
    r = client.post(f"/api/bots/{bot}/challenge", json={"preset": "nope"}, headers=human_h)
    assert r.status_code == 422
    r = client.post(
        f"/api/bots/{bot}/challenge",
        json={"time_control": {"kind": "per_turn", "seconds": 7}},
        headers=human_h,
    )
    assert r.status_code == 422
    first = api.post(f"/api/bots/{bot}/challenge", human_h, status=201, preset="river")
    second = api.post(f"/api/bots/{bot}/challenge", human_h, status=201)
    assert first["status"] == "open" and first["bot"] == {
        "id": bot,
        "name": first["bot"]["name"],
        "bot_account": True,
    }
    lines = stream_lines(client, bot_h, 2)
    assert [(x["type"], x["challenge"]["id"]) for x in lines] == [
        ("challenge", first["id"]),
        ("challenge", second["id"]),
    ]
    assert lines[0]["challenge"]["preset"] == "river"
    assert lines[0]["challenge"]["challenger"]["id"] == human
    r = client.post(f"/api/challenges/{first['id']}/accept", headers=other_h)
    assert r.status_code == 403 and r.json()["error"]["reason"] == "not_your_challenge"
    assert client.get(f"/api/challenges/{first['id']}", headers=other_h).status_code == 403
    assert api.post(f"/api/challenges/{first['id']}/decline", bot_h)["status"] == "declined"
    r = client.post(f"/api/challenges/{first['id']}/accept", headers=bot_h)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "challenge_closed"
    r = client.post(f"/api/challenges/{second['id']}/cancel", headers=bot_h)
    assert r.status_code == 403
    assert api.post(f"/api/challenges/{second['id']}/cancel", human_h)["status"] == "cancelled"
    assert api.get(f"/api/challenges/{second['id']}", bot_h)["status"] == "cancelled"


def test_invite_a_bot_into_a_lobby_seat(api: Api, client: TestClient) -> None:
    bot, _, bot_h = make_bot(client)
    host, host_h = account(client, "Hos")
    _, guest_h = account(client, "Gue")
    lobby = api.lobby(host_h, seats=3)
    api.post(f"/api/lobbies/{lobby['code']}/join", guest_h)
    r = client.post(f"/api/lobbies/{lobby['code']}/invite", json={"bot": bot}, headers=guest_h)
    assert r.status_code == 403
    invitation = api.post(f"/api/lobbies/{lobby['code']}/invite", host_h, status=201, bot=bot)
    assert invitation["lobby_code"] == lobby["code"]
    accepted = api.post(f"/api/challenges/{invitation['id']}/accept", bot_h)
    assert accepted["status"] == "accepted" and accepted["match_id"] is None
    seats = api.get(f"/api/lobbies/{lobby['code']}")["seats"]
    assert [(s["player"], s["bot_account"]) for s in seats][2] == (bot, True)
    assert seats[0]["bot_account"] is False
    match_id = api.post(f"/api/lobbies/{lobby['code']}/start", host_h)["match_id"]
    match = api.get(f"/api/matches/{match_id}")
    assert [s["bot_account"] for s in match["seats"]] == [False, False, True]
    [start] = stream_lines(client, bot_h, 1)
    assert start["type"] == "match_start" and start["match"]["id"] == match_id
    assert start["match"]["seat"] == 2 and start["match"]["seats"][2]["bot_account"] is True
    assert start["match"]["socket"] == f"/ws/matches/{match_id}"
    # The bot's API token opens the same match socket as a browser, as seat 2.
    token = bot_h["Authorization"].split()[1]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        frame = receive(ws)
        assert frame["t"] == "snapshot" and frame["d"]["you"] == 2
    reader = api_token(client, account(client, "Rdr")[1], "read")["Authorization"].split()[1]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={reader}") as ws:
        frame = receive(ws)
        assert frame["t"] == "error" and frame["d"]["code"] == "forbidden"
    with client.websocket_connect(f"/ws/matches/{match_id}?token=cat_{secrets.token_hex(8)}") as ws:
        assert receive(ws)["d"]["code"] == "unauthorized"


def _act(client: TestClient, match_id: str, h: dict[str, str], rng: random.Random) -> None:
    m = client.get(f"/api/matches/{match_id}", headers=h).json()
    view, version = m["state"], m["version"]
    if view["phase"] == "place_tile":
        x, y, rot = rng.choice(view["legal_placements"])
        d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": rot}
    else:
        d = {"type": "pass"}
    r = client.post(
        f"/api/matches/{match_id}/actions",
        json={"v": version, "id": f"a{version}", "d": d},
        headers=h,
    )
    assert r.status_code == 200, r.text


def test_a_rated_match_against_a_bot_counts_in_the_bots_pool(api: Api, client: TestClient) -> None:
    bot, _, bot_h = make_bot(client)
    human, human_h = account(client, "Hum")
    challenge = api.post(f"/api/bots/{bot}/challenge", human_h, status=201, rated=True)
    accepted = api.post(f"/api/challenges/{challenge['id']}/accept", bot_h)
    match_id = accepted["match_id"]
    assert accepted["status"] == "accepted" and match_id
    assert api.get(f"/api/challenges/{challenge['id']}", human_h)["match_id"] == match_id
    lines = stream_lines(client, bot_h, 1)
    assert lines[0]["type"] == "match_start" and lines[0]["match"]["seat"] == 1
    assert lines[0]["match"]["rated"] is True
    rng = random.Random(7)
    heads = [human_h, bot_h]
    while (m := api.get(f"/api/matches/{match_id}"))["status"] != "finished":
        _act(client, match_id, heads[m["state"]["seat"]], rng)

    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]

    held = credential(client, bot_h)

    async def end_line() -> dict[str, Any]:
        lines = bot_stream.events(runtime, held, 0.02)
        try:
            # A fresh stream knows no live match: it says nothing of the finished one (its
            # first lines are keep-alives).
            while True:
                line = await asyncio.wait_for(lines.__anext__(), 1)
                if line.strip():
                    found: dict[str, Any] = json.loads(line)
                    return found
        except TimeoutError:
            return {}
        finally:
            await lines.aclose()

    assert client.portal.call(end_line) == {}  # type: ignore[union-attr]
    changes = api.get(f"/api/matches/{match_id}/ratings")["changes"]
    assert {c["preset"] for c in changes} == {"bots:standard"}
    assert {c["player"] for c in changes} == {human, bot}
    assert "standard" not in api.get(f"/api/players/{human}/profile")["ratings"]
    board = api.get("/api/leaderboard/standard")["players"]
    assert bot not in {p["id"] for p in board} and human not in {p["id"] for p in board}
    pool = api.get("/api/leaderboard/bots:standard")["players"]
    assert {p["id"] for p in pool} >= {bot, human}
    assert "bots:standard" in api.get(f"/api/players/{bot}/profile")["ratings"]


def test_the_stream_reports_a_match_end(api: Api, client: TestClient) -> None:
    bot, _, bot_h = make_bot(client)
    _, human_h = account(client, "Hum")
    challenge = api.post(f"/api/bots/{bot}/challenge", human_h, status=201)
    match_id = api.post(f"/api/challenges/{challenge['id']}/accept", bot_h)["match_id"]
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    rng = random.Random(3)
    held = credential(client, bot_h)

    async def watch() -> list[dict[str, Any]]:
        lines = bot_stream.events(runtime, held, 0.02)
        out: list[dict[str, Any]] = []
        try:
            while len(out) < 2:
                line = await asyncio.wait_for(lines.__anext__(), 60)
                if line.strip():
                    out.append(json.loads(line))
        finally:
            await lines.aclose()
        return out

    future = client.portal.start_task_soon(watch)  # type: ignore[union-attr]
    while api.get(f"/api/matches/{match_id}")["status"] != "finished":
        m = api.get(f"/api/matches/{match_id}")
        _act(client, match_id, [human_h, bot_h][m["state"]["seat"]], rng)
    start, end = future.result(90)
    assert start["type"] == "match_start" and end["type"] == "match_end"
    final = api.get(f"/api/matches/{match_id}")["state"]["scores"]
    assert end["match"] == {
        "id": match_id,
        "seat": 1,
        "scores": final,
        "winners": [i for i, s in enumerate(final) if s == max(final)],
    }


def test_two_accepts_at_once_start_one_match(api: Api, client: TestClient) -> None:
    bot, _, _ = make_bot(client)
    _, human_h = account(client, "Hum")
    challenge = api.post(f"/api/bots/{bot}/challenge", human_h, status=201)
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    from app.services.platform import bots

    async def both() -> list[Any]:
        return await asyncio.gather(
            bots.accept(runtime, challenge["id"], bot, "test"),
            bots.accept(runtime, challenge["id"], bot, "test"),
            return_exceptions=True,
        )

    results = client.portal.call(both)  # type: ignore[union-attr]
    accepted = [r for r in results if isinstance(r, dict)]
    refused = [r for r in results if not isinstance(r, dict)]
    assert len(accepted) >= 1 and all(r["status"] == "accepted" for r in accepted)
    assert {r["match_id"] for r in accepted} == {accepted[0]["match_id"]}
    assert all(getattr(e, "reason", None) == "challenge_closed" for e in refused)
    final = api.get(f"/api/challenges/{challenge['id']}", human_h)
    assert final["status"] == "accepted" and final["match_id"] == accepted[0]["match_id"]


def test_revoking_a_token_closes_its_match_socket(api: Api, client: TestClient) -> None:
    bot, session, bot_h = make_bot(client)
    _, human_h = account(client, "Hum")
    challenge = api.post(f"/api/bots/{bot}/challenge", human_h, status=201)
    match_id = api.post(f"/api/challenges/{challenge['id']}/accept", bot_h)["match_id"]
    token = bot_h["Authorization"].split()[1]
    [listed] = [t for t in api.get("/api/me/tokens", session)["tokens"] if not t["revoked"]]
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        assert receive(ws)["d"]["you"] == 1
        assert client.delete(f"/api/me/tokens/{listed['id']}", headers=session).status_code == 204
        frame = receive(ws)
        assert frame["t"] == "error" and frame["d"]["code"] == "unauthorized"
    with client.websocket_connect(f"/ws/matches/{match_id}?token={token}") as ws:
        assert receive(ws)["d"]["code"] == "unauthorized"


def test_rated_needs_an_account_and_a_dead_claim_is_taken_again(
    api: Api, client: TestClient
) -> None:
    bot, _, bot_h = make_bot(client)
    _, _, guest_h = api.player("Gus")
    r = client.post(f"/api/bots/{bot}/challenge", json={"rated": True}, headers=guest_h)
    assert r.status_code == 409 and r.json()["error"]["reason"] == "rated_account"
    _, human_h = account(client, "Hum")
    challenge = api.post(f"/api/bots/{bot}/challenge", human_h, status=201)
    runtime: Runtime = client.app.state.runtime  # type: ignore[attr-defined]
    from datetime import timedelta

    from sqlalchemy import update

    from app.db.models import utcnow
    from app.db.platform import bot_challenges

    async def half_accepted(minutes: int) -> None:
        async with runtime.storage.db.transaction() as conn:
            await conn.execute(
                update(bot_challenges)
                .where(bot_challenges.c.id == challenge["id"])
                .values(status="accepting", updated_at=utcnow() - timedelta(minutes=minutes))
            )

    client.portal.call(half_accepted, 0)  # type: ignore[union-attr]
    assert api.get(f"/api/challenges/{challenge['id']}", human_h)["status"] == "open"
    r = client.post(f"/api/challenges/{challenge['id']}/accept", headers=bot_h)
    assert r.status_code == 409  # another request is seating the bot right now
    client.portal.call(half_accepted, 5)  # type: ignore[union-attr]
    accepted = api.post(f"/api/challenges/{challenge['id']}/accept", bot_h)
    assert accepted["status"] == "accepted" and accepted["match_id"]
