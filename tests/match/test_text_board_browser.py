"""A whole 2-player match played with the keyboard alone through the text board
(frontend/js/match/access/textBoard.js), checked through the accessibility tree: the text board is a
named region, the choices are a labelled list and a button, every move is read out by the
``aria-live`` announcer, and the board's list of tiles grows with the match. Ann plays on a
desktop, Ben on a phone. Screenshots of both (``test-artifacts/text-board-*.png``).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser.ui import Player, Server, create_private_lobby, join_by_code

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]

CHOICE = "document.activeElement && ['tb-placement', 'tb-spot'].includes(document.activeElement.id)"


def _turn_on(player: Player) -> None:
    page = player.page
    page.keyboard.press("t")
    region = page.get_by_role("region", name="The board in words")
    region.wait_for()
    assert page.get_by_role("button", name="Text board").get_attribute("aria-pressed") == "true"


def test_a_whole_match_with_the_keyboard_and_the_text_board(
    server: str, browser: Any, artifacts: Any
) -> None:
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben", viewport={"width": 390, "height": 844})
    srv = None
    try:
        code = create_private_lobby(ann)
        join_by_code(ben, code)
        ann.page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
        ann.page.click("#start-match")  # setting the table up is not the match
        for p in (ann, ben):
            p.page.wait_for_selector("#match[data-version]")
            _turn_on(p)
        match_id = re.search(r"#/match/([^?]+)", ann.page.url).group(1)  # type: ignore[union-attr]
        srv = Server(server, match_id, code)
        players = [ann, ben]
        followers = 0
        shots = set()
        while True:
            match = srv.match()
            if match["status"] == "finished":
                break
            state, version = match["state"], match["version"]
            acting = players[state["seat"]]
            page = acting.page
            acting.wait_version(version)  # the page shows what the server says
            page.wait_for_function(CHOICE)
            if state["phase"] == "place_tile":
                where = page.get_by_role("combobox", name="Where to place the tile")
                assert where.evaluate("e => e === document.activeElement")
                assert where.locator("option").count() == len(state["legal_placements"])
                if version > 10 and state["seat"] not in shots:
                    shots.add(state["seat"])
                    label = "desktop" if state["seat"] == 0 else "phone"
                    page.screenshot(path=str(artifacts / f"text-board-{label}.png"))
            else:
                spot = page.get_by_role("combobox", name="Follower")
                assert spot.locator("option").first.inner_text() == "No follower"
                if state["legal_spots"] and state["supply"][state["seat"]] > 3 and version % 3:
                    page.keyboard.press("ArrowDown")  # the first follower place
                    followers += 1
            if version in (4, 5):  # a typed command instead of the lists
                page.keyboard.press("Tab")
                page.keyboard.press("Tab")
                box = page.get_by_role("textbox", name="Or type a move")
                assert box.evaluate("e => e === document.activeElement")
                if version == 4:
                    page.keyboard.type("place 99 99")
                    page.keyboard.press("Enter")
                    alert = page.get_by_role("alert").filter(has_text="not a move")
                    alert.wait_for()
                    page.keyboard.press("Control+A")
                    x, y, r = state["legal_placements"][-1]
                    page.keyboard.type(f"place {x} {y} {r}")
                else:
                    page.keyboard.type("pass")
                page.keyboard.press("Enter")
                acting.wait_version(version + 1)
                continue
            page.keyboard.press("Tab")
            focused = page.evaluate("document.activeElement.textContent")
            assert focused in ("Place the tile", "Confirm"), focused
            page.keyboard.press("Enter")
            acting.wait_version(version + 1)
        assert followers > 0
        for p in players:
            p.wait_version(srv.match()["version"])
            p.page.wait_for_selector("#tb-waiting")
            assert p.page.inner_text("#tb-waiting") == "The match is over."
            said = p.page.inner_text("#announcer")
            assert said.strip(), "the last move was read out"
            tiles = p.page.get_by_role("region", name="The board in words").get_by_role("listitem")
            assert tiles.count() == len(srv.match()["state"]["board"])
            assert p.errors == []
    finally:
        if srv is not None:
            srv.close()
        ann.context.close()
        ben.context.close()
