"""The spectator delay seen in a browser: the host picks "2 moves behind" on the Create screen,
plays against the computer, and a spectator's match screen stays two moves behind the players'
and says so. Screenshots: ``test-artifacts/spectator-delay-*.png`` (desktop, phone).
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser.ui import Player, Server

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def test_a_spectator_watches_two_moves_behind(server: str, browser: Any, artifacts: Any) -> None:
    ann = Player.open(browser, server, "Ann")
    zed = Player.open(browser, server, "Zed", viewport={"width": 390, "height": 844})
    srv = None
    try:
        page = ann.page
        page.click("#create-lobby")
        page.wait_for_selector("#create-submit")
        page.select_option("#create-delay", "moves:2")
        page.click("#vis-public")
        page.click("#create-submit")
        page.wait_for_selector("#seats")
        assert page.inner_text("#room-delay") == "Spectators see 2 moves behind"
        page.click("#seats .add-bot")
        page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
        page.click("#start-match")
        page.wait_for_selector("#match[data-version]")
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        srv = Server(server, match_id, None)
        # Ann plays her first turns (first legal placement, no follower); the computer answers.
        for _ in range(2):
            page.wait_for_selector("#board .legal-cell")
            version = ann.version()
            match = srv.http.get(
                f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {_token(ann)}"}
            ).json()
            x, y, r = match["state"]["legal_placements"][0]
            srv.http.post(
                f"/api/matches/{match_id}/actions",
                headers={"Authorization": f"Bearer {_token(ann)}"},
                json={
                    "v": version,
                    "id": f"t{version}",
                    "d": {"type": "place_tile", "at": [x, y], "rotation": r},
                },
            )
            srv.http.post(
                f"/api/matches/{match_id}/actions",
                headers={"Authorization": f"Bearer {_token(ann)}"},
                json={"v": version + 1, "id": f"p{version}", "d": {"type": "pass"}},
            )
            ann.wait_version(version + 4)  # Ann's two actions, then the computer's two
        live = srv.http.get(
            f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {_token(ann)}"}
        ).json()["version"]
        zed.page.goto(f"/#/match/{match_id}")
        zed.wait_version(live - 2)
        zed.page.wait_for_selector(".spectating")
        assert "2 moves behind" in zed.page.inner_text(".spectating")
        assert zed.version() == live - 2 and ann.version() == live
        zed.page.screenshot(path=str(artifacts / "spectator-delay-phone.png"))
        zed.page.set_viewport_size({"width": 1366, "height": 900})
        zed.page.screenshot(path=str(artifacts / "spectator-delay-desktop.png"))
        assert zed.errors == [] and ann.errors == []
    finally:
        if srv is not None:
            srv.close()
        ann.context.close()
        zed.context.close()


def _token(player: Player) -> str:
    token: str = player.page.evaluate("localStorage.getItem('carcassonne.token')")
    return token
