"""The tables list fits its window: three columns only where a live match's title, its
spectator badge and its Watch button fit side by side; never wider than the window.

A public open table and a live public match (German names and words are longer) are made over
the API; the list is looked at in German and English at 1400, 1280, 1201, 1100, 1024, 800 and
390 px.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

MEASURE = """() => {
  const titles = document.querySelectorAll('#live-matches .card-main b, #open-lobbies b');
  const cut = [...titles]
    .filter((b) => b.scrollWidth > b.clientWidth + 1 && b.clientWidth < 160)
    .map((b) => `${b.textContent} (${b.clientWidth} px)`);
  return {
    wider: document.documentElement.scrollWidth - window.innerWidth,
    columns: getComputedStyle(document.querySelector('.lobbies-grid'))
      .gridTemplateColumns.split(' ').length,
    cut,
  };
}"""


def _post(base: str, path: str, token: str | None = None, **body: Any) -> Any:
    headers = {"Authorization": f"Bearer {token}"} if token else {}
    r = httpx.post(f"{base}{path}", json=body, headers=headers, timeout=30)
    assert r.status_code < 300, r.text
    return r.json()


def test_the_tables_list_fits_every_window(server: str, browser: Any, artifacts: Path) -> None:
    """No sideways scroll at any width; at 1201 px and wider three columns, below that two (the
    join box under them); from 1024 px no title is cut to fewer than 160 px ("Tisch…" was 60 px
    in German: a longer title may end in an ellipsis, with the whole name on hover).
    """
    host = _post(server, "/api/players", name="Maximilian")["token"]
    guest = _post(server, "/api/players", name="Bernadette")["token"]
    _post(server, "/api/lobbies", host, seats=2, private=False)
    code = _post(server, "/api/lobbies", host, seats=2, private=False)["code"]
    _post(server, f"/api/lobbies/{code}/join", guest)
    _post(server, f"/api/lobbies/{code}/start", host)

    for locale in ("de-DE", "en-GB"):
        viewer = Player.open(browser, server, "Chloe", locale=locale)
        page = viewer.page
        try:
            for width in (1400, 1280, 1201, 1100, 1024, 800, 390):
                page.set_viewport_size({"width": width, "height": 900})
                page.goto("/#/lobbies")
                page.wait_for_selector("#live-matches .card")
                page.wait_for_timeout(100)  # layout after the lists filled
                found = page.evaluate(MEASURE)
                page.screenshot(path=str(artifacts / f"tables-{locale[:2]}-{width}.png"))
                assert found["wider"] <= 1, (locale, width, found)
                columns = 3 if width > 1200 else 2 if width > 760 else 1
                assert found["columns"] == columns, (locale, width, found)
                if width >= 1024:
                    assert found["cut"] == [], (locale, width, found)
            assert viewer.errors == []
        finally:
            viewer.context.close()


def test_a_signed_out_phone_header_fits(server: str, browser: Any, artifacts: Path) -> None:
    """Signed out on a 390 px phone: the brand's mark, the tools and the chip that leads to
    choosing a name fit the header (it wrapped and ran past the edge beside the brand's name).
    On a desktop that chip and the menu's "Log in" (to an account) never read alike: the chip
    once said "Sign in" beside "Log in" (German: "Anmelden" twice).
    """
    for locale in ("en-GB", "de-DE", "fr-FR"):
        context = browser.new_context(
            base_url=server, locale=locale, viewport={"width": 390, "height": 800}
        )
        page = context.new_page()
        try:
            page.goto("/#/tiles")
            page.wait_for_selector(".me-chip")
            wider = page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
            chip = page.locator(".me-chip").bounding_box()
            page.screenshot(path=str(artifacts / f"phone-signed-out-{locale[:2]}.png"))
            assert wider <= 1, (locale, wider)
            assert chip is not None and chip["x"] + chip["width"] <= 390, (locale, chip)
            assert chip["height"] < 48, (locale, chip)  # one line
            page.set_viewport_size({"width": 1280, "height": 800})
            login = page.inner_text("#nav-account").strip().lower()
            name = page.inner_text(".me-chip").strip().lower()
            assert login and name and login != name, (locale, login, name)
            assert not {"sign in", "anmelden", "se connecter"} & {name}, (locale, name)
        finally:
            context.close()


def test_a_long_table_name_fits_a_phone(server: str, browser: Any, artifacts: Path) -> None:
    """An open public table with a long name (64 characters, no spaces in its first word) on a
    390 px phone, in English, German and French: the page is no wider than the screen and every
    card's Join button is inside it (the page was 420 px wide: cards and buttons cut).
    """
    host = _post(server, "/api/players", name="Wolfgang-Amadeus")["token"]
    long_name = "Donaudampfschifffahrtsgesellschaftskapitänsmützen-Turnier Abend"
    _post(server, "/api/lobbies", host, seats=2, private=False, name=long_name)
    for locale in ("en-GB", "de-DE", "fr-FR"):
        viewer = Player.open(
            browser, server, "Zoé", locale=locale, viewport={"width": 390, "height": 800}
        )
        page = viewer.page
        try:
            page.goto("/#/lobbies")
            page.wait_for_selector(f'#open-lobbies .card b[title="{long_name}"]')
            page.wait_for_timeout(100)
            found = page.evaluate(
                """() => ({
                  wider: document.documentElement.scrollWidth - window.innerWidth,
                  out: [...document.querySelectorAll('#open-lobbies .card, #open-lobbies .btn')]
                    .map((e) => e.getBoundingClientRect())
                    .filter((r) => r.right > window.innerWidth + 0.5 || r.left < -0.5)
                    .map((r) => [Math.round(r.left), Math.round(r.right)]),
                })"""
            )
            page.screenshot(path=str(artifacts / f"tables-long-name-{locale[:2]}-390.png"))
            assert found["wider"] <= 1, (locale, found)
            assert found["out"] == [], (locale, found)
            assert viewer.errors == []
        finally:
            viewer.context.close()


def test_a_watch_link_keeps_the_focus_and_says_which_match(server: str, browser: Any) -> None:
    """The lists refresh every 3 s; a keyboard user on a Watch link stays on it (the same
    match), and the link's name says which match it watches, not only "Watch".
    """
    host = _post(server, "/api/players", name="Rosalind")["token"]
    guest = _post(server, "/api/players", name="Tobias")["token"]
    code = _post(server, "/api/lobbies", host, seats=2, private=False)["code"]
    _post(server, f"/api/lobbies/{code}/join", guest)
    match_id = _post(server, f"/api/lobbies/{code}/start", host)["match_id"]
    viewer = Player.open(browser, server, "Quentin")
    page = viewer.page
    try:
        page.goto("/#/lobbies")
        link = page.locator(f'#live-matches li[data-match="{match_id}"] a.watch')
        link.focus()
        assert link.get_attribute("aria-label") == "Watch: Rosalind’s table"
        # Wait for the next refresh of the lists: the link is a new node then.
        link.evaluate("a => { a.dataset.drawnBefore = '1'; }")
        page.wait_for_function(
            "sel => { const a = document.querySelector(sel); return a && !a.dataset.drawnBefore; }",
            arg=f'#live-matches li[data-match="{match_id}"] a.watch',
        )
        assert page.evaluate("document.activeElement.getAttribute('href')") == (
            f"#/match/{match_id}"
        )
    finally:
        viewer.context.close()
