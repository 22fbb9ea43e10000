"""axe-core on every screen in both themes (tests/support/browser/axe.py): no serious or critical
violation on the start screen, the tables, creating a table, the waiting room, a live match
(with and without its text board), the tile guide, the account screen, the ratings, the
replay viewer, the tournaments and a player's profile. Screenshots: ``test-artifacts/axe-*``.
"""

from __future__ import annotations

import re
from typing import Any

import pytest

from tests.support.browser.axe import violations
from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

SCREENS = [
    ("start", "/#/start", "#start-continue"),
    ("tables", "/#/lobbies", "#open-lobbies"),
    ("create", "/#/create", "#create-submit"),
    ("guide", "/#/tiles", ".guide-tile"),
    ("account", "/#/account", "#view form"),
    ("ratings", "/#/leaderboard/standard", "#view h1"),
    ("replays", "/#/replay", "#view h1"),
    ("tournaments", "/#/tournaments", "#view h1"),
]


def _check(page: Any, name: str, scheme: str, found: dict[str, Any], artifacts: Any) -> None:
    page.wait_for_timeout(300)
    assert page.evaluate("document.documentElement.dataset.theme") == scheme
    page.screenshot(path=str(artifacts / f"axe-{name}-{scheme}.png"))
    bad = violations(page)
    if bad:
        found[name] = bad


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_screen_has_no_serious_violation(
    server: str, browser: Any, scheme: str, artifacts: Any
) -> None:
    player = Player.open(browser, server, "Axe", color_scheme=scheme)
    page = player.page
    found: dict[str, Any] = {}
    try:
        for name, url, ready in SCREENS:
            page.goto(url)
            page.wait_for_selector(ready)
            _check(page, name, scheme, found, artifacts)
        page.goto("/#/lobbies")
        page.wait_for_selector("#create-lobby")
        create_private_lobby(player)
        page.wait_for_selector("#seats")
        _check(page, "room", scheme, found, artifacts)
        start_against_a_bot(player)
        page.wait_for_selector("#match")
        page.wait_for_selector("#tray")
        _check(page, "match", scheme, found, artifacts)
        page.keyboard.press("t")  # the text board (match/access/textBoard.js)
        page.wait_for_selector("#text-board:not([hidden])")
        _check(page, "match-text-board", scheme, found, artifacts)
        player_id = page.evaluate("JSON.parse(localStorage.getItem('carcassonne.player')).id")
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        page.goto(f"/#/player/{player_id}")
        page.wait_for_selector("#view h1")
        _check(page, "profile", scheme, found, artifacts)
        page.goto(f"/#/replay/{match_id}")
        page.wait_for_selector("#view h1")
        _check(page, "replay", scheme, found, artifacts)
        total = sum(len(v) for v in found.values())
        print(f"axe ({scheme}): {total} serious/critical rules failing", found)
        assert found == {}, found
    finally:
        player.context.close()


FOCUS = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  const look = () => {
    const s = getComputedStyle(e);
    return [s.outlineStyle, s.outlineWidth, s.outlineColor, s.boxShadow, s.backgroundColor,
      s.borderColor].join('|');
  };
  // A date/time input takes one Tab per part (day, month, year, hour, minute, AM/PM), and
  // focus() puts it back on its first part: there, a ring (outline or shadow) is what counts,
  // without the blur and focus that would move the walk back.
  const parts = ['date', 'time', 'datetime-local', 'month', 'week'].includes(e.type) ? 6 : 1;
  let ring;
  if (parts > 1) {
    const s = getComputedStyle(e);
    // Not :focus itself: the focus is on the browser's own calendar button inside the
    // control, which the browser draws its own ring around.
    ring = !e.matches(':focus')
      || (s.outlineStyle !== 'none' && s.outlineWidth !== '0px') || s.boxShadow !== 'none';
  } else {
    const focused = look();
    e.blur();
    const plain = look();
    e.focus();
    ring = focused !== plain;
  }
  const r = e.getBoundingClientRect();
  // Named as a person would tell it apart: a checkbox by its label (four checkboxes in a row
  // are four stops, not one focus that stopped moving).
  const label = e.labels && e.labels.length ? e.labels[0].textContent : '';
  const name = e.tagName.toLowerCase() + (e.id ? '#' + e.id : '') + ' '
    + (e.getAttribute('aria-label') || label || e.textContent || e.value || '').trim().slice(0, 30);
  // Which element, not which name: four "Watch" links of four live matches are four stops.
  if (!e.dataset.walkStop) {
    window.walkStops = (window.walkStops || 0) + 1;
    e.dataset.walkStop = String(window.walkStops);
  }
  return { name, key: e.dataset.walkStop, parts, ring, shown: r.width > 0 && r.height > 0 };
}"""


def _walk(page: Any, name: str, problems: dict[str, list[str]]) -> None:
    """Tab 25 times from the top of the page; note stops without a visible focus change or off
    screen, and a focus that stops moving (more Tabs on one control than it has parts: a date
    and time input takes one per part).
    """
    page.evaluate("document.activeElement && document.activeElement.blur()")
    seen: list[str] = []
    keys: list[str] = []
    run, stuck = 0, False
    for _ in range(25):
        page.keyboard.press("Tab")
        stop = page.evaluate(FOCUS)
        if stop is None:
            continue
        if not stop["ring"] or not stop["shown"]:
            problems.setdefault(name, []).append(stop["name"])
        run = run + 1 if keys and keys[-1] == stop["key"] else 1
        stuck = stuck or run > stop["parts"] + 1
        seen.append(stop["name"])
        keys.append(stop["key"])
    if stuck or len(set(keys)) < 5:
        problems.setdefault(name, []).append(f"trapped: {seen[-5:]}")


def test_every_screen_is_walked_with_tab(server: str, browser: Any) -> None:
    """Tab walks every screen (the waiting room and a live match too): each stop is on screen
    with a visible focus change, and the focus moves on through the page's controls (no trap).
    """
    player = Player.open(browser, server, "Keys")
    page = player.page
    problems: dict[str, list[str]] = {}
    try:
        for name, url, ready in SCREENS:
            page.goto(url)
            page.wait_for_selector(ready)
            _walk(page, name, problems)
        page.goto("/#/lobbies")
        page.wait_for_selector("#create-lobby")
        create_private_lobby(player)
        page.wait_for_selector("#seats")
        _walk(page, "room", problems)
        start_against_a_bot(player)
        page.wait_for_selector("#tray")
        _walk(page, "match", problems)
        assert problems == {}, problems
    finally:
        player.context.close()
