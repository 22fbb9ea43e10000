"""The match screen's side panel and header fit what they hold.

- On a 1366×800 desktop the game log starts within the panel's first screen: the chat above it
  leaves at least a few lines of the log in sight (the chat pushed it below the fold).
- On a 390 px phone the header's status line ("Au tour de …", "… ist am Zug") is not cut short
  in French and German.
- The chat's placeholder fits its input in every language, on the desktop and in the phone's
  panel: each of its wordings (while the socket connects, for players, for spectators).
- The chat's quick messages wrap inside the panel in two rows at most (three and a "…" that
  opens all eight), none scrolled or poking past its edge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

MEASURE = """(words) => {
  const panel = document.querySelector('#side-panel');
  panel.scrollTop = 0;
  const p = panel.getBoundingClientRect();
  const log = document.querySelector('#log').getBoundingClientRect();
  const status = document.querySelector('#turn-status');
  const input = document.querySelector('.chat-form input');
  const style = getComputedStyle(input);
  const ctx = document.createElement('canvas').getContext('2d');
  ctx.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
  const room = input.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
  const quick = [...document.querySelectorAll('.chat-quick .btn')].filter((b) => b.offsetParent);
  const row = document.querySelector('.chat-quick').getBoundingClientRect();
  return {
    logInSight: Math.min(p.bottom, window.innerHeight) - log.top,
    chatInSight: window.innerHeight - input.getBoundingClientRect().bottom,
    statusCut: Math.max(status.scrollWidth - status.clientWidth,
      status.scrollHeight - status.clientHeight),
    statusText: status.textContent,
    placeholder: input.placeholder,
    // The widest of the placeholder's wordings against the room the input gives it.
    placeholderCut: Math.ceil(Math.max(...[input.placeholder, ...words]
      .map((w) => ctx.measureText(w).width)) - room),
    wider: document.documentElement.scrollWidth - window.innerWidth,
    // The quick messages wrap within the panel: their rows, and how far one pokes past it.
    quickRows: new Set(quick.map((b) => Math.round(b.getBoundingClientRect().top))).size,
    quickShown: quick.filter((b) => b.classList.contains('quick-btn')).length,
    quickPast: Math.max(0, ...quick.map((b) => b.getBoundingClientRect().right - row.right)),
  };
}"""


# The chat input's placeholders as chat.js words them (connecting, a player's, a spectator's).
PLACEHOLDERS = """async () => {
  const { t } = await import('/js/i18n.js');
  return ['chat.connecting', 'chat.placeholder', 'chat.placeholderSpectators'].map((k) => t(k));
}"""


# The status line as render.js words it, for a 2-player match's first turn.
SHOW_STATUS = """async (turn) => {
  const { t } = await import('/js/i18n.js');
  const who = turn === 'yourTurn' ? t('match.status.yourTurn')
    : t('match.status.theirTurn', { name: 'Computer' });
  const line = t('match.status.line', { who, what: t('match.status.place'),
    tiles: t('match.status.tilesLeft', { n: 71 }) });
  document.querySelector('#turn-status').textContent = line;
}"""


@pytest.mark.parametrize("locale", ["en-GB", "de-DE", "fr-FR"])
def test_the_match_panel_and_header_fit(
    server: str, browser: Any, artifacts: Path, locale: str
) -> None:
    host = Player.open(
        browser, server, "Jean-Baptiste", locale=locale, viewport={"width": 1366, "height": 800}
    )
    page = host.page
    try:
        create_private_lobby(host)
        start_against_a_bot(host)
        page.wait_for_function(
            "() => Number(document.querySelector('#match')?.dataset.version) >= 0"
        )
        page.wait_for_selector(".chat-form input[placeholder]:not([placeholder=''])")
        words = page.evaluate(PLACEHOLDERS)
        assert len(set(words)) == 3 and all(words), words
        found = page.evaluate(MEASURE, words)
        page.screenshot(path=str(artifacts / f"match-panel-{locale[:2]}-1366.png"))
        assert found["logInSight"] >= 120, found
        assert found["chatInSight"] >= 0, found
        assert found["placeholderCut"] <= 0, found
        # Three quick messages and the "…" in two rows at most; "…" opens all eight, wrapped.
        assert found["quickRows"] <= 2 and found["quickShown"] == 3, found
        assert found["quickPast"] <= 0.5, found
        page.click(".chat-quick .quick-more")
        found = page.evaluate(MEASURE, words)
        assert found["quickShown"] == 8 and found["quickPast"] <= 0.5, found
        assert page.get_attribute(".chat-quick .quick-more", "aria-expanded") == "true"
        page.screenshot(path=str(artifacts / f"match-panel-{locale[:2]}-1366-quick.png"))
        page.click(".chat-quick .quick-more")

        page.set_viewport_size({"width": 390, "height": 800})
        page.wait_for_timeout(100)
        # Whichever turn it is, the status line fits: both forms are shown as the page words them.
        for turn in ("theirTurn", "yourTurn"):
            page.evaluate(SHOW_STATUS, turn)
            found = page.evaluate(MEASURE, words)
            page.screenshot(path=str(artifacts / f"match-head-{locale[:2]}-390-{turn}.png"))
            assert found["statusCut"] <= 0, (turn, found)
            assert found["wider"] <= 1, found
        page.click(".panel-toggle")
        page.wait_for_timeout(350)  # the panel slides in
        found = page.evaluate(MEASURE, words)
        page.screenshot(path=str(artifacts / f"match-panel-{locale[:2]}-390.png"))
        assert found["placeholderCut"] <= 0, found
        assert found["quickRows"] <= 2 and found["quickPast"] <= 0.5, found
        assert host.errors == []
    finally:
        host.context.close()
