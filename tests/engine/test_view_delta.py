"""``view_delta``: a client that applies the deltas of every action holds exactly the view."""

from __future__ import annotations

import json
import random

import pytest

from app.engine import Options, apply_in_place, event_to_json, legal_actions, new_game, view
from app.engine.view import view_delta
from tests.support.frames import apply_delta


def _plain(value: object) -> object:
    return json.loads(json.dumps(value))


@pytest.mark.parametrize("tileset", ["base", "river", "wheel_of_fortune"])
@pytest.mark.parametrize("players", [2, 3, 5])
def test_deltas_rebuild_the_view_after_every_action(tileset: str, players: int) -> None:
    for seed in range(3):
        options = Options(expansions=frozenset({tileset} - {"base"}))
        state = new_game(options, [f"p{i}" for i in range(players)], seed=seed * 7 + players)
        held = _plain(view(state, state.seat))
        rng = random.Random(seed)
        while not state.is_over:
            action = rng.choice(legal_actions(state))
            events = apply_in_place(state, action)
            delta = _plain(view_delta(state, events))
            assert "rules" not in delta and "board" not in delta and "deck" not in delta
            apply_delta(held, [event_to_json(e) for e in events], delta)
            assert held == _plain(view(state, state.seat)), (seed, state.turn, state.phase)
