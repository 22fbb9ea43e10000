"""Links a player copies from a private match work for whoever they are shared with.

The address of the match screen and of the replay viewer (``#/replay/ID?move=N``) carries the
table's invite code once a player has opened it — even when the player came by a link without
it (their list of matches, their history) — so a friend who opens the copied address watches.
A link without the code shows a translated page saying the match is private, with a way back
(never a blank page with the server's English sentence).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(180)]

REFUSED = {
    "en-GB": "This match is private",
    "de-DE": "Diese Partie ist privat",
    "fr-FR": "Cette partie est privée",
}


def _code_in(url: str) -> str | None:
    fragment = urlsplit(url).fragment
    query = fragment.split("?", 1)[1] if "?" in fragment else ""
    return parse_qs(query).get("code", [None])[0]


def test_copied_links_of_a_private_match_work_for_others(
    server: str, browser: Any, artifacts: Path
) -> None:
    host = Player.open(browser, server, "Hostess")
    friend = Player.open(browser, server, "Friend")
    try:
        code = create_private_lobby(host)
        start_against_a_bot(host)
        host.page.wait_for_selector("#match[data-version]")
        match_id = host.page.evaluate("location.hash").split("/")[2].split("?")[0]

        # The player reaches the match and its replay by links without the code...
        host.page.goto(f"/#/match/{match_id}")
        host.page.wait_for_function(
            "() => Number(document.querySelector('#match')?.dataset.version) >= 0"
        )
        host.page.wait_for_function("location.hash.includes('code=')")
        match_link = host.page.url
        host.page.goto(f"/#/replay/{match_id}?move=0")
        host.page.wait_for_selector("#replay-slider")
        host.page.wait_for_function("location.hash.includes('code=')")
        replay_link = host.page.url
        assert _code_in(match_link) == code and _code_in(replay_link) == code
        assert "move=0" in replay_link

        # ...and what they copy from the address bar works for a friend.
        friend.page.goto(replay_link)
        friend.page.wait_for_selector("#replay-slider")
        assert friend.page.input_value("#replay-slider") == "0"
        friend.page.goto(match_link)
        friend.page.wait_for_function(
            "() => Number(document.querySelector('#match')?.dataset.version) >= 0"
        )
        assert friend.errors == [] and host.errors == []
    finally:
        host.context.close()
        friend.context.close()

    # Without the code: a translated page that says why, with a way back to the tables.
    for locale, title in REFUSED.items():
        for width in (1280, 390):
            stranger = Player.open(
                browser,
                server,
                "Stranger",
                locale=locale,
                viewport={"width": width, "height": 800},
            )
            try:
                for link in (f"/#/replay/{match_id}?move=3", f"/#/match/{match_id}"):
                    stranger.page.goto("/#/lobbies")
                    stranger.page.goto(link)
                    stranger.page.wait_for_selector("#refused")
                    text = stranger.page.inner_text("#refused")
                    assert title in text, (locale, link, text)
                    assert "invite code" not in text or locale == "en-GB", text
                    assert "open it with its invite code" not in text, text
                    back = stranger.page.locator("#refused a[href='#/lobbies']")
                    assert back.count() == 1 and back.is_visible()
                    kind = "replay" if "replay" in link else "match"
                    stranger.page.screenshot(
                        path=str(artifacts / f"refused-{kind}-{locale[:2]}-{width}.png")
                    )
                assert stranger.errors == []
            finally:
                stranger.context.close()
