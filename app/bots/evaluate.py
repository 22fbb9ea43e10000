"""How good a position is for each seat: the engine's own final scoring, weighted for the future.

A position is scored by finishing it with no tile left to draw (see
:func:`app.bots.public.exhausted`): the engine then runs the final scoring (RULES.md §4.2–4.4),
and its ``PointsScored(final=True)`` events say what each incomplete road, city, cloister and
farm is worth *now*. :func:`worth` turns that into an estimate of each seat's final score:

* an incomplete city is likely to be completed and then score double (§4.1): ×``CITY_HOPE``
  of its final-scoring value while many tiles remain;
* an incomplete cloister grows toward 9 (§4.1): part of the missing points while tiles remain;
* roads and farms count as the final scoring says;
* a follower in supply is worth ``FOLLOWER`` points scaled by the share of tiles still to come
  (it can still be deployed; at the end it is worth nothing);
* an expansion's pieces are worth what it says they hold now
  (:func:`app.engine.held_points`, e.g. a follower on a crown space of the Wheel of Fortune).

Pure functions of public data; no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from app.engine import Event, GameState
from app.engine.events import PointsScored

CITY_HOPE = 0.7
CLOISTER_HOPE = 0.6
FOLLOWER = 2.2
CROWN_HOPE = 0.75


def worth(
    state: GameState, events: Iterable[Event], frac: float, held: Sequence[float] = ()
) -> list[float]:
    """Estimated final score per seat of a game just ended by the final scoring.

    ``state``: the game after its final scoring; ``events``: the events of the action that ran
    it (its ``PointsScored(final=True)`` are re-weighted); ``frac``: share of the deck still to
    come in the real game (1 at the start, 0 at the end); ``held``: per seat, the points its
    pieces hold in the game's expansions (:func:`app.engine.held_points`).
    """
    out = [float(v) for v in state.scores]
    for e in events:
        if isinstance(e, PointsScored) and e.final:
            if e.category == "city":
                out[e.seat] += CITY_HOPE * frac * e.points
            elif e.category == "cloister":
                out[e.seat] += CLOISTER_HOPE * frac * (9 - e.points)
    for seat, supply in enumerate(state.supply):
        out[seat] += FOLLOWER * frac * supply
    for seat, points in enumerate(held):
        out[seat] += CROWN_HOPE * min(1.0, 3 * frac) * points
    return out


def margin(values: Sequence[float], seat: int) -> float:
    """``seat``'s value minus the best other seat's (what a player wants to maximise)."""
    return values[seat] - max(v for i, v in enumerate(values) if i != seat)
