"""What the game accepts now: legal placements, follower spots, actions, and :func:`check`.

:func:`check` raises the typed error for an action the game would refuse (RULES.md §3.2b
placement, §3.2d followers, and the rules of the game's active expansions, asked through
:mod:`app.engine.expansions`) and changes nothing; :mod:`app.engine.game` applies what it
accepts.
"""

from __future__ import annotations

from app.engine.actions import Action, ExpansionAction, Pass, PlaceFollower, PlaceTile
from app.engine.board import fits, placements
from app.engine.errors import (
    GameOver,
    IllegalFollower,
    IllegalPlacement,
    InvalidAction,
    NotYourTurn,
    WrongPhase,
)
from app.engine.expansions import Expansion, active
from app.engine.state import DEPLOY, GAME_OVER, PAUSED, PLACE_TILE, GameState, find
from app.engine.tiles import HALVES, RIVER, ROTATED, ROTATIONS, SIDES


def tile_placements(
    state: GameState, tile: str, first_only: bool = False
) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where ``tile`` may go now (RULES.md §3.2b), in frontier
    order: the first active expansion that decides for this tile (the River for its tiles)
    decides, else the base game's edge match. With ``first_only`` the first one only.
    """
    for x in active(state.options):
        found = x.placements(state, tile, first_only)
        if found is not None:
            return found
    return placements(state, tile, first_only)


def legal_placements(state: GameState) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where the drawn tile may go (RULES.md §3.2b, §5.2).

    Empty unless the phase is ``place_tile``. Rotations that show the same edges are listed
    separately (they differ in where followers can stand).
    """
    if state.phase != PLACE_TILE or state.tile is None:
        return []
    return tile_placements(state, state.tile)


def legal_follower_spots(state: GameState) -> list[str]:
    """Where the acting seat may deploy a follower on the tile just placed (RULES.md §3.2d).

    Spots are ``city:N``, ``road:E``, ``field:SSW``, ``cloister``, then the active expansions'
    own spots (``Expansion.follower_spots``); empty outside ``deploy`` or with
    an empty supply. Each segment is named once, by its canonical spot.
    """
    if state.phase != DEPLOY or state.placed is None or state.supply[state.seat] == 0:
        return []
    rt, base = state.board[state.placed]
    parent = state.parent
    f_followers = state.f_followers
    spots = [
        seg.name
        for i, seg in enumerate(rt.segments)
        if seg.kind != RIVER and not f_followers[find(parent, base + i)]
    ]
    for x in active(state.options):
        spots += x.follower_spots(state)
    return spots


def legal_actions(state: GameState) -> list[Action]:
    """Every action the game accepts now, all for ``state.seat`` (empty when over/paused)."""
    seat = state.seat
    if state.phase == PLACE_TILE:
        return [PlaceTile(seat, x, y, r) for x, y, r in legal_placements(state)]
    if state.phase == DEPLOY:
        out: list[Action] = [PlaceFollower(seat, spot) for spot in legal_follower_spots(state)]
        out.append(Pass(seat))
        return out
    for x in active(state.options):
        if state.phase in x.phases:
            return x.legal_actions(state)
    return []


def claimant(state: GameState, action: Action) -> Expansion | None:
    """The active expansion that checks and applies ``action`` now, if any."""
    for x in active(state.options):
        if x.claims(state, action):
            return x
    return None


def check(state: GameState, action: Action) -> None:
    """Raise the typed error :func:`apply` would raise for ``action``; change nothing.

    See :func:`checked_owner`.
    """
    checked_owner(state, action)


def checked_owner(state: GameState, action: Action) -> Expansion | None:
    """Check ``action`` like :func:`check` and return the active expansion that claims it
    (None: the base game applies it).

    In order: :class:`GameOver`, :class:`InvalidAction` (not an action), :class:`WrongPhase`
    (paused), :class:`NotYourTurn`; then an active expansion's own checks when it claims the
    action; else the base game's phase, placement (:class:`IllegalPlacement`, RULES.md §3.2b
    and the expansions' placement rules) and follower (:class:`IllegalFollower`, §3.2d) checks.
    """
    if state.phase == GAME_OVER:
        raise GameOver("the game is over", reason="game_over")
    if not isinstance(action, PlaceTile | PlaceFollower | Pass | ExpansionAction):
        raise InvalidAction("not an action")
    if state.phase == PAUSED:
        raise WrongPhase("the record's known tiles are used up", reason="tiles_used_up")
    if action.seat != state.seat:
        raise NotYourTurn(
            f"it is seat {state.seat}'s turn", reason="not_your_turn", params={"seat": state.seat}
        )
    owner = claimant(state, action)
    if owner is not None:
        owner.check(state, action)
        return owner
    if isinstance(action, ExpansionAction):
        raise WrongPhase(action.pending)
    if isinstance(action, PlaceTile):
        _check_placement(state, action)
        return None
    if state.phase != DEPLOY:
        raise WrongPhase("place the drawn tile first", reason="place_tile_first")
    if isinstance(action, PlaceFollower):
        _check_follower(state, action)
    return None


def _check_placement(state: GameState, action: PlaceTile) -> None:
    if state.phase != PLACE_TILE:
        raise WrongPhase(
            "the tile has been placed; deploy a follower or pass", reason="tile_already_placed"
        )
    if action.rotation not in ROTATIONS:
        raise InvalidAction("rotation must be 0, 90, 180 or 270", reason="bad_rotation")
    assert state.tile is not None
    rt = ROTATED[state.tile][action.rotation // 90]
    pos = (action.x, action.y)
    if pos in state.board:
        raise IllegalPlacement(
            f"{list(pos)} is already occupied",
            reason="placement_occupied",
            params={"at": list(pos)},
        )
    if pos not in state.frontier:
        raise IllegalPlacement(
            f"{list(pos)} does not touch the placed tiles along an edge",
            reason="placement_not_adjacent",
            params={"at": list(pos)},
        )
    for x in active(state.options):
        why = x.placement_error(state, rt, pos)
        if why is not None:
            raise IllegalPlacement(why)
    if not fits(state, rt, pos):
        raise IllegalPlacement(
            f"tile {state.tile} at {list(pos)} rotation {action.rotation} does not match "
            "its neighbours' edges",
            reason="placement_edges",
            params={"tile": state.tile, "at": list(pos), "rotation": action.rotation},
        )


def _check_follower(state: GameState, action: PlaceFollower) -> None:
    assert state.placed is not None
    rt, base = state.board[state.placed]
    local = rt.spots.get(action.spot)
    if local is None:
        kind, _, where = action.spot.partition(":")
        well_formed = (
            (kind in ("city", "road", "river") and where in SIDES)
            or (kind == "field" and where in HALVES)
            or action.spot == "cloister"
        )
        if not well_formed:
            raise InvalidAction(
                f"unknown follower spot {action.spot!r}: use road:<side>, city:<side>, "
                "field:<half-edge> or cloister"
            )
        raise IllegalFollower(
            f"tile {rt.tile} has no {action.spot} here",
            reason="follower_no_spot",
            params={"tile": rt.tile, "spot": action.spot},
        )
    if state.supply[state.seat] == 0:
        raise IllegalFollower("no follower left in supply", reason="follower_supply_empty")
    if state.f_followers[find(state.parent, base + local)]:
        raise IllegalFollower(
            f"the feature at {action.spot} already holds a follower",
            reason="follower_feature_taken",
            params={"spot": action.spot},
        )
