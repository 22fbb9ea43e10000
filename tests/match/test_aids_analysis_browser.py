"""Player aids and the analysis, as a person sees them (desktop and phone): a table created
with the Learning aids shows the remaining-tiles table, projected scores beside the real ones
and the impossible holes; the finished match's replay shows the Strong computer player's
evaluation graph, the biggest swings and the suggested move as a ghost tile.

One server for the module with a fixed deck (``DECK_SEED``) and both seats played by the test
(Ann in the page, Ben over REST), so the position where a hole appears is the same every run.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.engine import replay
from app.engine.aids import features, impossible_holes
from tests.support.browser.fixtures import running_server
from tests.support.browser.ui import Player, sign_in_with_token, wait_for_async

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]

PHONE = {"width": 390, "height": 844}


@pytest.fixture(scope="module")
def seeded(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    # No seat is ever handed to the computer: every move is the test's (the game is fixed).
    with running_server(
        tmp_path_factory.mktemp("aids"), DECK_SEED="11", ABANDON_AFTER="3600"
    ) as base:
        yield base


# The screen point of the first follower spot among ``parts`` ([x, y, spot] each) that nothing
# covers, or null: computed afresh on each poll (the board may re-centre or a toast at its foot
# may cover a point for seconds; a point off the screen is covered too), with the board's own
# geometry. The tile is scrolled into view first.
UNCOVERED_SPOT = """async (parts) => {
  const { spotPoint } = await import(new URL('js/board/tiles.js', document.baseURI));
  for (const [x, y, spot] of parts) {
    const tile = document.querySelector(`#board [data-tile-at="${x},${y}"]`);
    if (!tile) continue;
    tile.scrollIntoView({ block: 'center', inline: 'center' });
    const box = tile.querySelector('.tile-edge').getBoundingClientRect();
    const [px, py] = spotPoint(tile.dataset.tile, spot, Number(tile.dataset.rotation));
    const point = [box.left + (px * box.width) / 100, box.top + (py * box.height) / 100];
    if (document.elementFromPoint(point[0], point[1])?.closest('#board')) return point;
  }
  return null;
}"""


def _point_at(page: Any, parts: list[list[Any]]) -> None:
    """Move the pointer onto the first segment of ``parts`` (``[x, y, spot]`` each, the spots of
    one feature) that the board shows uncovered.
    """
    point = wait_for_async(page, UNCOVERED_SPOT, parts)
    page.mouse.move(point[0], point[1], steps=2)


def _act(http: httpx.Client, match_id: str, token: str, state: dict[str, Any], v: int) -> None:
    """The seat to act plays the first legal placement, then a follower on its first spot
    every third turn (else none).
    """
    if state["phase"] == "place_tile":
        x, y, r = state["legal_placements"][0]
        d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
    elif state["legal_spots"] and state["turn"] % 3 == 0:
        d = {"type": "place_follower", "spot": state["legal_spots"][0]}
    else:
        d = {"type": "pass"}
    r = http.post(
        f"/api/matches/{match_id}/actions",
        json={"v": v, "id": f"t{v}", "d": d},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert r.status_code == 200, r.text


def _play(http: httpx.Client, match_id: str, tokens: list[str], until: Any) -> dict[str, Any]:
    """Both seats play (see :func:`_act`) until ``until(match)`` or the end."""
    while True:
        m = http.get(f"/api/matches/{match_id}", headers={"Authorization": f"Bearer {tokens[0]}"})
        match: dict[str, Any] = m.json()
        if match["status"] == "finished" or until(match):
            return match
        state = match["state"]
        _act(http, match_id, tokens[state["seat"]], state, match["version"])


def _dark(page: Any, path: Any) -> None:
    """A screenshot of the page in the dark theme, then back to the light one."""
    page.evaluate("document.documentElement.dataset.theme = 'dark'")
    page.wait_for_timeout(400)  # colours ease over 0.15 s
    page.screenshot(path=str(path))
    page.evaluate("document.documentElement.dataset.theme = 'light'")


def test_aids_on_the_match_screen_and_the_analysis_in_the_replay(
    seeded: str, browser: Any, artifacts: Any
) -> None:
    ann = Player.open(browser, seeded, "Ann")
    page = ann.page
    http = httpx.Client(base_url=seeded, timeout=30)
    phone = None
    try:
        page.click("#create-lobby")
        page.wait_for_selector("#create-submit")
        page.click("#aids-custom")
        page.wait_for_selector(
            '#aid-picker input[data-aid="remaining_tiles"][data-who="spectators"]'
        )
        page.locator("#aid-picker").scroll_into_view_if_needed()
        page.screenshot(path=str(artifacts / "aids-create-custom-desktop.png"))
        page.click("#aids-learning")
        page.click('[data-seats="2"]')
        page.click("#vis-private")
        page.click("#create-submit")
        page.wait_for_selector("#invite-code")
        code = page.inner_text("#invite-code").strip()
        page.wait_for_selector('#aid-picker #aids-learning[aria-checked="true"]')  # the host's room
        ben = http.post("/api/players", json={"name": "Ben"}).json()
        ben_token = ben["token"]
        r = http.post(f"/api/lobbies/{code}/join", headers={"Authorization": f"Bearer {ben_token}"})
        assert r.status_code == 200, r.text
        page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
        page.click("#start-match")
        page.wait_for_selector("#match[data-version]")
        match_id = re.search(r"#/match/([^?]+)", page.url).group(1)  # type: ignore[union-attr]
        ann_token = page.evaluate("() => localStorage.getItem('carcassonne.token')")
        tokens = [ann_token, ben_token]

        # The aids as the policy grants them: the header says so, the table of tiles to come.
        assert page.inner_text("#aids-tag").strip() != ""
        page.wait_for_selector("#remaining-table .aid-tile")
        page.wait_for_selector("#players [data-projected]")

        # Play on until the engine sees an impossible hole (a fixed deck: the same move each
        # run), then the page must mark exactly those cells.
        def has_hole(match: dict[str, Any]) -> bool:
            if match["state"]["phase"] != "place_tile":
                return False
            record = http.get(
                f"/api/matches/{match_id}/record", headers={"Authorization": f"Bearer {ann_token}"}
            ).json()
            rest = match["state"]["remaining"]
            record["draw_order"] += [t for t, n in sorted(rest.items()) for _ in range(n)]
            return bool(impossible_holes(replay(record)[0]))

        match = _play(http, match_id, tokens, has_hole)
        assert match["status"] == "live", "no hole before the end of the game"
        ann.wait_version(match["version"])
        page.wait_for_selector("#board .impossible-hole")
        holes = page.eval_on_selector_all(
            "#board .impossible-hole", "els => els.map(e => e.dataset.hole)"
        )
        board = {f"{t['at'][0]},{t['at'][1]}" for t in match["state"]["board"]}
        assert holes and not set(holes) & board
        projected = page.eval_on_selector_all(
            "#players [data-projected]", "els => els.map(e => e.textContent)"
        )
        assert len(projected) == 2
        count = sum(match["state"]["remaining"].values())
        shown = sum(
            int(n)
            for n in page.eval_on_selector_all(
                "#remaining-table .aid-tile", "els => els.map(e => e.dataset.count)"
            )
        )
        assert shown == count
        # The feature highlight: hovering a follower outlines its feature and says its value.
        page.hover("#board [data-follower]")
        page.wait_for_selector("#board[data-feature] .feature-cell")
        page.screenshot(path=str(artifacts / "aids-match-desktop.png"))
        _dark(page, artifacts / "aids-match-dark-desktop.png")
        # ...and hovering a segment of an unoccupied city or road outlines that feature too.
        record = http.get(
            f"/api/matches/{match_id}/record", headers={"Authorization": f"Bearer {ann_token}"}
        ).json()
        rest = match["state"]["remaining"]
        record["draw_order"] += [t for t, n in sorted(rest.items()) for _ in range(n)]
        free = max(
            (
                f
                for f in features(replay(record)[0])
                if f["kind"] in ("city", "road") and not f["followers"]
            ),
            key=lambda f: (not f["complete"], len(f["tiles"])),
        )
        _point_at(page, free["parts"])
        expected = f"{free['kind']}:{free['value']}"
        page.wait_for_selector(f'#board[data-feature="{expected}"][data-feature-owners=""]')
        assert page.locator("#board .feature-cell").count() == len(free["tiles"])
        assert page.locator("#board .feature-part").count() == len(free["parts"])
        assert str(free["value"]) in (page.text_content("#board .feature-value") or "")
        page.screenshot(path=str(artifacts / "aids-feature-unoccupied-desktop.png"))

        phone = browser.new_context(base_url=seeded, viewport=PHONE, is_mobile=True, has_touch=True)
        ppage = phone.new_page()
        ppage.goto("/")
        sign_in_with_token(ppage, ben_token, ben["player"])
        ppage.goto(f"/#/match/{match_id}?code={code}")
        ppage.wait_for_selector("#board .impossible-hole")
        ppage.wait_for_selector("#players [data-projected]", state="attached")
        ppage.screenshot(path=str(artifacts / "aids-match-phone.png"))
        _point_at(ppage, free["parts"])
        ppage.wait_for_selector(f'#board[data-feature="{expected}"] .feature-cell')
        ppage.screenshot(path=str(artifacts / "aids-feature-unoccupied-phone.png"))
        ppage.click(".panel-toggle")
        ppage.wait_for_selector("#remaining-table", state="visible")
        ppage.locator("#remaining-table").scroll_into_view_if_needed()
        ppage.screenshot(path=str(artifacts / "aids-remaining-phone.png"))

        # The rest of the game, then its analysis in the replay.
        match = _play(http, match_id, tokens, lambda m: False)
        assert match["status"] == "finished"
        page.goto(f"/#/replay/{match_id}?code={code}")
        page.click("#request-analysis")
        page.wait_for_selector("#eval-graph", timeout=120_000)
        lines = page.eval_on_selector_all("#eval-graph .eval-line", "els => els.length")
        assert lines == 2
        first = page.get_attribute("#analysis-swings a", "data-move")
        page.click("#analysis-swings a")
        page.wait_for_selector(f"#replay-counter:has-text('Move {first} of')")
        page.wait_for_selector("#board .ghost-tile")
        page.screenshot(path=str(artifacts / "analysis-replay-desktop.png"))
        _dark(page, artifacts / "analysis-replay-dark-desktop.png")
        # Clicking the graph jumps to that move.
        box = page.locator("#eval-graph").bounding_box()
        assert box is not None
        page.mouse.click(box["x"] + box["width"] * 0.5, box["y"] + box["height"] / 2)
        page.wait_for_function(
            "() => !/Move (0|"
            + str(first)
            + ") of/.test(document.querySelector('#replay-counter').textContent)"
        )

        ppage.goto(f"/#/replay/{match_id}?code={code}&move={first}")
        ppage.wait_for_selector("#eval-graph")
        ppage.locator("#analysis").scroll_into_view_if_needed()
        ppage.screenshot(path=str(artifacts / "analysis-replay-phone.png"))
        assert not ann.errors, ann.errors
    finally:
        http.close()
        ann.context.close()
        if phone is not None:
            phone.close()
