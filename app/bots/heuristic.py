"""A simple heuristic player: take the move that scores most now, else a sensible random one.

Placing a tile: try every legal placement on a copy of the state (followed by a pass) and keep
those with the best immediate gain (own points minus the best opponent's); ties are broken at
random. Deploying: a follower that scores at once wins; otherwise, with followers to spare, a
random cloister, city or road spot (fields rarely, as farmers never come back); else pass.
An expansion's extra spots count as spots like the others; an expansion's off-turn decision
(:func:`app.engine.deciding`) picks at random among the choices the expansion prefers
(:func:`app.engine.preferred_decisions`).

Gains count only what the action itself causes: events after the next tile is drawn (the pig's
move, its action and crown scoring) depend on the hidden deck and are ignored, so the bot never
peeks at the tiles to come. The final scoring (no tile left) is public and counts.
"""

from __future__ import annotations

import random

from app.engine import (
    DEPLOY,
    PLACE_TILE,
    Action,
    GameState,
    Pass,
    PlaceFollower,
    PlaceTile,
    apply_in_place,
    deciding,
    is_decision,
    legal_actions,
    preferred_decisions,
)
from app.engine.events import PointsScored, TileDrawn


def _gain(state: GameState, actions: list[Action], seat: int) -> int:
    trial = state.copy()
    mine = 0
    theirs: dict[int, int] = {}
    for action in actions:
        for event in apply_in_place(trial, action):
            if isinstance(event, TileDrawn):
                break  # what follows depends on the hidden deck
            if isinstance(event, PointsScored):
                if event.seat == seat:
                    mine += event.points
                else:
                    theirs[event.seat] = theirs.get(event.seat, 0) + event.points
    return mine - max(theirs.values(), default=0)


def choose_action(state: GameState, rng: random.Random) -> Action:
    """One legal action for ``state.seat``; raises ValueError when the game takes none."""
    actions = legal_actions(state)
    if not actions:
        raise ValueError("no legal action: the game is over or paused")
    seat = state.seat
    if state.phase == PLACE_TILE:
        best: list[Action] = []
        best_gain: int | None = None
        for action in actions:
            assert isinstance(action, PlaceTile)
            gain = _gain(state, [action, Pass(seat)], seat)
            if best_gain is None or gain > best_gain:
                best, best_gain = [action], gain
            elif gain == best_gain:
                best.append(action)
        return rng.choice(best)
    if state.phase == DEPLOY:
        spots = [a for a in actions if isinstance(a, PlaceFollower)]
        scoring = [(a, _gain(state, [a], seat)) for a in spots]
        top = max((g for _, g in scoring), default=0)
        if top > 0:
            return rng.choice([a for a, g in scoring if g == top])
        supply = state.supply[seat]
        good = [a for a in spots if not a.spot.startswith("field")]
        cloisters = [a for a in good if a.spot == "cloister"]
        if cloisters and supply >= 1:
            return rng.choice(cloisters)
        if good and supply >= 3 and rng.random() < 0.6:
            return rng.choice(good)
        fields = [a for a in spots if a.spot.startswith("field")]
        if fields and supply >= 5 and rng.random() < 0.1:
            return rng.choice(fields)
        return Pass(seat)
    if deciding(state):
        return rng.choice(preferred_decisions(state, [a for a in actions if is_decision(a)]))
    return actions[0]
