"""The hook points the base game asks its active expansions at: :class:`Expansion`.

An expansion is one object (a subclass of :class:`Expansion` that overrides the hooks it needs;
every hook's default leaves the base game as it is). The base game (:mod:`app.engine.game`,
:mod:`app.engine.legal`, :mod:`app.engine.view`, :mod:`app.engine.record`,
:mod:`app.engine.record.notation`) asks the game's active expansions, in the registry's fixed order
(:data:`app.engine.expansions.EXPANSIONS`), at these points:

* declaration (data, read once by the registry) — :attr:`~Expansion.tile_types` (its tile
  table, added to the catalogue), and what the rule options need to know of it
  (:attr:`~Expansion.replaces_base`, :attr:`~Expansion.base_tiles_only`,
  :attr:`~Expansion.excludes`, :attr:`~Expansion.rules_flag`, :attr:`~Expansion.title`): the
  registry checks :attr:`Options.expansions <app.engine.options.Options.expansions>` with them;
* setup — :meth:`~Expansion.deck_counts`, :meth:`~Expansion.shuffled_deck`,
  :meth:`~Expansion.check_draw_order`, :meth:`~Expansion.start_tiles`,
  :meth:`~Expansion.initial_state`;
* placement — :meth:`~Expansion.placements`, :meth:`~Expansion.placement_error`,
  :meth:`~Expansion.tile_placed`;
* draw — :meth:`~Expansion.tile_drawn`;
* extra actions — :attr:`~Expansion.phases`, :meth:`~Expansion.follower_spots`,
  :meth:`~Expansion.legal_actions`, :meth:`~Expansion.claims`, :meth:`~Expansion.check`,
  :meth:`~Expansion.apply`, :meth:`~Expansion.action_from_json`;
* scoring — :meth:`~Expansion.feature_completed`, :meth:`~Expansion.final_scoring`;
* view — :meth:`~Expansion.view`, :meth:`~Expansion.view_delta`;
* snapshot — :meth:`~Expansion.state_from_json`, :meth:`~Expansion.state_from_position_2`;
* record — :meth:`~Expansion.record_export`, :meth:`~Expansion.record_replay`,
  :meth:`~Expansion.record_decisions`;
* off-turn decisions and the computer players — :attr:`~Expansion.off_turn_phases`,
  :attr:`~Expansion.decision_types`, :meth:`~Expansion.preferred_decisions`,
  :meth:`~Expansion.held_points`, :meth:`~Expansion.draw_stage`: what the services, the clocks
  and the bots ask through the registry's generic verbs (``deciding``, ``is_decision``, …) so
  that none of them names an expansion.

Hooks run inside the engine's pure core: no I/O, no clock, no global random state. An
expansion keeps its state in ``GameState.expansion_state[id]`` (an immutable value it replaces).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import Any

from app.engine.actions import Action
from app.engine.events import Event
from app.engine.options import Options
from app.engine.rng import SplitMix64
from app.engine.state import ExpansionState, GameState, Pos
from app.engine.tiles import RotatedTile
from app.engine.tiles.tables import TileType

#: Checked apply (:func:`app.engine.game.apply_in_place`), handed to record replays.
Applier = Callable[[GameState, Action], list[Event]]


class Resume(StrEnum):
    """What the turn does after an expansion applied an action (:meth:`Expansion.apply`)."""

    END_TURN = "end_turn"  # score what the placed tile completed, pass the turn, draw
    DRAW = "draw"  # go on with the draw the expansion paused (the drawn tile, or a new one)
    WAIT = "wait"  # the expansion asks another decision first


class RecordExport:
    """An expansion's part of one :func:`app.engine.record.export_record` run (default: none).

    Called in draw order: :meth:`drawn` for each drawn tile, then :meth:`decisions` before the
    tile's placement is looked for, then :meth:`discard_entry` if the tile was not placed.
    """

    def drawn(self, tile: str) -> None:
        """``tile`` is the next tile drawn."""

    def decisions(
        self, state: GameState, actions: Sequence[Action], start: int, entry: dict[str, Any]
    ) -> int:
        """Consume this expansion's decisions at ``actions[start:]`` that belong to the entry of
        the tile just drawn, adding their record form to ``entry``; returns the next index.
        """
        return start

    def discard_entry(self, tile: str) -> dict[str, Any] | None:
        """The entry a drawn, unplaced ``tile`` needs in the record, if any."""
        return None


class RecordReplay:
    """An expansion's part of one :func:`app.engine.record.replay` run (default: none).

    Raises :class:`~app.engine.errors.RecordError` naming the 1-based move.
    """

    def feed(self, events: list[Event]) -> list[Event]:
        """Follow the engine's ``events`` (returned unchanged)."""
        return events

    def entry(self, state: GameState, move: dict[str, Any], number: int) -> list[Event] | None:
        """Replay an entry of this expansion's own kind (None: not one of them)."""
        return None

    def before_move(self, state: GameState, move: dict[str, Any], number: int) -> list[Event]:
        """Replay this expansion's decisions a placement entry carries before its tile."""
        return []

    def finish(self, number: int) -> None:
        """The record's entries are used up (``number``: one past the last)."""


class Expansion:
    """One expansion's rules behind the base game's hook points (see the module docstring).

    ``id``: the stable id views and snapshots use (``"river"``, ``"wheel_of_fortune"``);
    ``phases``: the phases it adds (decisions it asks for that the base game does not know);
    ``event_types``: its event classes (:class:`~app.engine.events.ExpansionEvent`);
    ``off_turn_phases``: those of its phases in which the game waits for an *off-turn decision*
    (a seat other than the one whose turn it is may be asked; a table gives it its own short
    limit, never the turn's clock); ``decision_types``: the actions that answer one;
    ``replay_keys``: the keys of its view a replay's position carries.

    What the rule options need to know (RULES.md §4.6; the registry reads it, so that
    :mod:`app.engine.options` names no expansion): ``title`` names it in messages;
    ``replaces_base``: a standalone game whose tiles replace the base game's (the Wheel of
    Fortune, §6; a match plays at most one, and the rules JSON's ``tileset`` names it);
    ``base_tiles_only``: played with the base game's tiles only, never with one that replaces
    them (the River, §5); ``excludes``: the ids of expansions it is never played with;
    ``rules_flag``: the boolean key of the rules JSON that turned it on before ``expansions``
    existed (the River's ``river``), still written for older releases; None for none.
    """

    id: str = ""
    phases: frozenset[str] = frozenset()
    event_types: tuple[type[Any], ...] = ()
    off_turn_phases: frozenset[str] = frozenset()
    decision_types: tuple[type[Action], ...] = ()
    #: The keys of its view (:meth:`view`) a replay's position carries along with the base's.
    replay_keys: tuple[str, ...] = ()
    #: Its tile table: the tile types it adds to the catalogue (:mod:`app.engine.tiles`).
    tile_types: tuple[TileType, ...] = ()
    title: str = ""
    replaces_base: bool = False
    base_tiles_only: bool = False
    excludes: frozenset[str] = frozenset()
    rules_flag: str | None = None

    def is_active(self, options: Options) -> bool:
        """Whether a game with ``options`` plays this expansion: its id is in
        :attr:`Options.expansions <app.engine.options.Options.expansions>`.
        """
        return self.id in options.expansions

    # ------------------------------------------------------------------ setup

    def deck_counts(self, counts: dict[str, int]) -> dict[str, int]:
        """Tile id → copies in the draw pile, from the base game's ``counts`` (start excluded)."""
        return counts

    def shuffled_deck(self, land: list[str], rng: SplitMix64) -> list[str] | None:
        """The whole draw pile shuffled with ``rng`` from the base game's ``land`` tiles (start
        excluded, catalogue order), or None to leave the shuffle to the base game.
        """
        return None

    def check_draw_order(self, draw_order: Sequence[str]) -> None:
        """Refuse a given draw order (:class:`~app.engine.errors.InvalidOptions`) that breaks
        this expansion's order of the deck; the tiles themselves are already checked.
        """

    def start_tiles(self) -> list[tuple[Pos, str, int]] | None:
        """``[(pos, tile id, rotation)]`` put down before the first draw instead of the base
        game's start tile D at (0, 0), or None.
        """
        return None

    def initial_state(self, players: int) -> ExpansionState | None:
        """This expansion's state at the start of a game of ``players`` seats, or None."""
        return None

    # ------------------------------------------------------------------ placement

    def placements(
        self, s: GameState, tile: str, first_only: bool
    ) -> list[tuple[int, int, int]] | None:
        """Every ``(x, y, rotation)`` for ``tile`` when this expansion decides where it goes
        (the base game's edge match included), or None to leave it to the base game.
        """
        return None

    def placement_error(self, s: GameState, rt: RotatedTile, pos: Pos) -> str | None:
        """Why ``rt`` may not go on the empty frontier cell ``pos`` by this expansion's rules
        (checked before the base game's edge match), or None.
        """
        return None

    def tile_placed(self, s: GameState, rt: RotatedTile, pos: Pos) -> None:
        """``rt`` was just put on ``pos`` (start tiles included)."""

    # ------------------------------------------------------------------ draw

    def tile_drawn(self, s: GameState, tile: str, events: list[Event]) -> bool:
        """``tile`` was just drawn (``s.tile``); True when the draw must wait for decisions in
        one of :attr:`phases` (the expansion sets ``s.phase`` and ``s.seat``, and its
        :meth:`apply` answers :attr:`Resume.DRAW` once they are made).
        """
        return False

    # ------------------------------------------------------------------ actions

    def follower_spots(self, s: GameState) -> list[str]:
        """Spots beyond the placed tile's own where the acting seat may deploy (phase
        ``deploy``, a follower in supply).
        """
        return []

    def legal_actions(self, s: GameState) -> list[Action]:
        """Every action the game accepts in this expansion's phase ``s.phase``."""
        return []

    def claims(self, s: GameState, action: Action) -> bool:
        """Whether this expansion checks and applies ``action`` (its own action, a deploy on
        its own spot, or anything during its own phase).
        """
        return False

    def check(self, s: GameState, action: Action) -> None:
        """Raise the typed error (:mod:`app.engine.errors`) for a claimed ``action``."""

    def apply(self, s: GameState, action: Action, events: list[Event]) -> Resume:
        """Carry out a claimed ``action`` that :meth:`check` accepted (without recording it in
        ``s.actions``); returns what the turn does next.
        """
        raise NotImplementedError

    def action_from_json(self, kind: str, seat: int, data: dict[str, Any]) -> Action | None:
        """Parse this expansion's action of type ``kind`` (None: not its type); raises
        :class:`~app.engine.errors.InvalidAction` on a malformed one.
        """
        return None

    # ------------------------------------------------------------------ scoring

    def feature_completed(self, s: GameState, root: int, events: list[Event]) -> None:
        """The base game has just scored the completed feature ``root`` (RULES.md §3.2e)."""

    def final_scoring(self, s: GameState, events: list[Event]) -> None:
        """Score this expansion's part of the final scoring, before the base game's."""

    # ------------------------------------------------------------------ view

    def view(self, s: GameState, seat: int | None) -> dict[str, Any]:
        """Keys this expansion adds to :func:`app.engine.view.view` for ``seat``."""
        return {}

    def view_delta(self, s: GameState, events: Sequence[Event]) -> dict[str, Any]:
        """Keys this expansion adds to :func:`app.engine.view.view_delta` after ``events``."""
        return {}

    # ------------------------------------------------------------------ snapshot

    def state_from_json(self, data: Any) -> ExpansionState:
        """Load this expansion's state from its JSON form (``position.expansions[id]``)."""
        raise NotImplementedError

    def state_from_position_2(self, position: dict[str, Any]) -> ExpansionState:
        """Load this expansion's state from a ``carcassonne-state/2`` position (its keys at the
        top of ``position``).
        """
        return self.state_from_json(position)

    # ------------------------------------------------------------------ record

    def record_export(self) -> RecordExport:
        """A fresh :class:`RecordExport` for one exported record."""
        return RecordExport()

    def record_replay(self, apply: Applier) -> RecordReplay:
        """A fresh :class:`RecordReplay` for one replayed record; ``apply`` is the checked apply
        its decisions go through.
        """
        return RecordReplay()

    def record_decisions(self, entry: dict[str, Any]) -> list[dict[str, Any]]:
        """The off-turn decisions a record ``entry`` carries before its tile, in play order,
        one item per decision action (the items themselves: a caller may mark them, e.g.
        ``"by": "computer"``).
        """
        return []

    # ------------------------------------------------------------------ computer players

    def preferred_decisions(self, s: GameState, choices: list[Action]) -> list[Action]:
        """Among the legal ``choices`` of an off-turn decision, the ones a plain computer
        player picks from (default: all of them).
        """
        return choices

    def held_points(self, s: GameState) -> list[float] | None:
        """Points per seat that this expansion's pieces would be worth if the game ended now
        and that the base game's scoring does not see (a bot's evaluation), or None.
        """
        return None

    def draw_stage(self, tile: str) -> int | None:
        """The stage of the deck ``tile`` is drawn in (0 first; tiles of one stage are drawn
        before any of the next), or None when this expansion does not order the deck.
        """
        return None
