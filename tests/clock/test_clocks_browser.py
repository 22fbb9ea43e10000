"""Clocks and leaving in the browser: the host picks a per-turn clock in the waiting room,
both players see running clocks; Ben leaves, Ann sees "Ben left — the computer takes over in
…" counting down, then votes to hand his seat to the computer and sees its moves marked in
the log (the vote and the marks also in German).
"""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.support.browser.fixtures import running_server
from tests.support.browser.ui import Player, Server, create_private_lobby, join_by_code, play_turn

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


@pytest.fixture(scope="module")
def quick_leave(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose leave grace is 4 s (the vote then runs 60 s)."""
    with running_server(
        tmp_path_factory.mktemp("clock-server"),
        LEAVE_GRACE="4",
        LEAVE_VOTE="60",
        ABANDON_AFTER="600",
    ) as base:
        yield base


def test_a_leaver_countdown_a_vote_and_the_computers_moves(quick_leave: str, browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, quick_leave, "Ann")
    ben = Player.open(browser, quick_leave, "Ben")
    code = create_private_lobby(ann, seats=2)
    ann.page.select_option("#time-control", "turn120")
    ann.page.wait_for_function(
        "document.querySelector('#room-time').textContent === '2 min per turn'"
    )
    # In one step of the page: the room may draw the table again (the server's answer to the
    # choice) while Playwright waits for the element to be stable, detaching it.
    ann.page.evaluate("document.querySelector('#time-control').scrollIntoView({block: 'center'})")
    ann.page.screenshot(path=str(ARTIFACTS / "lobby-time-control.png"))
    join_by_code(ben, code)
    ben.page.wait_for_selector("#time-summary")
    assert "2 min per turn" in ben.page.inner_text("#time-summary")
    ann.page.click("#start-match")
    ann.page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    match_id = re.search(r"#/match/([^?]+)", ann.page.url).group(1)  # type: ignore[union-attr]
    ben.page.wait_for_selector("#match .seat-clock.running")
    srv = Server(quick_leave, match_id, code)
    try:
        # Clocks run for the seat to act, and both see the time control.
        ann.page.wait_for_selector('.seat-clock.running[data-seat="0"]')
        assert "2 min per turn" in ann.page.inner_text("#time-control")
        first = ann.page.inner_text('.seat-clock[data-seat="0"]')
        ann.page.wait_for_timeout(2100)
        assert ann.page.inner_text('.seat-clock[data-seat="0"]') != first  # it ticks
        ann.page.screenshot(path=str(ARTIFACTS / "clock-running.png"))
        after = play_turn(ann, srv, random.Random(3))
        ann.wait_version(after["version"])
        ann.page.wait_for_selector('.seat-clock.running[data-seat="1"]')
        # Ben leaves: Ann sees it at once, with a countdown.
        ben.context.close()
        ann.page.wait_for_selector("#leave-banner:not([hidden]) .countdown")
        assert "Ben left" in ann.page.inner_text("#leave-banner")
        ann.page.screenshot(path=str(ARTIFACTS / "clock-leaver-countdown.png"))
        # Grace runs out: Ann votes to hand Ben's seat to the computer.
        ann.page.wait_for_selector('#leave-banner button[data-choice="computer"]')
        ann.page.screenshot(path=str(ARTIFACTS / "clock-leaver-vote.png"))
        # In German (the match header's language switcher): the same vote, in Ann's words.
        ann.page.select_option("#match select.lang-select", "de")
        # German's catalogue is fetched first (only the reader's comes with the page): the
        # screen is drawn again once <html lang> says so, not at the select's change.
        ann.page.wait_for_function("document.documentElement.lang === 'de'")
        ann.page.wait_for_selector('#leave-banner button[data-choice="computer"]')
        banner = ann.page.inner_text("#leave-banner")
        assert "Ben ist gegangen" in banner and "Dem Computer übergeben" in banner, banner
        assert "Uhr" not in banner and "2 Min. pro Zug" in ann.page.inner_text("#time-control")
        ann.page.screenshot(path=str(ARTIFACTS / "clock-leaver-vote-de.png"))
        ann.page.click('#leave-banner button[data-choice="computer"]')
        ann.page.wait_for_selector("#players .tag.auto")
        assert ann.page.inner_text("#players .tag.auto").lower() == "computer spielt"
        ann.page.wait_for_selector('#match[data-my-turn="true"]')
        ann.page.wait_for_selector("#log li.log-computer .computer-move")
        assert ann.page.inner_text("#log li.log-computer .computer-move").lower() == "computer"
        ann.page.screenshot(path=str(ARTIFACTS / "clock-computer-moves-de.png"))
        match = srv.match()
        assert match["clock"]["auto"] == [False, True]
        record = srv.http.get(f"/api/matches/{match_id}/record", params={"code": code}).json()
        assert any(mv.get("by") == "computer" for mv in record["moves"])
    finally:
        srv.close()
    assert ann.errors == []
    ann.context.close()
