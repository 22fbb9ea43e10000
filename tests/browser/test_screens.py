"""The other screens: the tile guide's self-check, keyboard play against a computer player,
public tables and live matches in the lobby browser (watching from the list), readable errors.
"""

from __future__ import annotations

import re

import httpx
import pytest

from tests.support.browser.ui import Player, Server, create_private_lobby

pytestmark = pytest.mark.browser


def test_tile_guide_draws_every_tile_and_separates_its_fields(server, browser):
    catalogue = httpx.get(f"{server}/api/catalogue", timeout=10).json()["tiles"]
    drawable = [t["id"] for t in catalogue if t["count"] > 0]
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/#/tiles")
    check = page.wait_for_selector("#guide-check")
    # The art of every tile type separates exactly the fields the catalogue lists.
    assert check.get_attribute("data-problems") == "0", check.inner_text()
    shown = page.eval_on_selector_all(".guide-tile", "els => els.map(e => e.dataset.tile)")
    assert sorted(shown) == sorted(drawable)
    # Cities have walls, pennants shields, cloisters buildings, the river water.
    assert page.locator('.guide-tile[data-tile="C"] .pennant').count() == 1
    assert page.locator('.guide-tile[data-tile="B"] .cloister').count() == 1
    assert page.locator('.guide-tile[data-tile="X"] .house').count() == 1
    assert errors == []
    context.close()


def test_keyboard_play_against_a_computer_while_someone_watches_from_the_list(server, browser):
    ann = Player.open(browser, server, "Ann")
    page = ann.page
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    page.click('[data-preset="first_edition"]')
    page.click('[data-seats="2"]')
    page.click("#vis-public")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    code = page.inner_text("#invite-code").strip()

    # Ben sees the public table in the lobby browser (the list refreshes by itself).
    ben = Player.open(browser, server, "Ben")
    ben.page.wait_for_selector(f'#open-lobbies [data-lobby="{code}"]')

    page.click("#seats .add-bot")
    page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    page.click("#start-match")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
    srv = Server(server, match_id, None)
    assert srv.match()["state"]["rules"]["farm_scoring"] == "original"

    # Ben watches from the list of live matches.
    ben.page.wait_for_selector(f'#live-matches [data-match="{match_id}"] .watch')
    ben.page.click(f'#live-matches [data-match="{match_id}"] .watch')
    ben.page.wait_for_selector('#match[data-role="spectator"]')

    for _turn in range(3):
        version = srv.match()["version"]
        ann.wait_version(version)
        page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
        page.focus("#board")
        page.keyboard.press("ArrowRight")
        page.wait_for_selector("#board .kbd-cursor")
        page.keyboard.press("Enter")
        preview = page.wait_for_selector("#board .preview.selected")
        before = preview.get_attribute("data-rotation")
        cell = preview.get_attribute("data-preview")
        rotations = (
            page.get_attribute(f'#board .legal-cell[data-cell="{cell}"]', "data-rotations") or ""
        )
        page.keyboard.press("r")
        after = page.get_attribute("#board .preview.selected", "data-rotation")
        assert (after != before) == (len(rotations.split(",")) > 1)
        assert after in rotations.split(",")
        page.keyboard.press("Enter")
        page.wait_for_selector('#match[data-phase="deploy"]')
        ann.wait_version(version + 1)
        if page.locator("#board .target").count():
            page.keyboard.press("ArrowRight")
            page.wait_for_selector("#board .target.focused")
            page.keyboard.press("Enter")
        else:
            page.keyboard.press("n")
        # The computer answers; the turn comes back.
        ann.wait_version(version + 3)
        # Keyboard focus stays visible on the board.
        assert page.evaluate("document.activeElement && document.activeElement.id") == "board"

    ben.wait_version(srv.match()["version"])
    assert ben.page.locator("#tray #rotate-cw").count() == 0  # spectators cannot act
    assert "placed a tile" in ben.page.inner_text("#log")
    assert ann.errors == [] and ben.errors == []
    ann.context.close()
    ben.context.close()
    srv.close()


def test_errors_are_readable(server, browser):
    context = browser.new_context(base_url=server, viewport={"width": 1000, "height": 800})
    page = context.new_page()
    page.goto("/")
    page.fill("#name", "   ")
    page.click("#start-continue")
    assert "enter a name" in page.inner_text("#name-error")
    page.fill("#name", "<script>")
    page.click("#start-continue")
    assert "only" in page.inner_text("#name-error")
    page.fill("#name", "Dee")
    page.click("#start-continue")
    page.wait_for_selector("#create-lobby")
    # Links that lead nowhere say so in words and offer the tables (issue 14).
    page.goto("/#/lobby/no-such-table")
    panel = page.wait_for_selector("#missing")
    assert "no table" in panel.inner_text()
    page.goto("/#/match/no-such-match")
    panel = page.wait_for_selector("#missing")
    assert "cannot be found" in panel.inner_text()
    context.close()


def test_waiting_room_colours_options_bots_kick_and_presence(server, browser):
    ann = Player.open(browser, server, "Ann")
    code = create_private_lobby(ann, seats=3)
    # Ben opens the invite link before he has a name: the start screen, then his seat.
    context = browser.new_context(base_url=server, viewport={"width": 1200, "height": 900})
    context.set_default_timeout(15_000)
    ben = Player("Ben", context, context.new_page())
    ben.page.on("pageerror", lambda exc: ben.errors.append(str(exc)))
    ben.page.goto(f"/#/lobby/{code}")
    ben.page.fill("#name", "Ben")
    ben.page.click("#start-continue")
    ben.page.wait_for_selector("#seats li.seat.mine")
    assert ben.page.url.endswith(f"#/lobby/{code}")
    ann_seat_ben = '#seats li.seat[data-seat="1"]'
    ann.page.wait_for_selector(f"{ann_seat_ben}:not(.empty) .conn.on")

    # Ben picks green; Ann sees it (colour and shape are both shown).
    ben.page.click('.colour-picker [data-colour="green"]')
    ann.page.wait_for_selector(f'{ann_seat_ben}[data-colour="green"]')
    assert ann.page.locator('.colour-picker [data-colour="green"]').is_disabled()

    # The host changes the rules; Ben's room follows.
    ann.page.click('.host-rules [data-preset="river"]')
    ben.page.wait_for_function(
        "document.querySelector('#room-title').parentElement.textContent.includes('River')"
    )

    # Computer players: add one, remove it.
    ann.page.click("#seats .add-bot")
    ben.page.wait_for_selector('#seats li.seat[data-seat="2"]:not(.empty) .tag.bot')
    ann.page.click('#seats li.seat[data-seat="2"] .remove-bot')
    ben.page.wait_for_selector('#seats li.seat[data-seat="2"].empty')

    # Connection state: Ben leaves the page, Ann sees him offline, he comes back online.
    ben.page.goto("/#/tiles")
    ann.page.wait_for_selector(f"{ann_seat_ben} .conn.off")
    ben.page.goto(f"/#/lobby/{code}")
    ann.page.wait_for_selector(f"{ann_seat_ben} .conn.on")

    # The host removes Ben.
    ann.page.once("dialog", lambda dialog: dialog.accept())
    ann.page.click(f"{ann_seat_ben} .kick")
    ann.page.wait_for_selector(f"{ann_seat_ben}.empty")
    ben.page.wait_for_selector("#take-seat")
    assert ann.errors == [] and ben.errors == []
    ann.context.close()
    ben.context.close()
