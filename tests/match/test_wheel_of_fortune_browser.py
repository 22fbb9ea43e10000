"""A Wheel of Fortune match played through the browser (issue 5, "Server and browser").

The server runs with ``ENVIRONMENT=test`` and ``DECK_SEED=1258``
(:data:`tests.support.wof.WOF_SEED`, chosen by simulating seeds with the engine on the real
components of RULES.md §6): with the scripted moves of :func:`tests.support.wof.plan_action`
Ann's first tile completes the board's city on N1 (action 0), her follower on Tax's crown
scores at once (action 1), Storm follows (action 3), then Plague with both players holding
followers on the land (actions 16–17, Ben's crown on Plague scoring after the decisions), then
Ann's crown choice on Fortune right before the pig lands there (action 19).

Ann creates a private table with the Wheel of Fortune preset, Ben joins, and every move of the
script goes through clicks: cells and rotations on the board, follower and crown-space targets,
and the Plague choice on the ringed followers, while the other page must say it is waiting for
the deciding player. After each move both pages must show the server's scores, and the pig on
the server's segment; a crown space being chosen must be on screen. The test stops after
Fortune instead of playing all 72 tiles. Screenshots of
the wheel and of the Plague (decider and waiting side) go to ``test-artifacts/``.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from app.engine import PlaceFollower, PlaceTile, RemoveFollower, apply_in_place, view
from tests.support.browser.fixtures import running_server
from tests.support.browser.ui import Player, Server, join_by_code, place_at
from tests.support.wof import (
    BOARD_CITY,
    FIRST_CROWN_DEPLOY,
    FIRST_CROWN_SCORING,
    FIRST_PLAGUE,
    FORTUNE,
    STORM,
    WOF_SEED,
    new_wof_game,
    plan_action,
)

pytestmark = pytest.mark.browser

SECRET = "browser-test-secret-0123456789"


@pytest.fixture(scope="module")
def wof_server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose every match shuffles its deck with ``WOF_SEED`` (refused outside test and
    development), with a Plague timeout this test never reaches.
    """
    with running_server(
        tmp_path_factory.mktemp("wof-server"),
        ENVIRONMENT="test",
        SECRET_KEY=SECRET,
        DECK_SEED=str(WOF_SEED),
        DECISION_TIMEOUT="300",
    ) as base:
        yield base


def _create_wof_lobby(player: Player) -> str:
    page = player.page
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    page.click('.preset-card[data-preset="wheel_of_fortune"]')
    assert (
        page.get_attribute('.preset-card[data-preset="wheel_of_fortune"]', "aria-checked") == "true"
    )
    page.click('[data-seats="2"]')
    page.click("#vis-private")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    return page.inner_text("#invite-code").strip()


def _place(player: Player, x: int, y: int, rotation: int) -> None:
    """Click the glowing cell, rotate the preview to ``rotation``, confirm."""
    player.page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    place_at(player, f"{x},{y}", rotation)


def _targets(player: Player) -> list[str]:
    return list(
        player.page.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.spot)")
    )


def _scores(player: Player, seats: int) -> list[int]:
    return [int(player.page.inner_text(f'[data-score="{i}"]')) for i in range(seats)]


def _pig(player: Player) -> dict[str, Any]:
    found: dict[str, Any] = player.page.evaluate(
        """() => ({
          pig: document.querySelector('#board .wheel-pig')?.dataset.segment,
          here: [...document.querySelectorAll('#board .wheel-seg.pig-here')]
            .map(e => e.dataset.segment),
          info: document.querySelector('#pig-info')?.dataset.segment,
          crowns: Object.fromEntries([...document.querySelectorAll('#board [data-crown]')]
            .map(e => [e.dataset.crown, e.dataset.occupant ?? null])),
          landed: window.__landed || [],
        })"""
    )
    return found


def _expect_crowns(state: dict[str, Any]) -> dict[str, Any]:
    return {
        f"{seg['name']}:{k}": (str(seg["occupants"][k]) if k < len(seg["occupants"]) else None)
        for seg in state["wheel"]["segments"]
        for k in range(seg["crowns"])
    }


def _json(value: Any) -> Any:
    """``value`` as it comes back from JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def _wheel_shot(player: Player, path: Any) -> None:
    """A close-up of the wheel once the pig stands still and the floating points are gone."""
    page = player.page
    page.click("#centre")
    page.wait_for_function(
        "!document.querySelector('#board .floater, #board .wheel-pig.moving, #toasts .toast')",
        timeout=15_000,
    )
    page.wait_for_timeout(400)  # the view glides for 260 ms
    box = page.locator("#board .wheel-plate").bounding_box()
    assert box and box["width"] > 150
    page.screenshot(path=str(path), clip=box)


def _log(player: Player) -> str:
    return str(player.page.inner_text("#log"))


def test_a_wheel_of_fortune_match_through_plague_and_crown_scoring(wof_server, browser, artifacts):
    presets = httpx.get(f"{wof_server}/api/presets").json()["presets"]
    assert presets["wheel_of_fortune"] == {
        "tileset": "wheel_of_fortune",
        "river": False,
        "farm_scoring": "modern",
        "small_city_two_points": False,
    }
    # The wheel turns as it would for a person (every other browser test reduces motion).
    ann = Player.open(browser, wof_server, "Ann", reduced_motion="no-preference")
    ben = Player.open(browser, wof_server, "Ben", reduced_motion="no-preference")
    code = _create_wof_lobby(ann)
    join_by_code(ben, code)
    ann.page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    ann.page.click("#start-match")
    for p in (ann, ben):
        p.page.wait_for_selector("#match[data-version]")
        # Count the pig's finished runs (the wheel announces each landing).
        p.page.evaluate(
            "document.addEventListener('pig-landed',"
            " e => (window.__landed ||= []).push(e.detail.segment))"
        )
    found = re.search(r"#/match/([^?]+)", ann.page.url)
    assert found, ann.page.url
    srv = Server(wof_server, found.group(1), code)
    pages = {0: ann, 1: ben}

    state = new_wof_game()
    match = srv.match()
    # The deck is the seeded one (and nothing of it but the drawn tile is shown).
    assert match["state"] == _json(view(state, state.seat))
    assert match["state"]["rules"]["tileset"] == "wheel_of_fortune"
    for p in (ann, ben):
        p.page.wait_for_selector("#board .wheel-pig")
        assert p.page.locator("#board .wheel-seg").count() == 6
        labels = p.page.eval_on_selector_all(
            "#board .wheel-label", "els => els.map(e => e.textContent)"
        )
        assert labels == ["FORTUNE", "TAX", "FAMINE", "STORM", "INQUISITION", "PLAGUE"]
    # The wheel in words on the text board (match/access/textBoard.js): the pig and every crown
    # space.
    ben.page.keyboard.press("t")
    wheel_words = ben.page.locator("#text-board .tb-wheel").all_inner_texts()
    assert wheel_words[0] == "The pig is on Fortune.", wheel_words
    assert len(wheel_words) == 7 and all("crown" in w for w in wheel_words[1:]), wheel_words
    ben.page.keyboard.press("t")  # off again: the rest of the test plays on the board

    for n in range(FORTUNE + 1):
        action = plan_action(state)
        actor = pages[action.seat]
        other = pages[1 - action.seat]
        before = srv.match()
        actor.wait_version(before["version"])
        if isinstance(action, PlaceTile):
            _place(actor, action.x, action.y, action.rotation)
        elif isinstance(action, PlaceFollower):
            actor.page.wait_for_selector('#match[data-phase="deploy"] #no-follower')
            targets = _targets(actor)
            assert set(targets) == set(before["state"]["legal_spots"]), targets
            if action.spot.startswith("crown:"):
                # Every free crown space is offered, on the wheel and in the tray.
                assert {t for t in targets if t.startswith("crown:")} == {
                    f"crown:{s['name']}"
                    for s in before["state"]["wheel"]["segments"]
                    if len(s["occupants"]) < s["crowns"]
                }
                assert actor.page.is_visible(f'[data-spot-btn="{action.spot}"]')
                # The crown space to choose is on screen (the view brings the wheel in).
                actor.page.wait_for_timeout(400)  # the view glides for 260 ms
                box = actor.page.locator(
                    f'#board .target[data-spot="{action.spot}"]'
                ).bounding_box()
                view_box = actor.page.locator("#board").bounding_box()
                assert box and view_box
                assert view_box["x"] <= box["x"] and box["x"] + box["width"] <= (
                    view_box["x"] + view_box["width"]
                ), (box, view_box)
                assert view_box["y"] <= box["y"] and box["y"] + box["height"] <= (
                    view_box["y"] + view_box["height"]
                ), (box, view_box)
                if n in (FIRST_CROWN_DEPLOY, FORTUNE):
                    actor.page.screenshot(path=str(artifacts / f"wof-crown-choice-{n}.png"))
            actor.page.click(f'#board .target[data-spot="{action.spot}"]')
        elif isinstance(action, RemoveFollower):
            plague = before["state"]["plague"]
            assert plague is not None and plague["seat"] == action.seat
            decider = actor.page
            decider.wait_for_selector("#plague-choice")
            other.page.wait_for_selector(f'#plague-waiting[data-seat="{action.seat}"]')
            waiting = other.page.inner_text("#plague-waiting")
            assert f"Waiting for {actor.name}" in waiting, waiting
            assert "waiting for" in other.page.inner_text("#turn-status").lower()
            # The decider's followers that may go are highlighted as targets, nothing else.
            choices = {f"plague:{x},{y}:{spot}" for x, y, spot in plague["choices"]}
            assert set(_targets(actor)) == choices
            assert (
                set(
                    decider.eval_on_selector_all(
                        "#board .plague-target", "els => els.map(e => e.dataset.spot)"
                    )
                )
                == choices
            )
            # The others see the same followers marked, and nothing to click.
            assert _targets(other) == []
            marks = other.page.eval_on_selector_all(
                "#board [data-mark]", "els => els.map(e => e.dataset.mark)"
            )
            assert set(marks) == {f"{x},{y} {spot}" for x, y, spot in plague["choices"]}
            shot = f"wof-plague-{actor.name.lower()}-decides"
            decider.screenshot(path=str(artifacts / f"{shot}.png"))
            other.page.screenshot(path=str(artifacts / f"{shot}-{other.name.lower()}-waits.png"))
            decider.click(f'#board .target[data-spot="plague:{action.x},{action.y}:{action.spot}"]')
        else:
            actor.page.click("#no-follower")
        apply_in_place(state, action)
        actor.wait_version(before["version"] + 1)  # the click's action has committed
        after = srv.match()
        assert after["version"] == before["version"] + 1
        assert after["state"] == _json(view(state, state.seat))
        for p in (ann, ben):
            p.wait_version(after["version"])
            assert _scores(p, 2) == after["state"]["scores"]
            shown = _pig(p)
            pig = after["state"]["wheel"]["pig"]
            assert (shown["pig"], shown["here"], shown["info"]) == (pig, [pig], pig)
            assert shown["crowns"] == _expect_crowns(after["state"])

        if n == BOARD_CITY:
            ann.page.screenshot(path=str(artifacts / "wof-board-city.png"))
        if n == FIRST_CROWN_SCORING:
            # Tax: Ann's lone follower on Tax's two crown spaces scores 6.
            for p in (ann, ben):
                p.page.wait_for_function("(window.__landed || []).includes('tax')")
                log = _log(p)
                assert "A city was completed" in log, log  # the board's cityA, nobody on it
                assert "Crown on Tax: Ann alone on both crown spaces = 6" in log, log
        if n == STORM:
            for p in (ann, ben):
                p.page.wait_for_function("(window.__landed || []).includes('storm')")
                log = _log(p)
                assert "Storm for Ann: 7 followers in supply × 1 = 7" in log, log
                assert "Storm for Ben: 6 followers in supply × 1 = 6" in log, log
                assert "Crown on Storm: Ben alone on both crown spaces = 6" in log, log
        if n == FIRST_PLAGUE + 1:
            for p in (ann, ben):
                p.page.wait_for_function("(window.__landed || []).includes('plague')")
                log = _log(p)
                assert re.search(r"Plague: Ann took back a \w+", log), log
                assert re.search(r"Plague: Ben took back a \w+", log), log
                assert "Crown on Plague: Ben alone on both crown spaces = 6" in log, log
                assert p.page.query_selector("#plague-waiting, #plague-choice") is None

    # Fortune: Ben moved the pig (3), Ann's follower on Fortune's one crown space scores 3.
    for p in (ann, ben):
        p.page.wait_for_function("(window.__landed || []).includes('fortune')")
        log = _log(p)
        assert "Fortune: Ben moved the pig = 3" in log, log
        assert "Crown on Fortune: Ann alone on its crown space = 3" in log, log
        assert _pig(p)["landed"] == ["tax", "storm", "inquisition", "plague", "fortune"]
    final = srv.match()
    for p in (ann, ben):
        assert _scores(p, 2) == final["state"]["scores"]
    breakdown = final["state"]["breakdown"]
    assert breakdown[0]["crown"]["completed"] == 12 and breakdown[1]["crown"]["completed"] == 12

    # The whole screen as the points of Fortune rise, then the wheel close up with the pig there.
    ann.page.screenshot(path=str(artifacts / "wof-board.png"))
    _wheel_shot(ann, artifacts / "wof-wheel.png")

    # A spectator arriving now (on a phone) reads the same story from the match's history.
    cy = Player.open(
        browser,
        wof_server,
        "Cy",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    cy.page.goto(f"/#/match/{srv.match_id}?code={code}")
    cy.page.wait_for_selector('#match[data-role="spectator"]')
    cy.wait_version(final["version"])
    cy.page.wait_for_function("document.querySelectorAll('#log li').length > 10")
    log = _log(cy)
    for line in (
        "Crown on Tax: Ann alone on both crown spaces = 6",
        "Storm for Ben: 6 followers in supply × 1 = 6",
        "Crown on Plague: Ben alone on both crown spaces = 6",
        "Fortune: Ben moved the pig = 3",
        "Crown on Fortune: Ann alone on its crown space = 3",
    ):
        assert line in log, (line, log)
    assert re.search(r"Plague: Ann took back a \w+", log), log
    assert _scores(cy, 2) == final["state"]["scores"]
    assert (_pig(cy)["pig"], _pig(cy)["here"]) == ("fortune", ["fortune"])
    cy.page.wait_for_timeout(600)  # new tiles fade in for 0.45 s
    cy.page.screenshot(path=str(artifacts / "wof-spectator-phone.png"))
    assert cy.errors == []
    cy.context.close()

    # The tiles still to come carry their wheel icon numbers.
    ann.page.click("#tiles-left")
    icons = ann.page.eval_on_selector_all(
        "#remaining figure",
        "els => Object.fromEntries(els.map(f => [f.dataset.tile,"
        " f.querySelector('.wheel-icon')?.dataset.icon ?? null]))",
    )
    remaining = final["state"]["remaining"]
    assert set(icons) == {t for t, k in remaining.items() if k}
    for tile, icon in icons.items():
        assert icon == (tile.split(".")[1] if "." in tile else None), (tile, icon)
    ann.page.click("#close-remaining")

    for p in (ann, ben):
        assert p.errors == [], (p.name, p.errors)
        p.context.close()
    srv.close()
