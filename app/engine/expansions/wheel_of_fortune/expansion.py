"""Carcassonne: Wheel of Fortune as an expansion: its answers at the base game's hook points.

Setup (RULES.md §6.2, §6.7): its own tile table (:mod:`.tiles`), the 72-tile deck, all drawn,
and the 4×4 wheel board as the start (its cells ordinary land, put down row by row). Draw
(§6.4): an icon tile moves the pig first; a Plague pauses the draw for the phase ``plague``.
Actions: crown spaces are deploy spots ``crown:<segment>``; a Plague decision is
:class:`~.model.RemoveFollower`. View: the keys ``wheel`` and ``plague`` (docs/API.md). The
rules themselves are in :mod:`.rules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.actions import Action, PlaceFollower, parse_at, parse_spot
from app.engine.errors import IllegalFollower, WrongPhase
from app.engine.events import Event, FollowerPlaced, FollowerReturned, GameEnded
from app.engine.expansions.base import Applier, Expansion, RecordExport, RecordReplay, Resume
from app.engine.expansions.wheel_of_fortune import rules
from app.engine.expansions.wheel_of_fortune.data import BOARD_CELLS, CROWNS, SEGMENT_NAMES
from app.engine.expansions.wheel_of_fortune.model import (
    CROWN_PREFIX,
    ID,
    PLAGUE,
    CrownPlaced,
    CrownReturned,
    PigMoved,
    RemoveFollower,
    WheelState,
    wheel_state,
)
from app.engine.expansions.wheel_of_fortune.record import WheelRecordExport, WheelRecordReplay
from app.engine.expansions.wheel_of_fortune.tiles import WHEEL_TILES, wheel_deck_counts
from app.engine.rng import SplitMix64, shuffled
from app.engine.state import DEPLOY, GameState, Pos
from app.engine.tiles import TILE_TYPES

#: Events after which a crown space or the pig may have changed (the view's ``wheel``).
_WHEEL_EVENTS = (PigMoved, CrownPlaced, CrownReturned, FollowerPlaced, FollowerReturned, GameEnded)


class WheelOfFortune(Expansion):
    """Carcassonne: Wheel of Fortune (RULES.md §6) behind the base game's hook points."""

    id = ID
    phases = frozenset({PLAGUE})
    event_types = (PigMoved, CrownPlaced, CrownReturned)
    off_turn_phases = frozenset({PLAGUE})
    decision_types = (RemoveFollower,)
    replay_keys = ("wheel",)
    title = "the Wheel of Fortune"
    tile_types = WHEEL_TILES  # §6.2, §6.7: the icon copies, the shapes and the board cells
    replaces_base = True  # a standalone game: its 72 tiles, not the base game's

    # ------------------------------------------------------------------ setup

    def deck_counts(self, counts: dict[str, int]) -> dict[str, int]:
        """The Wheel's own 72 tiles instead of the base game's (§6.7)."""
        return wheel_deck_counts()

    def shuffled_deck(self, land: list[str], rng: SplitMix64) -> list[str]:
        """The Wheel's 72 tiles shuffled (the base game's ``land`` is not played)."""
        return shuffled([t for t, n in wheel_deck_counts().items() for _ in range(n)], rng)

    def start_tiles(self) -> list[tuple[Pos, str, int]]:
        """The 16 board cells, row by row from the north-west (§6.2)."""
        cells = sorted(BOARD_CELLS.items(), key=lambda c: (c[0][1], c[0][0]))
        return [(pos, tid, rotation) for pos, (tid, rotation) in cells]

    def initial_state(self, players: int) -> WheelState:
        """The pig on Fortune, every crown space free, no Plague pending."""
        return WheelState(0, tuple(() for _ in CROWNS), ())

    # ------------------------------------------------------------------ draw

    def tile_drawn(self, s: GameState, tile: str, events: list[Event]) -> bool:
        """An icon tile moves the pig and runs its segment (§6.4); Plague may make it wait."""
        icon = TILE_TYPES[tile].icon
        return bool(icon) and rules.spin(s, icon, events)

    # ------------------------------------------------------------------ actions

    def follower_spots(self, s: GameState) -> list[str]:
        """``crown:<segment>`` for each segment with a free crown space (§6.4)."""
        return [CROWN_PREFIX + name for name in rules.free_crowns(s)]

    def legal_actions(self, s: GameState) -> list[Action]:
        """During ``plague``: take back one of the deciding seat's followers (§6.5)."""
        if s.phase != PLAGUE:
            return []
        return [RemoveFollower(s.seat, x, y, spot) for x, y, spot in rules.plague_choices(s)]

    def claims(self, s: GameState, action: Action) -> bool:
        """Plague decisions, anything during ``plague``, and deploys on crown spaces."""
        return (
            s.phase == PLAGUE
            or isinstance(action, RemoveFollower)
            or (isinstance(action, PlaceFollower) and action.spot.startswith(CROWN_PREFIX))
        )

    def check(self, s: GameState, action: Action) -> None:
        """Raise :class:`WrongPhase` or :class:`IllegalFollower` for a claimed action."""
        if s.phase == PLAGUE or isinstance(action, RemoveFollower):
            if s.phase != PLAGUE or not isinstance(action, RemoveFollower):
                raise WrongPhase(
                    "Plague: choose a follower to take back"
                    if s.phase == PLAGUE
                    else RemoveFollower.pending
                )
            if rules.plague_target(s, action) is None:
                raise IllegalFollower(
                    f"seat {action.seat} has no follower at {[action.x, action.y]} {action.spot}"
                )
            return
        if s.phase != DEPLOY:
            raise WrongPhase("place the drawn tile first")
        assert isinstance(action, PlaceFollower)
        if action.spot not in self.follower_spots(s) or s.supply[s.seat] == 0:
            raise IllegalFollower(f"no free crown space {action.spot} to deploy on")

    def apply(self, s: GameState, action: Action, events: list[Event]) -> Resume:
        """A Plague decision (then the next one, or the draw goes on) or a crown deploy (then
        the turn ends).
        """
        if isinstance(action, RemoveFollower):
            gid = rules.plague_target(s, action)
            assert gid is not None
            rules.remove_follower(s, gid, events)
            return Resume.DRAW if rules.finish_plague(s, events) else Resume.WAIT
        assert isinstance(action, PlaceFollower)
        rules.place_crown(s, action.spot[len(CROWN_PREFIX) :], events)
        return Resume.END_TURN

    def action_from_json(self, kind: str, seat: int, data: dict[str, Any]) -> Action | None:
        """``{"type": "plague", "seat", "at": [x, y], "spot"}`` → :class:`RemoveFollower`."""
        if kind != "plague":
            return None
        x, y = parse_at(data)
        return RemoveFollower(seat, x, y, parse_spot(data))

    # ------------------------------------------------------------------ view

    def view(self, s: GameState, seat: int | None) -> dict[str, Any]:
        """``"wheel": {"pig", "segments": [{"name", "crowns", "occupants"}], "cells"}`` and
        ``"plague": {"seat", "waiting", "choices": [[x, y, spot]]} | None``.
        """
        wheel = _wheel(s)
        wheel["cells"] = [[x, y] for x, y in sorted(BOARD_CELLS)]
        return {"wheel": wheel, "plague": _plague(s)}

    def view_delta(self, s: GameState, events: Sequence[Event]) -> dict[str, Any]:
        """``plague`` always; ``wheel`` (without ``cells``: a client keeps the ``cells`` of
        the ``wheel`` it holds) when the pig, a crown space or a follower may have moved.
        """
        out: dict[str, Any] = {}
        if any(isinstance(e, _WHEEL_EVENTS) for e in events):
            out["wheel"] = _wheel(s)
        out["plague"] = _plague(s)
        return out

    # ------------------------------------------------------------------ snapshot and record

    def state_from_json(self, data: Any) -> WheelState:
        """From :meth:`WheelState.to_json` (a ``/2`` position has the same keys)."""
        return WheelState.from_json(data)

    def record_export(self) -> RecordExport:
        """Plague removals ride on the entry of the tile whose icon caused them."""
        return WheelRecordExport()

    def record_replay(self, apply: Applier) -> RecordReplay:
        """Plague removals and ``{"discarded", "plague"}`` entries (record.md)."""
        return WheelRecordReplay(apply)

    def record_decisions(self, entry: dict[str, Any]) -> list[dict[str, Any]]:
        """The entry's Plague removals (its ``plague`` list, record.md), one per removal."""
        return list(entry.get("plague") or [])

    def preferred_decisions(self, s: GameState, choices: list[Action]) -> list[Action]:
        """A Plague removal takes back the cheapest follower to lose first: one on a road,
        then a city, a field, a cloister.
        """
        removals = [a for a in choices if isinstance(a, RemoveFollower)]
        if not removals:
            return choices
        best = min(_PLAGUE_ORDER.get(a.spot.partition(":")[0], 9) for a in removals)
        return [a for a in removals if _PLAGUE_ORDER.get(a.spot.partition(":")[0], 9) == best]

    def held_points(self, s: GameState) -> list[float]:
        """The crown points each seat's followers on crown spaces are worth now (§6.6)."""
        out = [0.0] * len(s.players)
        for capacity, held in zip(CROWNS, wheel_state(s).crowns, strict=True):
            for seat in held:
                out[seat] += rules.crown_points(capacity, len(held))
        return out


#: Plague: which follower a computer player takes back first (cheapest to lose first).
_PLAGUE_ORDER = {"road": 0, "city": 1, "field": 2, "cloister": 3}


def _wheel(s: GameState) -> dict[str, Any]:
    ws = wheel_state(s)
    return {
        "pig": SEGMENT_NAMES[ws.pig],
        "segments": [
            {"name": name, "crowns": crowns, "occupants": list(held)}
            for name, crowns, held in zip(SEGMENT_NAMES, CROWNS, ws.crowns, strict=True)
        ],
    }


def _plague(s: GameState) -> dict[str, Any] | None:
    if s.phase != PLAGUE:
        return None
    return {
        "seat": s.seat,
        "waiting": list(wheel_state(s).plague_queue),
        "choices": [[x, y, spot] for x, y, spot in rules.plague_choices(s)],
    }


WHEEL_OF_FORTUNE = WheelOfFortune()
