"""Every screen's text at WCAG AA contrast in both themes (tests/browser/contrast.py): the
start screen, the tables, creating a table, the waiting room, the tile guide, the account
screen, the ratings and the replay viewer's record screen.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.browser.contrast import LOW_CONTRAST
from tests.browser.ui import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SCREENS = [
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
