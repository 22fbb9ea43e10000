"""Actions: imperative requests a seat makes of the engine, and the JSON form of the base game's.

JSON shapes (board coordinates: x east, y south; rotation clockwise in degrees):

* ``{"type": "place_tile", "seat": 0, "at": [x, y], "rotation": 90}``
* ``{"type": "place_follower", "seat": 0, "spot": "city:N"}`` — spot in board orientation
  (``road:<side>``, ``city:<side>``, ``field:<half-edge>``, ``cloister``; an expansion may
  accept spots of its own)
* ``{"type": "pass", "seat": 0}`` — end the turn without deploying a follower

An expansion's own decisions are :class:`ExpansionAction` subclasses defined in its module
(:mod:`app.engine.expansions`); :func:`app.engine.record.notation.action_from_json` parses them all.
This module imports nothing of the expansions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.engine.errors import InvalidAction
from app.engine.tiles import ROTATIONS


@dataclass(frozen=True, slots=True)
class PlaceTile:
    """Place the drawn tile at ``(x, y)`` turned ``rotation`` degrees clockwise."""

    seat: int
    x: int
    y: int
    rotation: int

    def to_json(self) -> dict[str, Any]:
        """JSON form (see module docstring)."""
        return {
            "type": "place_tile",
            "seat": self.seat,
            "at": [self.x, self.y],
            "rotation": self.rotation,
        }


@dataclass(frozen=True, slots=True)
class PlaceFollower:
    """Deploy one follower from supply onto ``spot`` of the tile just placed."""

    seat: int
    spot: str

    def to_json(self) -> dict[str, Any]:
        """JSON form (see module docstring)."""
        return {"type": "place_follower", "seat": self.seat, "spot": self.spot}


@dataclass(frozen=True, slots=True)
class Pass:
    """Deploy no follower this turn."""

    seat: int

    def to_json(self) -> dict[str, Any]:
        """JSON form (see module docstring)."""
        return {"type": "pass", "seat": self.seat}


@dataclass(frozen=True, slots=True)
class ExpansionAction:
    """A decision only an expansion asks for; subclasses add their fields and JSON form.

    ``seat``: the deciding seat. ``pending``: the refusal's message when no expansion of the
    game asks for this decision now (:class:`~app.engine.errors.WrongPhase`).
    """

    seat: int
    pending: ClassVar[str] = "no such decision is pending"

    def to_json(self) -> dict[str, Any]:
        """JSON form: ``{"type": <the expansion's action type>, "seat", ...}``."""
        raise NotImplementedError


Action = PlaceTile | PlaceFollower | Pass | ExpansionAction


def parse_at(data: dict[str, Any]) -> tuple[int, int]:
    """``data["at"]`` as ``(x, y)``; raises :class:`InvalidAction` unless it is two ints."""
    at = data.get("at")
    if (
        not isinstance(at, list | tuple)
        or len(at) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    ):
        raise InvalidAction("'at' must be [x, y] with integer coordinates")
    return at[0], at[1]


def parse_spot(data: dict[str, Any]) -> str:
    """``data["spot"]``; raises :class:`InvalidAction` unless it is a short string."""
    spot = data.get("spot")
    if not isinstance(spot, str) or len(spot) > 32:
        raise InvalidAction("'spot' must be a string such as 'city:N'")
    return spot


def parse_int(data: dict[str, Any], key: str) -> int:
    """``data[key]`` as an int (not a bool); raises :class:`InvalidAction` otherwise."""
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction(f"'{key}' must be an integer")
    return value


def base_action_from_json(data: dict[str, Any]) -> Action | None:
    """Parse a base-game action's JSON form (a dict); None for a type the base game lacks.

    Raises :class:`InvalidAction` on a malformed base-game action.
    """
    kind = data.get("type")
    seat = parse_int(data, "seat")
    if kind == "place_tile":
        x, y = parse_at(data)
        rotation = parse_int(data, "rotation")
        if rotation not in ROTATIONS:
            raise InvalidAction("'rotation' must be 0, 90, 180 or 270")
        return PlaceTile(seat, x, y, rotation)
    if kind == "place_follower":
        return PlaceFollower(seat, parse_spot(data))
    if kind == "pass":
        return Pass(seat)
    return None
