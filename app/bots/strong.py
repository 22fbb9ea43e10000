"""The Strong level: every placement-and-follower choice scored, the best few searched.

1. **Every choice, scored.** For each legal placement of the drawn tile and each follower
   decision on it (a spot, a crown space, or none), the turn is played on a copy of the
   position with no tile left to draw, so the engine's final scoring says what every feature
   is worth; :func:`app.bots.evaluate.worth` weights it for the future (cities likely to
   complete, cloisters to fill, followers still in supply, crowns the pig may reach) and the
   choice is ranked by the margin over the best opponent.
2. **The best few, searched** (determinized Monte Carlo): until the time budget runs out,
   imagine the next few draws — sampled from the *public* counts of unseen tiles, never the
   real order (:mod:`app.bots.public`) — and play them out for every short-listed choice with
   the same imagined tiles (common random numbers), a light policy for everyone, then score
   the imagined end the same way. The choice with the best mean margin wins; the scores of
   step 1 break ties and stand alone when no time is left.

Handles every rule set the engine plays, through the engine's generic verbs: the deck's draw
stages are kept when imagining (:func:`app.engine.draw_stage`), the engine scores every
variant, an expansion's pieces count what :func:`app.engine.held_points` says, its extra spots
are spots, and its off-turn decisions (:func:`app.engine.deciding`) are random in playouts and
answered as :mod:`app.bots.heuristic` does for the bot's own.
"""

from __future__ import annotations

import random
import time
from collections.abc import Sequence

from app.bots import heuristic
from app.bots.evaluate import margin, worth
from app.bots.public import exhausted, sample_future, with_future
from app.engine import (
    DEPLOY,
    PLACE_TILE,
    Action,
    Event,
    GameState,
    Pass,
    PlaceFollower,
    PlaceTile,
    apply_in_place,
    held_points,
    legal_actions,
    legal_placements,
)

#: Choices kept for the search, and how many draws each imagined future has per player.
SHORTLIST = 6
ROUNDS = 2


def _value(state: GameState, events: Sequence[Event], frac: float, seat: int) -> float:
    return margin(worth(state, events, frac, held_points(state)), seat)


def _choices(root: GameState, seat: int, frac: float) -> list[tuple[float, list[Action]]]:
    """Every (placement, follower decision) of this turn with its static value, best first."""
    ex = exhausted(root)
    scored: list[tuple[float, list[Action]]] = []
    firsts = legal_actions(ex)
    for first in firsts:
        if ex.phase == PLACE_TILE:
            placed = ex.copy()
            apply_in_place(placed, first)
            for second in legal_actions(placed):
                done = placed.copy()
                events = apply_in_place(done, second)
                scored.append((_value(done, events, frac, seat), [first, second]))
        else:
            done = ex.copy()
            events = apply_in_place(done, first)
            scored.append((_value(done, events, frac, seat), [first]))
    scored.sort(key=lambda c: -c[0])
    return scored


#: The spots a playout puts a follower on now and then: the base game's, farms aside (an
#: expansion's own spots are left to the real search).
_PLAYOUT_SPOTS = ("road", "city", "cloister")


def _light_move(state: GameState, rng: random.Random) -> Action:
    """The playout policy: a random placement; now and then a follower on a road, city or
    cloister; a random choice of an expansion's off-turn decision.
    """
    seat = state.seat
    if state.phase == PLACE_TILE:
        x, y, r = rng.choice(legal_placements(state))
        return PlaceTile(seat, x, y, r)
    actions = legal_actions(state)
    if state.phase == DEPLOY:
        spots = [
            a for a in actions if isinstance(a, PlaceFollower) and a.spot.startswith(_PLAYOUT_SPOTS)
        ]
        if spots and rng.random() < 0.3:
            return rng.choice(spots)
        return Pass(seat)
    return rng.choice(actions)


def _playout(
    state: GameState, plan: list[Action], rng: random.Random, frac_end: float, seat: int
) -> float:
    events: list[Event] = []
    for action in plan:
        events = apply_in_place(state, action)
    while not state.is_over:
        events = apply_in_place(state, _light_move(state, rng))
    return _value(state, events, frac_end, seat)


def ranked_choices(root: GameState, frac: float) -> list[tuple[float, list[Action]]]:
    """Step 1 for ``root.seat`` of a redacted ``root`` in ``place_tile`` or ``deploy``: every
    (placement, follower decision) with its static value (the estimated final margin over the
    best opponent, in points), best first. ``frac``: share of the deck still to come.
    """
    return _choices(root, root.seat, frac)


def search(
    root: GameState,
    short: Sequence[Sequence[Action]],
    rng: random.Random,
    *,
    playouts: int | None = None,
    deadline: float | None = None,
) -> tuple[list[float], int]:
    """Step 2: the mean margin for ``root.seat`` of each plan in ``short`` over imagined
    futures (the same futures for every plan), ``playouts`` of them or as many as fit before
    ``deadline`` (``time.perf_counter()`` seconds). Returns ``(means, futures run)``; with no
    future run the means are all 0.
    """
    seat = root.seat
    total = max(len(root.deck), 1)
    horizon = min(ROUNDS * len(root.players), root.tiles_remaining)
    frac_end = (root.tiles_remaining - horizon) / total
    sums = [0.0] * len(short)
    runs = 0
    step = 0.0  # seconds the last round took: stop when another would overrun the budget
    while (
        (runs < playouts)
        if playouts is not None
        else (deadline is not None and time.perf_counter() + step < deadline)
    ):
        began = time.perf_counter()
        future = sample_future(root, rng, horizon)
        seed = rng.getrandbits(32)
        for i, actions in enumerate(short):
            sums[i] += _playout(
                with_future(root, future), list(actions), random.Random(seed), frac_end, seat
            )
        runs += 1
        step = time.perf_counter() - began
    return [v / runs if runs else 0.0 for v in sums], runs


def plan(
    root: GameState, rng: random.Random, think: float, playouts: int | None = None
) -> list[Action]:
    """The Strong decision for ``root.seat`` of a redacted ``root`` (see
    :func:`app.bots.public.redacted`): the action to play now, followed by the follower
    decision it intends after a placement. ``think``: seconds of search (0: scores only);
    ``playouts``: instead, exactly this many imagined futures (reproducible, for tests).
    """
    deadline = time.perf_counter() + think
    seat = root.seat
    if root.phase not in (PLACE_TILE, DEPLOY):  # an expansion's decision: no search
        return [heuristic.choose_action(root, rng)]
    total = max(len(root.deck), 1)
    frac = root.tiles_remaining / total
    scored = _choices(root, seat, frac)
    if len(scored) == 1 or root.tiles_remaining == 0:
        return scored[0][1]
    short = scored[:SHORTLIST]
    means, runs = search(root, [a for _, a in short], rng, playouts=playouts, deadline=deadline)
    if runs == 0:
        return short[0][1]
    best = max(range(len(short)), key=lambda i: (means[i], short[i][0]))
    return short[best][1]
