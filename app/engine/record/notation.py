"""Reading the engine's JSON back: actions, events and stored states, expansions included.

Sits above the rules (:mod:`app.engine.game`) and the expansions' registry, so it can parse
every expansion's actions and events and rebuild a state either from its stored position or,
for a document without one, by replaying its actions. The inverse directions are methods
(``Action.to_json``, :func:`~app.engine.events.event_to_json`, ``GameState.to_json``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from app.engine.actions import (
    Action,
    Pass,
    PlaceFollower,
    PlaceTile,
    base_action_from_json,
    parse_int,
)
from app.engine.errors import InvalidAction
from app.engine.events import BASE_EVENT_TYPES, Event
from app.engine.events import event_from_json as _event_from_json
from app.engine.expansions import EXPANSIONS, active
from app.engine.game import apply_in_place, new_game
from app.engine.options import Options
from app.engine.state import GameState, load_position

#: Class name → class of every event, the expansions' included.
EVENT_TYPES: Mapping[str, type[Any]] = {
    **BASE_EVENT_TYPES,
    **{cls.__name__: cls for x in EXPANSIONS for cls in x.event_types},
}


def action_from_json(data: Any) -> Action:
    """Parse an action's JSON form (the base game's or any expansion's, see
    :mod:`app.engine.actions`); raises :class:`InvalidAction` on any malformed input.
    """
    if not isinstance(data, dict):
        raise InvalidAction("an action must be a JSON object")
    action = base_action_from_json(data)
    if action is not None:
        return action
    kind = data.get("type")
    if isinstance(kind, str):
        for x in EXPANSIONS:
            action = x.action_from_json(kind, parse_int(data, "seat"), data)
            if action is not None:
                return action
    raise InvalidAction(f"unknown action type {kind!r}")


def event_from_json(data: dict[str, Any]) -> Event:
    """Inverse of :func:`~app.engine.events.event_to_json` for every event, the expansions'
    included; raises KeyError/TypeError on a malformed event.
    """
    return _event_from_json(data, EVENT_TYPES)


def load_state(data: dict[str, Any]) -> GameState:
    """Load a state from ``GameState.to_json()``: from its position, without replaying.

    Reads ``carcassonne-state/3`` and ``/2`` positions (``/2`` kept the expansions' state at
    the top of ``position``); a ``/1`` document (setup and actions, no
    position) is rebuilt by replaying its actions. The data is trusted (the server wrote it): a
    malformed document raises ``KeyError``/``ValueError``/``TypeError``.
    """
    position = data.get("position")
    if position is None:
        return _replayed(data)
    s = GameState.__new__(GameState)
    s.options = Options.from_json(data.get("rules"))
    s.players = tuple(data["players"])
    s.seed = data.get("seed")
    s.deck = tuple(data["deck"])
    s.partial = bool(data.get("partial", False))
    s.actions = [_stored_action(a) for a in data.get("actions", [])]
    load_position(s, position, EVENT_TYPES)
    s.expansion_state = {}
    stored = position.get("expansions")
    for x in active(s.options):
        if stored is None:
            s.expansion_state[x.id] = x.state_from_position_2(position)
        elif x.id in stored:
            s.expansion_state[x.id] = x.state_from_json(stored[x.id])
    return s


def _replayed(data: dict[str, Any]) -> GameState:
    """A state from ``GameState.to_json()``'s setup and actions, by replaying the actions."""
    state = new_game(
        Options.from_json(data.get("rules")),
        data["players"],
        draw_order=data["deck"],
        partial=bool(data.get("partial", False)),
    )
    state.seed = data.get("seed")
    for raw in data.get("actions", []):
        apply_in_place(state, action_from_json(raw))
    return state


def _stored_action(data: dict[str, Any]) -> Action:
    """An action of a stored history, written by the server.

    The common kinds skip the checks :func:`action_from_json` makes on input from clients.
    """
    kind = data["type"]
    if kind == "place_tile":
        at = data["at"]
        return PlaceTile(data["seat"], at[0], at[1], data["rotation"])
    if kind == "place_follower":
        return PlaceFollower(data["seat"], data["spot"])
    if kind == "pass":
        return Pass(data["seat"])
    return action_from_json(data)
