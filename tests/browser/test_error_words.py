"""Refusals a German or French reader meets are worded in their language from the error's
``reason`` and ``params`` (docs/API.md § Limits and every error), never the server's English
sentence: a too-short password on the register form, a private match's link without its code,
a record file that does not replay on the replay screen.
"""

from __future__ import annotations

import json
import secrets
from pathlib import Path
from typing import Any

import httpx
import pytest

from tests.support.browser.ui import TIMEOUT_MS

pytestmark = [pytest.mark.browser, pytest.mark.timeout(240)]

#: Move 2 names tile D where the draw order has O next.
BAD_RECORD = {
    "format": "carcassonne-record/1",
    "players": ["Ann", "Ben"],
    "draw_order": ["V", "O", "P"],
    "moves": [
        {"tile": "V", "at": [1, 0], "rotation": 90, "follower": None},
        {"tile": "D", "at": [0, -1], "rotation": 180, "follower": None},
    ],
}

#: The server's English sentences (checked below, so the test notices when they change).
SERVER_SAYS = {
    "password": "password: 8–128 characters",
    "private": "this match is private: open it with its invite code",
    "record": "move 2: tile 'D' is not the next tile drawn that fits; that is 'O'",
}

WORDS = {
    "de": {
        "password": "Ein Passwort hat 8 bis 128 Zeichen.",
        "private": "Diese Partie ist privat",
        "record": "Zug 2: Karte D ist nicht die nächste gezogene; das ist O.",
    },
    "fr": {
        "password": "Un mot de passe a de 8 à 128 caractères.",
        "private": "Cette partie est privée",
        "record": "Coup 2 : la tuile D n’est pas la prochaine tirée ; c’est O.",
    },
}

#: English words of the server's sentences that no German or French sentence here contains.
ENGLISH = ("characters", "invite code", "not the next tile", "move 2", "that is")


def _private_match(server: str) -> str:
    """A private match against a computer seat, started over REST; its id."""
    with httpx.Client(base_url=server, timeout=30) as http:
        r = http.post("/api/players", json={"name": "Hostess"})
        assert r.status_code == 201, r.text
        auth = {"Authorization": f"Bearer {r.json()['token']}"}
        r = http.post("/api/lobbies", json={"seats": 2, "private": True}, headers=auth)
        assert r.status_code == 201, r.text
        code = r.json()["code"]
        assert http.post(f"/api/lobbies/{code}/bots", headers=auth).status_code == 200
        r = http.post(f"/api/lobbies/{code}/start", headers=auth)
        assert r.status_code == 200, r.text
        match_id: str = r.json()["match_id"]
        refused = http.get(f"/api/matches/{match_id}").json()["error"]
        assert refused["message"] == SERVER_SAYS["private"], refused
        r = http.post("/api/replay", json=BAD_RECORD)
        assert r.json()["error"]["message"] == SERVER_SAYS["record"], r.text
        r = http.post("/api/accounts", json={"username": "nobody_x", "password": "short"})
        assert r.json()["error"]["message"] == SERVER_SAYS["password"], r.text
    return match_id


def _page(browser: Any, server: str, lang: str) -> tuple[Any, Any, list[str]]:
    context = browser.new_context(base_url=server, viewport={"width": 1280, "height": 900})
    context.set_default_timeout(TIMEOUT_MS)
    context.add_init_script(f"localStorage.setItem('carcassonne.lang', '{lang}')")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")  # a guest, as a reader who opens a shared link has become by then
    page.fill("#name", "Stranger")
    page.click("#start-continue")
    page.wait_for_selector("#create-lobby")
    return context, page, errors


def _no_english(text: str) -> None:
    for words in (*SERVER_SAYS.values(), *ENGLISH):
        assert words not in text, (words, text)


@pytest.mark.parametrize("lang", ["de", "fr"])
def test_refusals_are_worded_in_the_readers_language(
    server: str, browser: Any, artifacts: Path, tmp_path: Path, lang: str
) -> None:
    match_id = _private_match(server)
    words = WORDS[lang]
    context, page, errors = _page(browser, server, lang)
    try:
        # Register with a password that is too short.
        page.goto("/#/account")
        page.wait_for_selector("#register-submit")
        page.fill("#reg-username", f"lia{secrets.token_hex(3)}")
        page.fill("#reg-password", "short")
        page.click("#register-submit")
        page.wait_for_function("document.querySelector('#register-error').textContent.length > 0")
        said = page.inner_text("#register-error")
        assert said == words["password"], said
        _no_english(page.inner_text("body"))
        page.screenshot(path=str(artifacts / f"error-words-password-{lang}.png"))

        # A private match's link without its code.
        page.goto(f"/#/match/{match_id}")
        page.wait_for_selector("#refused")
        said = page.inner_text("#refused")
        assert words["private"] in said, said
        _no_english(page.inner_text("body"))
        page.screenshot(path=str(artifacts / f"error-words-private-{lang}.png"))

        # A record file that does not replay, opened on the replay screen.
        bad = tmp_path / "bad-record.json"
        bad.write_text(json.dumps(BAD_RECORD), encoding="utf-8")
        page.goto("/#/replay")
        page.wait_for_selector("#record-file", state="attached")
        page.set_input_files("#record-file", str(bad))
        page.wait_for_function("document.querySelector('#record-error').textContent.length > 0")
        said = page.inner_text("#record-error")
        assert said == words["record"], said
        _no_english(page.inner_text("body"))
        page.screenshot(path=str(artifacts / f"error-words-record-{lang}.png"))
        assert errors == []
    finally:
        context.close()
