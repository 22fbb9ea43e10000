"""Carcassonne: Wheel of Fortune — its state, its phase, its action and its events.

JSON forms (board coordinates: x east, y south):

* state (``position.expansions.wheel_of_fortune``): ``{"pig": segment index (Fortune = 0),
  "crowns": [[seat, ...] per segment], "plague_queue": [seat, ...]}``;
* action ``{"type": "plague", "seat": 1, "at": [x, y], "spot": "city:N"}``: the follower this
  seat takes back when the pig lands on Plague (:class:`RemoveFollower`); crown spaces are
  deployed on with the base game's ``place_follower`` and ``"spot": "crown:<segment>"``;
* events ``PigMoved``, ``CrownPlaced``, ``CrownReturned`` (``{"type": <class name>, ...}``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from app.engine.actions import ExpansionAction
from app.engine.events import ExpansionEvent
from app.engine.state import GameState

#: The expansion's id (views, snapshots).
ID = "wheel_of_fortune"
#: The phase in which a seat chooses the follower it takes back (RULES.md §6.5, Plague).
PLAGUE = "plague"
#: A deploy spot ``crown:<segment>`` names a crown space (RULES.md §6.4).
CROWN_PREFIX = "crown:"


@dataclass(frozen=True, slots=True)
class WheelState:
    """Where the pig stands, who holds the crown spaces, who still has a Plague decision.

    ``pig``: segment index (0 = Fortune, clockwise); ``crowns``: the seats on each segment's
    crown spaces; ``plague_queue``: seats yet to take a follower back, the deciding one first.
    """

    pig: int
    crowns: tuple[tuple[int, ...], ...]
    plague_queue: tuple[int, ...]

    def to_json(self) -> dict[str, Any]:
        """``{"pig", "crowns", "plague_queue"}`` (see the module docstring)."""
        return {
            "pig": self.pig,
            "crowns": [list(c) for c in self.crowns],
            "plague_queue": list(self.plague_queue),
        }

    @classmethod
    def from_json(cls, data: Any) -> WheelState:
        """Inverse of :meth:`to_json`; raises ``KeyError``/``TypeError`` on malformed data."""
        return cls(
            int(data["pig"]),
            tuple(tuple(c) for c in data["crowns"]),
            tuple(data["plague_queue"]),
        )


def wheel_state(s: GameState) -> WheelState:
    """The Wheel of Fortune's part of ``s`` (a Wheel of Fortune game)."""
    state = s.expansion_state[ID]
    assert isinstance(state, WheelState)
    return state


@dataclass(frozen=True, slots=True)
class RemoveFollower(ExpansionAction):
    """Wheel of Fortune Plague: take back the follower on ``spot`` of the tile at ``(x, y)``."""

    x: int
    y: int
    spot: str
    pending: ClassVar[str] = "no Plague decision is pending"

    def to_json(self) -> dict[str, Any]:
        """JSON form (see module docstring)."""
        return {"type": "plague", "seat": self.seat, "at": [self.x, self.y], "spot": self.spot}


@dataclass(frozen=True, slots=True)
class PigMoved(ExpansionEvent):
    """Wheel of Fortune: ``seat`` drew an icon tile and moved the pig ``steps`` segments
    clockwise from ``start`` to ``segment``, whose action runs now (RULES.md §6.4).
    """

    seat: int
    steps: int
    start: str
    segment: str


@dataclass(frozen=True, slots=True)
class CrownPlaced(ExpansionEvent):
    """Wheel of Fortune: ``seat`` put a follower on a crown space of ``segment`` (§6.4)."""

    seat: int
    segment: str


@dataclass(frozen=True, slots=True)
class CrownReturned(ExpansionEvent):
    """Wheel of Fortune: a follower on ``segment``'s crown spaces went back to ``seat``."""

    seat: int
    segment: str
