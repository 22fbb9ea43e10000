"""The time-out policy in the browser: the host chooses a clock and "skip the turn" on the
create form, the waiting room shows it to a joining player (the sentence of what happens at
zero), the host changes it to "the computer takes the seat after 3 time-outs" in the waiting
room (PATCH), and the match header names it; in German too.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from tests.support.browser.ui import Player, Server, join_by_code

pytestmark = pytest.mark.browser

ARTIFACTS = Path(__file__).resolve().parents[2] / "test-artifacts"


def test_the_host_chooses_what_happens_at_zero(server: str, browser) -> None:
    ARTIFACTS.mkdir(exist_ok=True)
    ann = Player.open(browser, server, "Ann")
    ben = Player.open(browser, server, "Ben")
    page = ann.page
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    # Untimed: nothing reaches zero, so the policy cannot be chosen.
    assert page.is_disabled("#timeout-policy")
    page.select_option("#time-control", "turn30")
    page.wait_for_selector("#timeout-policy:not([disabled])")
    page.select_option("#timeout-policy", "skip")
    page.wait_for_function(
        "document.querySelector('#at-zero').textContent.includes('turn is skipped')"
    )
    page.click("#vis-private")
    page.evaluate("document.querySelector('#timeout-policy').scrollIntoView({block: 'center'})")
    page.screenshot(path=str(ARTIFACTS / "create-timeout-policy.png"))
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    code = page.inner_text("#invite-code").strip()
    assert page.eval_on_selector("#timeout-policy", "s => s.value") == "skip"
    srv = Server(server, "", code)
    try:
        lobby = srv.http.get(f"/api/lobbies/{code}").json()
        assert lobby["timeout_policy"] == {"kind": "skip"}
        assert lobby["time_control"] == {"kind": "per_turn", "seconds": 30}
        join_by_code(ben, code)
        ben.page.wait_for_selector("#time-summary")
        assert "turn is skipped" in ben.page.inner_text("#time-summary")
        # The host changes it in the waiting room; Ben's page follows.
        page.select_option("#timeout-policy", "handover3")
        ben.page.wait_for_function(
            "(document.querySelector('#time-summary') || {})"
            ".textContent?.includes('after 3 time-outs')"
        )
        lobby = srv.http.get(f"/api/lobbies/{code}").json()
        assert lobby["timeout_policy"] == {"kind": "handover", "after": 3}
        # The room re-renders as the PATCH and Ben's seat come back: wait for the host's own
        # page to show the new policy, then scroll in one script (a locator's scroll can meet
        # the select detached by a re-render).
        page.wait_for_function(
            "(document.querySelector('#timeout-policy') || {}).value === 'handover3'"
        )
        page.evaluate("document.querySelector('#timeout-policy').scrollIntoView({block: 'center'})")
        page.screenshot(path=str(ARTIFACTS / "room-timeout-policy.png"))
        page.click("#start-match")
        page.wait_for_selector("#timeout-policy-info")
        assert "after 3 time-outs" in page.inner_text("#timeout-policy-info")
        ben.page.wait_for_selector("#timeout-policy-info")
        ben.page.select_option("#match select.lang-select", "de")
        ben.page.wait_for_function(
            "(document.querySelector('#timeout-policy-info') || {}).textContent?.includes('nach 3')"
        )
        assert "Bei null" in ben.page.inner_text("#timeout-policy-info")
        ann.page.screenshot(path=str(ARTIFACTS / "match-timeout-policy.png"))
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        srv.match_id = match_id
        assert srv.match()["clock"]["policy"] == {"kind": "handover", "after": 3}
        assert not ann.errors and not ben.errors, ann.errors + ben.errors
    finally:
        srv.close()
        ann.context.close()
        ben.context.close()
