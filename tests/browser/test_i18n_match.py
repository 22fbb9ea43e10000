"""The match screen, its game log and the end table in German and French (issue 14a).

A German browser plays a Wheel of Fortune match against a computer player by clicks; the log,
the tray, the side panel, the status line and the wheel show German words and none of the
English catalogue's sentences. The match screen's own language switcher then turns the same
match French: the log (built from structured entries) is told again in French, and French turns
follow. The end table (the real ``showEnd``) is checked in both languages on a desktop and a
phone, with every player's total in view.
"""

from __future__ import annotations

import random
import re
from typing import Any

import pytest

from tests.match.test_wof_end_table_browser import BOXES, SHOW, _finished_view
from tests.support.browser.ui import Player, create_private_lobby, start_against_a_bot

pytestmark = pytest.mark.browser

# The English sentences of the log and match parts that another language words differently, as
# the fixed pieces between their placeholders ("placed a tile", "tiles left") that the other
# language's catalogue does not also contain; none may show.
ENGLISH_PIECES = """async (lang) => {
  const parts = ['log', 'match'];
  const pieces = new Set();
  // Words the other language shares ("points", "Inquisition") are not English leftovers.
  let theirs = '';
  for (const part of [...parts, 'common']) {
    theirs += JSON.stringify((await import(`/js/i18n/${lang}/${part}.js`)).default);
  }
  for (const part of parts) {
    const en = (await import(`/js/i18n/en/${part}.js`)).default;
    const other = (await import(`/js/i18n/${lang}/${part}.js`)).default;
    for (const [key, value] of Object.entries(en)) {
      if (JSON.stringify(value) === JSON.stringify(other[key])) continue;
      for (const form of typeof value === 'object' ? Object.values(value) : [value]) {
        for (const piece of form.split(/\\{\\w+\\}/)) {
          const words = piece.replace(/^[\\s:;,.·—()!?…×=+]+|[\\s:;,.·—()!?…×=+]+$/g, '');
          const english = words.length >= 6 && /[a-z]{3}/i.test(words) && !theirs.includes(words);
          if (english) pieces.add(words);
        }
      }
    }
  }
  return [...pieces];
}"""

WIDER_THAN_SCREEN = """() => [...document.querySelectorAll('.match-top *, #tray *')]
  .filter((e) => e.offsetParent && e.getBoundingClientRect().right > innerWidth + 1)
  .map((e) => `${e.tagName}.${e.className} ${e.textContent.slice(0, 40)}`)"""

SHOWN = """() => ['#log', '#tray', '#players', '.match-info', '#turn-status', '.match-top']
  .map((s) => document.querySelector(s)?.innerText || '').join('\\n')"""


def _english_in(page: Any, lang: str, text: str) -> list[str]:
    pieces: list[str] = page.evaluate(ENGLISH_PIECES, lang)
    assert len(pieces) > 100, len(pieces)
    return [p for p in pieces if p in text]


def _wof_match_against_a_bot(player: Player) -> None:
    create_private_lobby(player, preset="wheel_of_fortune")
    start_against_a_bot(player)
    player.page.wait_for_selector("#match[data-version]")


def _play_turns(player: Player, rng: random.Random, turns: int, shot: Any = None) -> dict[str, str]:
    """Play ``turns`` of the player's turns by clicks (and any Plague choices) until the next
    turn is the player's; returns the tray's text as seen at the start of a turn, before
    confirming a placement and while choosing a follower (``shot``: a screenshot of the first).
    """
    page = player.page
    seen: dict[str, str] = {}
    played = 0
    while True:
        page.wait_for_selector('#match[data-my-turn="true"]:not([data-phase="game_over"])')
        phase = page.get_attribute("#match", "data-phase")
        if phase == "place_tile" and played == turns:
            return seen  # the next turn is ours, not played yet
        if phase == "plague":
            version = player.version()
            page.locator("#plague-choice .spot-btn").first.click()
            player.wait_version(version + 1)
            continue
        if phase != "place_tile":
            page.wait_for_timeout(50)
            continue
        page.wait_for_selector("#board .legal-cell")
        seen.setdefault("turn", page.inner_text("#tray"))
        cells = page.eval_on_selector_all(
            "#board .legal-cell", "els => els.map(e => [e.dataset.cell, e.dataset.rotations])"
        )
        cell, rotations = rng.choice(cells)
        page.click(f'#board .legal-cell[data-cell="{cell}"]')
        rotation = rotations.split(",")[0]
        page.wait_for_selector(f'#board .preview.selected[data-rotation="{rotation}"]')
        seen.setdefault("confirm", page.inner_text("#tray"))
        page.click("#confirm-placement")
        page.wait_for_selector("#no-follower")
        if "deploy" not in seen and shot:
            page.screenshot(path=str(shot))
        seen.setdefault("deploy", page.inner_text("#tray"))
        version = player.version()
        spots = page.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.spot)")
        if spots and rng.random() < 0.8:
            page.click(f'#board .target[data-spot="{rng.choice(spots)}"]')
        else:
            page.click("#no-follower")
        player.wait_version(version + 1)
        played += 1


def test_a_match_in_german_then_french(server, browser, artifacts):
    anna = Player.open(browser, server, "Anna", locale="de-DE")
    page = anna.page
    assert page.evaluate("document.documentElement.lang") == "de"
    _wof_match_against_a_bot(anna)
    rng = random.Random(14)
    seen = _play_turns(anna, rng, 6, artifacts / "i18n-de-deploy.png")

    assert "Du bist am Zug" in seen["turn"] and "Wähle ein leuchtendes Feld" in seen["turn"]
    assert "Hier anlegen?" in seen["confirm"] and "✓ Karte anlegen" in seen["confirm"]
    assert "Gefolgsmann" in seen["deploy"] or "Zug beenden" in seen["deploy"], seen["deploy"]
    log = page.inner_text("#log")
    assert "Anna hat eine Karte gelegt" in log, log
    assert "Karten übrig" in page.inner_text("#turn-status")
    panel = page.inner_text("#side-panel")
    assert page.text_content("#players .tag.you") == "Du"
    assert "Karten übrig" in panel and "Das Schwein steht auf" in panel, panel
    assert "Spielprotokoll" in panel
    labels = page.eval_on_selector_all("#board .wheel-label", "els => els.map(e => e.textContent)")
    assert {"FORTUNA", "STEUERN", "HUNGERSNOT", "STURM", "INQUISITION", "PEST"} <= set(labels)
    shown = page.evaluate(SHOWN) + "\n".join(seen.values())
    assert _english_in(page, "de", shown) == []
    # The board's own words: its label and each follower's title (role and colour).
    assert page.get_attribute("#board", "aria-label", timeout=1000).startswith("Spielfeld.")
    titles: list[str] = []
    for _ in range(12):  # followers may all have been scored, or taken by the wheel: play on
        titles = page.eval_on_selector_all(
            "#board .follower title", "els => els.map(e => e.textContent)"
        )
        if titles:
            break
        _play_turns(anna, rng, 1, None)
    assert titles, "no follower on the board after 18 turns"
    for title in titles:
        assert re.fullmatch(
            r"(Ritter|Wegelagerer|Mönch|Bauer|Gefolgsmann) \((Rot|Blau|Grün|Gelb|Schwarz)\)", title
        ), title
    for dialog, close in (("#keys-help", "#close-keys"), ("#tiles-left", "#close-remaining")):
        page.click(dialog)
        text = page.inner_text(".end-layer")
        assert "Tastatursteuerung" in text or "Noch" in text, text
        assert _english_in(page, "de", text) == []
        page.click(close)
    page.screenshot(path=str(artifacts / "i18n-de-match.png"))

    # On a phone the longer German words stay inside the screen (header, status, tray).
    page.set_viewport_size({"width": 390, "height": 844})
    page.wait_for_timeout(300)
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    page.screenshot(path=str(artifacts / "i18n-de-match-phone.png"))
    cell = page.get_attribute("#board .legal-cell", "data-cell")
    page.click(f'#board .legal-cell[data-cell="{cell}"]')
    page.wait_for_selector("#confirm-placement")
    assert page.evaluate(WIDER_THAN_SCREEN) == []
    page.screenshot(path=str(artifacts / "i18n-de-match-phone-confirm.png"))
    page.click("#cancel-placement")
    page.set_viewport_size({"width": 1400, "height": 900})

    # The switcher in the match header: the same match, its log told again, in French.
    page.select_option("#match .lang-select", "fr")
    page.wait_for_function("document.documentElement.lang === 'fr'")
    page.wait_for_function("document.querySelector('#log')?.innerText.includes('a posé une tuile')")
    log = page.inner_text("#log")
    assert "Anna a posé une tuile" in log and "hat eine Karte gelegt" not in log, log
    seen = _play_turns(anna, rng, 3, artifacts / "i18n-fr-deploy.png")
    assert "À vous" in seen["turn"] and "Choisissez une case lumineuse" in seen["turn"]
    assert "Poser la tuile" in seen["confirm"]
    assert "tuiles restantes" in page.inner_text("#turn-status")
    panel = page.inner_text("#side-panel")
    assert page.text_content("#players .tag.you") == "Vous"
    assert "Le cochon est sur" in panel and "Journal de la partie" in panel, panel
    labels = page.eval_on_selector_all("#board .wheel-label", "els => els.map(e => e.textContent)")
    assert {"FORTUNE", "IMPÔT", "FAMINE", "TEMPÊTE", "INQUISITION", "PESTE"} <= set(labels)
    shown = page.evaluate(SHOWN) + "\n".join(seen.values())
    assert _english_in(page, "fr", shown) == []
    page.screenshot(path=str(artifacts / "i18n-fr-match.png"))
    assert anna.errors == []
    anna.context.close()


HEADS = {
    "de": [
        "Spieler",
        "Straßen",
        "Städte",
        "Klöster",
        "Wiesen",
        "Fortuna",
        "Steuern",
        "Hungersnot",
        "Sturm",
        "Inquisition",
        "Kronen",
        "Summe",
    ],
    "fr": [
        "Joueur",
        "Routes",
        "Villes",
        "Abbayes",
        "Prés",
        "Fortune",
        "Impôt",
        "Famine",
        "Tempête",
        "Inquisition",
        "Couronnes",
        "Total",
    ],
}


@pytest.mark.parametrize("lang", ["de", "fr"])
@pytest.mark.parametrize(
    ("label", "viewport"),
    [("desktop", {"width": 1280, "height": 800}), ("phone", {"width": 390, "height": 844})],
)
def test_the_wof_end_table_in_german_and_french(
    server, browser, artifacts, lang: str, label: str, viewport: dict[str, int]
) -> None:
    state = _finished_view()
    context = browser.new_context(
        base_url=server,
        viewport=viewport,
        locale=f"{lang}-{lang.upper()}",
        device_scale_factor=2 if label == "phone" else 1,
    )
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.goto("/")
    assert page.evaluate("document.documentElement.lang") == lang
    page.evaluate(SHOW, state)
    page.wait_for_selector("#final-scores")
    heads = page.eval_on_selector_all(
        "#final-scores thead th",
        "els => els.map(e => (e.querySelector('.long') || e).textContent.trim())",
    )
    assert heads == HEADS[lang], heads
    text = page.inner_text("#end-screen")
    assert _english_in(page, lang, text) == [], text
    found = page.evaluate(BOXES)
    assert all(found["totals"]) and found["totalHead"], found
    if label == "desktop":
        assert not found["scrolls"], found  # every column in view, none behind the total
    # No head is cut: each column's label fits its cell (long or short form, as shown).
    cut = page.evaluate(
        """() => [...document.querySelectorAll('#final-scores thead th :is(span, small)')]
          .filter((e) => e.offsetParent && e.scrollWidth > e.clientWidth + 1)
          .map((e) => e.textContent)"""
    )
    assert cut == [], cut
    page.screenshot(path=str(artifacts / f"i18n-{lang}-end-table-{label}.png"))
    assert errors == []
    context.close()
