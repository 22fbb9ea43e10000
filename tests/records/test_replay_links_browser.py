"""Replay ergonomics: in a live private match every log line links to the replay at its move
(carrying the invite code, as the rewind link does); in the replay ←/→ and Home/End step
through the moves and every log line is a link to its move.
"""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from tests.support.browser.ui import (
    Player,
    Server,
    create_private_lobby,
    play_turn,
    start_against_a_bot,
)

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_log_lines_link_to_replay_moves_and_keys_step(server: str, browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, server, "Ann")
    page = ann.page
    code = create_private_lobby(ann, seats=2)
    start_against_a_bot(ann)
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
    srv = Server(server, match_id, code)
    try:
        rng = random.Random(5)
        for _ in range(2):  # Ann's moves 1 and 3, the computer's 2 and 4
            after = play_turn(ann, srv, rng)
            srv_turn = after["state"]["turn"]
            deadline = 60
            while srv.match()["state"]["seat"] != 0 and deadline:
                page.wait_for_timeout(250)
                deadline -= 1
        turn = srv.match()["state"]["turn"]
        assert turn >= 4 and srv_turn >= 3
        page.wait_for_selector(f'#match a.log-replay[data-move="{turn}"]')
        links = page.locator("#match a.log-replay")
        moves = sorted({int(m) for m in links.evaluate_all("ls => ls.map(l => l.dataset.move)")})
        assert moves == list(range(1, turn + 1)), moves
        href = page.get_attribute('#match a.log-replay[data-move="2"]', "href") or ""
        assert "move=2" in href and f"code={code}" in href, href
        page.screenshot(path=str(ARTIFACTS / "match-log-replay-links.png"))
        page.locator('#match a.log-replay[data-move="2"]').first.click()
        page.wait_for_selector("#replay-counter:has-text('Move 2 of')")
        total = int(page.get_attribute("#replay-slider", "max") or 0)
        assert total == turn
        # Keys: → forward, ← back, End the last, Home the start.
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#replay-counter:has-text('Move 3 of')")
        page.keyboard.press("ArrowLeft")
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#replay-counter:has-text('Move 1 of')")
        page.keyboard.press("End")
        page.wait_for_selector(f"#replay-counter:has-text('Move {total} of')")
        page.keyboard.press("Home")
        page.wait_for_selector("#replay-counter:has-text('Move 0 of')")
        # Every line of the replay's log is a link to its move, the later ones too.
        assert page.locator("#replay-log a.replay-move").count() >= total
        page.click('#replay-log li[data-move="3"] a.replay-move')
        page.wait_for_selector("#replay-counter:has-text('Move 3 of')")
        assert "move=3" in page.url and f"code={code}" in page.url
        assert "current" in (page.get_attribute('#replay-log li[data-move="3"]', "class") or "")
        page.screenshot(path=str(ARTIFACTS / "replay-log-links.png"))
        assert not ann.errors, ann.errors
    finally:
        srv.close()
        ann.context.close()
