"""Words that depend on the reader: a table's default name, and the Wheel of Fortune's formulas.

Anna (German) creates a public table and leaves its name empty: the form shows the default as a
placeholder and says everyone sees it in their own language; the server stores no name. Ben
(English) and Chloe (French) then read "Anna’s table" and "Table de Anna", and Anna "Tisch von
Anna", wherever the table is named: the tables list (open and live), the waiting room and its
"you joined" toast, the match header and the page title, the ongoing matches, the history and
the replay. A table named over the API keeps its name as given in every language.

A Wheel of Fortune formula ends the player's name with a colon before the numbers, so a
computer player "Bot 1" with one monk reads "Inquisition für Bot 1: 1 Mönch × 2 = 2", never
"Bot 1 1 Mönch": checked sentence by sentence in the three languages, and on the replay of a
whole game between "Bot 1" and "Bot 2". Screenshots go to ``test-artifacts/names-*.png``.
"""

from __future__ import annotations

import json
import random
import re
from pathlib import Path
from typing import Any

import httpx
import pytest

from app.engine import Options, apply_in_place, export_record, legal_actions, new_game
from tests.support.browser.ui import Player, Server, play_turn

pytestmark = pytest.mark.browser

TITLES = {"en": "Anna’s table", "de": "Tisch von Anna", "fr": "Table de Anna"}


def _title_of(page: Any, selector: str) -> str:
    page.wait_for_selector(selector)
    return str(page.inner_text(selector)).strip()


def test_a_table_without_a_name_is_named_in_each_readers_language(
    server: str, browser: Any, artifacts: Path
) -> None:
    anna = Player.open(browser, server, "Anna", locale="de-DE")
    ben = Player.open(browser, server, "Ben", locale="en-US")
    chloe = Player.open(browser, server, "Chloe", locale="fr-FR")
    page = anna.page

    # The form: an empty name, the default as its placeholder, and what leaving it empty means.
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    assert page.input_value("#table-name") == ""
    assert page.get_attribute("#table-name", "placeholder") == "Tisch von Anna"
    assert "„Tisch von Anna“" in page.inner_text("#table-name-help")
    page.screenshot(path=str(artifacts / "names-create-de.png"))
    page.click("#vis-public")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    code = page.inner_text("#invite-code").strip()
    lobby = httpx.get(f"{server}/api/lobbies/{code}").json()
    assert (lobby["name"], lobby["host_name"]) == (None, "Anna")
    assert _title_of(page, "#room-title") == "Tisch von Anna"

    # A table named over the API (as every table was before) keeps its name in every language.
    with httpx.Client(base_url=server) as http:
        old = http.post("/api/players", json={"name": "Olga"}).json()
        auth = {"Authorization": f"Bearer {old['token']}"}
        named = http.post("/api/lobbies", headers=auth, json={"name": "Olga's table"}).json()

    # The tables list: each reader's words; the host is not named twice on an unnamed table.
    for who, lang in ((ben, "en"), (chloe, "fr")):
        who.page.goto("/#/lobbies")
        who.page.wait_for_selector(f'[data-lobby="{code}"]')
        assert _title_of(who.page, f'[data-lobby="{code}"] .card-main b') == TITLES[lang]
        sub = who.page.inner_text(f'[data-lobby="{code}"] .card-main small')
        assert "Anna" not in sub, sub
        old_title = _title_of(who.page, f'[data-lobby="{named["code"]}"] .card-main b')
        assert old_title == "Olga's table"
    chloe.page.screenshot(path=str(artifacts / "names-tables-fr.png"))

    # The waiting room, and the toast that says whose table Ben sat down at.
    ben.page.click(f'[data-lobby="{code}"] a.join')
    ben.page.wait_for_selector("#seats li.seat.mine")
    assert _title_of(ben.page, "#room-title") == TITLES["en"]
    ben.page.wait_for_selector(f"#toasts .toast:has-text('You joined {TITLES['en']}')")
    ben.page.screenshot(path=str(artifacts / "names-room-en.png"))

    # The match header and the page title.
    page.wait_for_selector("#start-match:not([disabled])")
    page.click("#start-match")
    for who, lang in ((anna, "de"), (ben, "en")):
        who.page.wait_for_selector("#match[data-version]")
        assert _title_of(who.page, ".match-title") == TITLES[lang]
        assert TITLES[lang] in who.page.title()
    match_id = page.url.split("#/match/")[1].split("?")[0]
    srv = Server(server, match_id, None)
    try:
        play_turn(anna, srv, random.Random(3))
    finally:
        srv.close()
    page.screenshot(path=str(artifacts / "names-match-de.png"))

    # The live matches of the tables list, and a spectator's match header.
    chloe.page.goto("/#/lobbies")
    chloe.page.wait_for_selector(f'[data-match="{match_id}"]')
    assert _title_of(chloe.page, f'[data-match="{match_id}"] .card-main b') == TITLES["fr"]
    chloe.page.goto(f"/#/match/{match_id}")
    chloe.page.wait_for_selector('#match[data-role="spectator"]')
    assert _title_of(chloe.page, ".match-title") == TITLES["fr"]

    # Ben's ongoing matches, his history, and the replay.
    ben.page.goto("/#/lobbies")
    mine = f'#my-matches [data-match="{match_id}"] .card-main b'
    assert _title_of(ben.page, mine).startswith(TITLES["en"])
    ben_id = ben.page.evaluate("JSON.parse(localStorage.getItem('carcassonne.player')).id")
    ben.page.goto(f"/#/player/{ben_id}")
    assert _title_of(ben.page, f'#history [data-match="{match_id}"] .history-link') == TITLES["en"]
    ben.page.screenshot(path=str(artifacts / "names-history-en.png"))
    chloe.page.goto(f"/#/replay/{match_id}")
    assert _title_of(chloe.page, ".replay-title") == TITLES["fr"]
    chloe.page.screenshot(path=str(artifacts / "names-replay-fr.png"))

    for who in (anna, ben, chloe):
        assert who.errors == [], who.errors
        who.context.close()


# Every formula line of the wheel for a player named "Bot 1", in the page's current language.
FORMULAS = """async (lang) => {
  const i18n = await import('/js/i18n.js');
  await i18n.setLang(lang);  // another language's catalogue is fetched first
  const { wheelSentence } = await import('/js/expansions/wheelWords.js');
  const one = { seat: 0, points: 2, followers: [1, 0], pennants: 1, cities: 2 };
  return ['tax', 'famine', 'storm', 'inquisition'].map(
    (category) => wheelSentence({ ...one, category }, 'Bot 1', null));
}"""

EXPECTED = {
    "en": [
        "Tax for Bot 1: 1 knight × (1 pennant + 1 knight) = 2",
        "Famine for Bot 1: 1 farmer × 2 completed cities = 2",
        "Storm for Bot 1: 2 followers in supply × 1 = 2",
        "Inquisition for Bot 1: 1 monk × 2 = 2",
    ],
    "de": [
        "Steuern für Bot 1: 1 Ritter × (1 Wappen + 1 Ritter) = 2",
        "Hungersnot für Bot 1: 1 Bauer × 2 abgeschlossene Städte = 2",
        "Sturm für Bot 1: 2 Gefolgsleute im Vorrat × 1 = 2",
        "Inquisition für Bot 1: 1 Mönch × 2 = 2",
    ],
    "fr": [
        "Impôt pour Bot 1\u00a0: 1 chevalier × (1 blason + 1 chevalier) = 2",
        "Famine pour Bot 1\u00a0: 1 paysan × 2 villes achevées = 2",
        "Tempête pour Bot 1\u00a0: 2 partisans en réserve × 1 = 2",
        "Inquisition pour Bot 1\u00a0: 1 moine × 2 = 2",
    ],
}


def _bots_record(seed: int) -> dict[str, Any]:
    """A whole Wheel of Fortune game between "Bot 1" and "Bot 2", random legal moves."""
    rng = random.Random(seed)
    state = new_game(
        Options(expansions=frozenset({"wheel_of_fortune"})), ["Bot 1", "Bot 2"], seed=seed
    )
    while not state.is_over:
        apply_in_place(state, rng.choice(legal_actions(state)))
    record: dict[str, Any] = json.loads(json.dumps(export_record(state)))
    return record


def test_wheel_formulas_keep_a_name_ending_in_a_digit_apart_from_its_count(
    server: str, browser: Any, artifacts: Path, tmp_path: Path
) -> None:
    context = browser.new_context(base_url=server, locale="de-DE")
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    try:
        page.goto("/#/replay")
        page.wait_for_selector("#drop-zone")
        for lang, lines in EXPECTED.items():
            assert page.evaluate(FORMULAS, lang) == lines, lang
        page.evaluate("import('/js/i18n.js').then((i18n) => i18n.setLang('de'))")

        path = tmp_path / "bots.json"
        path.write_text(json.dumps(_bots_record(5)))
        page.goto("/#/replay")
        page.set_input_files("#record-file", str(path))
        page.wait_for_selector("#replay-counter")
        log = page.inner_text("#replay-log")
        segments = "Steuern|Hungersnot|Sturm|Inquisition"
        formulas = re.findall(rf"(?:{segments}) für Bot [12]: \d[^=]*= \d+", log)
        assert formulas, log
        assert not re.search(r"Bot \d\s\d", log), re.search(r".{40}Bot \d\s\d.{40}", log)
        line = page.locator("#replay-log li", has_text=re.compile(r"für Bot [12]: \d")).last
        line.scroll_into_view_if_needed()
        page.locator(".replay-side").screenshot(path=str(artifacts / "names-wheel-formulas-de.png"))
        assert not errors, errors
    finally:
        context.close()
