"""A whole private match played through the browser, watched live, with a dropped connection
and a page reload on the way (issue 4, "Tests").

Ann creates a private table, Ben joins it by typing the code, Ann starts; Cy watches on a
phone-sized screen from the watch link. Every tile and follower goes through clicks on the board
until the end screen, whose scores must equal the server's. Screenshots land in
``test-artifacts/``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path

import pytest

from tests.support.browser.ui import (
    Player,
    Server,
    board_snapshot,
    create_private_lobby,
    join_by_code,
    play_turn,
    server_board,
)

pytestmark = pytest.mark.browser

CATEGORIES = ("road", "city", "cloister", "farm")


def _end_table(player: Player) -> dict[str, dict[str, int]]:
    """The end screen's table: seat → {category: points, ..., "total": points}."""
    rows: dict[str, dict[str, int]] = player.page.evaluate(
        """() => Object.fromEntries([...document.querySelectorAll('#final-scores tbody tr')]
          .map(tr => {
            const cells = [...tr.querySelectorAll('td')];
            const out = {};
            ['road', 'city', 'cloister', 'farm'].forEach((c, i) =>
              { out[c] = Number(cells[i].querySelector('b').textContent); });
            out.total = Number(tr.querySelector('[data-final-total]').textContent);
            return [tr.dataset.seat, out];
          }))"""
    )
    return rows


def test_two_friends_play_a_whole_private_match_while_a_third_watches(server, browser, artifacts):
    rng = random.Random(20240607)
    # The one whole match played with the client's animations on (the glowing cells, the
    # board gliding to a placement): every other browser test asks for reduced motion.
    ann = Player.open(browser, server, "Ann", reduced_motion="no-preference")
    ben = Player.open(browser, server, "Ben", reduced_motion="no-preference")

    code = create_private_lobby(ann)
    assert ann.page.input_value("#invite-link").endswith(f"#/lobby/{code}")
    join_by_code(ben, code)
    ann.page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    ann.page.click("#start-match")
    # Everyone moves to the match when it starts (Ben through the lobby websocket).
    ann.page.wait_for_selector("#match[data-version]")
    ben.page.wait_for_selector("#match[data-version]")
    found = re.search(r"#/match/([^?]+)", ann.page.url)
    assert found, ann.page.url
    match_id = found.group(1)
    srv = Server(server, match_id, code)

    # Cy watches on a phone from the watch link.
    cy = Player.open(
        browser,
        server,
        "Cy",
        reduced_motion="no-preference",
        viewport={"width": 390, "height": 844},
        is_mobile=True,
        has_touch=True,
        device_scale_factor=2,
    )
    cy.page.goto(f"/#/match/{match_id}?code={code}")
    cy.page.wait_for_selector('#match[data-role="spectator"]')
    ann.page.wait_for_function("document.querySelector('#spectators')?.textContent === '1'")

    by_name = {"Ann": ann, "Ben": ben}
    seats = {s["seat"]: by_name[s["name"]] for s in srv.match()["seats"]}
    turns = 0
    dropped = reloaded = shot = False
    while True:
        match = srv.match()
        state = match["state"]
        if match["status"] == "finished" or state["phase"] == "game_over":
            break
        actor = seats[state["seat"]]
        other = ben if actor is ann else ann

        if not dropped and turns >= 6:
            # Cut the other player's websocket; the actor plays a whole turn meanwhile.
            dropped = True
            other.context.set_offline(True)
            other.page.evaluate("window.carcassonne.socket.drop('test')")
            other.page.wait_for_selector("#conn-banner:not([hidden])")
            missed_from = other.version()
            play_turn(actor, srv, rng)
            turns += 1
            assert other.version() == missed_from, "an offline page cannot have seen the turn"
            other.context.set_offline(False)
            # It resumes from the last version it saw, without reloading the page.
            other.page.wait_for_selector("#conn-banner", state="hidden")
            other.wait_version(srv.match()["version"])
            assert board_snapshot(other) == server_board(srv.match())
            continue

        if not reloaded and turns >= 14:
            # Reloading the page resumes too.
            reloaded = True
            actor.page.reload()
            actor.wait_version(match["version"])

        if not shot and turns >= 24:
            shot = True
            actor.page.wait_for_selector("#board .legal-cell")
            actor.page.screenshot(path=str(artifacts / "board-midmatch.png"))
            cy.wait_version(match["version"])
            cy.page.screenshot(path=str(artifacts / "spectator-phone-midmatch.png"))

        play_turn(actor, srv, rng)
        turns += 1

    final = srv.match()
    scores = final["state"]["scores"]
    breakdown = final["state"]["breakdown"]
    assert turns >= 60, turns
    assert dropped and reloaded and shot

    for p in (ann, ben, cy):
        p.page.wait_for_selector("#end-screen")
        table = _end_table(p)
        assert {int(k): v["total"] for k, v in table.items()} == dict(enumerate(scores))
        for seat, row in table.items():
            for cat in CATEGORIES:
                part = breakdown[int(seat)].get(cat, {"completed": 0, "final": 0})
                assert row[cat] == part["completed"] + part["final"], (seat, cat)
            assert sum(row[c] for c in CATEGORIES) == row["total"]
        winners = [final["seats"][i]["name"] for i in final["state"]["winners"]]
        title = p.page.inner_text("#end-title")
        assert all(w in title for w in winners), title
        # The side panel agrees with the end screen.
        for seat, score in enumerate(scores):
            assert p.page.inner_text(f'[data-score="{seat}"]') == str(score)

    ann.page.screenshot(path=str(artifacts / "end-screen.png"))
    log = ann.page.inner_text("#log")
    assert "Game over" in log
    assert re.search(r"(completed a (city|road|cloister)|Final scoring)", log), log[:500]

    # The spectator sees the same final board as the players and the server.
    cy.page.click("#view-board")
    expected = server_board(final)
    assert board_snapshot(cy) == expected
    assert board_snapshot(ann) == expected
    assert len(expected["tiles"]) == 1 + turns
    cy.page.screenshot(path=str(artifacts / "spectator-phone-final.png"))

    # Download the record of the match.
    with ann.page.expect_download() as info:
        ann.page.click("#download-record")
    record = json.loads(Path(info.value.path()).read_text(encoding="utf-8"))
    assert record.get("format") == "carcassonne-record/1"

    # Rematch: a new table with the same seats.
    ann.page.click("#rematch")
    ann.page.wait_for_selector("#invite-code")
    assert ann.page.inner_text("#invite-code").strip() != code

    for p in (ann, ben, cy):
        assert p.errors == [], (p.name, p.errors)
        p.context.close()
    srv.close()
