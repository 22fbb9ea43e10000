"""axe-core on every screen in both themes (tests/browser/axe.py): no serious or critical
violation on the start screen, the tables, creating a table, the waiting room, a live match
(with and without its text board), the tile guide, the account screen, the ratings, the
replay viewer, the tournaments and a player's profile. Screenshots: ``test-artifacts/axe-*``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.browser.axe import violations
from tests.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SCREENS = [
    ("start", "/#/start", "#start-continue"),
    ("tables", "/#/lobbies", "#open-lobbies"),
    ("create", "/#/create", "#create-submit"),
    ("guide", "/#/tiles", ".guide-tile"),
    ("account", "/#/account", "#view form"),
    ("ratings", "/#/leaderboard/standard", "#view h1"),
    ("replays", "/#/replay", "#view h1"),
    ("tournaments", "/#/tournaments", "#view h1"),
]


def _check(page: Any, name: str, scheme: str, found: dict[str, Any], artifacts: Any) -> None:
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    page.screenshot(path=str(artifacts / f"axe-{name}-{scheme}.png"))
    bad = violations(page)
    if bad:
        found[name] = bad


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_has_no_serious_violation(
    server: str, browser: Any, scheme: str, artifacts: Any
) -> None:
    player = Player.open(browser, server, "Axe", color_scheme=scheme)
    page = player.page
    found: dict[str, Any] = {}
    try:
        for name, url, ready in SCREENS:
            page.goto(url)
            page.wait_for_selector(ready)
            _check(page, name, scheme, found, artifacts)
        page.goto("/#/lobbies")
        page.wait_for_selector("#create-lobby")
        create_private_lobby(player)
        page.wait_for_selector("#seats")
        _check(page, "room", scheme, found, artifacts)
        start_against_a_bot(player)
        page.wait_for_selector("#match")
        page.wait_for_selector("#tray")
        _check(page, "match", scheme, found, artifacts)
        page.keyboard.press("t")  # the text board (match/textBoard.js)
        page.wait_for_selector("#text-board:not([hidden])")
        _check(page, "match-text-board", scheme, found, artifacts)
        player_id = page.evaluate("JSON.parse(localStorage.getItem('carcassonne.player')).id")
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        page.goto(f"/#/player/{player_id}")
        page.wait_for_selector("#view h1")
        _check(page, "profile", scheme, found, artifacts)
        page.goto(f"/#/replay/{match_id}")
        page.wait_for_selector("#view h1")
        _check(page, "replay", scheme, found, artifacts)
        total = sum(len(v) for v in found.values())
        print(f"axe ({scheme}): {total} serious/critical rules failing", found)
        assert found == {}, found
    finally:
        player.context.close()
