"""Carcassonne: Wheel of Fortune in game records (``carcassonne-record/1``, record.md).

A placement entry carries the Plague removals its tile's icon caused: ``"plague": [{"seat",
"at": [x, y], "follower"}]``. A tile whose icon landed the pig on Plague and that then fitted
nowhere gets an entry of its own, ``{"discarded": tile, "plague": [...]}``, in draw order.
Crown deploys are written as given (``"follower": "crown:tax"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.actions import Action
from app.engine.errors import EngineError, RecordError
from app.engine.events import Event, TileDiscarded, TileDrawn
from app.engine.expansions.base import Applier, RecordExport, RecordReplay
from app.engine.expansions.wheel_of_fortune.data import PLAGUE_SEGMENT, SEGMENT_NAMES
from app.engine.expansions.wheel_of_fortune.model import PLAGUE, PigMoved, RemoveFollower
from app.engine.state import GameState
from app.engine.tiles import TILE_TYPES


class WheelRecordExport(RecordExport):
    """Follows the pig through the drawn tiles; gathers each entry's Plague removals."""

    def __init__(self) -> None:
        self.pig = 0
        self.on_plague = False
        self.plague: list[dict[str, Any]] = []

    def drawn(self, tile: str) -> None:
        """Move the pig by ``tile``'s icon."""
        icon = TILE_TYPES[tile].icon
        self.pig = (self.pig + icon) % len(SEGMENT_NAMES)
        self.on_plague = bool(icon) and self.pig == PLAGUE_SEGMENT

    def decisions(
        self, state: GameState, actions: Sequence[Action], start: int, entry: dict[str, Any]
    ) -> int:
        """The Plague removals at ``actions[start:]`` as ``entry["plague"]`` (when any)."""
        self.plague = []
        ai = start
        while ai < len(actions) and isinstance(removal := actions[ai], RemoveFollower):
            rt = state.board[(removal.x, removal.y)][0]
            self.plague.append(
                {
                    "seat": removal.seat,
                    "at": [removal.x, removal.y],
                    "follower": rt.segments[rt.spots[removal.spot]].name,
                }
            )
            ai += 1
        if self.plague:
            entry["plague"] = self.plague
        return ai

    def discard_entry(self, tile: str) -> dict[str, Any] | None:
        """``{"discarded", "plague"}`` for a tile discarded after its icon landed on Plague."""
        return {"discarded": tile, "plague": self.plague} if self.on_plague else None


class WheelRecordReplay(RecordReplay):
    """Applies the Plague removals a record names, and collects the tiles the engine
    discarded after their icon had landed the pig on Plague (each needs a ``discarded``
    entry in the record).
    """

    def __init__(self, apply: Applier) -> None:
        self.apply = apply
        self.on_plague = False
        self.pending: list[str] = []

    def feed(self, events: list[Event]) -> list[Event]:
        """Note Plague landings and the discards after them."""
        for e in events:
            if isinstance(e, TileDrawn):
                self.on_plague = False
            elif isinstance(e, PigMoved):
                self.on_plague = e.segment == "plague"
            elif isinstance(e, TileDiscarded) and self.on_plague:
                self.pending.append(e.tile)
        return events

    def entry(self, state: GameState, move: dict[str, Any], number: int) -> list[Event] | None:
        """A ``{"discarded", "plague"}`` entry; any other entry must not skip one."""
        if "discarded" in move:
            return self._discarded(state, move, number)
        if self.pending:
            raise RecordError(
                f"tile {self.pending[0]!r} landed the pig on Plague and fits nowhere: "
                "the record must list it as discarded here",
                number,
            )
        return None

    def before_move(self, state: GameState, move: dict[str, Any], number: int) -> list[Event]:
        """The entry's Plague removals, while the game asks for them."""
        events = self.feed(self._plague(state, move.get("plague"), number))
        if self.pending:
            raise RecordError(
                f"tile {move.get('tile')!r} landed the pig on Plague and fits nowhere: the "
                "record must list it as discarded",
                number,
            )
        return events

    def finish(self, number: int) -> None:
        """No discard after Plague may be left without its entry."""
        if self.pending:
            raise RecordError(
                f"tile {self.pending[0]!r} landed the pig on Plague and fits nowhere: "
                "the record must list it as discarded",
                number,
            )

    def _plague(self, state: GameState, removals: Any, number: int) -> list[Event]:
        if removals is None:
            removals = []
        if not isinstance(removals, list):
            raise RecordError("'plague' must be a list of removals", number)
        events: list[Event] = []
        queue = list(removals)
        while state.phase == PLAGUE:
            if not queue:
                raise RecordError(f"Plague: seat {state.seat} must take a follower back", number)
            item = queue.pop(0)
            if (
                not isinstance(item, dict)
                or not isinstance(item.get("at"), list)
                or len(item["at"]) != 2
                or not isinstance(item.get("follower"), str)
            ):
                raise RecordError("a Plague removal is {seat, at: [x, y], follower}", number)
            if item.get("seat") != state.seat:
                raise RecordError(
                    f"Plague: seat {state.seat} decides now, not seat {item.get('seat')}", number
                )
            x, y = item["at"]
            events += self.apply(state, RemoveFollower(state.seat, x, y, item["follower"]))
        if queue:
            raise RecordError("more Plague removals than the Plague asked for", number)
        return events

    def _discarded(self, state: GameState, move: dict[str, Any], number: int) -> list[Event]:
        """A ``{"discarded": tile, "plague": [...]}`` entry: the tile is the next one drawn,
        its icon landed the pig on Plague, the removals are the ones asked for, and then it
        fits nowhere (the engine discards it itself).
        """
        tile = move["discarded"]
        if self.pending:
            if tile != self.pending[0]:
                raise RecordError(
                    f"the tile discarded after Plague is {self.pending[0]!r}, not {tile!r}",
                    number,
                )
            if move.get("plague") not in (None, []):
                raise RecordError("nobody had a follower on a land tile at this Plague", number)
            self.pending.pop(0)
            return []
        if state.phase != PLAGUE or state.tile != tile:
            raise RecordError(
                f"tile {tile!r} is not a tile drawn now that landed the pig on Plague", number
            )
        try:
            events = self.feed(self._plague(state, move.get("plague"), number))
        except EngineError as exc:
            raise RecordError(exc.message, number) from None
        if not self.pending or self.pending[0] != tile:
            raise RecordError(f"tile {tile!r} fits on the board: it is not discarded", number)
        self.pending.pop(0)
        return events
