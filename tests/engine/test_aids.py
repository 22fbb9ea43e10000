"""Player aids (app/engine/aids.py): impossible holes proved against the tiles still to come,
projected scores equal to the engine's own final scoring, every feature valued as the engine's
completion or final scoring would, and the policy's JSON.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    DEPLOY,
    InvalidOptions,
    Options,
    Pass,
    apply,
    legal_actions,
    new_game,
)
from app.engine.aids import (
    AIDS,
    AidPolicy,
    aids_for,
    features,
    impossible_holes,
    projected_scores,
    tiles_to_place,
)
from app.engine.board import fits, spot_of
from app.engine.events import Event, PointsScored
from app.engine.game import end_game
from app.engine.scoring import score_completed
from app.engine.state import PLACE_TILE, GameState, find
from app.engine.tiles import KIND_NAMES, ROTATED

SEEDS = st.integers(min_value=0, max_value=2**32 - 1)
PROPERTY = settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def _random_game(seed: int, options: Options = Options()):
    """The states of one random 2-player game, every one after an action."""
    rng = random.Random(seed)
    s = new_game(options, ["Ann", "Ben"], seed=seed)
    states = [s]
    while not s.is_over:
        s, _ = apply(s, rng.choice(legal_actions(s)))
        states.append(s)
    return states


@PROPERTY
@given(
    SEEDS,
    st.sampled_from(
        [
            Options(),
            Options(expansions=frozenset({"river"})),
            Options(expansions=frozenset({"wheel_of_fortune"})),
        ]
    ),
)
def test_an_impossible_hole_is_never_filled_and_every_other_cell_fits_a_tile_to_come(
    seed: int, options: Options
) -> None:
    """RULES.md §3.2b. A hole marked at any moment stays empty to the end of the game (the
    proof against the real deck), no tile still to come fits it in any rotation, and every
    frontier cell not marked fits one of them.
    """
    states = _random_game(seed, options)
    final_board = states[-1].board
    for s in states[::3] + states[-1:]:
        if s.is_over:  # nothing is placed any more: no hole is worth marking
            assert impossible_holes(s) == []
            continue
        holes = set(impossible_holes(s))
        coming = tiles_to_place(s)
        for pos in s.frontier:
            fitting = any(fits(s, rt, pos) for tid in coming for rt in ROTATED[tid])
            assert fitting == (pos not in holes), (pos, s.turn)
        for pos in holes:
            assert pos not in final_board, f"hole {pos} at turn {s.turn} was filled"


def test_the_tile_drawn_before_a_plague_decision_is_still_to_place() -> None:
    """The Wheel's Plague pauses the turn after the draw (RULES.md §10): the drawn tile waits
    for its placement through the decision, so it is still to place and no cell it fits is
    an impossible hole (seed 6851 marked (5, -2) at turn 69; that tile filled it at turn 70).
    """
    states = _random_game(6851, Options(expansions=frozenset({"wheel_of_fortune"})))
    paused = [s for s in states if s.tile is not None and s.phase not in (PLACE_TILE, DEPLOY)]
    assert paused, "this game has a decision between a draw and its placement"
    for s in paused:
        assert tiles_to_place(s).get(s.tile, 0) >= 1, (s.turn, s.phase, s.tile)
    marked = next(s for s in paused if s.turn == 69)
    assert (5, -2) not in impossible_holes(marked)
    assert (5, -2) in states[-1].board


@PROPERTY
@given(SEEDS)
def test_projected_scores_at_the_last_placement_are_the_final_scores(seed: int) -> None:
    """RULES.md §4.2–§4.4: with the last tile placed, ending the turn without a follower runs
    the engine's final scoring; the projection says exactly what it gives.
    """
    states = _random_game(seed)
    last = next(s for s in reversed(states) if s.phase == DEPLOY and s.tiles_remaining == 0)
    projected = projected_scores(last)
    ended, _ = apply(last, Pass(last.seat))
    if ended.is_over:  # a tile still to draw may have been discarded: the game ends here
        assert projected == ended.scores


@PROPERTY
@given(SEEDS)
def test_projected_scores_never_change_the_position_and_never_fall_below_the_scores(
    seed: int,
) -> None:
    """The projection works on a copy (followers, supply, scores untouched) and final scoring
    only ever adds points.
    """
    for s in _random_game(seed)[::5]:
        before = s.to_json()
        projected = projected_scores(s)
        assert s.to_json() == before
        assert all(p >= v for p, v in zip(projected, s.scores, strict=True))


def _scored_alone(s: GameState, root: int, kind: str, complete: bool) -> int:
    """What seat 0 scores for feature ``root`` with one follower of its own there and no other
    follower on the board: the completion scoring (RULES.md §4.1) when ``complete``, else the
    final scoring (§4.2–§4.4) — the engine's own, not the aid's.
    """
    c = s.copy()
    c.followers = {root: 0}
    c.f_followers = [()] * len(c.f_followers)
    c.f_followers[root] = (root,)
    events: list[Event] = []
    if complete:
        score_completed(c, root, events)
    else:
        end_game(c, events)
    category = "farm" if kind == "field" else kind
    return sum(
        e.points
        for e in events
        if isinstance(e, PointsScored) and e.seat == 0 and e.category == category
    )


@pytest.mark.parametrize(
    "options",
    [Options(), Options(expansions=frozenset({"river"})), Options(small_city_two_points=True)],
)
def test_every_feature_is_listed_with_what_the_engine_would_score_for_it(options: Options) -> None:
    """Every segment on the board is in exactly one feature, occupied or not; its owners are the
    follower majority and its value is the engine's completion or final scoring of it.
    """
    states = _random_game(11, options)
    unoccupied = 0
    for s in states[::9] + [t for t in states if t.phase == DEPLOY][:6]:
        gid_of = {}
        for gid, kind in enumerate(s.seg_kind):
            if KIND_NAMES[kind] != "river":
                (x, y), spot = spot_of(s, gid)
                gid_of[(x, y, spot)] = gid
        listed = [tuple(p) for f in features(s) for p in f["parts"]]
        assert sorted(listed) == sorted(gid_of)
        for f in features(s):
            root = find(s.parent, gid_of[tuple(f["parts"][0])])
            assert {find(s.parent, gid_of[tuple(p)]) for p in f["parts"]} == {root}
            assert f["tiles"] == [list(t) for t in sorted(s.f_tiles[root])]
            seats = [s.followers[g] for g in s.f_followers[root]]
            top = max((seats.count(k) for k in set(seats)), default=0)
            assert f["owners"] == sorted(k for k in set(seats) if seats.count(k) == top)
            unoccupied += not seats
            assert f["value"] == _scored_alone(s, root, f["kind"], f["complete"]), f
    assert unoccupied > 10


def test_aids_for_sends_only_what_is_granted() -> None:
    s = _random_game(5)[20]
    assert aids_for(s, []) == {}
    assert set(aids_for(s, ["projected_scores"])) == {"projected_scores"}
    assert set(aids_for(s, ["impossible_holes", "feature_highlight"])) == {
        "impossible_holes",
        "features",
    }


def test_the_policy_reads_and_writes_its_json() -> None:
    assert AidPolicy.from_json("off") == AidPolicy.off()
    learning = AidPolicy.from_json({"mode": "learning"})
    assert learning.for_viewer(False) == frozenset(AIDS)
    custom = AidPolicy.from_json(
        {"mode": "custom", "players": ["remaining_tiles"], "spectators": ["projected_scores"]}
    )
    assert custom.to_json() == {
        "mode": "custom",
        "players": ["remaining_tiles"],
        "spectators": ["projected_scores"],
    }
    assert AidPolicy.from_json(custom.to_json()) == custom
    for bad in ({"mode": "all"}, {"mode": "custom", "players": ["x-ray"]}, 7, {"extra": 1}):
        with pytest.raises(InvalidOptions):
            AidPolicy.from_json(bad)
