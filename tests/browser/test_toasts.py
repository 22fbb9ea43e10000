"""Toasts that cover nothing a person needs: every screen that shows one as it opens.

The tables after choosing a name, the waiting room after joining by its code, the match after its
start and a profile after registering are each checked on a 1280 px desktop and a 390 px phone
(where no edge is free on every screen: the profile has its button at the top, the waiting room
its chat at the bottom): every toast lies inside the screen, clear of the header and of every
button, link and field in view (in the match the board is the exception: toasts sit at its foot,
and their words let clicks through to it), and toasts stack without overlapping, three at most
(two on a phone). One is dismissed by its button; the rest go by themselves. Screenshots:
``toasts-<screen>-<desktop|phone>.png``.
"""

from __future__ import annotations

import secrets
from pathlib import Path
from typing import Any

import pytest

from tests.support.browser.ui import TIMEOUT_MS, Player, create_private_lobby, join_by_code

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

VIEWPORTS = {
    "desktop": {"viewport": {"width": 1280, "height": 800}},
    "phone": {
        "viewport": {"width": 390, "height": 844},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}

# Where the toasts are and what they touch: the header, any control in view (the match's board
# excepted), one another, the screen's edges.
TOUCHES = """() => {
  const inView = (r) => r.width > 0 && r.height > 0 && r.right > 0 && r.bottom > 0
    && r.left < innerWidth && r.top < innerHeight;
  const meet = (a, b) => a.left < b.right - 0.5 && b.left < a.right - 0.5
    && a.top < b.bottom - 0.5 && b.top < a.bottom - 0.5;
  const shown = (e) => {
    const s = getComputedStyle(e);
    return s.visibility !== 'hidden' && s.display !== 'none' && e.getClientRects().length > 0;
  };
  const name = (e) => `${e.tagName.toLowerCase()}${e.id ? '#' + e.id : ''}`
    + ` "${(e.innerText || e.value || e.getAttribute('aria-label') || '').trim().slice(0, 30)}"`;
  const toasts = [...document.querySelectorAll('#toasts .toast')].filter(shown);
  const boxes = toasts.map((e) => e.getBoundingClientRect());
  const controls = [...document.querySelectorAll(
    '#topbar, .match-top, a[href], button, input, select, textarea, [role=button], [tabindex="0"]')]
    .filter((e) => !e.closest('#toasts') && !e.closest('#board') && shown(e)
      && inView(e.getBoundingClientRect()))
    // A control something else covers (the phone's drawer over the board) is out of reach.
    .filter((e) => {
      const r = e.getBoundingClientRect();
      const x = Math.min(Math.max(r.left + r.width / 2, 0), innerWidth - 1);
      const y = Math.min(Math.max(r.top + r.height / 2, 0), innerHeight - 1);
      const top = document.elementsFromPoint(x, y).find((el) => !el.closest('#toasts'));
      return !top || e.contains(top) || top.contains(e);
    });
  const hits = [];
  for (const c of controls) {
    const r = c.getBoundingClientRect();
    if (boxes.some((b) => meet(b, r))) hits.push(name(c));
  }
  const overlapping = boxes.some((a, i) => boxes.some((b, j) => j > i && meet(a, b)));
  const outside = boxes.filter((b) => b.left < 0 || b.top < 0 || b.right > innerWidth + 0.5
    || b.bottom > innerHeight + 0.5).length;
  const texts = toasts.map((e) => e.querySelector('.toast-text').innerText);
  return { count: toasts.length, texts, hits, overlapping, outside, controls: controls.length };
}"""

# The page's own toast(), as the screens call it (the same module instance as theirs).
TOAST = """async ([texts, kind]) => {
  const { toast } = await import('/js/dom.js');
  for (const text of texts) toast(text, kind);
}"""


def _check(page: Any, artifacts: Path, shot: str, at_least: int = 1) -> dict[str, Any]:
    """The toasts in view now touch nothing; screenshot them (and, once gone, what was under)."""
    page.wait_for_selector("#toasts .toast")
    # Measured once every toast has settled: one sliding in (200 ms) is drawn across its
    # neighbour for a moment (a second toast arriving just then read as "overlapping").
    page.wait_for_function(
        "[...document.querySelectorAll('#toasts .toast')]"
        ".every(t => t.getAnimations().every(a => a.playState !== 'running'))"
    )
    found: dict[str, Any] = page.evaluate(TOUCHES)
    page.screenshot(path=str(artifacts / f"{shot}.png"))
    assert found["count"] >= at_least, found
    assert found["controls"] > 3, found  # the check saw the screen's controls
    assert found["hits"] == [], found
    assert not found["overlapping"] and found["outside"] == 0, found
    return found


def _dismiss(page: Any, text: str) -> None:
    """Close the toast saying ``text`` with its button: it goes at once, the others stay."""
    before = page.locator("#toasts .toast").count()
    page.locator("#toasts .toast", has_text=text).locator(".toast-close").click()
    assert page.locator("#toasts .toast", has_text=text).count() == 0
    assert page.locator("#toasts .toast").count() == before - 1
    page.mouse.move(1, 1)  # a toast under a resting mouse stays until the mouse moves off


@pytest.mark.parametrize("size", ["desktop", "phone"])
def test_toasts_on_opening_screens_cover_no_control(
    own_server: str, browser: Any, artifacts: Path, size: str
) -> None:
    server = own_server
    args = VIEWPORTS[size]
    # The tables, just after choosing a name: "Welcome, Tess".
    tess = Player.open(browser, server, "Tess", locale="en-GB", **args)
    page = tess.page
    found = _check(page, artifacts, f"toasts-tables-{size}")
    assert any("Welcome" in text for text in found["texts"]), found
    # Never more than three at once (two on a phone), one under another; the newest last.
    page.evaluate(TOAST, [[f"Note {i}" for i in range(5)], "info"])
    found = _check(page, artifacts, f"toasts-tables-stack-{size}", at_least=2)
    most = 3 if size == "desktop" else 2  # a phone keeps two below its header
    assert found["texts"] == ["Note 2", "Note 3", "Note 4"][-most:], found
    # Dismissed by its button at once; the others go by themselves.
    _dismiss(page, "Note 4")
    page.wait_for_selector("#toasts .toast", state="detached", timeout=9000)

    # The waiting room, just after joining by its code: "You joined …".
    code = create_private_lobby(tess)
    uma = Player.open(browser, server, "Uma", locale="en-GB", **args)
    join_by_code(uma, code)
    found = _check(uma.page, artifacts, f"toasts-room-{size}")
    assert any("joined" in text for text in found["texts"]), found

    # The match, just after its start.
    uma.page.wait_for_selector("#toasts .toast", state="detached", timeout=9000)
    page.click("#start-match")
    page.wait_for_selector("#match")
    # "The match has started!" at the board's foot (unless the match took its 4 s to open).
    if page.locator('#toasts.in-area .toast:has-text("started")').count():
        _check(page, artifacts, f"toasts-match-start-{size}")
    # A burst of news in it.
    for player in (tess, uma):
        player.page.wait_for_selector("#match[data-version] #tray .tray-text")
    page.evaluate(TOAST, [["Ann scored 4 points for a city", "Ben scored 2 points"], "success"])
    found = _check(page, artifacts, f"toasts-match-{size}", at_least=2)
    assert page.locator("#toasts.in-area").count() == 1  # at the board's foot
    board = page.locator(".board-host").bounding_box()
    tray = page.locator("#tray").bounding_box()
    for box in page.locator("#toasts .toast").all():
        b = box.bounding_box()
        assert board and tray and b
        assert b["y"] >= board["y"] and b["y"] + b["height"] <= tray["y"] + 0.5, (b, tray)
    # The words let clicks through to the board; the close button takes its own.
    assert (
        page.evaluate("getComputedStyle(document.querySelector('#toasts .toast')).pointerEvents")
        == "none"
    )
    _dismiss(page, "Ben scored")
    if size == "phone":
        # The phone's drawer open: toasts over its players, clear of its switcher and buttons.
        page.click(".panel-toggle")
        page.wait_for_timeout(350)  # the drawer slides in for 250 ms
        page.evaluate(TOAST, [["The link to watch is copied"], "success"])
        _check(page, artifacts, "toasts-match-drawer-phone")
        page.click(".panel-toggle")
    page.wait_for_selector("#toasts .toast", state="detached", timeout=9000)
    # Leaving the match gives the toasts back to the page.
    page.click("#match .back")
    page.wait_for_selector("#create-lobby")
    # The screen laid out first: Tess's match listed under "Your matches" and the open tables
    # loaded (both arrive after the first paint and push the filters down).
    page.wait_for_selector("#my-matches:not([hidden]) #my-matches-list li")
    page.wait_for_selector('.refresh-note:has-text("Updated")')
    page.evaluate(TOAST, [["Back at the tables"], "info"])
    found = _check(page, artifacts, f"toasts-after-match-{size}")
    assert page.locator("#toasts.in-area").count() == 0
    assert tess.errors == [] and uma.errors == []
    tess.context.close()
    uma.context.close()

    # A profile, just after registering: "Welcome, <user>".
    context = browser.new_context(base_url=server, locale="en-GB", **args)
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/#/account")
    page.fill("#reg-username", f"toast{secrets.token_hex(3)}")
    page.fill("#reg-password", "a password long enough")
    page.click("#register-submit")
    page.wait_for_selector("#profile-name")
    found = _check(page, artifacts, f"toasts-profile-{size}")
    assert any("Welcome" in text for text in found["texts"]), found
    assert errors == []
    context.close()
