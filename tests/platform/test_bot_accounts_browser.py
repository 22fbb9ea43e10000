"""Bot accounts in a real browser (docs/BOT_API.md): a bot's profile shows BOT and a challenge
form; challenging it from there, a bot program (here a thread reading the bot's event stream)
accepts and the page opens the match, where the bot's seat says BOT. A host invites the bot
into a lobby seat from the waiting room (the open list survives the table's updates); once it
accepts, its seat says BOT.
"""

from __future__ import annotations

import json
import secrets
import threading
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import TIMEOUT_MS, sign_in_with_token

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]
PASSWORD = "correct horse battery"


def _account(http: httpx.Client, stem: str) -> dict[str, Any]:
    r = http.post(
        "/api/accounts", json={"username": f"{stem}{secrets.token_hex(3)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def _bot(http: httpx.Client) -> tuple[dict[str, Any], str]:
    bot = _account(http, "robo")
    session = {"Authorization": f"Bearer {bot['token']}"}
    assert http.post("/api/me/bot", headers=session).status_code == 200
    r = http.post("/api/me/tokens", json={"name": "t", "scopes": ["play"]}, headers=session)
    return bot, str(r.json()["token"])


def _accept_next(server: str, token: str, box: dict[str, Any]) -> threading.Thread:
    """A thread that plays the bot program's part: read the stream, accept the first challenge."""

    def run() -> None:
        auth = {"Authorization": f"Bearer {token}"}
        try:
            with (
                httpx.Client(base_url=server, timeout=60) as http,
                http.stream("GET", "/api/bot/stream", headers=auth) as r,
            ):
                for line in r.iter_lines():
                    if not line:
                        continue
                    event = json.loads(line)
                    if event["type"] == "challenge":
                        cid = event["challenge"]["id"]
                        box["accepted"] = http.post(
                            f"/api/challenges/{cid}/accept", headers=auth
                        ).json()
                        return
        except Exception as exc:  # reported by the test
            box["error"] = repr(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    return thread


def test_challenge_a_bot_from_its_profile_and_invite_one_to_a_seat(
    server: str, browser: Any, artifacts: Path
) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        bot, bot_token = _bot(http)
        ann = _account(http, "ann")
    bot_id = bot["account"]["id"]
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    sign_in_with_token(page, ann["token"], ann["account"])

    page.goto(f"/#/player/{bot_id}")
    page.reload()
    page.wait_for_selector("#profile-name .tag.botaccount")
    assert page.inner_text("#profile-name .tag.botaccount") == "BOT"
    page.wait_for_selector("#challenge-send")
    page.screenshot(path=str(artifacts / "bot-profile.png"))
    box: dict[str, Any] = {}
    thread = _accept_next(server, bot_token, box)
    page.select_option("#challenge-preset", "river")
    page.click("#challenge-send")
    page.wait_for_url("**/#/match/**", timeout=30_000)
    thread.join(30)
    assert "error" not in box and box["accepted"]["status"] == "accepted", box
    match_id = box["accepted"]["match_id"]
    assert match_id in page.url
    bot_seat = page.locator('li.player[data-seat="1"]')
    bot_seat.locator(".tag.botaccount").wait_for()
    page.screenshot(path=str(artifacts / "bot-match.png"))

    with httpx.Client(base_url=server, timeout=30) as http:
        auth = {"Authorization": f"Bearer {ann['token']}"}
        lobby = http.post("/api/lobbies", json={"seats": 3}, headers=auth).json()
    page.goto(f"/#/lobby/{lobby['code']}")
    # The list opens at the last seat; then someone joins (the first free seat): the table's
    # update re-renders the room, and the host's open list stays open where it was.
    page.click("#seats .invite-bot-btn >> nth=1")
    page.wait_for_selector('#seats li.seat[data-seat="2"] select.bot-choice')
    with httpx.Client(base_url=server, timeout=30) as http:
        bob = _account(http, "bob")
        r = http.post(
            f"/api/lobbies/{lobby['code']}/join",
            headers={"Authorization": f"Bearer {bob['token']}"},
        )
        assert r.status_code == 200, r.text
    page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    assert page.locator('#seats li.seat[data-seat="2"] select.bot-choice').count() == 1
    box = {}
    thread = _accept_next(server, bot_token, box)
    page.select_option("select.bot-choice", bot_id)
    thread.join(30)
    assert "error" not in box and box["accepted"]["lobby_code"] == lobby["code"], box
    page.locator('#seats li.seat[data-seat="2"] .tag.botaccount').wait_for()
    page.screenshot(path=str(artifacts / "bot-lobby-seat.png"))
    assert not errors, errors
    context.close()
