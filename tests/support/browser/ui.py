"""Driving the browser client like a person: sign in, create or join a table, play turns.

Every move goes through the UI: a glowing cell is clicked on the board, the tile is rotated with
the rotate button until the preview shows the wanted rotation, the placement is confirmed, then a
follower target on the board (or "No follower") is clicked. The helper only *chooses* among what
the page offers (the legal cells and targets it draws); it never sends actions itself.

Waiting is always for state (the match's ``data-version``, phases, elements), never fixed sleeps.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

# How long a step may wait for the page before the test fails: a hang detector, not a speed
# check (speed lives in benchmarks). The whole suite loads two cores past 5; a step that took
# 1 s alone took over 15 s there once.
TIMEOUT_MS = 30_000


@dataclass
class Player:
    """One browser context (its own localStorage, so its own identity) and its page."""

    name: str
    context: Any
    page: Any
    errors: list[str] = field(default_factory=list)

    @classmethod
    def open(cls, browser: Any, base: str, name: str, **context_args: Any) -> Player:
        """A new context and page at ``base``, signed in as ``name`` on the start screen."""
        context_args.setdefault("viewport", {"width": 1400, "height": 900})
        context = browser.new_context(base_url=base, **context_args)
        context.set_default_timeout(TIMEOUT_MS)
        page = context.new_page()
        player = cls(name, context, page)
        page.on("pageerror", lambda exc: player.errors.append(str(exc)))
        page.goto("/")
        page.fill("#name", name)
        page.click("#start-continue")
        page.wait_for_selector("#create-lobby")
        return player

    def version(self) -> int:
        """The match version this page has rendered (-1 before the match has loaded)."""
        value = self.page.get_attribute("#match", "data-version")
        return int(value) if value not in (None, "") else -1

    def wait_version(self, version: int) -> None:
        """Wait until this page has rendered at least ``version``."""
        self.page.wait_for_function(
            "v => { const m = document.querySelector('#match');"
            " return m && Number(m.dataset.version) >= v; }",
            arg=version,
        )


def create_private_lobby(player: Player, seats: int = 2, preset: str | None = None) -> str:
    """Create a private table through the create screen (``preset``: a preset card to pick
    first); returns its code once the host's room is connected.
    """
    page = player.page
    page.click("#create-lobby")
    page.wait_for_selector("#create-submit")
    if preset is not None:
        page.click(f'.preset-card[data-preset="{preset}"]')
    page.click(f'[data-seats="{seats}"]')
    page.click("#vis-private")
    page.click("#create-submit")
    page.wait_for_selector("#invite-code")
    # The host's socket is open (the table said so): no late update redraws the room under
    # the next step's hands.
    page.wait_for_selector("#seats li.seat.mine .conn.on")
    return page.inner_text("#invite-code").strip()


def start_against_a_bot(player: Player) -> None:
    """In the host's waiting room of a 2-seat table: add a computer seat and start the match
    (the caller waits for what it needs on the match screen).
    """
    page = player.page
    page.click("#seats .add-bot")
    page.wait_for_selector('#seats li.seat[data-seat="1"]:not(.empty)')
    page.click("#start-match")


def join_by_code(player: Player, code: str) -> None:
    """Type the code into "Join a private table" on the lobby browser."""
    page = player.page
    page.goto("/#/lobbies")
    page.fill("#join-code", code)
    page.click("#join-code-btn")
    page.wait_for_selector("#seats li.seat.mine")


class Server:
    """Reads the authoritative match over REST (for choosing whose page acts, and checks)."""

    def __init__(self, base: str, match_id: str, code: str | None) -> None:
        self.base = base
        self.match_id = match_id
        self.code = code
        self.http = httpx.Client(base_url=base, timeout=10)

    def close(self) -> None:
        """Close the HTTP client."""
        self.http.close()

    def match(self) -> dict[str, Any]:
        """GET /api/matches/{id} (with the lobby code: the match is private)."""
        params = {"code": self.code} if self.code else {}
        r = self.http.get(f"/api/matches/{self.match_id}", params=params)
        r.raise_for_status()
        data: dict[str, Any] = r.json()
        return data


def place_tile(player: Player, rng: random.Random) -> tuple[str, int]:
    """Choose a glowing cell and a rotation that fits, and place the tile there by clicking."""
    page = player.page
    page.wait_for_selector("#board .legal-cell")
    cells = page.eval_on_selector_all(
        "#board .legal-cell", "els => els.map(e => [e.dataset.cell, e.dataset.rotations])"
    )
    cell, rotations = rng.choice(cells)
    rotation = int(rng.choice(rotations.split(",")))
    place_at(player, cell, rotation)
    return cell, rotation


def place_at(player: Player, cell: str, rotation: int) -> None:
    """Click the glowing ``cell`` ("x,y"), rotate the preview to ``rotation``, confirm."""
    page = player.page
    page.click(f'#board .legal-cell[data-cell="{cell}"]')
    for _ in range(4):
        shown = page.get_attribute("#board .preview.selected", "data-rotation")
        if shown is not None and int(shown) == rotation:
            break
        page.click("#rotate-cw")
        page.wait_for_selector(f'#board .preview.selected:not([data-rotation="{shown}"])')
    assert int(page.get_attribute("#board .preview.selected", "data-rotation") or -1) == rotation
    page.click("#confirm-placement")


def deploy(player: Player, rng: random.Random, follower_chance: float = 0.6) -> str | None:
    """Click a follower target on the placed tile (sometimes), else "No follower"."""
    page = player.page
    page.wait_for_selector("#no-follower")
    spots = page.eval_on_selector_all("#board .target", "els => els.map(e => e.dataset.spot)")
    if spots and rng.random() < follower_chance:
        spot = rng.choice(spots)
        page.click(f'#board .target[data-spot="{spot}"]')
        return str(spot)
    page.click("#no-follower")
    return None


def play_turn(player: Player, server: Server, rng: random.Random) -> dict[str, Any]:
    """Play the whole turn of ``player`` (tile, then follower) and return the match after."""
    before = server.match()
    player.wait_version(before["version"])
    state = before["state"]
    assert state["phase"] == "place_tile", state["phase"]
    player.page.wait_for_selector('#match[data-my-turn="true"][data-phase="place_tile"]')
    place_tile(player, rng)
    player.wait_version(before["version"] + 1)
    player.page.wait_for_selector('#match[data-phase="deploy"]')
    deploy(player, rng)
    player.wait_version(before["version"] + 2)
    return server.match()


def board_snapshot(player: Player) -> dict[str, list[str]]:
    """The tiles and followers a page draws: ``{"tiles": [...], "followers": [...]}``, sorted."""
    return player.page.evaluate(
        """() => ({
          tiles: [...document.querySelectorAll('#board [data-tile-at]')]
            .map(e => `${e.dataset.tileAt} ${e.dataset.tile} ${e.dataset.rotation}`).sort(),
          followers: [...document.querySelectorAll('#board [data-follower]')]
            .map(e => `${e.dataset.follower} ${e.dataset.seat}`).sort(),
        })"""
    )


def server_board(match: dict[str, Any]) -> dict[str, list[str]]:
    """The same shape as :func:`board_snapshot`, from the server's match JSON."""
    state = match["state"]
    return {
        "tiles": sorted(
            f"{t['at'][0]},{t['at'][1]} {t['tile']} {t['rotation']}" for t in state["board"]
        ),
        "followers": sorted(
            f"{f['at'][0]},{f['at'][1]} {f['spot']} {f['seat']}" for f in state["followers"]
        ),
    }


def sign_in_with_token(page: Any, token: str, who: dict[str, Any]) -> None:
    """Make ``page`` (on the app's origin) the device of the player ``who`` (``{"id", "name",
    "username"?}``) holding ``token``, as a login leaves it; the next screen reads it.
    """
    page.goto("/#/start")
    page.evaluate(
        "([tok, who]) => { localStorage.setItem('carcassonne.token', tok);"
        " localStorage.setItem('carcassonne.player', JSON.stringify(who)); }",
        [token, who],
    )


def wait_for_async(page: Any, function: str, arg: Any = None, timeout_ms: int = TIMEOUT_MS) -> Any:
    """Evaluate the async JavaScript ``function`` (``async (arg) => …``) in ``page`` every 100 ms
    until it resolves to a truthy value, and return that value (as JSON).

    Playwright's ``wait_for_function`` cannot wait on an async function: the Promise it returns
    is truthy, so it resolves at once with whatever the function resolves to (null included).
    Raises ``TimeoutError`` after ``timeout_ms`` milliseconds.
    """
    deadline = time.monotonic() + timeout_ms / 1000
    while True:
        found = page.evaluate(function, arg)
        if found:
            return found
        if time.monotonic() > deadline:
            raise TimeoutError(f"still falsy after {timeout_ms} ms: {function[:120]}")
        page.wait_for_timeout(100)
