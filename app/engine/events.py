"""Events: past-tense facts the engine reports after each action.

Every event is a frozen dataclass; its JSON form is ``{"type": <class name>, ...fields}`` with
tuples as lists, and :func:`event_from_json` rebuilds it exactly. Positions are ``[x, y]`` (x east,
y south); spots are in board orientation (``city:N``).
"""

from __future__ import annotations

from dataclasses import dataclass, fields
from typing import Any


@dataclass(frozen=True, slots=True)
class TileDrawn:
    """``seat`` drew ``tile``; ``remaining`` tiles are left to draw."""

    seat: int
    tile: str
    remaining: int


@dataclass(frozen=True, slots=True)
class TileDiscarded:
    """``tile`` fitted nowhere and left the game (RULES.md §3.2c); the same seat draws again."""

    seat: int
    tile: str


@dataclass(frozen=True, slots=True)
class TilePlaced:
    """``seat`` placed ``tile`` at ``at`` turned ``rotation`` degrees clockwise."""

    seat: int
    tile: str
    at: tuple[int, int]
    rotation: int


@dataclass(frozen=True, slots=True)
class FollowerPlaced:
    """``seat`` deployed a follower as ``role`` (knight, thief, monk, farmer) on ``spot``."""

    seat: int
    at: tuple[int, int]
    spot: str
    role: str


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """``seat``'s turn is over (after deployment and the scoring it caused)."""

    seat: int


@dataclass(frozen=True, slots=True)
class FeatureCompleted:
    """A road, city or cloister was completed; ``tiles`` are its cells (sorted)."""

    kind: str
    tiles: tuple[tuple[int, int], ...]
    pennants: int
    followers: tuple[int, ...]


@dataclass(frozen=True, slots=True)
class PointsScored:
    """``seat`` scored ``points`` for one feature; the other fields say why.

    ``category``: road, city, cloister or farm; ``final``: scored in the final scoring;
    ``tiles``: cells of the feature (a farm: the cells its fields cover); ``pennants``;
    ``cities``: completed cities supplied (farms; a list of each city's cells' first cell);
    ``majority``: the seats that shared the majority; ``followers``: followers per seat in the
    feature, indexed by seat; ``rule``: a short rulebook reference of the formula used.
    """

    seat: int
    points: int
    category: str
    final: bool
    tiles: tuple[tuple[int, int], ...]
    pennants: int
    cities: int
    majority: tuple[int, ...]
    followers: tuple[int, ...]
    rule: str


@dataclass(frozen=True, slots=True)
class FollowerReturned:
    """The follower on ``spot`` at ``at`` went back to ``seat``'s supply."""

    seat: int
    at: tuple[int, int]
    spot: str


@dataclass(frozen=True, slots=True)
class PigMoved:
    """Wheel of Fortune: ``seat`` drew an icon tile and moved the pig ``steps`` segments
    clockwise from ``start`` to ``segment``, whose action runs now (RULES.md §6.4).
    """

    seat: int
    steps: int
    start: str
    segment: str


@dataclass(frozen=True, slots=True)
class CrownPlaced:
    """Wheel of Fortune: ``seat`` put a follower on a crown space of ``segment`` (§6.4)."""

    seat: int
    segment: str


@dataclass(frozen=True, slots=True)
class CrownReturned:
    """Wheel of Fortune: a follower on ``segment``'s crown spaces went back to ``seat``."""

    seat: int
    segment: str


@dataclass(frozen=True, slots=True)
class GameEnded:
    """Final scoring is done; ``scores`` by seat; ``winners`` share the win (RULES.md §3.6)."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]


Event = (
    TileDrawn
    | TileDiscarded
    | TilePlaced
    | FollowerPlaced
    | TurnEnded
    | FeatureCompleted
    | PointsScored
    | FollowerReturned
    | PigMoved
    | CrownPlaced
    | CrownReturned
    | GameEnded
)

_EVENT_TYPES: dict[str, type[Any]] = {
    cls.__name__: cls
    for cls in (
        TileDrawn,
        TileDiscarded,
        TilePlaced,
        FollowerPlaced,
        TurnEnded,
        FeatureCompleted,
        PointsScored,
        FollowerReturned,
        PigMoved,
        CrownPlaced,
        CrownReturned,
        GameEnded,
    )
}


def _to_json_value(value: Any) -> Any:
    if isinstance(value, tuple):
        return [_to_json_value(v) for v in value]
    return value


def _from_json_value(value: Any) -> Any:
    if isinstance(value, list):
        return tuple(_from_json_value(v) for v in value)
    return value


def event_to_json(event: Event) -> dict[str, Any]:
    """``{"type": "TilePlaced", "seat": 0, ...}`` with tuples as lists."""
    out: dict[str, Any] = {"type": type(event).__name__}
    for f in fields(event):
        out[f.name] = _to_json_value(getattr(event, f.name))
    return out


def event_from_json(data: dict[str, Any]) -> Event:
    """Inverse of :func:`event_to_json`; raises KeyError/TypeError on a malformed event."""
    cls = _EVENT_TYPES[data["type"]]
    kwargs = {f.name: _from_json_value(data[f.name]) for f in fields(cls)}
    event: Event = cls(**kwargs)
    return event
