"""The Easy level: legal, sensible-looking moves a beginner can beat.

One time in three it plays the placement :mod:`app.bots.heuristic` would (the move that scores
most now), otherwise any legal placement. It puts followers on roads, cities and cloisters now
and then (never a farmer), takes points that are right there only sometimes, and answers an
expansion's off-turn decision as :mod:`app.bots.heuristic` does. It only ever looks at what
``view(seat)`` shows.
"""

from __future__ import annotations

import random

from app.bots import heuristic
from app.engine import DEPLOY, PLACE_TILE, Action, GameState, Pass, PlaceFollower, legal_actions


def choose_action(state: GameState, rng: random.Random) -> Action:
    """One legal action for ``state.seat`` of a redacted ``state``; raises ValueError when the
    game takes none.
    """
    actions = legal_actions(state)
    if not actions:
        raise ValueError("no legal action: the game is over or paused")
    if state.phase == PLACE_TILE:
        if rng.random() < 0.3:
            return heuristic.choose_action(state, rng)
        return rng.choice(actions)
    if state.phase == DEPLOY:
        spots = [
            a for a in actions if isinstance(a, PlaceFollower) and not a.spot.startswith("field")
        ]
        if spots and state.supply[state.seat] >= 2 and rng.random() < 0.35:
            return rng.choice(spots)
        return Pass(state.seat)
    return heuristic.choose_action(state, rng)
