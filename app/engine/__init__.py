"""The Carcassonne rules engine: pure, deterministic, standard library only.

Verbs in the spirit of python-chess and OpenSpiel::

    state = new_game(Options(), ["Ann", "Ben"], seed=7)
    legal_actions(state)             # PlaceTile / PlaceFollower / Pass for state.seat
    state, events = apply(state, PlaceTile(0, 1, 0, 90))
    view(state, seat=0)              # what one seat (or None: a spectator) may see
    replay(record)                   # a carcassonne-record/1 document → (state, events)
    load_state(state.to_json())      # a stored state back, from its position

The base game's rules are in the modules here; each expansion (the River, the Wheel of Fortune)
is in :mod:`app.engine.expansions`, asked by the base game at fixed hook points.

Nothing here does I/O or imports anything outside the standard library and ``app.engine``.
"""

from app.engine.actions import Action, ExpansionAction, Pass, PlaceFollower, PlaceTile
from app.engine.errors import (
    EngineError,
    GameOver,
    IllegalFollower,
    IllegalPlacement,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    RecordError,
    WrongPhase,
)
from app.engine.events import Event, event_to_json
from app.engine.expansions import (
    EXPANSIONS,
    PRESETS,
    deciding,
    draw_stage,
    held_points,
    is_decision,
    preferred_decisions,
    record_decisions,
    replay_keys,
)
from app.engine.expansions.wheel_of_fortune import PLAGUE, RemoveFollower
from app.engine.game import (
    apply,
    apply_in_place,
    legal_actions,
    legal_follower_spots,
    legal_placements,
    new_game,
)
from app.engine.options import Options
from app.engine.record import export_record, replay
from app.engine.record.notation import action_from_json, event_from_json, load_state
from app.engine.scoring import score_breakdown
from app.engine.state import DEPLOY, GAME_OVER, PAUSED, PLACE_TILE, GameState
from app.engine.tiles import catalogue_json
from app.engine.view import view

__all__ = [
    "DEPLOY",
    "EXPANSIONS",
    "GAME_OVER",
    "PAUSED",
    "PLACE_TILE",
    "PLAGUE",
    "PRESETS",
    "RemoveFollower",
    "Action",
    "EngineError",
    "Event",
    "ExpansionAction",
    "GameOver",
    "GameState",
    "IllegalFollower",
    "IllegalPlacement",
    "InvalidAction",
    "InvalidOptions",
    "NotYourTurn",
    "Options",
    "Pass",
    "PlaceFollower",
    "PlaceTile",
    "RecordError",
    "WrongPhase",
    "action_from_json",
    "apply",
    "apply_in_place",
    "catalogue_json",
    "deciding",
    "draw_stage",
    "event_from_json",
    "event_to_json",
    "export_record",
    "held_points",
    "is_decision",
    "legal_actions",
    "legal_follower_spots",
    "legal_placements",
    "load_state",
    "new_game",
    "preferred_decisions",
    "record_decisions",
    "replay_keys",
    "replay",
    "score_breakdown",
    "view",
]
