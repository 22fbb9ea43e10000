"""Expansions: the rules a game adds to the base game, each behind the fixed hook points of
:class:`~app.engine.expansions.base.Expansion` (in the manner of scalachess's ``variant/``).

Every expansion the engine knows is in :data:`EXPANSIONS`, in the fixed order views list them;
:func:`active` gives a game's. The base game's modules (``game``, ``legal``, ``view``,
``record``, ``notation``) reach an expansion only through this registry, never by name.

Adding one: write a subclass of :class:`Expansion` in a module or package of this folder that
overrides the hooks it needs (its state as an immutable value in ``GameState.expansion_state``,
its own phases, actions and events), and add its instance to :data:`EXPANSIONS` (with the rule
option that turns it on in :class:`~app.engine.options.Options`).
"""

from __future__ import annotations

from functools import cache
from typing import Any

from app.engine.actions import Action
from app.engine.expansions.base import Expansion, RecordExport, RecordReplay, Resume
from app.engine.expansions.river import RIVER
from app.engine.expansions.wheel_of_fortune import WHEEL_OF_FORTUNE
from app.engine.options import Options
from app.engine.state import GameState

#: Every expansion the engine knows, in the fixed order views list them.
EXPANSIONS: tuple[Expansion, ...] = (RIVER, WHEEL_OF_FORTUNE)


@cache
def _active(options: Options) -> tuple[Expansion, ...]:
    return tuple(x for x in EXPANSIONS if x.is_active(options))


#: ``id(options)`` → ``(options, its active expansions)``: the base game asks several times per
#: action, and hashing a frozen dataclass costs more than the lookup. Holding ``options`` keeps
#: its id from being reused while the entry lives; the memo only ever gives what
#: :func:`_active` gives.
_BY_IDENTITY: dict[int, tuple[Options, tuple[Expansion, ...]]] = {}


def active(options: Options) -> tuple[Expansion, ...]:
    """The expansions a game with ``options`` plays, in :data:`EXPANSIONS` order."""
    hit = _BY_IDENTITY.get(id(options))
    if hit is not None and hit[0] is options:
        return hit[1]
    found = _active(options)
    if len(_BY_IDENTITY) >= 1024:
        _BY_IDENTITY.clear()
    _BY_IDENTITY[id(options)] = (options, found)
    return found


#: Every phase in which some expansion waits for an off-turn decision.
_OFF_TURN: frozenset[str] = frozenset().union(*(x.off_turn_phases for x in EXPANSIONS))
#: Every action that answers an off-turn decision.
_DECISIONS: tuple[type[Action], ...] = tuple(t for x in EXPANSIONS for t in x.decision_types)


def deciding(state: GameState) -> bool:
    """Whether ``state`` waits for an off-turn decision (an expansion's, e.g. the Wheel of
    Fortune's Plague, RULES.md §6.5): ``state.seat`` decides, with a table's decision
    time-out rather than the turn's clock.
    """
    return state.phase in _OFF_TURN


def is_decision(action: Action | None) -> bool:
    """Whether ``action`` answers an off-turn decision (see :func:`deciding`); False for None."""
    return isinstance(action, _DECISIONS)


def record_decisions(entry: dict[str, Any]) -> list[dict[str, Any]]:
    """The off-turn decisions a record entry (carcassonne-record/1, docs/RECORD.md) carries
    before its tile, one item per decision action, in play order; the items themselves.
    """
    out: list[dict[str, Any]] = []
    for x in EXPANSIONS:
        out += x.record_decisions(entry)
    return out


def preferred_decisions(state: GameState, choices: list[Action]) -> list[Action]:
    """Among the legal ``choices`` of an off-turn decision in ``state``, those a plain
    computer player picks from (each active expansion narrows them; never empty when
    ``choices`` is not).
    """
    for x in active(state.options):
        if state.phase in x.off_turn_phases:
            choices = x.preferred_decisions(state, choices) or choices
    return choices


def held_points(state: GameState) -> list[float]:
    """Per seat, the points the active expansions' pieces would be worth if the game ended
    now that the base game's scoring does not count (a computer player's evaluation).
    """
    out = [0.0] * len(state.players)
    for x in active(state.options):
        points = x.held_points(state)
        if points is not None:
            out = [a + b for a, b in zip(out, points, strict=True)]
    return out


def replay_keys(options: Options) -> tuple[str, ...]:
    """The view keys the active expansions add that a replay's position carries (e.g. the
    Wheel of Fortune's ``wheel``), in :data:`EXPANSIONS` order.
    """
    return tuple(k for x in active(options) for k in x.replay_keys)


def draw_stage(options: Options, tile: str) -> int:
    """The stage of the deck ``tile`` is drawn in with ``options`` (0 first; all of one stage
    before any of the next): the first active expansion that orders the deck says (the River:
    river tiles, the lake, then land); 0 for every tile when none does.
    """
    for x in active(options):
        stage = x.draw_stage(tile)
        if stage is not None:
            return stage
    return 0


__all__ = [
    "EXPANSIONS",
    "Expansion",
    "RecordExport",
    "RecordReplay",
    "Resume",
    "active",
    "deciding",
    "draw_stage",
    "held_points",
    "is_decision",
    "preferred_decisions",
    "record_decisions",
    "replay_keys",
]
