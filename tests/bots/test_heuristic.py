"""The heuristic bot: always legal, finishes games, and takes the best immediate score."""

from __future__ import annotations

import random

from app.bots import choose_action
from app.bots.heuristic import _gain
from app.engine import (
    PLACE_TILE,
    PLAGUE,
    GameState,
    Options,
    Pass,
    PlaceFollower,
    RemoveFollower,
    apply_in_place,
    legal_actions,
    new_game,
)
from app.engine.events import PointsScored
from tests.support.wof import plan_action


def _net(state: GameState, actions: list[object]) -> int:
    trial = state.copy()
    scored: dict[int, int] = {}
    for action in actions:
        for event in apply_in_place(trial, action):  # type: ignore[arg-type]
            if isinstance(event, PointsScored):
                scored[event.seat] = scored.get(event.seat, 0) + event.points
    mine = scored.pop(state.seat, 0)
    return mine - max(scored.values(), default=0)


def test_bots_play_whole_games_legally_and_greedily() -> None:
    for seed in range(2):
        state = new_game(
            Options(expansions=frozenset({"river"} if seed == 1 else ())),
            ["A", "B", "C"],
            seed=seed,
        )
        rng = random.Random(seed)
        greedy_checks = 0
        while not state.is_over:
            action = choose_action(state, rng)
            legal = legal_actions(state)
            assert action in legal
            if state.phase == PLACE_TILE and seed == 0:
                best = max(_net(state, [a, Pass(state.seat)]) for a in legal)
                assert _net(state, [action, Pass(state.seat)]) == best
                greedy_checks += 1
            apply_in_place(state, action)
        assert sum(state.scores) > 0
        assert greedy_checks or seed == 1


#: The bot's Plague preference: roads first, cloisters last.
RANK = {"road": 0, "city": 1, "field": 2, "cloister": 3}


def test_bots_play_wheel_of_fortune_and_choose_cheap_plague_victims() -> None:
    plague_decisions = 0
    for seed in range(2):
        state = new_game(
            Options(expansions=frozenset({"wheel_of_fortune"})), ["A", "B", "C"], seed=seed
        )
        rng = random.Random(seed)
        while not state.is_over:
            action = choose_action(state, rng)
            legal = legal_actions(state)
            assert action in legal
            if state.phase == PLAGUE:
                assert isinstance(action, RemoveFollower)
                ranks = [
                    RANK[a.spot.partition(":")[0]] for a in legal if isinstance(a, RemoveFollower)
                ]
                assert RANK[action.spot.partition(":")[0]] == min(ranks)
                plague_decisions += 1
            apply_in_place(state, action)
        assert sum(state.scores) > 0
    assert plague_decisions


def test_bots_never_count_what_the_hidden_deck_brings() -> None:
    """Seed 1258: Ann may deploy on Tax's crown right before the next tile moves the pig to
    Tax (6 points). Only the deck knows that, so it must not make the crown look good.
    """
    state = new_game(Options(expansions=frozenset({"wheel_of_fortune"})), ["A", "B"], seed=1258)
    apply_in_place(state, plan_action(state))  # Ann's first tile; her deployment is next
    crown = PlaceFollower(state.seat, "crown:tax")
    assert crown in legal_actions(state)
    assert _net(state, [crown]) == 6  # what happens if the deck is peeked at
    assert _gain(state, [crown], state.seat) == 0
