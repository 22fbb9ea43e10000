"""A scripted Wheel of Fortune match for the server and browser tests.

``WOF_SEED`` is the deck seed the tests start the server with (``DECK_SEED`` /
``Settings.deck_seed``). With the players below and :func:`plan_action` as both players'
policy, the engine shows early on (found by simulating seeds 1–1500 on the real components of
RULES.md §6 and keeping one of the shortest):

* action 0: Ann lays TB-CR against N1, which completes the board's cityA (2 tiles, nobody on it);
* action 1: Ann puts a follower on Tax's crown; Ben's draw (IC-RrRr.1) moves the pig to Tax,
  where her lone follower scores 6;
* action 3: the pig lands on Storm — Storm points to both, then Ben's lone crown scores 6;
* action 13: Inquisition — Ann's crown scores 3;
* action 15: Ben puts a follower on Plague's crown; the next draw moves the pig to Plague;
* actions 16 and 17: Plague — Ann (the active player) takes back a knight, then Ben; Ben's lone
  crown on Plague scores 6 after the last decision;
* action 19: Ann puts a follower on Fortune's crown; Ben's draw moves the pig to Fortune: Ben
  scores 3 for moving it, Ann's crown 3.

The policy knows the deck (it plays the engine's state), which is what makes it short; a real
client never sees the deck.
"""

from __future__ import annotations

from typing import Any

from app.engine import (
    GameState,
    Options,
    Pass,
    PlaceFollower,
    PlaceTile,
    legal_actions,
    legal_follower_spots,
    legal_placements,
    new_game,
)
from app.engine.actions import Action
from app.engine.expansions.wheel_of_fortune import SEGMENT_NAMES, wheel_state
from app.engine.game import DEPLOY, PLACE_TILE
from app.engine.tiles import TILE_TYPES

WOF_SEED = 1258
PLAYERS = ("Ann", "Ben")
WOF = Options(expansions=frozenset({"wheel_of_fortune"}))
#: Action indexes (0-based) of the milestones above.
BOARD_CITY, FIRST_CROWN_DEPLOY, FIRST_CROWN_SCORING, STORM = 0, 1, 1, 3
FIRST_PLAGUE, FORTUNE = 16, 19


def new_wof_game(players: tuple[str, ...] = PLAYERS, seed: int = WOF_SEED) -> GameState:
    """The engine's game that a server with ``deck_seed=seed`` starts."""
    return new_game(WOF, list(players), seed=seed)


def next_segment(state: GameState) -> str | None:
    """Where the pig lands at the next wheel icon still in the deck."""
    for tile in state.deck[state.deck_pos :]:
        icon = TILE_TYPES[tile].icon
        if icon:
            return SEGMENT_NAMES[(wheel_state(state).pig + icon) % len(SEGMENT_NAMES)]
    return None


def plan_action(state: GameState) -> Action:
    """The scripted move: the first legal placement; a crown where the pig lands next if free,
    else a follower on the first road, city or cloister spot (while 3+ remain), else pass; the
    first Plague choice.
    """
    seat = state.seat
    if state.phase == PLACE_TILE:
        x, y, rotation = legal_placements(state)[0]
        return PlaceTile(seat, x, y, rotation)
    if state.phase == DEPLOY:
        spots = legal_follower_spots(state)
        upcoming = next_segment(state)
        if upcoming and f"crown:{upcoming}" in spots:
            return PlaceFollower(seat, f"crown:{upcoming}")
        land = [s for s in spots if not s.startswith(("crown:", "field:"))]
        if land and state.supply[seat] > 2:
            return PlaceFollower(seat, land[0])
        return Pass(seat)
    return legal_actions(state)[0]


def wire(action: Action) -> dict[str, Any]:
    """The action as a client sends it (the engine's JSON without ``seat``)."""
    data = action.to_json()
    del data["seat"]
    return data
