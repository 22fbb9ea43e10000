"""A profile's statistics in a real browser: two accounts play two rated matches and a casual
three-seat match with a computer over REST; Ann's profile then shows her figures, a rating graph
with three points, wins by number of players and points by feature — in English, German and
French, on a desktop and on a 390 px phone (nothing wider than the screen), in both themes
(contrast checked). A new player's profile says statistics come after the first game.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.community.test_accounts_replay_browser import _play_out
from tests.support.browser.contrast import LOW_CONTRAST
from tests.support.browser.ui import TIMEOUT_MS, sign_in_with_token

pytestmark = [pytest.mark.browser, pytest.mark.timeout(420)]
PASSWORD = "correct horse battery"


def _account(http: httpx.Client, stem: str) -> dict[str, Any]:
    r = http.post(
        "/api/accounts", json={"username": f"{stem}{secrets.token_hex(3)}", "password": PASSWORD}
    )
    assert r.status_code == 201, r.text
    return dict(r.json())


def _match(http: httpx.Client, people: list[dict[str, Any]], rated: bool, bots: int = 0) -> str:
    auth = [{"Authorization": f"Bearer {p['token']}"} for p in people]
    lobby = http.post(
        "/api/lobbies",
        headers=auth[0],
        json={"rated": rated, "seats": len(people) + bots, "private": True},
    ).json()
    for h in auth[1:]:
        assert http.post(f"/api/lobbies/{lobby['code']}/join", headers=h).status_code == 200
    for _ in range(bots):
        assert http.post(f"/api/lobbies/{lobby['code']}/bots", headers=auth[0]).status_code < 300
    r = http.post(f"/api/lobbies/{lobby['code']}/start", headers=auth[0])
    assert r.status_code == 200, r.text
    return str(r.json()["match_id"])


def _show(page: Any, server: str, who: str, lang: str, theme: str) -> None:
    page.goto(f"{server}/#/start")
    page.evaluate(
        "([l, th]) => { localStorage.setItem('carcassonne.lang', l);"
        " localStorage.setItem('carcassonne.theme', th); }",
        [lang, theme],
    )
    page.goto(f"{server}/#/player/{who}")
    page.reload()
    page.wait_for_selector("#profile-statistics .rating-graph circle")


def test_profile_statistics_in_three_languages_desktop_and_phone(
    server: str, browser: Any, artifacts: Path
) -> None:
    with httpx.Client(base_url=server, timeout=30) as http:
        ann, ben = _account(http, "ann"), _account(http, "ben")
        tokens = [ann["token"], ben["token"]]
        for _ in range(2):
            _play_out(server, _match(http, [ann, ben], rated=True), tokens)
        third = _match(http, [ann, ben], rated=False, bots=1)
        _play_out_with_bot(server, third, tokens)
        stats = http.get(f"/api/players/{ann['account']['id']}/statistics").json()
        newcomer = _account(http, "cat")
    assert stats["played"] == 3 and set(stats["by_players"]) == {"2", "3"}
    line = stats["ratings"]["standard"]
    assert len(line) == 3

    context = browser.new_context(base_url=server, viewport={"width": 1366, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        who = ann["account"]["id"]
        sign_in_with_token(page, ann["token"], ann["account"])  # her own profile: all her games
        words = {"en": "Rating history", "de": "Wertungsverlauf", "fr": "Évolution du classement"}
        for lang, heading in words.items():
            _show(page, server, who, lang, "light")
            panel = page.locator("#profile-statistics")
            assert heading in panel.inner_text()
            assert page.locator("#stats-rating circle").count() == 3
            label = page.get_attribute("#stats-rating svg", "aria-label") or ""
            assert str(line[0]["rating"]) in label and str(line[-1]["rating"]) in label
            assert page.locator("#stats-win-rate .bar-row").count() == 2
            average = page.inner_text("[data-stat='average'] strong")
            assert float(average.replace(",", ".")) == stats["average_score"]
            assert ("," in average) == (lang != "en" and stats["average_score"] % 1 != 0)
            road = page.inner_text("[data-stat='road'] strong")
            assert road == str(stats["longest_road"])
            shown = sum(1 for v in stats["points"].values() if v > 0)
            assert page.locator("#stats-points li").count() == shown
            page.screenshot(path=str(artifacts / f"profile-stats-{lang}.png"), full_page=True)
        _show(page, server, who, "en", "dark")
        assert page.evaluate(LOW_CONTRAST, "#profile-statistics") == []
        page.screenshot(path=str(artifacts / "profile-stats-dark.png"), full_page=True)
        _show(page, server, who, "fr", "light")
        assert page.evaluate(LOW_CONTRAST, "#profile-statistics") == []

        # A phone: the panel fits the screen in the longest language.
        page.set_viewport_size({"width": 390, "height": 844})
        for lang in ("de", "fr"):
            _show(page, server, who, lang, "light")
            wide = page.evaluate("document.documentElement.scrollWidth")
            assert wide <= 390, (lang, wide)
            page.screenshot(path=str(artifacts / f"profile-stats-phone-{lang}.png"), full_page=True)

        # Nobody's statistics before a first game: one sentence, no zeros.
        page.set_viewport_size({"width": 1366, "height": 900})
        page.goto(f"{server}/#/player/{newcomer['account']['id']}")
        page.wait_for_selector("#profile-statistics p.help")
        assert page.locator("#profile-statistics .stat").count() == 0
        assert not errors, errors
    finally:
        context.close()


def _play_out_with_bot(server: str, match_id: str, tokens: list[str]) -> None:
    """Play a match whose seat 2 is a computer: the people's seats move over REST (the first
    legal placement, no follower) until the match ends.
    """
    import time

    with httpx.Client(base_url=server, timeout=30) as http:
        deadline = time.monotonic() + 240
        while time.monotonic() < deadline:
            m = http.get(
                f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {tokens[0]}"}
            ).json()
            if m["status"] == "finished":
                return
            seat = m["state"]["seat"]
            if seat >= len(tokens):
                time.sleep(0.05)
                continue
            headers = {"Authorization": f"Bearer {tokens[seat]}"}
            mine = http.get(f"/api/matches/{match_id}", headers=headers).json()["state"]
            if mine["phase"] == "place_tile":
                x, y, r = mine["legal_placements"][0]
                d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
            else:
                d = {"type": "pass"}
            http.post(
                f"/api/matches/{match_id}/actions",
                headers=headers,
                json={"v": m["version"], "id": f"b{m['version']}", "d": d},
            )
        raise AssertionError("the match with a computer did not finish")
