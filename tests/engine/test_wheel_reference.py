"""Wheel of Fortune records replayed by an independent model of RULES.md §6
(:mod:`tests.engine.reference_wof`) agree with the engine: random games with random crown,
land and Plague choices; the model checks every move and both must reach the same scores, at
random points during the game (records exported mid-game) and at the end.
"""

from __future__ import annotations

import json
import random

from app.engine import (
    GameState,
    Options,
    Pass,
    PlaceFollower,
    apply_in_place,
    export_record,
    legal_actions,
    new_game,
)
from app.engine.expansions.wheel_of_fortune import PLAGUE_SEGMENT, wheel_state
from app.engine.game import DEPLOY, PLACE_TILE
from app.engine.tiles import TILE_TYPES

from .reference_wof import board_cells, score_wof_record
from .test_wheel_of_fortune import DISCARD_DRAW, _discard_game

WOF = Options(expansions=frozenset({"wheel_of_fortune"}))


def _random_game(seed: int, players: int, checks: int = 4) -> tuple[GameState, int]:
    """Play one random game; at ``checks`` random actions compare a mid-game export."""
    rng = random.Random(seed)
    state = new_game(WOF, [f"P{i}" for i in range(players)], seed=seed)
    at = set(rng.sample(range(1, 150), checks))
    n = 0
    compared = 0
    while not state.is_over:
        actions = legal_actions(state)
        deploy = [a for a in actions if isinstance(a, PlaceFollower)]
        crowns = [a for a in deploy if a.spot.startswith("crown:")]
        if crowns and rng.random() < 0.3:
            action = rng.choice(crowns)
        elif deploy and rng.random() < 0.6:
            action = rng.choice(deploy)
        elif state.phase == DEPLOY:
            action = Pass(state.seat)
        else:
            action = rng.choice(actions)
        apply_in_place(state, action)
        n += 1
        if (
            n in at
            and state.phase in (PLACE_TILE, DEPLOY)
            and not (
                TILE_TYPES[state.deck[state.deck_pos - 1]].icon
                and wheel_state(state).pig == PLAGUE_SEGMENT
            )
        ):
            # (A record exported during a turn whose draw brought a Plague leaves that turn's
            # removals out until the turn is over: nothing to compare there.)
            record = json.loads(json.dumps(export_record(state)))
            assert score_wof_record(record)[-1] == state.scores, (seed, n)
            compared += 1
    return state, compared


def test_model_board_is_the_rules_board() -> None:
    """The model's board: outside edges N C F R F, E F F C F, S R F F C, W C F R F."""
    cells = board_cells()
    assert "".join(cells[(i, 0)][0][0] for i in range(4)) == "CFRF"
    assert "".join(cells[(3, i)][0][1] for i in range(4)) == "FFCF"
    assert "".join(cells[(3 - i, 3)][0][2] for i in range(4)) == "RFFC"
    assert "".join(cells[(0, 3 - i)][0][3] for i in range(4)) == "CFRF"


def test_random_wof_games_agree_with_the_independent_model() -> None:
    """2–5 players, 16 games: same scores mid-game and at the end, every move legal for both."""
    compared = 0
    plagues = crowns = 0
    for seed in range(16):
        state, n = _random_game(seed, 2 + seed % 4)
        compared += n
        record = json.loads(json.dumps(export_record(state)))
        assert score_wof_record(record)[-1] == state.scores, seed
        plagues += sum(1 for m in record["moves"] if m.get("plague"))
        crowns += sum(1 for m in record["moves"] if str(m.get("follower")).startswith("crown:"))
    assert compared > 30 and plagues > 3 and crowns > 40


def test_discarded_plague_tile_agrees_with_the_model() -> None:
    """The record with a ``discarded`` Plague entry replays the same in the model."""
    state, _ = _discard_game()
    record = json.loads(json.dumps(export_record(state)))
    assert record["draw_order"] == DISCARD_DRAW
    assert score_wof_record(record)[-1] == state.scores == [2, 2]
