"""The computer's level per seat in the waiting room, and a match against Strong and Easy."""

from __future__ import annotations

import random
import re
from pathlib import Path

import httpx
import pytest

from tests.support.browser.ui import Player, Server, create_private_lobby, play_turn

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_host_chooses_each_computer_level_and_plays_against_them(server, browser):
    ann = Player.open(browser, server, "Ann")
    page = ann.page
    code = create_private_lobby(ann, seats=3)
    page.click("#seats .add-bot")
    page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty) .level-select')
    page.click("#seats .add-bot")
    page.wait_for_selector('#seats li.seat[data-seat="2"]:not(.empty) .level-select')
    # a new computer plays Normal until the host says otherwise
    assert page.input_value('#seats li.seat[data-seat="1"] .level-select') == "normal"
    page.select_option('#seats li.seat[data-seat="1"] .level-select', "strong")
    page.wait_for_function(
        "document.querySelector('#seats li.seat[data-seat=\"1\"] .level-select').value === 'strong'"
    )
    page.select_option('#seats li.seat[data-seat="2"] .level-select', "easy")
    # the host's own seat: who stands in for Ann if she leaves
    assert page.input_value('#seats li.seat[data-seat="0"] .level-select') == "normal"

    def levels() -> list[str | None]:
        lobby = httpx.get(f"{server}/api/lobbies/{code}", timeout=10).json()
        return [s.get("level") for s in lobby["seats"]]

    deadline = 50
    while levels() != [None, "strong", "easy"] and deadline:
        page.wait_for_timeout(100)
        deadline -= 1
    assert levels() == [None, "strong", "easy"]
    ARTIFACTS.mkdir(exist_ok=True)
    page.screenshot(path=str(ARTIFACTS / "bot-levels-room.png"), full_page=True)
    labels = page.eval_on_selector_all(
        '#seats li.seat[data-seat="1"] .level-select option', "els => els.map(e => e.textContent)"
    )
    assert labels == ["Easy", "Normal", "Strong"]

    page.click("#start-match")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
    srv = Server(server, match_id, code)
    rng = random.Random(4)
    try:
        for _ in range(2):  # Ann plays; both computers answer each time
            after = play_turn(ann, srv, rng)
            ann.wait_version(after["version"] + 4)
        batches = srv.match()
        assert batches["version"] >= 10
    finally:
        srv.close()
    assert ann.errors == []
    ann.context.close()
