"""The dark theme inside a match: a theme toggle in the match's own header (the page's header is
hidden there), the bottom tray and the players' clocks themed, and every text of the tray and
the players' panel at WCAG AA contrast in both themes (the waiting player's clock was dark brown
on the dark panel).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.contrast import LOW_CONTRAST
from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


@pytest.mark.parametrize(("locale", "width"), [("en-GB", 1366), ("de-DE", 390)])
def test_a_match_in_both_themes(
    server: str, browser: Any, artifacts: Path, locale: str, width: int
) -> None:
    host = Player.open(
        browser, server, "Hélène", locale=locale, viewport={"width": width, "height": 800}
    )
    page = host.page
    try:
        code = create_private_lobby(host)
        token = page.evaluate("localStorage.getItem('carcassonne.token')")
        r = httpx.patch(
            f"{server}/api/lobbies/{code}",
            json={"time_control": {"kind": "fischer", "bank": 300, "increment": 10}},
            headers={"Authorization": f"Bearer {token}"},
            timeout=10,
        )
        assert r.status_code == 200, r.text
        start_against_a_bot(host)
        page.wait_for_selector("#match[data-version] .seat-clock")
        page.wait_for_selector("#tray .tray-text")
        if width < 761:
            page.click(".panel-toggle")
            page.wait_for_timeout(350)  # the drawer slides in
        toggle = page.locator("#match .match-theme-toggle:visible")
        assert toggle.count() == 1
        for theme in ("light", "dark"):
            if page.evaluate("document.documentElement.dataset.theme") != theme:
                toggle.click()
                page.wait_for_function(
                    "t => document.documentElement.dataset.theme === t", arg=theme
                )
            page.wait_for_timeout(400)  # colours ease over 0.15 s: measure the settled ones
            page.screenshot(path=str(artifacts / f"match-{theme}-{locale[:2]}-{width}.png"))
            for region in ("#tray", "#side-panel", ".match-top"):
                low = page.evaluate(LOW_CONTRAST, region)
                assert low == [], (theme, region, low)
        assert host.errors == []
    finally:
        host.context.close()
