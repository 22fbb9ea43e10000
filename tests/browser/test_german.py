"""A German browser pass over the screens outside the match (issue 14): tables, create, the
waiting room (host and guest), the tile guide, account, profile, ratings, the replay viewer and
the start screen. Each is screenshotted (``test-artifacts/de-*.png``) and its visible text
(plus placeholders and hover titles) must hold no sentence of the English catalogue whose German
differs: a string that bypasses the catalogue, or a key with no German, shows up here.
"""

from __future__ import annotations

import json
import re
import secrets
from pathlib import Path
from typing import Any

import pytest

from tests.match.test_names_and_panel_browser import OVERFLOW
from tests.support.browser.ui import Player, join_by_code

pytestmark = [pytest.mark.browser, pytest.mark.timeout(300)]
RECORD = Path(__file__).resolve().parents[1] / "engine" / "records" / "record_md_example.json"

# [{key: [english forms]} for every key whose German differs (or is missing), every word the
# German catalogue uses], from the very files the page loads.
CATALOGUES = """
async (parts) => {
  const load = async (lang) => {
    const merged = {};
    for (const p of parts[lang]) Object.assign(merged, (await import(p)).default);
    return merged;
  };
  const [en, de] = [await load('en'), await load('de')];
  const forms = (v) => (typeof v === 'object' ? Object.values(v) : [v]);
  const out = {};
  for (const [key, value] of Object.entries(en)) {
    const german = key in de ? forms(de[key]) : [];
    const english = forms(value).filter((f) => !german.includes(f));
    if (english.length) out[key] = english;
  }
  const words = new Set(Object.values(de).flatMap(forms).join(' ').match(/[\\p{L}]+/gu));
  return [out, [...words]];
}
"""

# What a person sees: the text, placeholders and hover titles.
VISIBLE = """
() => [document.body.innerText,
  ...[...document.querySelectorAll('[placeholder]')].map((e) => e.placeholder),
  ...[...document.querySelectorAll('[title]')].map((e) => e.title)].join('\\n')
"""


def _parts() -> dict[str, list[str]]:
    """``{lang: [module URL]}``: each language's whole catalogue, as ``i18n.js`` loads it."""
    return {lang: [f"/js/i18n/catalogue.{lang}.js"] for lang in ("en", "de")}


def _patterns(page: Any) -> list[tuple[str, re.Pattern[str]]]:
    english, german_words = page.evaluate(CATALOGUES, _parts())
    # Hundreds of sentences differ: an empty answer means the catalogues were never loaded.
    assert len(english) > 200 and len(german_words) > 200, (len(english), len(german_words))
    german = set(german_words)
    out = []
    for key, forms in english.items():
        for text in forms:
            if text in german:
                continue  # one word German uses too ("private Tische", "online")
            pieces = re.split(r"\{\w+\}", text)
            if sum(len(p.strip(" .,:;·—–-/+()")) for p in pieces) < 4:
                continue  # "{n}/{max}", "{bank} + {inc}": nothing English in them
            # A placeholder at either end is one word ("4 points"), inside it is any text.
            body = r".{1,80}?".join(re.escape(p) for p in pieces)
            if text.startswith("{"):
                body = r"\S{1,30}" + body[len(r".{1,80}?") :]
            if text.endswith("}"):
                body = body[: -len(r".{1,80}?")] + r"\S{1,30}"
            if re.match(r"\w", text):
                body = r"\b" + body
            if re.search(r"\w$", text):
                body += r"\b"
            out.append((key, re.compile(body)))
    return out


class Pass:
    """Screenshots each screen and collects the English sentences it still shows."""

    def __init__(self, page: Any, artifacts: Path) -> None:
        self.page = page
        self.artifacts = artifacts
        self.patterns = _patterns(page)
        self.found: dict[str, list[str]] = {}

    def check(self, name: str) -> None:
        self.page.wait_for_timeout(150)  # let a toast or a late list render (no state to await)
        text = self.page.evaluate(VISIBLE)  # toasts included
        self.page.screenshot(
            path=str(self.artifacts / f"de-{name}.png"),
            full_page=True,
            style="#toasts { visibility: hidden; }",  # what lies under them
        )
        hits = [f"{key}: {m.group(0)!r}" for key, rx in self.patterns if (m := rx.search(text))]
        # German words are longer: no screen may grow wider than the window (sideways scroll).
        wider = self.page.evaluate("document.documentElement.scrollWidth - window.innerWidth")
        if wider > 1:
            hits.append(f"the page is {wider} px wider than the window")
        if hits:
            self.found[name] = hits


def test_the_screens_speak_german(own_server: str, browser: Any, artifacts: Path) -> None:
    # A server of its own: the screens list public tables and tournaments, and another module's
    # ("Autumn Swiss", a Swiss tournament) would read as English left on the German screens.
    server = own_server
    anna = Player.open(browser, server, "Anna", locale="de-DE")
    page = anna.page
    assert page.evaluate("document.documentElement.lang") == "de"
    de = Pass(page, artifacts)
    de.check("tables")

    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    # No name unless Anna gives one: each reader sees the default in their own language.
    assert page.input_value("#table-name") == ""
    assert page.get_attribute("#table-name", "placeholder") == "Tisch von Anna"
    de.check("create")
    page.click("#vis-public")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    code = page.inner_text("#invite-code").strip()
    page.select_option("#time-control", "fischer5")
    page.wait_for_function("document.querySelector('#room-time').textContent.includes('+')")
    de.check("room-host")

    ben = Player.open(browser, server, "Ben", locale="de-DE")
    join_by_code(ben, code)
    ben.page.wait_for_selector("#time-summary")
    guest = Pass(ben.page, artifacts)
    guest.check("room-guest")
    ben.page.goto("/#/lobbies")
    ben.page.wait_for_selector(f'[data-lobby="{code}"]')
    guest.check("tables-listed")

    # The match: German words are longer; the side panel still keeps them inside its edges.
    ben.page.goto(f"/#/lobby/{code}")
    ben.page.once("dialog", lambda dialog: dialog.accept())
    ben.page.click("#leave-table")
    page.wait_for_selector('#seats li.seat.empty[data-seat="1"]')
    page.click("#seats .add-bot")
    page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    page.click("#start-match")
    page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    page.wait_for_selector("#match .seat-clock")
    de.check("match")
    assert page.evaluate(OVERFLOW, "#side-panel") == []

    page.goto("/#/tiles")
    page.wait_for_selector("#guide-check")
    de.check("guide")

    page.goto("/#/account")
    page.wait_for_selector("#register")
    de.check("account")
    page.fill("#reg-username", f"anna{secrets.token_hex(3)}")
    page.fill("#reg-password", "richtig Pferd Batterie")
    page.click("#register-submit")
    page.wait_for_selector("#profile-name")
    page.wait_for_selector("#history li")
    de.check("profile")
    page.goto("/#/account")
    page.wait_for_selector("#logout")
    de.check("account-signed-in")

    page.goto("/#/leaderboard/standard")
    page.wait_for_selector("#leaderboard tbody tr")
    de.check("leaderboard")

    page.goto("/#/replay")
    page.wait_for_selector("#drop-zone")
    de.check("replay-open")
    page.set_input_files("#record-file", str(RECORD))
    page.wait_for_selector("#replay-counter")
    assert page.inner_text("#replay-counter").startswith("Zug ")
    de.check("replay")

    page.goto("/#/start")
    page.wait_for_selector("#name")
    de.check("start")

    found = {**de.found, **{f"guest {k}": v for k, v in guest.found.items()}}
    (artifacts / "de-english-left.json").write_text(json.dumps(found, indent=1, ensure_ascii=False))
    assert not found, json.dumps(found, indent=1, ensure_ascii=False)
    assert anna.errors == [] and ben.errors == []
    anna.context.close()
    ben.context.close()
