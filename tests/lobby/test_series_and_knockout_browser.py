"""A best-of-3 series and a knock-out in the browser (English desktop, German phone).

Series: Ann creates a best-of-3 table against the computer; the match header shows the series
(the phone, watching with the link, in German too); once game 1 ends the end screen shows the
score and "Next game", which opens game 2 with the score in its header.
Knock-out: an organiser creates one from the form; Pia registers on her phone; with two
computers (the organiser moves one up the seeded list) the bracket gives the top seed (Pia)
a bye; the organiser's message reaches Pia's
page and the live match's chat (with its organiser tag), and the referee's list shows the live
table. Screenshots: ``series-*.png``, ``knockout-*.png``.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import Player, start_against_a_bot

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


def _play_out(base: str, match_id: str, token: str) -> None:
    """Play the person's turns over REST (first legal placement, no follower) to the end."""
    headers = {"Authorization": f"Bearer {token}"}
    with httpx.Client(base_url=base, timeout=10, headers=headers) as http:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline:
            m = http.get(f"/api/matches/{match_id}").json()
            if m["status"] == "finished":
                return
            state = m["state"]
            if state["seat"] != m["you"]:
                time.sleep(0.03)
                continue
            if state["phase"] == "place_tile":
                x, y, r = state["legal_placements"][0]
                d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
            else:
                d = {"type": "pass"}
            body = {"v": m["version"], "id": f"a{m['version']}", "d": d}
            r2 = http.post(f"/api/matches/{match_id}/actions", json=body)
            assert r2.status_code in (200, 409), r2.text
    raise AssertionError("the match did not end")


def test_series_header_and_next_game(server: str, browser: Any, artifacts: Path) -> None:
    ann = Player.open(browser, server, "Ann", locale="en-GB")
    page = ann.page
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    page.select_option("#create-series", "3")
    page.click('[data-seats="2"]')
    page.click("#vis-private")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    code = page.inner_text("#invite-code").strip()
    assert page.inner_text("#room-series") == "Best of 3"
    start_against_a_bot(ann)
    page.wait_for_selector("#series-line:not([hidden])")
    line = page.inner_text("#series-line")
    assert line.startswith("Best of 3 · game 1 · Ann 0 – 0 "), line
    match_id = page.get_attribute("#match", "data-match")
    page.screenshot(path=str(artifacts / "series-header-en.png"))

    pia = Player.open(browser, server, "Pia", locale="de-DE", **PHONE)
    phone = pia.page
    phone.goto(f"/#/match/{match_id}?code={code}")
    phone.wait_for_selector("#series-line:not([hidden])")
    assert phone.inner_text("#series-line").startswith("Best of 3 · Partie 1 · Ann 0 – 0")
    assert _fits(phone)
    phone.screenshot(path=str(artifacts / "series-header-phone-de.png"))

    token = page.evaluate("localStorage.getItem('carcassonne.token')")
    _play_out(server, str(match_id), token)
    page.wait_for_selector("#series-next", timeout=30_000)
    assert page.inner_text("#series-next") == "Next game"
    assert "Best of 3 · game 1 ·" in page.inner_text("#series-result")
    assert not page.is_visible("#rematch")  # "another series" waits for the series' end
    page.screenshot(path=str(artifacts / "series-end-en.png"))
    phone.wait_for_selector("#series-next", timeout=30_000)
    assert phone.inner_text("#series-next") == "Nächste Partie"
    phone.screenshot(path=str(artifacts / "series-end-phone-de.png"))

    page.click("#series-next")
    page.wait_for_function(
        "() => (document.querySelector('#series-line:not([hidden])') || {}).innerText"
        "?.includes('game 2')"
    )
    after = page.inner_text("#series-line")
    assert ("Ann 1 – 0" in after) or ("Ann 0 – 1" in after) or ("Ann ½ – ½" in after), after
    page.screenshot(path=str(artifacts / "series-game2-en.png"))
    assert not ann.errors and not pia.errors, (ann.errors, pia.errors)
    ann.context.close()
    pia.context.close()


def test_knockout_bracket_message_and_referee(server: str, browser: Any, artifacts: Path) -> None:
    org = Player.open(browser, server, "Olga", locale="en-GB")
    page = org.page
    page.goto("/#/tournaments")
    page.wait_for_selector("#tournament-form")
    page.fill("#tournament-name", "Winter Cup")
    page.select_option("#tournament-format", "knockout")
    page.click("#tournament-create")
    page.wait_for_selector("#tournament-organiser")
    link = page.url

    pia = Player.open(browser, server, "Pia", locale="de-DE", **PHONE)
    phone = pia.page
    phone.goto(link)
    phone.click("#tournament-register")
    phone.wait_for_selector("#tournament-checkin")
    phone.click("#tournament-checkin")
    phone.wait_for_selector(".tournament-actions .badge.ok")
    page.wait_for_function(
        "() => document.querySelector('#tournament-entrants').innerText.includes('Pia')"
    )
    for _ in range(2):
        count = page.locator("#tournament-entrants li").count()
        page.click("#tournament-add-computer")
        page.wait_for_function(
            "n => document.querySelectorAll('#tournament-entrants li').length > n", arg=count
        )
    # The seeded list: Computer 2 moves up above Computer 1.
    page.locator("#tournament-seeds li").nth(2).locator(".seed-up").click()
    page.wait_for_function(
        "() => document.querySelectorAll('#tournament-seeds li')[1]?.innerText"
        ".includes('Computer 2')"
    )
    page.screenshot(path=str(artifacts / "knockout-seeds-en.png"), full_page=True)
    page.click("#tournament-start")
    page.wait_for_selector(".pairings[data-round='1']")
    first = page.inner_text("#tournament-bracket .bracket-round[data-round='1']")
    assert "Pia" in first and "bye" in first and "Computer 1" in first, first
    assert page.inner_text(".bracket-round[data-round='2'] .bracket-title") == "Final"
    assert not page.is_visible("#tournament-register")  # no late joiners in a knock-out

    page.fill("#tournament-notice", "Final at eight, good luck!")
    page.click("#tournament-notice-send")
    phone.wait_for_selector("#tournament-messages")
    assert "Final at eight" in phone.inner_text("#tournament-messages")
    phone.wait_for_selector("#tournament-bracket")
    assert "Freilos" in phone.inner_text("#tournament-bracket")
    assert _fits(phone)
    phone.screenshot(path=str(artifacts / "knockout-phone-de.png"), full_page=True)

    # The referee's list: the computers' live table, with a link to watch it.
    page.wait_for_selector("#tournament-referee .referee-table", timeout=20_000)
    page.screenshot(path=str(artifacts / "knockout-organiser-en.png"), full_page=True)
    watch = page.locator("#tournament-referee .referee-table a").first
    watch.click()
    page.wait_for_selector("#match")
    page.wait_for_selector(".chat-msg.room-organiser")
    assert "Final at eight" in page.inner_text(".chat-msg.room-organiser")
    assert "organiser" in page.inner_text(".chat-msg.room-organiser .tag.organiser").lower()
    page.screenshot(path=str(artifacts / "knockout-match-chat-en.png"))
    assert not org.errors and not pia.errors, (org.errors, pia.errors)
    org.context.close()
    pia.context.close()
