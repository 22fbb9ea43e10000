"""Events: past-tense facts the engine reports after each action.

Every event is a frozen dataclass; its JSON form is ``{"type": <class name>, ...fields}`` with
tuples as lists, and :func:`event_from_json` rebuilds it exactly. Positions are ``[x, y]`` (x east,
y south); spots are in board orientation (``city:N``). An expansion's own events subclass
:class:`ExpansionEvent` in its module.
"""

from __future__ import annotations

from collections.abc import Mapping
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
class ExpansionEvent:
    """A fact only an expansion reports; its subclasses live in the expansion's module and are
    listed by its ``event_types`` (:mod:`app.engine.expansions`).
    """


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
    | GameEnded
    | ExpansionEvent
)

#: Class name → class of every base-game event (:func:`event_from_json`).
BASE_EVENT_TYPES: Mapping[str, type[Any]] = {
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


def event_from_json(
    data: dict[str, Any], types: Mapping[str, type[Any]] = BASE_EVENT_TYPES
) -> Event:
    """Inverse of :func:`event_to_json` for the event classes ``types`` (class name → class;
    :data:`app.engine.record.notation.EVENT_TYPES` adds the expansions'); raises
    KeyError/TypeError on a malformed event.
    """
    cls = types[data["type"]]
    kwargs = {f.name: _from_json_value(data[f.name]) for f in fields(cls)}
    event: Event = cls(**kwargs)
    return event
