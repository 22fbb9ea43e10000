"""Expansions: the rules a game adds to the base game, each behind the fixed hook points of
:class:`~app.engine.expansions.base.Expansion` (in the manner of scalachess's ``variant/``).

Every expansion the engine knows is in :data:`EXPANSIONS`, in the fixed order views list them;
:func:`active` gives a game's. The base game's modules (``game``, ``legal``, ``view``,
``record``, ``notation``) reach an expansion only through this registry, never by name.

The registry also stands between the expansions and the two parts of the base game that must
know of them before a game starts, so that neither names one: the tile catalogue
(:mod:`app.engine.tiles`), to which it adds each expansion's tile table (its ``tile_types``) at
import, and the rule options (:mod:`app.engine.options`), whose
:attr:`~app.engine.options.Options.expansions` it checks and whose JSON it reads and writes
(:class:`_Registry`, from what each expansion declares: ``replaces_base``, ``base_tiles_only``,
``excludes``, ``rules_flag``). :data:`PRESETS` are the base game's presets and one per
expansion, named by its id, playing it alone (RULES.md §4.6).

Adding one: write a subclass of :class:`Expansion` in a module or package of this folder that
declares its tile table and how it combines with others, and overrides the hooks it needs (its
state as an immutable value in ``GameState.expansion_state``, its own phases, actions and
events), and add its instance to :data:`EXPANSIONS`.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from app.engine.actions import Action
from app.engine.errors import InvalidOptions
from app.engine.expansions.base import Expansion, RecordExport, RecordReplay, Resume
from app.engine.expansions.river import RIVER
from app.engine.expansions.wheel_of_fortune import WHEEL_OF_FORTUNE
from app.engine.options import BASE_PRESETS, Options, use_registry
from app.engine.state import GameState
from app.engine.tiles import add_tile_types

#: Every expansion the engine knows, in the fixed order views list them.
EXPANSIONS: tuple[Expansion, ...] = (RIVER, WHEEL_OF_FORTUNE)


class _Registry:
    """The expansions' part of the rule options (RULES.md §4.6), from what each declares;
    :class:`app.engine.options.ExpansionRules`.
    """

    def __init__(self, expansions: tuple[Expansion, ...]) -> None:
        self._all = expansions
        self._by_id = {x.id: x for x in expansions}
        self._flags = {x.rules_flag: x for x in expansions if x.rules_flag}
        self.legacy_keys = frozenset({"tileset", *self._flags})

    def check(self, names: frozenset[str]) -> None:
        """Unknown names; two expansions whose tiles both replace the base game's; one played
        with the base game's tiles only beside one that replaces them; an excluded pair.
        """
        for name in sorted(names):
            if name not in self._by_id:
                raise InvalidOptions(f"unknown expansion {name!r}")
        chosen = [x for x in self._all if x.id in names]
        replacing = [x for x in chosen if x.replaces_base]
        if len(replacing) > 1:
            raise InvalidOptions(
                f"{replacing[0].title} and {replacing[1].title} both replace the base tileset"
            )
        for x in chosen:
            if x.base_tiles_only and replacing:
                raise InvalidOptions(f"{x.title} is played with the base tileset only")
            for y in chosen:
                if y.id in x.excludes or x.id in y.excludes:
                    raise InvalidOptions(f"{x.title} is not played with {y.title}")

    def tileset(self, names: frozenset[str]) -> str:
        """``base``, or the id of the chosen expansion whose tiles replace the base game's."""
        return next((x.id for x in self._all if x.replaces_base and x.id in names), "base")

    def legacy_json(self, names: frozenset[str]) -> dict[str, Any]:
        """``{"tileset": …, <flag>: bool …}`` (today ``{"tileset", "river"}``), as written by
        every release so far.
        """
        out: dict[str, Any] = {"tileset": self.tileset(names)}
        for flag, x in self._flags.items():
            out[flag] = x.id in names
        return out

    def names_from_json(self, data: dict[str, Any]) -> frozenset[str]:
        """From ``expansions`` (a list of names) and/or ``tileset`` and the flags; where both
        are given they must agree. Raises :class:`InvalidOptions`.
        """
        tileset = data.get("tileset", "base")
        if tileset != "base" and (
            not isinstance(tileset, str)
            or not getattr(self._by_id.get(tileset), "replaces_base", False)
        ):
            raise InvalidOptions(f"unknown tileset {tileset!r}")
        for flag in self._flags:
            if not isinstance(data.get(flag, False), bool):
                raise InvalidOptions(f"{flag} must be true or false")
        older = {tileset} - {"base"} | {x.id for flag, x in self._flags.items() if data.get(flag)}
        if "expansions" not in data:
            return frozenset(older)
        listed = data["expansions"]
        if not isinstance(listed, list) or not all(isinstance(n, str) for n in listed):
            raise InvalidOptions("expansions must be a list of expansion names")
        names = frozenset(listed)
        given = {k: v for k, v in self.legacy_json(names).items() if k in data}
        if any(data[k] != v for k, v in given.items()):
            raise InvalidOptions(
                f"expansions {sorted(names)} and "
                + ", ".join(f"{k} {data[k]!r}" for k in given)
                + " disagree"
            )
        return names


use_registry(_Registry(EXPANSIONS))
for _x in EXPANSIONS:
    add_tile_types(_x.tile_types)

#: Lobby presets (RULES.md §4.6): the base game's, then one per expansion, named by its id,
#: that plays it alone.
PRESETS: dict[str, Options] = {
    **BASE_PRESETS,
    **{x.id: Options(expansions=frozenset({x.id})) for x in EXPANSIONS},
}


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
    "PRESETS",
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
