"""The "your turn" chime: once per turn, not again when the same seat decides on a follower.

The engine's ``turn`` counts placed tiles, so it moves on as the tile is placed, before that
seat's follower decision; the chime was keyed on it and played twice every turn.
"""

from __future__ import annotations

import random

import pytest

from tests.support.browser.ui import Player, create_private_lobby, place_tile, start_against_a_bot

pytestmark = pytest.mark.browser


def _turn_cues(page) -> int:  # type: ignore[no-untyped-def]
    return int(page.evaluate("window.carcassonneSounds.filter(c => c === 'turn').length"))


def test_your_turn_chimes_once_per_turn(server, browser, artifacts):
    ann = Player.open(browser, server, "Ann")
    page = ann.page
    create_private_lobby(ann)
    start_against_a_bot(ann)
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    rng = random.Random(11)
    # The first turn is on screen when the page opens: no chime (nothing changed yet).
    assert _turn_cues(page) == 0
    for turn in range(1, 4):
        place_tile(ann, rng)
        page.wait_for_selector('#match[data-phase="deploy"]')
        # Placing the tile does not start a new turn of Ann's: no chime while she decides.
        assert _turn_cues(page) == turn - 1, page.evaluate("window.carcassonneSounds")
        page.click("#no-follower")
        page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
        # The computer moved; Ann's next turn chimes exactly once.
        assert _turn_cues(page) == turn, page.evaluate("window.carcassonneSounds")
    page.screenshot(path=str(artifacts / "turn-chime-once.png"))
    assert ann.errors == []
    ann.context.close()
