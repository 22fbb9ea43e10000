"""Issue 14's client polish, in a real browser: languages (the message catalogue), and the
pieces that follow it (chat, sound, dark theme, rough edges) as they land.
"""

from __future__ import annotations

import random
import re

import pytest

from tests.support.browser.ui import (
    Player,
    create_private_lobby,
    join_by_code,
    place_tile,
    start_against_a_bot,
)

pytestmark = pytest.mark.browser


def test_language_follows_the_browser_and_the_switcher_and_stays(server, browser, artifacts):
    # A German browser gets German, with <html lang="de">.
    anna = Player.open(browser, server, "Anna", locale="de-DE")
    page = anna.page
    assert page.evaluate("document.documentElement.lang") == "de"
    nav = page.inner_text(".topnav")
    assert "Tische" in nav and "Kartenübersicht" in nav and "Tables" not in nav
    # A server error reaches the screen through the catalogue by its code.
    page.goto("/#/match/no-such-match")
    page.wait_for_selector("#missing")
    assert "Diese Partie gibt es nicht" in page.inner_text("#missing")
    page.screenshot(path=str(artifacts / "i18n-de-error.png"))

    # The switcher changes the language at once, and the choice survives a reload.
    page.select_option(".lang-select", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert "Guide des tuiles" in page.inner_text(".topnav")
    assert "Cette partie est introuvable" in page.inner_text("#missing")
    page.reload()
    page.wait_for_selector("#missing")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.input_value(".lang-select") == "fr"
    assert anna.errors == []
    anna.context.close()


def test_an_english_browser_gets_english(server, browser):
    ben = Player.open(browser, server, "Ben", locale="en-GB")
    assert ben.page.evaluate("document.documentElement.lang") == "en"
    nav = ben.page.inner_text(".topnav")
    assert "Tables" in nav and "Tile guide" in nav
    ben.context.close()


def _match_against_a_bot(player: Player) -> None:
    create_private_lobby(player)
    start_against_a_bot(player)
    player.page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')


def test_sound_cues_wait_for_a_gesture_and_the_mute_toggle_is_remembered(
    server, browser, artifacts
):
    # Before any interaction nothing plays, even when asked.
    context = browser.new_context(base_url=server)
    page = context.new_page()
    page.goto("/")
    page.wait_for_selector("#name")
    assert page.evaluate("import('/js/sound.js').then(s => s.play('turn'))") is False
    assert page.evaluate("window.carcassonneSounds") == []
    context.close()

    ann = Player.open(browser, server, "Ann")
    page = ann.page
    _match_against_a_bot(ann)
    # Your turn, a tile placed, the bot's move, your turn again: cues play (the page was used).
    rng = random.Random(3)
    place_tile(ann, rng)
    page.wait_for_selector('#match[data-phase="deploy"]')
    page.click("#no-follower")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    page.wait_for_function("window.carcassonneSounds.includes('turn')")
    played = page.evaluate("window.carcassonneSounds")
    assert "tile" in played or "points" in played, played
    # The title and the favicon say it is your turn; the announcer says it in words.
    assert page.title().startswith("●")
    assert page.evaluate("document.documentElement.dataset.myTurn") == "true"
    page.wait_for_function("document.querySelector('#announcer').textContent.includes('Your turn')")

    toggle = page.locator("#match .sound-toggle")
    assert toggle.get_attribute("aria-pressed") == "true"
    toggle.click()
    assert toggle.get_attribute("aria-pressed") == "false"
    page.screenshot(path=str(artifacts / "sound-muted.png"))
    count = len(page.evaluate("window.carcassonneSounds"))
    place_tile(ann, rng)
    page.wait_for_selector('#match[data-phase="deploy"]')
    page.click("#no-follower")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    assert len(page.evaluate("window.carcassonneSounds")) == count  # muted: nothing played
    # Remembered: after a reload the toggle is still off.
    page.reload()
    page.wait_for_selector("#match .sound-toggle")
    assert page.get_attribute("#match .sound-toggle", "aria-pressed") == "false"
    assert ann.errors == []
    ann.context.close()


def _background(page) -> str:
    return page.evaluate("getComputedStyle(document.body).backgroundColor")


def test_dark_theme_follows_the_system_and_the_toggle(server, browser, artifacts):
    dark = Player.open(browser, server, "Dora", color_scheme="dark")
    page = dark.page
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    rgb = [int(x) for x in re.findall(r"\d+", _background(page))[:3]]
    assert sum(rgb) < 150, rgb  # a dark page
    page.screenshot(path=str(artifacts / "theme-dark-lobbies.png"))
    _match_against_a_bot(dark)
    page.screenshot(path=str(artifacts / "theme-dark-match.png"))
    # The board's tiles keep their colours (a light tile on the dark felt).
    assert page.locator("#board [data-tile-at]").count() >= 1
    dark.context.close()

    light = Player.open(browser, server, "Lea", color_scheme="light")
    page = light.page
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    page.click("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"
    assert page.get_attribute("#theme-toggle", "aria-pressed") == "true"
    page.reload()
    page.wait_for_selector("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") == "dark"  # remembered
    page.click("#theme-toggle")
    assert page.evaluate("document.documentElement.dataset.theme") == "light"
    assert light.errors == []
    light.context.close()


def _acting(players: list[Player]) -> tuple[Player, Player]:
    for p in players:
        if p.page.get_attribute("#match", "data-my-turn") == "true":
            return p, next(q for q in players if q is not p)
    raise AssertionError("nobody's turn")


def test_rough_edges_null_only_way_long_names_and_bad_links(server, browser, artifacts):
    long_name = "Bartholomew Maximilian X"  # 24 characters, the longest name
    ann = Player.open(browser, server, long_name)
    code = create_private_lobby(ann, seats=2)
    ben = Player.open(browser, server, "Ben")
    join_by_code(ben, code)
    # The waiting room cuts the long name visibly and shows it whole on hover.
    seat = ben.page.locator('#seats li.seat[data-seat="0"] .seat-name')
    assert seat.get_attribute("title") == long_name
    ann.page.click("#start-match")
    for p in (ann, ben):
        p.page.wait_for_selector('#match[data-phase="place_tile"]')
    name = ben.page.locator('#players .player[data-seat="0"] .player-name b')
    assert name.get_attribute("title") == long_name
    # Read in one step of the page (a players panel drawn again between finding the element
    # and reading it left a detached node, whose computed style is empty).
    assert (
        ben.page.evaluate(
            "() => getComputedStyle(document.querySelector("
            "'#players .player[data-seat=\"0\"] .player-name b')).textOverflow"
        )
        == "ellipsis"
    )

    rng = random.Random(7)
    nudged = False
    for turn in range(8):
        actor, other = _acting([ann, ben])
        page = actor.page
        page.wait_for_selector("#board .legal-cell")
        cells = page.eval_on_selector_all(
            "#board .legal-cell", "els => els.map(e => [e.dataset.cell, e.dataset.rotations])"
        )
        single = [c for c, rots in cells if len(rots.split(",")) == 1]
        if single and not nudged:
            # Rotating a tile that fits only one way: said in the tray, no popup.
            page.click(f'#board .legal-cell[data-cell="{single[0]}"]')
            page.click("#rotate-cw")
            page.wait_for_selector(".tray-only-way.nudge")
            page.click("#rotate-cw")
            assert page.locator("#toasts .toast", has_text="only this way").count() == 0
            page.screenshot(path=str(artifacts / "rough-only-way.png"))
            nudged = True
            page.click("#confirm-placement")
        else:
            place_tile(actor, rng)
        # While the other player chooses a follower, no "null" anywhere on the watcher's page.
        other.page.wait_for_selector('#match[data-phase="deploy"]')
        assert "null" not in other.page.inner_text("#tray")
        assert "null" not in other.page.inner_text("#side-panel")
        page.wait_for_selector("#no-follower")
        page.click("#no-follower")
        other.page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
        if nudged and turn >= 1:
            break
    assert nudged, "no tile fitted a cell one way only in 8 turns"
    # Each player's last tile is outlined (the latest boldest); a log line shows its tile.
    assert ben.page.locator("#board .last-move").count() == 2
    assert ben.page.locator("#board .last-move.latest").count() == 1
    # A click in the middle of a line shows it on the board: the line's replay link ("↺ 3")
    # sits at its far end (it sat right after short texts, under the middle: the click opened
    # the replay instead, depending on the deal).
    line = ben.page.locator("#log li.log-link").nth(1)
    on_link = line.evaluate(
        "li => { const r = li.getBoundingClientRect();"
        " const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);"
        " return !!(hit && hit.closest('a.log-replay')); }"
    )
    assert not on_link
    for item in ben.page.locator("#log li.log-link").all():
        box, link = item.bounding_box(), item.locator("a.log-replay")
        if box and link.count():
            edge = link.bounding_box()
            assert edge and box["x"] + box["width"] - (edge["x"] + edge["width"]) < 12
    line.click()
    ben.page.wait_for_selector("#board .highlight rect")
    assert ben.page.get_attribute("#match", "data-highlighted")
    ben.page.screenshot(path=str(artifacts / "rough-long-name-and-log.png"))

    # A bad invite link says what happened and offers the tables, not a useless "Try again".
    ben.page.goto("/#/lobby/NoSuchTable1")
    ben.page.wait_for_selector("#missing")
    text = ben.page.inner_text("#missing")
    assert "no table" in text and "NoSuchTable1" in text
    assert ben.page.locator("#missing a#missing-tables").count() == 1
    assert ben.page.get_by_role("button", name="Try again").count() == 0
    ben.page.screenshot(path=str(artifacts / "rough-bad-invite.png"))
    assert ann.errors == [] and ben.errors == []
    ann.context.close()
    ben.context.close()


def test_phone_landscape_gives_the_board_the_height(server, browser, artifacts):
    phone = Player.open(
        browser,
        server,
        "Pia",
        viewport={"width": 844, "height": 390},
        is_mobile=True,
        has_touch=True,
    )
    page = phone.page
    _match_against_a_bot(phone)
    box = page.locator(".board-host").bounding_box()
    assert box is not None and box["height"] >= 300, box
    # The tray's controls are still on screen.
    tray = page.locator("#tray").bounding_box()
    assert tray is not None
    assert tray["x"] + tray["width"] <= 844 and tray["y"] + tray["height"] <= 390
    page.screenshot(path=str(artifacts / "rough-phone-landscape.png"))
    assert phone.errors == []
    phone.context.close()
