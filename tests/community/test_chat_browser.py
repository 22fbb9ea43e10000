"""Chat in the browser: the waiting room (escaped text, the host's mute), the match between two
players and a spectator (spectators' chat hidden from players until the end, quick messages,
hiding one person's messages for oneself).
"""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import Player, create_private_lobby, join_by_code

pytestmark = pytest.mark.browser


def _say(player: Player, text: str) -> None:
    page = player.page
    page.fill(".chat-input", text)
    page.press(".chat-input", "Enter")


def _texts(player: Player) -> list[str]:
    return player.page.eval_on_selector_all(
        ".chat-msg .chat-text", "els => els.map(e => e.textContent)"
    )


def _wait_text(player: Player, text: str) -> None:
    player.page.wait_for_function(
        "t => [...document.querySelectorAll('.chat-msg .chat-text')]"
        ".some(e => e.textContent === t)",
        arg=text,
    )


def _token(player: Player) -> str:
    return str(player.page.evaluate("localStorage.getItem('carcassonne.token')"))


def _finish(base: str, match_id: str, code: str, tokens: dict[int, str]) -> None:
    """Play the match to its end over REST (first legal placement, no follower)."""
    with httpx.Client(base_url=base, timeout=10) as http:
        for _ in range(400):
            match: dict[str, Any] = http.get(
                f"/api/matches/{match_id}", params={"code": code}
            ).json()
            state = match["state"]
            if match["status"] == "finished":
                return
            if state["phase"] == "place_tile":
                x, y, r = state["legal_placements"][0]
                d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
            else:
                d = {"type": "pass"}
            headers = {"Authorization": f"Bearer {tokens[state['seat']]}"}
            r2 = http.post(
                f"/api/matches/{match_id}/actions",
                json={"v": match["version"], "d": d},
                headers=headers,
                params={"code": code},
            )
            assert r2.status_code in (200, 409, 429), r2.text
    raise AssertionError("the match did not end")


def test_chat_between_two_players_and_a_spectator(server, browser, artifacts):
    ann = Player.open(browser, server, "Ann")
    code = create_private_lobby(ann, seats=2)
    ben = Player.open(browser, server, "Ben")
    join_by_code(ben, code)

    # The waiting room: text is shown as text, never as HTML.
    _say(ann, "<b>hi</b> & welcome")
    _wait_text(ben, "<b>hi</b> & welcome")
    assert ben.page.locator(".chat-msg b.chat-name").count() == 1  # only the name is bold
    assert ben.page.locator(".chat-text b").count() == 0
    ben.page.click('.quick-btn[data-quick="hello"]')
    _wait_text(ann, "Hello!")

    # The host mutes Ben: his box closes; unmuting opens it again.
    ann.page.click(".chat-msg[data-player]:not(.mine) .chat-mute")
    ben.page.wait_for_selector(".chat-input:disabled")
    ann.page.screenshot(path=str(artifacts / "chat-waiting-room-muted.png"))
    ann.page.click(".chat-msg[data-player]:not(.mine) .chat-mute")
    ben.page.wait_for_selector(".chat-input:not(:disabled)")

    ann.page.click("#start-match")
    ann.page.wait_for_selector("#match .chat")
    ben.page.wait_for_selector("#match .chat")
    match_id = re.search(r"#/match/([^?]+)", ann.page.url).group(1)  # type: ignore[union-attr]

    cat = Player.open(browser, server, "Cat")
    cat.page.goto(f"/#/match/{match_id}?code={code}")
    cat.page.wait_for_selector('#match[data-role="spectator"] .chat')
    assert "Spectators" in cat.page.inner_text(".chat-title")

    _say(cat, "Ann should take the city!")
    _wait_text(cat, "Ann should take the city!")
    _say(ann, "good luck Ben")
    for p in (ann, ben, cat):
        _wait_text(p, "good luck Ben")
    # The players never got the spectator's message (it came before Ann's, which they have).
    assert "Ann should take the city!" not in _texts(ann)
    assert "Ann should take the city!" not in _texts(ben)
    cat.page.screenshot(path=str(artifacts / "chat-spectator.png"))

    # Ben's connection drops: writing waits for the socket (nothing typed is lost to it), and
    # what Ann says meanwhile is there when he is back (chat frames are not replayed).
    ben.context.set_offline(True)
    ben.page.evaluate("window.carcassonne.socket.drop('test')")
    ben.page.wait_for_selector(".chat-input:disabled")
    assert ben.page.get_attribute(".chat-input", "placeholder") == "Connecting…"
    _say(ann, "are you there?")
    ben.context.set_offline(False)
    ben.page.wait_for_selector(".chat-input:not(:disabled)")
    _wait_text(ben, "are you there?")

    # Ben hides Ann's messages, for himself only.
    ben.page.click(".chat-msg:not(.mine) .chat-hide")
    ben.page.wait_for_selector(".chat-msg.hidden-msg")
    assert "good luck Ben" not in _texts(ben)
    assert "good luck Ben" in _texts(cat)
    ben.page.screenshot(path=str(artifacts / "chat-match-hidden.png"))

    # At the end the players read the spectators' chat too.
    players = {0: _token(ann), 1: _token(ben)}
    seats = httpx.get(f"{server}/api/matches/{match_id}", params={"code": code}).json()["seats"]
    tokens = {s["seat"]: players[0] if s["name"] == "Ann" else players[1] for s in seats}
    # The rest of the match is played over REST while the pages are away (three pages redrawing
    # a hundred moves each is slow on a busy machine); they come back to the finished match.
    urls = {id(p): p.page.url for p in (ann, ben, cat)}
    for p in (ann, ben, cat):
        p.page.goto("about:blank")
    _finish(server, match_id, code, tokens)
    for p in (ann, ben, cat):
        p.page.goto(urls[id(p)])
        p.page.wait_for_selector('#match[data-phase="game_over"] .chat-input', timeout=60_000)
    # Players now read the spectators' chat: in the history, and live.
    _wait_text(ann, "Ann should take the city!")
    _say(cat, "what a game")
    _wait_text(ben, "what a game")
    _wait_text(ann, "what a game")
    ann.page.screenshot(path=str(artifacts / "chat-after-the-end.png"))
    for p in (ann, ben, cat):
        assert p.errors == []
        p.context.close()
