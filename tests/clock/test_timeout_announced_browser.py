"""When a per-turn clock runs out the computer plays the turn, and everyone is told at once:
a toast ("Time's up — the computer played for Ann"; "… your turn" on Ann's own page), once per
turn although the tile and the follower decision are two batches, in each reader's language;
the log marks the move as the computer's.
"""

from __future__ import annotations

from typing import Any

import httpx
import pytest

from tests.clock.test_time_controls_browser import rest_match, token_of
from tests.support.browser.ui import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


SHOWN = "t => [...document.querySelectorAll('#toasts > *')].some(e => e.textContent.includes(t))"


def _toasts(page: Any) -> list[str]:
    return list(
        page.eval_on_selector_all("#toasts > *", "els => els.map(e => e.textContent.trim())")
    )


def test_a_time_out_is_announced_to_everyone(server: str, browser: Any, artifacts: Any) -> None:
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben", viewport={"width": 390, "height": 844})
    ben.page.evaluate("localStorage.setItem('carcassonne.lang', 'de')")
    with httpx.Client(base_url=server, timeout=30) as http:
        match_id = rest_match(
            http, token_of(ann), [token_of(ben)], {"kind": "per_turn", "seconds": 10}
        )
        for p in (ann, ben):
            p.page.goto(f"/#/match/{match_id}")
            p.page.reload()  # the language is chosen once per page load
            p.page.wait_for_selector('#match[data-version="0"]')
        # Ann does nothing: after 10 s the computer places her tile and decides her follower.
        ann.page.wait_for_selector('#match[data-my-turn="false"]', timeout=40_000)
        ann.wait_version(2)
        ben.wait_version(2)
        mine = "Time’s up — the computer played your turn."
        ann.page.wait_for_function(
            SHOWN,
            arg=mine,
        )
        theirs = "Zeit abgelaufen — der Computer hat für Ann gespielt."
        ben.page.wait_for_function(
            SHOWN,
            arg=theirs,
        )
        ben.page.screenshot(path=str(artifacts / "timeout-toast-de-phone.png"))
        ann.page.screenshot(path=str(artifacts / "timeout-toast.png"))
        # Once per turn: the placement and the follower decision do not make two toasts.
        assert sum(mine in x for x in _toasts(ann.page)) == 1, _toasts(ann.page)
        assert sum(theirs in x for x in _toasts(ben.page)) == 1, _toasts(ben.page)
        # The log marks the computer's move.
        assert ann.page.locator("#match .log-computer .computer-move").count() >= 1
        batches = http.get(f"/api/matches/{match_id}/events?since=0").json()["batches"]
        assert [b["by"] for b in batches[:2]] == ["computer", "computer"]
    assert ann.errors == [] and ben.errors == []
    ann.context.close()
    ben.context.close()
