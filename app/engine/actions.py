"""Actions: imperative requests a seat makes of the engine, and their JSON form.

JSON shapes (board coordinates: x east, y south; rotation clockwise in degrees):

* ``{"type": "place_tile", "seat": 0, "at": [x, y], "rotation": 90}``
* ``{"type": "place_follower", "seat": 0, "spot": "city:N"}`` — spot in board orientation
  (``road:<side>``, ``city:<side>``, ``field:<half-edge>``, ``cloister``)
* ``{"type": "pass", "seat": 0}`` — end the turn without deploying a follower
* ``{"type": "plague", "seat": 1, "at": [x, y], "spot": "city:N"}`` — Wheel of Fortune: the
  follower this seat takes back when the pig lands on Plague

Wheel of Fortune crown spaces are deployed with ``place_follower`` and ``"spot":
"crown:<segment>"``.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

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
class RemoveFollower:
    """Wheel of Fortune Plague: take back the follower on ``spot`` of the tile at ``(x, y)``."""

    seat: int
    x: int
    y: int
    spot: str

    def to_json(self) -> dict[str, Any]:
        """JSON form (see module docstring)."""
        return {"type": "plague", "seat": self.seat, "at": [self.x, self.y], "spot": self.spot}


Action = PlaceTile | PlaceFollower | Pass | RemoveFollower


def _at(data: dict[str, Any]) -> tuple[int, int]:
    at = data.get("at")
    if (
        not isinstance(at, list | tuple)
        or len(at) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    ):
        raise InvalidAction("'at' must be [x, y] with integer coordinates")
    return at[0], at[1]


def _spot(data: dict[str, Any]) -> str:
    spot = data.get("spot")
    if not isinstance(spot, str) or len(spot) > 32:
        raise InvalidAction("'spot' must be a string such as 'city:N'")
    return spot


def _int(data: dict[str, Any], key: str) -> int:
    value = data.get(key)
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidAction(f"'{key}' must be an integer")
    return value


def action_from_json(data: Any) -> Action:
    """Parse an action's JSON form; raises :class:`InvalidAction` on any malformed input."""
    if not isinstance(data, dict):
        raise InvalidAction("an action must be a JSON object")
    kind = data.get("type")
    seat = _int(data, "seat")
    if kind == "place_tile":
        x, y = _at(data)
        rotation = _int(data, "rotation")
        if rotation not in ROTATIONS:
            raise InvalidAction("'rotation' must be 0, 90, 180 or 270")
        return PlaceTile(seat, x, y, rotation)
    if kind == "place_follower":
        return PlaceFollower(seat, _spot(data))
    if kind == "pass":
        return Pass(seat)
    if kind == "plague":
        x, y = _at(data)
        return RemoveFollower(seat, x, y, _spot(data))
    raise InvalidAction(f"unknown action type {kind!r}")
