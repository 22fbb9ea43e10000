"""Switching the language inside a match on a phone.

On a 390 px phone the match header has no room for the language switcher (the score strip takes
it), so the match's side panel — the drawer behind the header's menu button — offers one. A player
in an English match opens the drawer, chooses Deutsch, and the match is German at once: the
drawer (open again, the switcher saying Deutsch), then the header, the status line, the tray and
the log; none of the English catalogue's sentences shows, and the header still fits the screen.
On a desktop the drawer's switcher stays hidden: the header keeps its own. Screenshots:
``phone-lang-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.browser.test_i18n_match import SHOWN, WIDER_THAN_SCREEN, _english_in
from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def _visible(page: Any, selector: str) -> bool:
    """Whether ``selector`` is shown and inside the screen (not behind the closed drawer's edge)."""
    found: bool = page.evaluate(
        """(sel) => { const e = document.querySelector(sel); if (!e) return false;
          const r = e.getBoundingClientRect(); const s = getComputedStyle(e);
          return s.display !== 'none' && s.visibility !== 'hidden' && r.width > 0
            && r.left >= 0 && r.right <= innerWidth && r.top >= 0 && r.bottom <= innerHeight; }""",
        selector,
    )
    return found


def test_a_phone_switches_the_match_to_german_from_its_panel(
    server: str, browser: Any, artifacts: Path
) -> None:
    pia = Player.open(browser, server, "Pia", locale="en-GB", **PHONE)
    page = pia.page
    create_private_lobby(pia)
    start_against_a_bot(pia)
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    assert "Your turn" in page.inner_text("#tray")
    # The header: scores, no switcher; the drawer is closed.
    assert page.is_hidden("#match .match-top .lang-select")
    assert page.is_visible(".score-strip")
    assert not _visible(page, "#panel-lang")
    page.screenshot(path=str(artifacts / "phone-lang-match-en.png"))

    # The drawer has the switcher, at its top.
    page.click(".panel-toggle")
    page.wait_for_function("document.querySelector('#match').classList.contains('panel-open')")
    page.wait_for_timeout(350)  # the drawer slides in for 250 ms
    assert _visible(page, "#panel-lang")
    assert page.input_value("#panel-lang") == "en"
    assert page.inner_text(".panel-lang").startswith("Language")
    page.screenshot(path=str(artifacts / "phone-lang-panel-en.png"))

    # Deutsch: the match re-renders in German, the drawer open where Pia was.
    page.select_option("#panel-lang", "de")
    page.wait_for_function("document.documentElement.lang === 'de'")
    page.wait_for_selector('#match.panel-open[data-my-turn="true"][data-phase="place_tile"]')
    page.wait_for_function("document.querySelector('#tray')?.innerText.includes('Du bist am Zug')")
    page.wait_for_timeout(350)
    assert _visible(page, "#panel-lang")
    assert page.input_value("#panel-lang") == "de"
    assert page.evaluate("document.activeElement && document.activeElement.id") == "panel-lang"
    panel = page.inner_text("#side-panel")
    assert "Sprache" in panel and "Spielprotokoll" in panel and "Karten übrig" in panel, panel
    assert page.text_content("#players .tag.you") == "Du"
    page.screenshot(path=str(artifacts / "phone-lang-panel-de.png"))

    # The drawer closed: the board, header, status and tray in German, inside the screen.
    page.click(".panel-toggle")
    page.wait_for_timeout(350)
    assert not _visible(page, "#panel-lang")
    status = page.inner_text("#turn-status")
    assert "Karten übrig" in status, status
    tray = page.inner_text("#tray")
    assert "Du bist am Zug" in tray and "Wähle ein leuchtendes Feld" in tray, tray
    assert page.get_attribute(".panel-toggle", "aria-expanded") == "false"
    assert page.inner_text(".panel-toggle .visually-hidden") == "Punkte und Protokoll"
    assert _english_in(page, "de", page.evaluate(SHOWN)) == []
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    page.screenshot(path=str(artifacts / "phone-lang-match-de.png"))

    # The choice stays: a reload shows the match in German, the header still without a switcher.
    page.reload()
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    assert page.evaluate("document.documentElement.lang") == "de"
    assert "Du bist am Zug" in page.inner_text("#tray")
    assert not page.evaluate("document.querySelector('#match').classList.contains('panel-open')")

    # On a desktop the header has the switcher and the panel's stays hidden.
    page.set_viewport_size({"width": 1280, "height": 800})
    page.wait_for_timeout(300)
    assert page.is_visible("#match .match-top .lang-select")
    assert page.is_hidden("#panel-lang")
    assert pia.errors == []
    pia.context.close()
