"""Every screen's text at WCAG AA contrast in both themes (tests/support/browser/contrast.py): the
start screen, the tables, creating a table, the waiting room, the tile guide, the account
screen, the ratings, the replay viewer's record screen; and, around one match played to its end
against the computer, the waiting room, the match's end screen, a replay at a middle move and
the player's profile with its statistics.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.browser.contrast import LOW_CONTRAST
from tests.support.browser.ui import (
    Player,
    create_private_lobby,
    sign_in_with_token,
    start_against_a_bot,
)

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SCREENS = [
    ("/#/start", "#start-continue"),
    ("/#/lobbies", "#open-lobbies"),
    ("/#/create", "#create-submit"),
    ("/#/tiles", ".guide-tile"),
    ("/#/account", "#view form"),
    ("/#/leaderboard/standard", "#view h1"),
    ("/#/replay", "#view h1"),
]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_reads_at_aa(server: str, browser: Any, scheme: str) -> None:
    player = Player.open(browser, server, "Contrast", color_scheme=scheme)
    page = player.page
    found: dict[str, Any] = {}
    try:
        for url, ready in SCREENS:
            page.goto(url)
            page.wait_for_selector(ready)
            page.wait_for_timeout(400)
            assert page.evaluate("document.documentElement.dataset.theme") == scheme
            low = page.evaluate(LOW_CONTRAST, "body")
            if low:
                found[url] = low
        assert found == {}, found
    finally:
        player.context.close()


def _finish_against_the_computer(server: str, match_id: str, token: str) -> None:
    """Play seat 0's turns over REST (first legal placement, no follower) until the end."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=server, timeout=30, headers=headers) as http:
        deadline = time.monotonic() + 150
        while time.monotonic() < deadline:
            m = http.get(f"/api/matches/{match_id}").json()
            if m["status"] == "finished":
                return
            state = m["state"]
            if state["seat"] != 0:
                time.sleep(0.05)
                continue
            if state["phase"] == "place_tile":
                x, y, r = state["legal_placements"][0]
                d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
            else:
                d = {"type": "pass"}
            http.post(
                f"/api/matches/{match_id}/actions",
                json={"v": m["version"], "id": f"c{m['version']}", "d": d},
            )
    raise AssertionError("the match did not finish")


@pytest.fixture(scope="module")
def finished(server: str, browser: Any) -> Iterator[tuple[str, str, str]]:
    """``(lobby code, match id, player token)`` of a match played to its end against the
    computer by a guest whose browser state the contrast test reuses.
    """
    player = Player.open(browser, server, "Finisher")
    try:
        code = create_private_lobby(player)
        page = player.page
        page.wait_for_selector("#seats")
        start_against_a_bot(player)
        page.wait_for_selector("#match")
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        token = page.evaluate("localStorage.getItem('carcassonne.token')")
        who = page.evaluate("localStorage.getItem('carcassonne.player')")
    finally:
        player.context.close()
    _finish_against_the_computer(server, match_id, token)
    yield code, match_id, f"{token}\n{who}"


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_room_end_screen_replay_and_profile_read_at_aa(
    server: str, browser: Any, scheme: str, finished: tuple[str, str, str], artifacts: Any
) -> None:
    _, match_id, saved = finished
    token, who = saved.split("\n", 1)
    context = browser.new_context(
        base_url=server, color_scheme=scheme, viewport={"width": 1366, "height": 900}
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    found: dict[str, Any] = {}
    try:
        sign_in_with_token(page, token, json.loads(who))
        player_id = page.evaluate("JSON.parse(localStorage.getItem('carcassonne.player')).id")
        # An open waiting room of this player's (the finished match's table has started).
        room = httpx.post(
            f"{server}/api/lobbies",
            headers={"Authorization": f"Bearer {token}"},
            json={"seats": 3, "private": True, "time_control": {"kind": "per_turn", "seconds": 60}},
        ).json()["code"]
        screens = [
            (f"/#/lobby/{room}", "#seats", "room"),
            (f"/#/match/{match_id}", "#end-screen", "end"),
            (f"/#/replay/{match_id}", "#replay-slider", "replay"),
            (f"/#/player/{player_id}", "#profile-statistics .stat", "profile"),
        ]
        for url, ready, name in screens:
            page.goto(url)
            page.wait_for_selector(ready)
            if name == "replay":  # a move in the middle: the board, the log and the breakdown
                page.focus("#replay-slider")
                page.keyboard.press("Home")
                for _ in range(20):
                    page.keyboard.press("ArrowRight")
            page.wait_for_timeout(400)
            page.screenshot(path=str(artifacts / f"contrast-{name}-{scheme}.png"))
            low = page.evaluate(LOW_CONTRAST, "body")
            if low:
                found[name] = low
        summary = sorted(
            {
                (n, f["text"][:24], f["colour"], f["background"])
                for n, fs in found.items()
                for f in fs
            }
        )
        assert found == {}, "\n".join(map(str, summary))
        assert errors == [], errors
    finally:
        context.close()
