"""Play now on the Tables page: Ann (English) picks 2 players, Standard, 60 s a turn and joins
the pool; she sees herself waiting and the queue counts her; she cancels and the queue is empty;
she seeks again; Ben (German) sees "1 wartet" for that pool, seeks the same and both pages are
taken to the same match. Screenshots of the waiting panel, the queue (German, dark theme) and
the paired match.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser.ui import Player

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]


def _choose(page: Any) -> None:
    page.select_option("#play-now-players", "2")
    page.select_option("#play-now-preset", "standard")
    page.select_option("#play-now-clock", "2")  # 60 s a turn (CLOCKS in playNow.js)


def test_play_now_pairs_two_pages(server: str, browser: Any, artifacts: Path) -> None:
    ann = Player.open(browser, server, "Ann", locale="en-GB")
    ben = Player.open(browser, server, "Ben", locale="de-DE", color_scheme="dark")
    try:
        a, b = ann.page, ben.page
        a.goto("/#/lobbies")
        a.wait_for_selector("#play-now")
        assert a.inner_text("#play-now h2") == "Play now"
        _choose(a)
        a.click("#play-now-go")
        a.wait_for_function(
            "() => document.querySelector('#play-now-status').textContent.includes('1 of 2')"
        )
        assert a.is_visible("#play-now-cancel") and not a.is_visible("#play-now-go")
        a.wait_for_selector("#play-now-queue li.mine")  # the queue refreshes every 3 s
        assert "1 waiting" in a.inner_text("#play-now-queue li.mine")
        a.screenshot(path=str(artifacts / "play-now-waiting-en.png"))
        a.click("#play-now-cancel")
        a.wait_for_selector("#play-now-go:not([hidden])")
        a.wait_for_selector("#play-now-queue li.empty")
        assert a.inner_text("#play-now-status") == ""

        a.click("#play-now-go")
        a.wait_for_function(
            "() => document.querySelector('#play-now-status').textContent.includes('1 of 2')"
        )
        b.goto("/#/lobbies")
        b.wait_for_selector("#play-now-queue li:not(.empty)")
        assert "1 wartet" in b.inner_text("#play-now-queue")
        assert b.inner_text("#play-now-go") == "Sofort spielen"
        b.screenshot(path=str(artifacts / "play-now-queue-de-dark.png"))
        _choose(b)
        b.click("#play-now-go")
        b.wait_for_url(re.compile(r"#/match/[0-9a-f]+"))
        a.wait_for_url(re.compile(r"#/match/[0-9a-f]+"))
        assert a.url.split("#/match/")[1] == b.url.split("#/match/")[1]
        a.wait_for_selector("#match")
        b.wait_for_selector("#match")
        a.screenshot(path=str(artifacts / "play-now-paired-en.png"))
        assert ann.errors == [] and ben.errors == []
    finally:
        ann.context.close()
        ben.context.close()
