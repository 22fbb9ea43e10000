"""Accounts, history and the replay viewer in a real browser: register → play a rated match →
see it in the history → open its replay at a move (arrow keys, slider, verify the shuffle);
and opening record files (a good one steps through, a bad one names the move and the reason).
The match's moves are sent over REST with the browser's own token (the match screen is
covered elsewhere); everything checked here is what the page shows.
"""

from __future__ import annotations

import json
import random
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
PASSWORD = "correct horse battery"
RECORD = Path(__file__).resolve().parents[1] / "engine" / "records" / "record_md_example.json"


def _play_out(base: str, match_id: str, tokens: list[str]) -> list[int]:
    rng = random.Random(5)
    with httpx.Client(base_url=base, timeout=90) as http:
        while True:
            m = http.get(
                f"/api/matches/{match_id}",
                headers={  # a private table: a seat reads
                    "Authorization": f"Bearer {tokens[0]}"
                },
            ).json()
            state = m["state"]
            if m["status"] == "finished":
                return list(state["scores"])
            headers = {"Authorization": f"Bearer {tokens[state['seat']]}"}
            mine = http.get(f"/api/matches/{match_id}", headers=headers).json()["state"]
            if mine["phase"] == "place_tile":
                x, y, r = rng.choice(mine["legal_placements"])
                d: dict[str, Any] = {"type": "place_tile", "at": [x, y], "rotation": r}
            elif mine["legal_spots"] and rng.random() < 0.3:
                d = {"type": "place_follower", "spot": rng.choice(mine["legal_spots"])}
            else:
                d = {"type": "pass"}
            r2 = http.post(
                f"/api/matches/{match_id}/actions",
                headers=headers,
                json={"v": m["version"], "id": f"t{m['version']}", "d": d},
            )
            assert r2.status_code in (200, 409), r2.text


def test_register_play_rated_history_and_replay_at_a_move(
    server: str, browser: Any, artifacts: Path
) -> None:
    user = f"ann{secrets.token_hex(3)}"
    context = browser.new_context(base_url=server, viewport={"width": 1400, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto("/#/account")
        page.fill("#reg-username", user)
        page.fill("#reg-password", "short")
        page.click("#register-submit")
        page.wait_for_selector("#register-error:has-text('password')")
        page.fill("#reg-password", PASSWORD)
        page.click("#register-submit")
        page.wait_for_selector("#profile-name")
        assert page.inner_text("#stat-played") == "0"
        page.screenshot(path=str(artifacts / "i15-profile-empty.png"))

        # A rated table from the create screen; Ben (another account) joins over REST.
        page.goto("/#/create")
        page.check("#create-rated")
        page.click("#create-submit")
        page.wait_for_selector("#seats")
        code = page.url.split("#/lobby/")[1]
        token = page.evaluate("localStorage.getItem('carcassonne.token')")
        with httpx.Client(base_url=server) as http:
            ben = http.post(
                "/api/accounts",
                json={"username": f"ben{secrets.token_hex(3)}", "password": PASSWORD},
            ).json()
            assert (
                http.post(
                    f"/api/lobbies/{code}/join", headers={"Authorization": f"Bearer {ben['token']}"}
                ).status_code
                == 200
            )
        page.wait_for_selector("[data-seat='1'] .seat-rating")
        page.screenshot(path=str(artifacts / "i15-rated-room.png"))
        page.click("#start-match")
        page.wait_for_selector("#match")
        match_id = page.url.split("#/match/")[1].split("?")[0]
        match_url = page.url
        # Moves arrive here faster than anyone plays: keep the page off the live board meanwhile
        # (on a loaded machine its animations fall far behind), and come back for the end.
        page.goto("/#/tiles")
        scores = _play_out(server, match_id, [token, ben["token"]])
        page.goto(match_url)

        # The end screen shows the rating change.
        page.wait_for_selector("#end-screen")
        page.wait_for_selector("#rating-changes li[data-seat='0']")
        page.screenshot(path=str(artifacts / "i15-end-ratings.png"))

        # From another browser: log in, find the match in the history, open its replay.
        other = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
        other.set_default_timeout(TIMEOUT_MS)
        p2 = other.new_page()
        p2.on("pageerror", lambda exc: errors.append(str(exc)))
        p2.goto("/#/account")
        p2.fill("#login-username", user.upper())
        p2.fill("#login-password", PASSWORD)
        p2.click("#login-submit")
        p2.wait_for_selector(f"[data-match='{match_id}']")
        assert p2.inner_text("#stat-played") == "1"
        assert p2.locator("[data-rating='standard']").count() == 1
        p2.screenshot(path=str(artifacts / "i15-history.png"))
        p2.click(f"[data-match='{match_id}'] a.history-link")
        p2.wait_for_selector("#replay-counter")
        total = int(p2.get_attribute("#replay-slider", "max") or 0)
        assert total > 30
        assert p2.inner_text("#replay-counter") == f"Move {total} of {total}"
        assert [int(x) for x in p2.locator(".replay-scores td.num").all_inner_texts()] == scores

        # A link to a move, then the keys.
        p2.goto(f"/#/replay/{match_id}?move=12")
        p2.wait_for_selector("#replay-counter:has-text('Move 12 of')")
        assert p2.locator(".board-svg .tile").count() == 13  # the start tile and 12 placed
        p2.keyboard.press("ArrowRight")
        p2.wait_for_selector("#replay-counter:has-text('Move 13 of')")
        assert "move=13" in p2.url
        p2.keyboard.press("Home")
        p2.wait_for_selector("#replay-counter:has-text('Move 0 of')")
        assert p2.locator(".board-svg .tile").count() == 1
        p2.click("#replay-forward")
        p2.wait_for_selector("#replay-counter:has-text('Move 1 of')")
        p2.fill("#replay-slider", "20")
        p2.wait_for_selector("#replay-counter:has-text('Move 20 of')")
        assert p2.locator("#replay-log li").count() >= 20
        # The log box is scrolled to the current move's line (it is inside the box's view).
        seen = p2.evaluate(
            """() => { const log = document.getElementById('replay-log');
                 const cur = log.querySelector('li.current');
                 const a = log.getBoundingClientRect(), b = cur.getBoundingClientRect();
                 return [log.scrollHeight > log.clientHeight, b.top >= a.top - 1,
                         b.bottom <= a.bottom + 1]; }"""
        )
        assert seen == [True, True, True], seen
        p2.click("#verify-shuffle")
        p2.wait_for_selector(".verify-ok, .verify-bad")
        p2.screenshot(path=str(artifacts / "i15-replay.png"))
        assert p2.locator(".verify-ok").count() == 1, p2.inner_text("#verify-result")
        p2.screenshot(path=str(artifacts / "i15-replay.png"))
        other.close()
        assert not errors, errors
    finally:
        context.close()


def test_open_a_record_file(server: str, browser: Any, artifacts: Path, tmp_path: Path) -> None:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        record = json.loads(RECORD.read_text())
        bad = json.loads(json.dumps(record))
        bad["moves"][2]["at"] = [7, 7]
        bad_path = tmp_path / "bad.json"
        bad_path.write_text(json.dumps(bad))
        page.goto("/#/replay")
        page.set_input_files("#record-file", str(bad_path))
        page.wait_for_selector("#record-error:has-text('move 3')")
        page.screenshot(path=str(artifacts / "i15-record-invalid.png"))
        page.set_input_files("#record-file", str(RECORD))
        page.wait_for_selector("#replay-counter")
        moves = len(record["moves"])
        assert page.inner_text("#replay-counter") == f"Move {moves} of {moves}"
        assert [int(x) for x in page.locator(".replay-scores td.num").all_inner_texts()] == record[
            "result"
        ]["scores"]
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector(f"#replay-counter:has-text('Move {moves - 1} of')")
        page.screenshot(path=str(artifacts / "i15-record-file.png"))
        assert not errors, errors
    finally:
        context.close()


def test_a_spectator_scrolls_back_through_a_live_match(
    server: str, browser: Any, artifacts: Path
) -> None:
    with httpx.Client(base_url=server, timeout=90) as http:
        people = [http.post("/api/players", json={"name": n}).json() for n in ("Ann", "Ben")]
        heads = [{"Authorization": f"Bearer {p['token']}"} for p in people]
        code = http.post("/api/lobbies", headers=heads[0], json={"private": False}).json()["code"]
        http.post(f"/api/lobbies/{code}/join", headers=heads[1])
        match_id = http.post(f"/api/lobbies/{code}/start", headers=heads[0]).json()["match_id"]
        for _ in range(8):  # four turns: tile and follower decision each
            m = http.get(f"/api/matches/{match_id}").json()
            s = m["state"]
            d = (
                {
                    "type": "place_tile",
                    "at": s["legal_placements"][0][:2],
                    "rotation": s["legal_placements"][0][2],
                }
                if s["phase"] == "place_tile"
                else {"type": "pass"}
            )
            r = http.post(
                f"/api/matches/{match_id}/actions",
                headers=heads[s["seat"]],
                json={"v": m["version"], "id": f"x{m['version']}", "d": d},
            )
            assert r.status_code == 200, r.text
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    try:
        page.goto("/")
        page.fill("#name", "Watcher")
        page.click("#start-continue")
        page.wait_for_selector("#create-lobby")
        page.goto(f"/#/match/{match_id}")
        page.click("#rewind-match")
        page.wait_for_selector("#replay-counter:has-text('Move 4 of 4')")
        assert page.locator("#back-to-live").count() == 1
        assert page.locator("#verify-shuffle").count() == 0  # revealed only after the end
        page.keyboard.press("ArrowLeft")
        page.wait_for_selector("#replay-counter:has-text('Move 3 of 4')")
        page.keyboard.press("End")
        page.keyboard.press("ArrowRight")  # never past what has been played
        page.wait_for_selector("#replay-counter:has-text('Move 4 of 4')")
        page.screenshot(path=str(artifacts / "i15-live-rewind.png"))
    finally:
        context.close()


def _registered(browser: Any, server: str, user: str) -> tuple[Any, Any, list[str]]:
    """A new browser context whose page registered ``user`` (on its profile now); returns the
    context, the page and the list its page errors are collected in.
    """
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 860})
    context.set_default_timeout(TIMEOUT_MS)
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.on("dialog", lambda dialog: dialog.accept())
    try:
        page.goto("/#/account")
        page.fill("#reg-username", user)
        page.fill("#reg-password", PASSWORD)
        page.click("#register-submit")
        page.wait_for_selector("#profile-name")
    except BaseException:
        context.close()
        raise
    return context, page, errors


def test_sign_out_everywhere_keeps_this_device(server: str, browser: Any, artifacts: Path) -> None:
    user = f"eve{secrets.token_hex(3)}"
    context, page, errors = _registered(browser, server, user)
    try:
        # Another device logs in.
        with httpx.Client(base_url=server, timeout=30) as http:
            body = {"username": user, "password": PASSWORD}
            other = http.post("/api/accounts/login", json=body).json()["token"]
            me = {"Authorization": f"Bearer {other}"}
            assert http.get("/api/accounts/me", headers=me).status_code == 200
            page.goto("/#/account")
            page.click("#sign-out-everywhere")
            page.wait_for_selector("text=Every other device is signed out.")
            page.screenshot(path=str(artifacts / "account-signed-out-everywhere.png"))
            assert http.get("/api/accounts/me", headers=me).status_code == 401
        # This device carries on with the fresh token, after a reload too.
        page.reload()
        page.wait_for_selector(f"h1:has-text('Signed in as {user}')")
        assert errors == []
    finally:
        context.close()


def test_logging_out_ends_this_devices_session(server: str, browser: Any, artifacts: Path) -> None:
    """Log out in the browser: the start screen, and the token the browser held is refused by
    the server (a copy of it is worthless); the account's other device stays signed in.
    """
    user = f"lou{secrets.token_hex(3)}"
    context, page, errors = _registered(browser, server, user)
    try:
        held = page.evaluate("localStorage.getItem('carcassonne.token')")
        with httpx.Client(base_url=server, timeout=30) as http:
            body = {"username": user, "password": PASSWORD}
            token = http.post("/api/accounts/login", json=body).json()["token"]
            other = {"Authorization": f"Bearer {token}"}
            page.goto("/#/account")
            page.click("#logout")
            page.wait_for_url("**/#/start")
            page.screenshot(path=str(artifacts / "account-logged-out.png"))
            assert page.evaluate("localStorage.getItem('carcassonne.token')") is None
            copied = {"Authorization": f"Bearer {held}"}
            assert http.get("/api/accounts/me", headers=copied).status_code == 401
            assert http.get("/api/accounts/me", headers=other).status_code == 200
        assert errors == []
    finally:
        context.close()
