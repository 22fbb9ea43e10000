"""Time controls in the browser: the start screen's "your matches" list (your turn first, time
left, links into the matches); a Fischer match played a few turns with both clocks visible and
the increment added to the bank; a correspondence match (days per move, the opt-in turn
notification); a live → correspondence proposal every seated person accepts, and back; the
German words of all of it.
"""

from __future__ import annotations

import math
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import Player, Server, create_private_lobby, join_by_code, place_tile

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"
#: Two days, shown whole (rounded up) or a moment after they started running.
TWO_DAYS = ("2 d 0 h", "1 d 23 h")


#: A Notification API that records what the page shows (``window.__notes``), asks nobody, and
#: grants permission when asked.
NOTIFICATION_STUB = """
window.__notes = [];
window.Notification = class {
  static permission = 'default';
  static requestPermission() {
    window.Notification.permission = 'granted';
    return Promise.resolve('granted');
  }
  constructor(title, options) { window.__notes.push([title, (options || {}).body]); }
};
"""


def fmt(ms: int) -> str:
    """The client's ``formatClock`` for times under a day (``m:ss`` / ``h:mm:ss``)."""
    total = math.ceil(ms / 1000)
    hrs, rest = divmod(total, 3600)
    mins, secs = divmod(rest, 60)
    return f"{hrs}:{mins:02d}:{secs:02d}" if hrs else f"{mins}:{secs:02d}"


def token_of(player: Player) -> str:
    """The token the page keeps in localStorage."""
    token: str = player.page.evaluate("localStorage.getItem('carcassonne.token')")
    return token


def rest_match(
    http: httpx.Client, host: str, guests: list[str], time_control: dict[str, Any]
) -> str:
    """A started match over REST (``host`` takes seat 0 and plays first)."""
    auth = {"Authorization": f"Bearer {host}"}
    code = http.post(
        "/api/lobbies",
        json={"seats": 1 + len(guests), "time_control": time_control},
        headers=auth,
    ).json()["code"]
    for guest in guests:
        http.post(f"/api/lobbies/{code}/join", headers={"Authorization": f"Bearer {guest}"})
    match_id: str = http.post(f"/api/lobbies/{code}/start", headers=auth).json()["match_id"]
    return match_id


def start_in_browser(
    host: Player, guests: list[Player], choice: str, label: str
) -> tuple[str, str]:
    """The host makes a private table with the time control ``choice``, the guests join by
    code, the host starts: ``(match_id, code)`` once everyone is on the match screen.
    """
    code = create_private_lobby(host, seats=1 + len(guests))
    host.page.select_option("#time-control", choice)
    host.page.wait_for_function(
        "label => document.querySelector('#room-time').textContent === label", arg=label
    )
    for guest in guests:
        join_by_code(guest, code)
    host.page.click("#start-match")
    host.page.wait_for_selector('#match[data-version="0"]')
    for guest in guests:
        guest.page.wait_for_selector('#match[data-version="0"]')
    match_id = re.search(r"#/match/([^?]+)", host.page.url).group(1)  # type: ignore[union-attr]
    return match_id, code


def test_the_start_screen_lists_your_matches_your_turn_first(server: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, server, "Ann")
    with httpx.Client(base_url=server, timeout=10) as http:
        ben = http.post("/api/players", json={"name": "Ben"}).json()["token"]
        mine = token_of(ann)
        corr = rest_match(http, mine, [ben], {"kind": "correspondence", "days": 2})
        waiting = rest_match(http, ben, [mine], {"kind": "per_turn", "seconds": 120})
        fischer = rest_match(http, mine, [ben], {"kind": "fischer", "bank": 300, "increment": 10})
    page = ann.page
    page.goto("/#/start")
    page.wait_for_selector("#my-matches:not([hidden]) li.my-match")
    cards = page.eval_on_selector_all(
        "#my-matches li.my-match", "els => els.map(e => [e.dataset.match, e.dataset.yourTurn])"
    )
    # Your turn first, the nearest deadline first (5 min before 2 days); then the others.
    assert cards == [[fischer, "true"], [corr, "true"], [waiting, "false"]]
    first = f'#my-matches li[data-match="{fischer}"]'
    assert "Your turn" in page.inner_text(first)
    assert "5 min + 10 s" in page.inner_text(first)
    assert "2 days per move" in page.inner_text(f'#my-matches li[data-match="{corr}"]')
    assert page.inner_text(f'#my-matches li[data-match="{corr}"] .time-left') in TWO_DAYS
    assert "Waiting for Ben" in page.inner_text(f'#my-matches li[data-match="{waiting}"]')
    # The running clock ticks from the server's time.
    shown = page.inner_text(f"{first} .time-left")
    assert re.fullmatch(r"[45]:\d\d", shown), shown
    page.wait_for_function(
        "([sel, was]) => document.querySelector(sel).textContent !== was",
        arg=[f"{first} .time-left", shown],
    )
    page.screenshot(path=str(ARTIFACTS / "start-my-matches.png"))
    # The lobby browser (where a returning player lands) shows the same list above the tables.
    page.goto("/#/lobbies")
    page.wait_for_selector("#my-matches:not([hidden]) li.my-match")
    shown = page.eval_on_selector_all(
        "#my-matches li.my-match", "els => els.map(e => e.dataset.match)"
    )
    assert shown == [fischer, corr, waiting]
    page.screenshot(path=str(ARTIFACTS / "lobbies-my-matches.png"))
    page.click(f"{first} a.open-match")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    assert fischer in page.url
    assert ann.errors == []
    ann.context.close()


def _deploy_none(player: Player) -> None:
    player.page.wait_for_selector("#no-follower")
    player.page.click("#no-follower")


def test_a_fischer_match_shows_both_clocks_and_adds_the_increment(
    server: str, browser: Any
) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben")
    match_id, code = start_in_browser(ann, [ben], "fischer3", "3 min + 5 s")
    srv = Server(server, match_id, code)
    players = {0: ann, 1: ben}
    rng = random.Random(7)
    try:
        for page in (ann.page, ben.page):
            page.wait_for_selector('.seat-clock[data-seat="0"].running')
            page.wait_for_selector('.seat-clock[data-seat="1"]:not(.running)')
            assert "3 min + 5 s" in page.inner_text("#time-control")
            assert "+5 s per move" in page.inner_text("#time-control")
        for turn in range(4):
            seat = turn % 2
            mover = players[seat]
            match = srv.match()
            mover.wait_version(match["version"])
            mover.page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
            place_tile(mover, rng)
            mover.wait_version(match["version"] + 1)
            before = srv.match()["clock"]  # the mover's bank is still running
            assert before["running"] == seat
            _deploy_none(mover)
            mover.wait_version(match["version"] + 2)
            after = srv.match()["clock"]
            gained = after["remaining"][seat] - before["remaining"][seat]
            elapsed = after["server_now"] - before["server_now"]
            # The bank lost at most the time between the two reads, and got the 5 s increment.
            assert 5_000 - elapsed <= gained <= 5_000, (gained, elapsed)
            assert after["running"] == 1 - seat
            for page in (ann.page, ben.page):  # both see the new bank, now standing still
                page.wait_for_selector(f'.seat-clock[data-seat="{1 - seat}"].running')
                page.wait_for_function(
                    '([s, text]) => document.querySelector(`.seat-clock[data-seat="${s}"]`)'
                    ".textContent === text",
                    arg=[seat, fmt(after["remaining"][seat])],
                )
            if turn == 0:
                ann.page.screenshot(path=str(ARTIFACTS / "clock-fischer-ann.png"))
        ben.page.screenshot(path=str(ARTIFACTS / "clock-fischer-ben.png"))
        assert srv.match()["clock"]["timeouts"] == [0, 0]
    finally:
        srv.close()
    assert ann.errors == [] and ben.errors == []
    ann.context.close()
    ben.context.close()


def test_a_correspondence_match_and_the_turn_notification(server: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben")
    match_id, code = start_in_browser(ann, [ben], "corr2", "2 days per move")
    for page in (ann.page, ben.page):
        page.wait_for_selector('.seat-clock[data-seat="0"].running')
        assert "2 days per move" in page.inner_text("#time-control")
        assert page.inner_text('.seat-clock[data-seat="1"]') == "2 d 0 h"
        assert page.inner_text('.seat-clock[data-seat="0"]') in TWO_DAYS
    # The opt-in: a button until the browser allows notifications, then a note; then, with the
    # tab hidden, a notification when it becomes Ben's turn (the Notification API recorded).
    ben.context.add_init_script(NOTIFICATION_STUB)
    ben.page.reload()
    page = ben.page
    page.wait_for_selector("#notify-turn")
    page.click("#notify-turn")
    page.wait_for_selector("#notify-turn-on")
    assert page.evaluate("localStorage.getItem('carcassonne.notifyTurn')") == "1"
    page.screenshot(path=str(ARTIFACTS / "clock-correspondence-notify.png"))
    page.evaluate(
        "Object.defineProperty(document, 'hidden', {configurable: true, get: () => true})"
    )
    srv = Server(server, match_id, code)
    try:
        rng = random.Random(5)
        place_tile(ann, rng)
        ann.wait_version(1)
        _deploy_none(ann)
        ann.wait_version(2)
        match = srv.match()
        assert match["state"]["seat"] == 1
        # A table without a name is "{host}'s table" in the reader's language (English here).
        name = match["name"] or f"{match['host_name']}’s table"
    finally:
        srv.close()
    notes = page.wait_for_function("() => window.__notes.length > 0 && window.__notes").json_value()
    assert notes == [["Your turn", f"It is your turn in {name}."]], notes
    ann.page.screenshot(path=str(ARTIFACTS / "clock-correspondence.png"))
    assert ann.errors == [] and ben.errors == []
    ann.context.close()
    ben.context.close()


def test_live_to_correspondence_by_agreement_and_back_in_german(server: str, browser: Any) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben", locale="de-DE")
    cat = Player.open(browser, server, "Cat", locale="fr-FR")
    match_id, code = start_in_browser(ann, [ben, cat], "turn120", "2 min per turn")
    srv = Server(server, match_id, code)
    try:
        assert "2 Min. pro Zug" in ben.page.inner_text("#time-control")
        assert "2 min par tour" in cat.page.inner_text("#time-control")
        ann.page.click("#propose-switch")
        for p in (ben, cat):
            p.page.wait_for_selector("#leave-banner:not([hidden]) #accept-switch")
        assert "Fernpartie" in ben.page.inner_text("#leave-banner")
        assert "correspondance" in cat.page.inner_text("#leave-banner")
        ben.page.screenshot(path=str(ARTIFACTS / "clock-proposal-de.png"))
        cat.page.screenshot(path=str(ARTIFACTS / "clock-proposal-fr.png"))
        ben.page.click("#accept-switch")
        ben.page.wait_for_selector("#leave-banner:not([hidden]) >> text=zustimmen")
        assert srv.match()["clock"]["correspondence"] is False  # Cat has not accepted yet
        cat.page.click("#accept-switch")
        for p, words in ((ann, "1 day per move"), (ben, "1 Tag pro Zug"), (cat, "1 jour par coup")):
            p.page.wait_for_function(
                "w => document.querySelector('#time-control').textContent.includes(w)", arg=words
            )
            p.page.wait_for_selector("#leave-banner[hidden]", state="attached")
        assert srv.match()["clock"]["correspondence"] is True
        ann.page.screenshot(path=str(ARTIFACTS / "clock-switched-correspondence.png"))
        ben.page.screenshot(path=str(ARTIFACTS / "clock-switched-correspondence-de.png"))
        # And back: Ben proposes playing live again, the others accept.
        assert "live" in ben.page.inner_text("#propose-switch")
        ben.page.click("#propose-switch")
        for p in (ann, cat):
            p.page.wait_for_selector("#leave-banner:not([hidden]) #accept-switch")
            p.page.click("#accept-switch")
        for p, words in ((ann, "2 min per turn"), (ben, "2 Min. pro Zug"), (cat, "2 min par tour")):
            p.page.wait_for_function(
                "w => document.querySelector('#time-control').textContent.includes(w)", arg=words
            )
        clock = srv.match()["clock"]
        assert clock["correspondence"] is False and not clock["can_switch_back"]
    finally:
        srv.close()
    for p in (ann, ben, cat):
        assert p.errors == []
        p.context.close()
