"""Issue 14, in a real browser: name inputs say their length limit instead of stopping silently,
long names are cut with an ellipsis and shown whole on hover, and the match's side panel keeps
everything inside its edges in a timed match (clocks, the watching box, the rules box and the
quick messages) at 1280, 1024 and 390 px.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = pytest.mark.browser

# Every visible element inside the panel: its box must stay within the panel's box, and
# nothing inside may scroll sideways (a row cut with no hint).
OVERFLOW = """
(sel) => {
  const panel = document.querySelector(sel);
  const r = panel.getBoundingClientRect();
  const out = [];
  for (const el of panel.querySelectorAll('*')) {
    const b = el.getBoundingClientRect();
    if (b.width === 0 && b.height === 0) continue;
    const cls = typeof el.className === 'string' ? el.className.trim().split(/\\s+/) : [];
    const what = [el.tagName.toLowerCase() + (el.id ? '#' + el.id : ''), ...cls].join('.');
    if (b.left < r.left - 0.5 || b.right > r.right + 0.5) {
      const span = (x) => `${Math.round(x.left)}..${Math.round(x.right)}`;
      out.push(`${what}: ${span(b)} outside ${span(r)}`);
    }
    const style = getComputedStyle(el);
    if (el.scrollWidth > el.clientWidth + 1 && ['auto', 'scroll'].includes(style.overflowX)) {
      out.push(`${what} scrolls sideways (${el.scrollWidth} > ${el.clientWidth})`);
    }
  }
  if (panel.scrollWidth > panel.clientWidth + 1) {
    out.push(`the panel scrolls sideways (${panel.scrollWidth} > ${panel.clientWidth})`);
  }
  return out;
}
"""


def _timed_match_against_a_bot(player: Player) -> None:
    page = player.page
    create_private_lobby(player)
    page.select_option("#time-control", "fischer5")
    page.wait_for_function("document.querySelector('#room-time').textContent.includes('+')")
    start_against_a_bot(player)
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    page.wait_for_selector("#match .seat-clock")


def _panel_problems(page: Any) -> list[str]:
    problems: list[str] = page.evaluate(OVERFLOW, "#side-panel")
    return problems


def test_the_side_panel_keeps_a_timed_match_inside_its_edges(server, browser, artifacts):
    ann = Player.open(browser, server, "Bartholomew Maximilian X")
    page = ann.page
    _timed_match_against_a_bot(ann)
    for width, height in ((1280, 800), (1024, 768)):
        page.set_viewport_size({"width": width, "height": height})
        page.wait_for_timeout(100)  # one layout pass after the resize (no state to wait for)
        page.screenshot(path=str(artifacts / f"panel-timed-{width}.png"))
        assert _panel_problems(page) == [], width
    # A phone: the panel slides in over the board when opened.
    page.set_viewport_size({"width": 390, "height": 844})
    page.click(".panel-toggle")
    page.wait_for_selector(".match.panel-open")
    page.wait_for_function(
        "() => { const r = document.querySelector('#side-panel').getBoundingClientRect();"
        " return r.right <= window.innerWidth + 0.5; }"
    )
    page.screenshot(path=str(artifacts / "panel-timed-390.png"))
    assert _panel_problems(page) == [], 390
    assert ann.errors == []
    ann.context.close()


def test_name_inputs_show_their_limit_and_long_names_are_cut_visibly(server, browser, artifacts):
    page = browser.new_page(base_url=server, viewport={"width": 1280, "height": 800})
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/#/start")
    name = page.locator("#name")
    note = page.locator(".start-form .limit-note")
    name.fill("Ann")
    assert note.inner_text() == ""  # far from the limit: nothing to say
    name.fill("Bartholomew Maximilian")  # 22 of 24: the counter appears
    assert note.inner_text() == "22/24"
    name.press("End")
    name.type("XYZ")  # the third character does not fit: said, not silently dropped
    assert name.input_value() == "Bartholomew MaximilianXY"
    assert "At most 24 characters" in note.inner_text()
    assert "refused" in (note.get_attribute("class") or "")
    page.screenshot(path=str(artifacts / "limit-name-refused.png"))
    name.press("Backspace")  # back under the limit: the message goes, the count stays
    assert note.inner_text() == "23/24"
    long_name = "Bartholomew Maximilian X"
    name.fill(long_name)
    page.click("#start-continue")
    page.wait_for_selector("#create-lobby")

    # The table name (40): a paste longer than the limit is cut by the browser, and said so.
    page.click("#create-lobby")
    table = page.locator("#table-name")
    table.wait_for()
    table.fill("")
    table.focus()
    page.evaluate(
        """() => { const i = document.querySelector('#table-name');
        const d = new DataTransfer(); d.setData('text/plain', 'A'.repeat(50));
        i.dispatchEvent(new ClipboardEvent('paste', { clipboardData: d, bubbles: true }));
        i.value = 'A'.repeat(40); i.dispatchEvent(new Event('input', { bubbles: true })); }"""
    )
    create_note = page.locator(".create-form .limit-note")
    page.wait_for_function(
        "document.querySelector('.create-form .limit-note').textContent.includes('40')"
    )
    assert "At most 40 characters" in create_note.inner_text()
    page.screenshot(path=str(artifacts / "limit-table-name.png"))
    long_table = "The Very Long Table of Bartholomew Max X"  # 40 characters
    table.fill(long_table)
    page.click("#vis-private")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    # The waiting room cuts the long names with an ellipsis and shows them whole on hover.
    title = page.locator("#room-title")
    assert title.get_attribute("title") == long_table
    # Read in one step of the page: the room draws its seats again when the host's lobby socket
    # connects, and a node read after that is detached (no computed style: '' — seen in a run).
    seat = page.evaluate(
        """() => { const e = document.querySelector('#seats li.seat[data-seat="0"] .seat-name');
        return [e.title, getComputedStyle(e).textOverflow]; }"""
    )
    assert seat == [long_name, "ellipsis"]
    page.set_viewport_size({"width": 390, "height": 844})
    page.screenshot(path=str(artifacts / "limit-long-names-phone.png"))
    cut = page.evaluate(
        """() => { const e = document.querySelector('#room-title');
        return [getComputedStyle(e).textOverflow, e.scrollWidth > e.clientWidth]; }"""
    )
    assert cut == ["ellipsis", True], "a 40-character title is cut at 390 px"
    box = title.bounding_box()
    assert box is not None and box["x"] + box["width"] <= 390
    # Nothing widens the page on a phone: not the header's name chip, not a seat's controls.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    chip = page.locator(".me-chip").bounding_box()
    assert chip is not None and chip["x"] + chip["width"] <= 390
    assert errors == []
    page.close()
