"""The Wheel of Fortune end-of-game table (ten scoring categories) keeps every player's Total and
the winner's line in view, on a desktop and on a 390 px phone.

The end screen is the real one (``frontend/js/match/dialogs.js``'s ``showEnd``), fed the view of
a finished five-player Wheel of Fortune game played by the engine with random moves.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from app.engine import Options, apply_in_place, legal_actions, new_game, view

pytestmark = pytest.mark.browser

NAMES = ["Annabelle", "Bartholomew", "Cy", "Dominique", "Evangeline"]


def _finished_view() -> dict[str, Any]:
    rng = random.Random(11)
    state = new_game(Options(expansions=frozenset({"wheel_of_fortune"})), NAMES, seed=11)
    while not state.is_over:
        apply_in_place(state, rng.choice(legal_actions(state)))
    out: dict[str, Any] = json.loads(json.dumps(view(state, None)))
    return out


SHOW = """async (s) => {
  const { showEnd } = await import('/js/match/dialogs.js');
  const { MatchModel } = await import('/js/match/model.js');
  const { newUiState } = await import('/js/match/ui.js');
  const layer = document.createElement('div');
  document.body.appendChild(layer);
  const colours = ['red', 'blue', 'green', 'yellow', 'black'];
  const model = new MatchModel();
  model.applySnapshot(0, {
    state: s, status: 'finished', you: 0,
    seats: s.players.map((name, i) => ({ name, colour: colours[i] })),
  });
  showEnd({
    model, ui: newUiState(), hooks: { render() {} }, dom: { endLayer: layer },
    board: { svg: { focus() {} } }, matchId: 'x', go() {},
  });
}"""

BOXES = """() => {
  const vw = document.documentElement.clientWidth;
  const scroller = document.querySelector('#end-screen .table-scroll').getBoundingClientRect();
  const inside = (r) => r.left >= Math.max(0, scroller.left) - 1
    && r.right <= Math.min(vw, scroller.right) + 1 && r.width > 0;
  const rows = [...document.querySelectorAll('#final-scores tbody tr')];
  return {
    cats: [...document.querySelectorAll('#final-scores tbody tr:first-child td[data-cat]')]
      .map((td) => td.dataset.cat),
    totals: rows.map((tr) => inside(tr.querySelector('td.total').getBoundingClientRect())),
    totalHead: inside(
      document.querySelector('#final-scores thead th:last-child').getBoundingClientRect()),
    names: rows.map((tr) => inside(tr.querySelector('th').getBoundingClientRect())),
    winner: document.querySelector('#final-scores tr.winner th')?.textContent,
    scrolls: document.querySelector('#end-screen .table-scroll').scrollWidth > scroller.width,
  };
}"""


@pytest.mark.parametrize(
    ("label", "viewport"),
    [("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})],
)
def test_wof_end_table_keeps_the_totals_in_view(
    server, browser, artifacts, label: str, viewport: dict[str, int]
) -> None:
    state = _finished_view()
    context = browser.new_context(
        base_url=server, viewport=viewport, device_scale_factor=2 if label == "phone" else 1
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    page.evaluate(SHOW, state)
    page.wait_for_selector("#final-scores")
    found = page.evaluate(BOXES)
    assert found["cats"] == [
        "road",
        "city",
        "cloister",
        "farm",
        "fortune",
        "tax",
        "famine",
        "storm",
        "inquisition",
        "crown",
    ]
    assert all(found["totals"]) and found["totalHead"], found
    assert all(found["names"]), found
    winner = NAMES[state["winners"][0]]
    assert found["winner"] and winner in found["winner"] and "★" in found["winner"]
    page.screenshot(path=str(artifacts / f"wof-end-table-{label}.png"))
    if found["scrolls"]:
        # Scrolled to the end, the names still show at the left.
        page.evaluate("document.querySelector('#end-screen .table-scroll').scrollLeft = 1e6")
        again = page.evaluate(BOXES)
        assert all(again["totals"]) and all(again["names"]), again
        page.screenshot(path=str(artifacts / f"wof-end-table-{label}-scrolled.png"))
    totals = page.eval_on_selector_all("[data-final-total]", "els => els.map(e => +e.textContent)")
    assert sorted(totals) == sorted(state["scores"])
    assert errors == []
    context.close()
