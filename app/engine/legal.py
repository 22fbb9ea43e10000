"""What the game accepts now: legal placements, follower spots, actions, and :func:`check`.

:func:`check` raises the typed error for an action the game would refuse (RULES.md §3.2b/§5.2
placement, §3.2d followers, §6.5 the Plague) and changes nothing; :mod:`app.engine.game`
applies what it accepts.
"""

from __future__ import annotations

from app.engine import wheel
from app.engine.actions import Action, Pass, PlaceFollower, PlaceTile, RemoveFollower
from app.engine.board import fits, placements
from app.engine.errors import (
    GameOver,
    IllegalFollower,
    IllegalPlacement,
    InvalidAction,
    NotYourTurn,
    WrongPhase,
)
from app.engine.state import DEPLOY, GAME_OVER, PAUSED, PLACE_TILE, PLAGUE, GameState, find
from app.engine.tiles import HALVES, RIVER, ROTATED, ROTATIONS, SIDES


def legal_placements(state: GameState) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where the drawn tile may go (RULES.md §3.2b, §5.2).

    Empty unless the phase is ``place_tile``. Rotations that show the same edges are listed
    separately (they differ in where followers can stand).
    """
    if state.phase != PLACE_TILE or state.tile is None:
        return []
    return placements(state, state.tile)


def legal_follower_spots(state: GameState) -> list[str]:
    """Where the acting seat may deploy a follower on the tile just placed (RULES.md §3.2d).

    Spots are ``city:N``, ``road:E``, ``field:SSW``, ``cloister`` (and ``crown:<segment>`` with
    the Wheel of Fortune); empty outside ``deploy`` or with an empty supply. Each segment is
    named once, by its canonical spot.
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
    if state.options.tileset == "wheel_of_fortune":
        spots += [
            f"crown:{name}"
            for name, crowns, held in zip(
                wheel.SEGMENT_NAMES, wheel.CROWNS, state.crowns, strict=True
            )
            if len(held) < crowns
        ]
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
    if state.phase == PLAGUE:
        return [RemoveFollower(seat, x, y, spot) for x, y, spot in wheel.plague_choices(state)]
    return []


def check(state: GameState, action: Action) -> None:
    """Raise the typed error :func:`apply` would raise for ``action``; change nothing."""
    if state.phase == GAME_OVER:
        raise GameOver("the game is over")
    if not isinstance(action, PlaceTile | PlaceFollower | Pass | RemoveFollower):
        raise InvalidAction("not an action")
    if state.phase == PAUSED:
        raise WrongPhase("the record's known tiles are used up")
    if action.seat != state.seat:
        raise NotYourTurn(f"it is seat {state.seat}'s turn")
    if state.phase == PLAGUE or isinstance(action, RemoveFollower):
        if state.phase != PLAGUE or not isinstance(action, RemoveFollower):
            raise WrongPhase(
                "Plague: choose a follower to take back"
                if state.phase == PLAGUE
                else "no Plague decision is pending"
            )
        if plague_target(state, action) is None:
            raise IllegalFollower(
                f"seat {action.seat} has no follower at {[action.x, action.y]} {action.spot}"
            )
        return
    if isinstance(action, PlaceTile):
        if state.phase != PLACE_TILE:
            raise WrongPhase("the tile has been placed; deploy a follower or pass")
        if action.rotation not in ROTATIONS:
            raise InvalidAction("rotation must be 0, 90, 180 or 270")
        assert state.tile is not None
        rt = ROTATED[state.tile][action.rotation // 90]
        pos = (action.x, action.y)
        if pos in state.board:
            raise IllegalPlacement(f"{list(pos)} is already occupied")
        if pos not in state.frontier:
            raise IllegalPlacement(f"{list(pos)} does not touch the placed tiles along an edge")
        if not fits(state, rt, pos):
            if rt.river_sides:
                raise IllegalPlacement(
                    f"tile {state.tile} at {list(pos)} rotation {action.rotation} does not "
                    "continue the river (or turns the same way as the previous bend)"
                )
            raise IllegalPlacement(
                f"tile {state.tile} at {list(pos)} rotation {action.rotation} does not match "
                "its neighbours' edges"
            )
        return
    if state.phase != DEPLOY:
        raise WrongPhase("place the drawn tile first")
    if isinstance(action, PlaceFollower):
        assert state.placed is not None
        rt, base = state.board[state.placed]
        if action.spot.startswith("crown:"):
            if action.spot not in legal_follower_spots(state):
                raise IllegalFollower(f"no free crown space {action.spot} to deploy on")
            return
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
            raise IllegalFollower(f"tile {rt.tile} has no {action.spot} here")
        if state.supply[state.seat] == 0:
            raise IllegalFollower("no follower left in supply")
        if state.f_followers[find(state.parent, base + local)]:
            raise IllegalFollower(f"the feature at {action.spot} already holds a follower")


def plague_target(state: GameState, action: RemoveFollower) -> int | None:
    """The segment id of the acting seat's follower named by a Plague decision, if any."""
    nb = state.board.get((action.x, action.y))
    if nb is None:
        return None
    rt, base = nb
    local = rt.spots.get(action.spot)
    if local is None:
        return None
    gid = base + local
    return gid if state.followers.get(gid) == action.seat else None
