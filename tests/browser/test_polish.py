"""Issue 14's client polish, in a real browser: languages (the message catalogue), and the
pieces that follow it (chat, sound, dark theme, rough edges) as they land."""

from __future__ import annotations

import random
import re

import pytest

from tests.browser.ui import Player, place_tile

pytestmark = pytest.mark.browser


def test_language_follows_the_browser_and_the_switcher_and_stays(server, browser, artifacts):
    # A German browser gets German, with <html lang="de">.
    anna = Player.open(browser, server, "Anna", locale="de-DE")
    page = anna.page
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.inner_text(".topnav").split() == ["Tische", "Kartenübersicht"]
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
    assert ben.page.inner_text(".topnav").split() == ["Tables", "Tile", "guide"]
    ben.context.close()


def _match_against_a_bot(player: Player) -> None:
    page = player.page
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    page.click('[data-seats="2"]')
    page.click("#vis-private")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    page.click("#seats .add-bot")
    page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    page.click("#start-match")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')


def test_sound_cues_wait_for_a_gesture_and_the_mute_toggle_is_remembered(
        server, browser, artifacts):
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
