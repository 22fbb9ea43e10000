"""Issue 14's client polish, in a real browser: languages (the message catalogue), and the
pieces that follow it (chat, sound, dark theme, rough edges) as they land."""

from __future__ import annotations

import pytest

from tests.browser.ui import Player

pytestmark = pytest.mark.browser


def test_language_follows_the_browser_and_the_switcher_and_stays(server, browser, artifacts):
    # A German browser gets German, with <html lang="de">.
    anna = Player.open(browser, server, "Anna", locale="de-DE")
    page = anna.page
    assert page.evaluate("document.documentElement.lang") == "de"
    assert page.inner_text(".topnav").split() == ["Tische", "Kartenübersicht"]
    # A server error reaches the screen through the catalogue by its code.
    page.goto("/#/match/no-such-match")
    page.wait_for_selector(".error-panel")
    assert "gibt es nicht" in page.inner_text(".error-panel")
    page.screenshot(path=str(artifacts / "i18n-de-error.png"))

    # The switcher changes the language at once, and the choice survives a reload.
    page.select_option(".lang-select", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    assert "Guide des tuiles" in page.inner_text(".topnav")
    assert "n’existe pas" in page.inner_text(".error-panel")
    page.reload()
    page.wait_for_selector(".error-panel")
    assert page.evaluate("document.documentElement.lang") == "fr"
    assert page.input_value(".lang-select") == "fr"
    assert anna.errors == []
    anna.context.close()


def test_an_english_browser_gets_english(server, browser):
    ben = Player.open(browser, server, "Ben", locale="en-GB")
    assert ben.page.evaluate("document.documentElement.lang") == "en"
    assert ben.page.inner_text(".topnav").split() == ["Tables", "Tile", "guide"]
    ben.context.close()
