"""The heuristic bot: always legal, finishes games, and takes the best immediate score."""

from __future__ import annotations

import random

from app.bots import choose_action
from app.engine import (
    PLACE_TILE,
    GameState,
    Options,
    Pass,
    apply_in_place,
    legal_actions,
    new_game,
)
from app.engine.events import PointsScored


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
        state = new_game(Options(river=seed == 1), ["A", "B", "C"], seed=seed)
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
