"""One verdict after a leaver: two accounts play a rated match, Ben closes his tab, after the
leave countdown Ann hands his seat to the computer, and the computer-played seat ends ahead on
points. The end screen, Ann's and Ben's history and the rating changes all say the same: Ann
won, Ben is last and "left at move N — counted last" (his points still shown); in German too.

Moves are sent over REST with each player's own token (the match screen's clicking is covered
elsewhere); the leave vote is clicked on Ann's page, and everything checked is what pages show.
"""

from __future__ import annotations

import random
import re
import secrets
import time
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from tests.support.browser.fixtures import running_server
from tests.support.browser.ui import TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(400)]
PASSWORD = "correct horse battery"


@pytest.fixture(scope="module")
def quick_leave(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """A server whose leave countdown is 1 s (the vote stays open 60 s: Ann clicks it)."""
    with running_server(
        tmp_path_factory.mktemp("leaver"), LEAVE_GRACE="1", LEAVE_VOTE="60"
    ) as base:
        yield base


def _account(http: httpx.Client, stem: str) -> tuple[str, str, str]:
    user = f"{stem}{secrets.token_hex(3)}"
    r = http.post("/api/accounts", json={"username": user, "password": PASSWORD})
    assert r.status_code == 201, r.text
    return r.json()["account"]["id"], user, r.json()["token"]


def _page(browser: Any, base: str, user: str, width: int = 1400, height: int = 900) -> Any:
    context = browser.new_context(base_url=base, viewport={"width": width, "height": height})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    page.errors = []  # type: ignore[attr-defined]
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))  # type: ignore[attr-defined]
    page.goto("/#/account")
    page.fill("#login-username", user)
    page.fill("#login-password", PASSWORD)
    page.click("#login-submit")
    page.wait_for_selector("#profile-name")
    return page


def _act(http: httpx.Client, match_id: str, token: str, rng: random.Random, follow: bool) -> Any:
    headers = {"Authorization": f"Bearer {token}"}
    m = http.get(f"/api/matches/{match_id}", headers=headers).json()
    state = m["state"]
    if state["phase"] == "place_tile":
        x, y, r = rng.choice(state["legal_placements"])
        d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
    elif follow and state["legal_spots"]:
        d = {"type": "place_follower", "spot": rng.choice(state["legal_spots"])}
    else:
        d = {"type": "pass"}
    r2 = http.post(
        f"/api/matches/{match_id}/actions",
        headers=headers,
        json={"v": m["version"], "id": f"m{m['version']}", "d": d},
    )
    assert r2.status_code in (200, 409), r2.text  # 409: the computer moved meanwhile


def test_the_leaver_is_last_on_the_end_screen_and_in_history(quick_leave, browser, artifacts):
    base = quick_leave
    rng = random.Random(17)
    http = httpx.Client(base_url=base, timeout=60)
    ann_id, ann_user, ann_t = _account(http, "ann")
    ben_id, ben_user, ben_t = _account(http, "ben")
    auth = {"Authorization": f"Bearer {ann_t}"}
    r = http.post(
        "/api/lobbies",
        json={"seats": 2, "rated": True, "preset": "standard", "private": False},
        headers=auth,
    )
    assert r.status_code == 201, r.text
    code = r.json()["code"]
    assert (
        http.post(
            f"/api/lobbies/{code}/join", headers={"Authorization": f"Bearer {ben_t}"}
        ).status_code
        == 200
    )
    match_id = http.post(f"/api/lobbies/{code}/start", headers=auth).json()["match_id"]

    ann = _page(browser, base, ann_user)
    ben = _page(browser, base, ben_user)
    for page in (ann, ben):
        page.goto(f"/#/match/{match_id}")
        page.wait_for_selector("#match[data-version]")
    tokens = [ann_t, ben_t]
    # Ben plays his first twelve turns himself (with followers: more than a third of his
    # moves, so the match stays rated); Ann never puts a follower down and scores nothing.
    while True:
        state = http.get(f"/api/matches/{match_id}").json()["state"]
        if state["turn"] >= 24 and state["phase"] == "place_tile" and state["seat"] == 1:
            break
        _act(http, match_id, tokens[state["seat"]], rng, follow=state["seat"] == 1)
    ben.context.close()  # Ben closes the tab

    vote = ann.locator('.vote-buttons button[data-choice="computer"]')
    vote.wait_for(timeout=30_000)
    vote.click()
    deadline = time.monotonic() + 30
    while not http.get(f"/api/matches/{match_id}").json()["clock"]["auto"][1]:
        assert time.monotonic() < deadline, "the computer never took Ben's seat"
        time.sleep(0.1)
    while True:
        m = http.get(f"/api/matches/{match_id}").json()
        if m["status"] == "finished":
            break
        if m["state"]["seat"] == 0:
            _act(http, match_id, ann_t, rng, follow=False)
        else:
            time.sleep(0.05)
    scores = m["state"]["scores"]
    assert scores[1] > scores[0], scores  # the computer-played seat is ahead on points
    assert m["state"]["winners"] == [1]  # the rules' winner (by score) stays the engine's

    # The end screen: Ann won; Ben is last, his points shown, the reason in words.
    ann.wait_for_selector("#end-screen #end-title[data-judged='true']", timeout=30_000)
    title = ann.inner_text("#end-title")
    assert title == f"{ann_user} wins!", title
    rows = ann.eval_on_selector_all(
        "#final-scores tbody tr", "els => els.map(e => [e.dataset.seat, e.className])"
    )
    assert [seat for seat, _ in rows] == ["0", "1"]  # Ann first, Ben last
    assert "winner" in rows[0][1] and "winner" not in rows[1][1] and "left" in rows[1][1]
    assert "★" in ann.inner_text('#final-scores tr[data-seat="0"] th')
    assert "★" not in ann.inner_text('#final-scores tr[data-seat="1"] th')
    assert ann.inner_text('#final-scores [data-final-total="1"]') == str(scores[1])
    note = ann.inner_text('#final-scores [data-left-seat="1"]')
    move = int(re.search(r"left at move (\d+) — counted last", note).group(1))  # type: ignore[union-attr]
    assert move >= 25
    ann.wait_for_selector("#rating-changes")
    deltas = ann.eval_on_selector_all(
        "#rating-changes li",
        "els => els.map(e => [e.dataset.seat, e.querySelector('.rating-delta').className])",
    )
    assert dict(deltas)["0"].endswith("up") and dict(deltas)["1"].endswith("down")
    # Behind it, the seats and the status line say the same (no "winner" tag on Ben's seat).
    ann.wait_for_selector('li.player[data-seat="0"] .tag.win')
    assert ann.locator('li.player[data-seat="1"] .tag.win').count() == 0
    assert ann.inner_text("#turn-status") == f"Game over — {ann_user} wins"
    ann.screenshot(path=str(artifacts / "leaver-verdict-end.png"))
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.wait_for_timeout(300)
    ann.screenshot(path=str(artifacts / "leaver-verdict-end-phone.png"))

    verdict = http.get(f"/api/matches/{match_id}").json()["verdict"]
    assert verdict["winners"] == [0] and verdict["left"] == [{"seat": 1, "move": move}]

    # History: Ann placed first and won; Ben placed last and left at that move.
    ann.set_viewport_size({"width": 1400, "height": 900})
    ann.goto(f"/#/player/{ann_id}")
    ann.wait_for_selector(f'#history li[data-match="{match_id}"] .badge')
    assert ann.inner_text(f'#history li[data-match="{match_id}"] .badge') == "place 1"
    assert ann.inner_text("#stat-won") == "1"
    ann.goto(f"/#/player/{ben_id}")
    ann.wait_for_selector(f'#history li[data-match="{match_id}"] .badge')
    badge = ann.inner_text(f'#history li[data-match="{match_id}"] .badge')
    assert badge == f"place 2 · left at move {move} — counted last", badge
    assert ann.inner_text("#stat-won") == "0"
    ann.screenshot(path=str(artifacts / "leaver-verdict-history.png"))

    # The replay marks the moves the computer chose for Ben, from the move he left at.
    ann.goto(f"/#/replay/{match_id}?move={move + 1}")
    ann.wait_for_selector(f'#replay-log li[data-move="{move}"], li[data-move="{move}"]')
    marked = ann.eval_on_selector_all(
        "li[data-move].log-computer", "els => els.map(e => Number(e.dataset.move))"
    )
    assert marked and min(marked) == move, marked
    assert ann.locator(f'li[data-move="{move}"] .computer-move').count() == 1
    ann.screenshot(path=str(artifacts / "leaver-verdict-replay.png"))

    # German: the same verdict in other words.
    ann.evaluate("localStorage.setItem('carcassonne.lang', 'de')")
    ann.goto(f"/#/match/{match_id}")
    ann.reload()
    ann.wait_for_selector("#end-screen #end-title[data-judged='true']")
    assert ann.inner_text("#end-title").endswith(" gewinnt!")
    assert ann_user in ann.inner_text("#end-title")
    note = ann.inner_text('#final-scores [data-left-seat="1"]')
    assert note == f"bei Zug {move} gegangen — zählt als Letzter", note
    ann.set_viewport_size({"width": 390, "height": 844})
    ann.wait_for_timeout(300)
    ann.screenshot(path=str(artifacts / "leaver-verdict-end-de-phone.png"))
    assert ann.errors == []  # type: ignore[attr-defined]
    ann.context.close()
    http.close()
