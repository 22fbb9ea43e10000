"""Tournaments in the browser: an organiser on a desktop (English) creates a Swiss from the
form, a player on a phone (German) opens its link, registers and checks in; the organiser sees
her arrive without reloading, enters computer players and starts; both pages show round 1's
pairings (a link to the live match) and the standings with their tie-breaks; the organiser
pauses every clock and the player's page says so at once; the organiser sets her game's result
with a reason, she sees it, and round 2 is paired on both pages. Screenshots:
``tournament-*.png``.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.browser.ui import Player

pytestmark = pytest.mark.browser

PHONE = {
    "viewport": {"width": 390, "height": 844},
    "is_mobile": True,
    "has_touch": True,
    "device_scale_factor": 2,
}


def _fits(page: Any) -> bool:
    wide: bool = page.evaluate("document.documentElement.scrollWidth <= innerWidth + 1")
    return wide


def test_create_join_start_live_standings_and_pause(
    server: str, browser: Any, artifacts: Path
) -> None:
    org = Player.open(browser, server, "Olga", locale="en-GB")
    page = org.page
    page.click("a[href='#/tournaments']")
    page.wait_for_selector("#tournament-form")
    page.fill("#tournament-name", "Autumn Swiss")
    page.select_option("#tournament-format", "swiss")
    page.fill("#tournament-rounds", "2")
    page.screenshot(path=str(artifacts / "tournament-create-en.png"), full_page=True)
    page.click("#tournament-create")
    page.wait_for_selector("#tournament-organiser")
    assert "Registration open" in page.inner_text("#tournament-status")
    link = page.url

    pia = Player.open(browser, server, "Pia", locale="de-DE", **PHONE)
    phone = pia.page
    phone.goto(link)
    phone.wait_for_selector("#tournament-register")
    assert phone.inner_text("#tournament-register") == "Anmelden"
    phone.click("#tournament-register")
    phone.wait_for_selector("#tournament-checkin")
    phone.click("#tournament-checkin")
    phone.wait_for_selector(".tournament-actions .badge.ok")
    assert "Eingecheckt" in phone.inner_text(".tournament-actions")
    # The organiser's page hears of her without a reload (the tournament socket).
    page.wait_for_function(
        "() => document.querySelector('#tournament-entrants').innerText.includes('Pia')"
    )

    for _ in range(3):
        count = page.locator("#tournament-entrants li").count()
        page.click("#tournament-add-computer")
        page.wait_for_function(
            "n => document.querySelectorAll('#tournament-entrants li').length > n", arg=count
        )
    page.click("#tournament-start")
    page.wait_for_selector(".pairings[data-round='1']")
    assert "Round 1 of 2" in page.inner_text("#tournament-status")
    assert page.locator(".pairings[data-round='1'] li").count() == 2
    headers = page.inner_text("#tournament-standings thead")
    assert "Buchholz" in headers and "S-B" in headers
    assert page.locator("#tournament-standings tbody tr").count() == 4

    # The phone follows live: her pairing links to the match, in German.
    phone.wait_for_selector(".pairings[data-round='1']")
    assert "Runde 1 von 2" in phone.inner_text("#tournament-status")
    mine = phone.locator(".pairings[data-round='1'] li", has_text="Pia")
    assert mine.locator("a[href^='#/match/']").inner_text() == "live zusehen"
    assert _fits(phone)
    phone.screenshot(path=str(artifacts / "tournament-round1-phone-de.png"), full_page=True)

    page.click("#tournament-pause")
    page.wait_for_selector("#tournament-paused")
    assert page.inner_text("#tournament-pause") == "Resume the clocks"
    phone.wait_for_selector("#tournament-paused")
    assert "Pausiert" in phone.inner_text("#tournament-paused")
    page.screenshot(path=str(artifacts / "tournament-paused-en.png"), full_page=True)
    phone.screenshot(path=str(artifacts / "tournament-paused-phone-de.png"), full_page=True)

    page.click("#tournament-pause")
    page.wait_for_selector("#tournament-paused", state="detached")
    phone.wait_for_selector("#tournament-paused", state="detached")

    # The organiser sets the result of Pia's game with a reason; the phone shows it live, and
    # once the computers' game ends too, round 2 is paired on both pages.
    hers = page.locator(".pairings[data-round='1'] li", has_text="Pia")
    hers.locator("details.adjudicate summary").click()
    hers.locator("select").select_option(index=0)
    hers.locator("input").fill("Computer crashed; agreed by the players")
    hers.locator("button[type=submit]").click()
    page.wait_for_function(
        "() => document.querySelector('.pairings').innerText.includes('Computer crashed')"
    )
    phone.wait_for_function(
        "() => [...document.querySelectorAll('.pairing')].some("
        "(li) => li.innerText.includes('Computer crashed') && li.innerText.includes('Pia'))"
    )
    page.wait_for_selector(".pairings[data-round='2']", timeout=90_000)
    phone.wait_for_selector(".pairings[data-round='2']", timeout=30_000)
    assert "Runde 2 von 2" in phone.inner_text("#tournament-status")
    pia_line = phone.locator("#tournament-standings tbody tr", has_text="Pia")
    assert pia_line.locator("td").nth(2).inner_text() == "1"
    page.screenshot(path=str(artifacts / "tournament-round2-en.png"), full_page=True)
    phone.screenshot(path=str(artifacts / "tournament-round2-phone-de.png"), full_page=True)

    # Her round-2 game opens from the link.
    phone.locator(".pairings[data-round='2'] li", has_text="Pia").locator(
        "a[href^='#/match/']"
    ).click()
    phone.wait_for_selector("#match")

    # Her profile lists the tournament with her place.
    pia_id = phone.evaluate("JSON.parse(localStorage.getItem('carcassonne.player')).id")
    phone.goto(f"{server}/#/player/{pia_id}")
    phone.wait_for_selector("#profile-tournaments")
    entry = phone.inner_text("#profile-tournaments")
    assert "Autumn Swiss" in entry and "Runde 2 von 2" in entry and "1. von 4" in entry
    phone.screenshot(path=str(artifacts / "tournament-profile-phone-de.png"), full_page=True)
    assert not org.errors and not pia.errors, (org.errors, pia.errors)
    org.context.close()
    pia.context.close()


def test_an_arena_in_french_shows_placement_standings(
    server: str, browser: Any, artifacts: Path
) -> None:
    org = Player.open(browser, server, "Odile", locale="fr-FR")
    page = org.page
    page.goto(f"{server}/#/tournaments")
    page.wait_for_selector("#tournament-form")
    page.fill("#tournament-name", "Arène du soir")
    page.select_option("#tournament-format", "arena")
    assert page.is_visible("#tournament-duration") and not page.is_visible("#tournament-rounds")
    page.fill("#tournament-duration", "30")
    page.select_option("#tournament-seats", "3")
    page.click("#tournament-create")
    page.wait_for_selector("#tournament-organiser")
    for _ in range(6):
        count = page.locator("#tournament-entrants li").count()
        page.click("#tournament-add-computer")
        page.wait_for_function(
            "n => document.querySelectorAll('#tournament-entrants li').length > n", arg=count
        )
    page.click("#tournament-start")
    page.wait_for_selector(".pairings[data-round='1']")
    assert "Arène jusqu'à" in page.inner_text("#tournament-status")
    headers = page.inner_text("#tournament-standings thead")
    assert "Buchholz" not in headers and "Points de jeu" in headers
    assert page.locator(".pairings[data-round='1'] li").count() == 2
    # Games end and the standings fill in without a reload.
    page.wait_for_function(
        "() => [...document.querySelectorAll('#tournament-standings tbody td.num')]"
        ".some((td) => td.innerText !== '0')",
        timeout=60_000,
    )
    page.screenshot(path=str(artifacts / "tournament-arena-fr.png"), full_page=True)
    assert not org.errors, org.errors
    org.context.close()
