"""The analysis of a finished match by the Strong computer player: every move weighed.

For each turn (a tile placement and the follower decision that went with it), from the
mover's *public* view of the position (:func:`app.bots.public.redacted`: never the real
order of the tiles still to come):

1. Strong's step 1 (:func:`app.bots.strong.ranked_choices`) values every (placement,
   follower decision) by the engine's final scoring of the position it leaves, weighted for
   the future (:mod:`app.bots.evaluate`): an estimate of the mover's final margin over the best
   opponent, in points;
2. Strong's step 2 (:func:`app.bots.strong.search`) plays ``playouts`` imagined futures for
   the best few and the move played, with the same imagined tiles for each (its mean margins
   then replace the static values of those);
3. ``before`` is the best choice's value, ``after`` the played move's, ``loss`` the
   difference; a loss of :data:`BLUNDER` points or more marks a blunder; ``best`` is the
   move it would have chosen; ``margins`` the estimated final margin of every seat after the
   move (the evaluation graph: one line per player).

Pure and deterministic for a given record, ``playouts`` and ``seed``: no I/O, no clock but
the elapsed time it reports. Runs in the bot worker processes (:mod:`app.bots.pool`) on the
server and in-process for ``carcassonne analyse``.
"""

from __future__ import annotations

import random
import time
from typing import Any

from app.bots import strong
from app.bots.evaluate import margin, worth
from app.bots.public import exhausted, redacted
from app.engine import (
    DEPLOY,
    PLACE_TILE,
    Action,
    GameState,
    Pass,
    PlaceFollower,
    PlaceTile,
    apply_in_place,
    held_points,
    new_game,
    replay,
)

FORMAT = "carcassonne-analysis/1"
#: Estimated points of final margin a move must lose to be marked a blunder.
BLUNDER = 6.0
#: Imagined futures per move by default (Strong's search, reproducible).
PLAYOUTS = 16
#: How many choices of the static ranking are searched besides the move played.
SEARCHED = 3
#: The biggest swings listed.
SWINGS = 5


def _move_json(plan: list[Action]) -> dict[str, Any]:
    """``{"at": [x, y], "rotation", "follower": spot | None}`` of a turn's plan."""
    place = plan[0]
    assert isinstance(place, PlaceTile)
    follower = plan[1].spot if len(plan) > 1 and isinstance(plan[1], PlaceFollower) else None
    return {"at": [place.x, place.y], "rotation": place.rotation, "follower": follower}


def _worths(root: GameState, plan: list[Action], frac: float) -> list[float]:
    """Every seat's estimated final score after ``plan`` (the turn ended, no tile drawn)."""
    done = exhausted(root)
    events = []
    for action in plan:
        events = apply_in_place(done, action)
    if done.phase == DEPLOY:
        events = apply_in_place(done, Pass(done.seat))
    return worth(done, events, frac, held_points(done))


def _turn(
    state: GameState, played: list[Action], rng: random.Random, playouts: int
) -> dict[str, Any]:
    """The analysis of one turn of ``state`` (phase ``place_tile``) whose ``played`` plan is
    the placement and the follower decision the player chose.
    """
    root = redacted(state)
    seat = root.seat
    frac = root.tiles_remaining / max(len(root.deck), 1)
    ranked = strong.ranked_choices(root, frac)
    values = {tuple(a): v for v, a in ranked}
    key = tuple(played)
    if key not in values:  # a plan step 1 does not list (a decision of an expansion)
        values[key] = margin(_worths(root, played, frac), seat)
    if playouts and root.tiles_remaining and len(ranked) > 1:
        short = [tuple(a) for _, a in ranked[:SEARCHED]]
        if key not in short:
            short.append(key)
        means, runs = strong.search(root, [list(p) for p in short], rng, playouts=playouts)
        if runs:
            values.update(zip(short, means, strict=True))
    best_plan = max(values, key=lambda p: values[p])
    before, after = values[best_plan], values[key]
    if after >= before:
        best_plan, before = key, after
    worths = _worths(root, played, frac)
    loss = round(before - after, 1)
    return {
        "seat": seat,
        "tile": root.tile,
        "played": _move_json(played),
        "best": _move_json(list(best_plan)),
        "before": round(before, 1),
        "after": round(after, 1),
        "loss": loss,
        "blunder": loss >= BLUNDER,
        "margins": [round(margin(worths, s), 1) for s in range(len(worths))],
    }


def _replayed(record: Any) -> GameState:
    """The final state of a finished record; raises RecordError / ValueError (not finished)."""
    final, _ = replay(record)
    if not final.is_over:
        raise ValueError("only a finished match is analysed")
    return final


def count_moves(record: Any) -> int:
    """How many turns (tile placements) a finished record has. Raises as :func:`analyse`."""
    final = _replayed(record)
    return sum(1 for a in final.actions if isinstance(a, PlaceTile))


def analyse_moves(
    record: Any, first: int, last: int, *, playouts: int = PLAYOUTS, seed: int = 0
) -> list[dict[str, Any]]:
    """The analysed turns ``first``..``last`` (1-based placement numbers, inclusive) of a
    finished record, as in :func:`analyse`'s ``moves``. Each turn has its own random stream
    (from ``seed`` and its number), so cutting a match into ranges gives the same analysis.
    Raises as :func:`analyse`.
    """
    final = _replayed(record)
    state = new_game(final.options, list(final.players), draw_order=list(final.deck))
    actions = final.actions
    moves: list[dict[str, Any]] = []
    number = 0
    i = 0
    while i < len(actions) and number < last:
        action = actions[i]
        if state.phase == PLACE_TILE and isinstance(action, PlaceTile):
            number += 1
            played: list[Action] = [action]
            nxt = actions[i + 1] if i + 1 < len(actions) else None
            if isinstance(nxt, PlaceFollower | Pass) and nxt.seat == action.seat:
                played.append(nxt)
            if number >= first:
                rng = random.Random(seed * 1_000_003 + number)
                moves.append({"n": number, **_turn(state, played, rng, playouts)})
            for a in played:
                apply_in_place(state, a)
            i += len(played)
            continue
        apply_in_place(state, action)
        i += 1
    return moves


def summary(
    record: Any, moves: list[dict[str, Any]], playouts: int, seconds: float
) -> dict[str, Any]:
    """The whole analysis from its analysed ``moves`` (see :func:`analyse`)."""
    final = _replayed(record)
    swings = sorted(moves, key=lambda m: (-m["loss"], m["n"]))[:SWINGS]
    return {
        "format": FORMAT,
        "players": list(final.players),
        "playouts": playouts,
        "blunder": BLUNDER,
        "moves": moves,
        "swings": [{"n": m["n"], "seat": m["seat"], "loss": m["loss"]} for m in swings],
        "scores": list(final.scores),
        "seconds": round(seconds, 2),
    }


def analyse(record: Any, *, playouts: int = PLAYOUTS, seed: int = 0) -> dict[str, Any]:
    """The analysis of a finished ``carcassonne-record/1``, every turn weighed.


    ``{"format", "players", "playouts", "blunder", "moves": [{"n" (1-based placement number,
    as the replay viewer's ``move``), "seat", "tile", "played", "best": {"at", "rotation",
    "follower"}, "before", "after", "loss" (points of estimated final margin), "blunder",
    "margins": [per seat]}], "swings": [the :data:`SWINGS` moves that lost most: {"n",
    "seat", "loss"}], "scores", "seconds"}``.

    Raises :class:`app.engine.RecordError` for a record that does not replay and ValueError
    for one that is not finished (no analysis of a game under way).
    """
    started = time.perf_counter()
    moves = analyse_moves(record, 1, count_moves(record), playouts=playouts, seed=seed)
    return summary(record, moves, playouts, time.perf_counter() - started)


def moves_in_worker(
    record: dict[str, Any], first: int, last: int, playouts: int, seed: int
) -> list[dict[str, Any]]:
    """Worker-process entry (:meth:`app.bots.pool.BotPool.offload`): :func:`analyse_moves`
    for a few turns at a time, so a worker is never held long away from the bots' turns.
    """
    return analyse_moves(record, first, last, playouts=playouts, seed=seed)
