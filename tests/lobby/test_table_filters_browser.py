"""The Tables page's filters in a real browser, on a server of its own (other tests' public tables
would change what is listed): by language, rules, players, clock and rated; combined; "no table
matches" and "Clear filters"; kept over a reload; the create form marks a table with the reader's
language (German here), shown as a tag; a 390 px phone in French fits the screen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]


def _table(base: str, token: str, **body: Any) -> str:
    r = httpx.post(
        f"{base}/api/lobbies",
        json={"private": False, **body},
        headers={"Authorization": f"Bearer {token}"},
        timeout=30,
    )
    assert r.status_code == 201, r.text
    return str(r.json()["code"])


def _shows(page: Any, codes: set[str]) -> None:
    """Wait until the open tables listed are exactly ``codes`` (a refresh in flight may still
    answer for the filters before).
    """
    page.wait_for_function(
        "want => { const have = [...document.querySelectorAll('#open-lobbies li[data-lobby]')]"
        ".map(e => e.dataset.lobby).sort();"
        " return JSON.stringify(have) === JSON.stringify(want); }",
        arg=sorted(codes),
    )


def _listed(page: Any) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "#open-lobbies li[data-lobby]", "els => els.map(e => e.dataset.lobby)"
        )
    )


def test_filters_on_the_tables_page(own_server: str, browser: Any, artifacts: Path) -> None:
    token = httpx.post(f"{own_server}/api/players", json={"name": "Host"}).json()["token"]
    german = _table(own_server, token, name="Flussrunde", seats=3, preset="river", language="de")
    english = _table(
        own_server,
        token,
        name="Quick one",
        time_control={"kind": "per_turn", "seconds": 30},
        language="en",
    )
    french = _table(
        own_server,
        token,
        name="Partie lente",
        time_control={"kind": "correspondence", "days": 3},
        language="fr",
    )
    anyone = _table(own_server, token, name="Anyone", seats=4)
    every = {german, english, french, anyone}

    ann = Player.open(browser, own_server, "Ann", locale="en-GB")
    page = ann.page
    try:
        page.goto("/#/lobbies")
        _shows(page, every)
        assert page.inner_text(f"li[data-lobby='{german}'] .tag.lang") == "DE"
        page.select_option("#filter-language", "de")
        _shows(page, {german})
        page.select_option("#filter-seats", "2")  # German and two seats: nothing
        page.wait_for_selector("#open-lobbies li.empty")
        assert "No open table matches" in page.inner_text("#open-lobbies")
        page.screenshot(path=str(artifacts / "table-filters-none.png"))
        page.click("#filters-clear")
        _shows(page, every)
        page.select_option("#filter-clock", "correspondence")
        _shows(page, {french})
        page.select_option("#filter-clock", "")
        page.select_option("#filter-preset", "river")
        _shows(page, {german})
        page.screenshot(path=str(artifacts / "table-filters-river.png"))
        page.reload()  # the choice stays on this device
        _shows(page, {german})
        assert page.eval_on_selector("#filter-preset", "s => s.value") == "river"
        page.click("#filters-clear")

        # A German reader's new table says German, and the filter finds it.
        page.evaluate("localStorage.setItem('carcassonne.lang', 'de')")
        page.goto("/#/create")
        page.reload()  # the language is chosen once per page
        page.wait_for_selector("#create-submit")
        assert page.eval_on_selector("#create-language", "s => s.value") == "de"
        page.click("#vis-public")
        page.click("#create-submit")
        page.wait_for_selector("#invite-code")
        code = page.inner_text("#invite-code").strip()
        page.goto("/#/lobbies")
        page.select_option("#filter-language", "de")
        _shows(page, {german, code})

        # A phone in French: the filters wrap, nothing wider than the screen.
        page.evaluate("localStorage.setItem('carcassonne.lang', 'fr')")
        page.set_viewport_size({"width": 390, "height": 844})
        page.reload()
        page.wait_for_selector("#table-filters #filter-language")
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        assert "Langue" in page.inner_text("#table-filters")
        page.locator("#table-filters").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "table-filters-phone-fr.png"))
        assert ann.errors == [], ann.errors
    finally:
        ann.context.close()
