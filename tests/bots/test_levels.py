"""The three levels: legal whole games under every rule set, and never a peek at the deck.

The never-peek test builds twin games that agree on everything a seat can see (rules, players,
tiles drawn so far, actions) but hold the undrawn tiles in another order, and checks that
every level, seeded alike, decides the same in both.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from app.bots import LEVELS, decide, plan, public_position
from app.bots.public import public_state, redacted, sample_future
from app.bots.strong import plan as strong_plan
from app.engine import (
    DEPLOY,
    PLACE_TILE,
    PLAGUE,
    GameState,
    Options,
    PlaceFollower,
    apply_in_place,
    legal_actions,
    load_state,
    new_game,
)

RULE_SETS = {
    "standard": Options(),
    "river": Options(expansions=frozenset({"river"})),
    "first_edition": Options(farm_scoring="original", small_city_two_points=True),
    "wheel_of_fortune": Options(expansions=frozenset({"wheel_of_fortune"})),
}


def _midgame(options: Options, seed: int, actions: int, players: int = 2) -> GameState:
    state = new_game(options, [f"P{i}" for i in range(players)], seed=seed)
    rng = random.Random(seed)
    for _ in range(actions):
        if state.is_over:
            break
        apply_in_place(state, rng.choice(legal_actions(state)))
    return state


def _twin(state: GameState, rng: random.Random) -> GameState:
    """The same game as far as any seat knows, with the undrawn tiles reordered."""
    data = state.to_json()
    drawn = len(data["deck"]) - state.tiles_remaining
    known, rest = data["deck"][:drawn], data["deck"][drawn:]
    # keep the River's stages (river tiles, lake, land) so the twin is a legal deck
    order = sample_future(redacted(state), rng, None)
    assert sorted(order) == sorted(rest)
    data["deck"] = known + order
    data["seed"] = 12345
    twin = load_state(data)
    assert twin.tiles_remaining == state.tiles_remaining
    return twin


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
def test_decisions_never_depend_on_the_hidden_deck_order(rules: str) -> None:
    options = RULE_SETS[rules]
    checked = 0
    for seed, depth in ((1, 9), (2, 30), (3, 61)):
        state = _midgame(options, seed, depth)
        if state.is_over:
            continue
        twin = _twin(state, random.Random(seed))
        assert twin.to_json()["deck"] != state.to_json()["deck"] or state.tiles_remaining < 2
        assert public_position(twin) == public_position(state)
        for level in LEVELS:
            mine = plan(state, random.Random(7), level, think=0.0)
            theirs = plan(twin, random.Random(7), level, think=0.0)
            assert mine == theirs, (rules, seed, level)
        searched = strong_plan(redacted(state), random.Random(7), 0.0, playouts=6)
        assert searched == strong_plan(redacted(twin), random.Random(7), 0.0, playouts=6)
        checked += 1
    assert checked >= 2


def test_redacted_state_is_the_public_position_replayed() -> None:
    for options in RULE_SETS.values():
        state = _midgame(options, 4, 40)
        fast, slow = redacted(state), public_state(public_position(state))
        assert fast.to_json() == slow.to_json()
        assert fast.seed is None and fast.scores == state.scores
        assert legal_actions(fast) == legal_actions(state)


@pytest.mark.parametrize("rules", sorted(RULE_SETS))
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_whole_game_legally(rules: str, level: str) -> None:
    state = new_game(RULE_SETS[rules], ["A", "B", "C"], seed=11)
    rng = random.Random(3)
    pending: list[Any] = []
    seen: set[str] = set()
    while not state.is_over:
        if pending and pending[0].seat == state.seat and state.phase == DEPLOY:
            action = pending.pop(0)
        else:
            actions = decide(redacted(state), rng, level, 0.0)
            action, pending = actions[0], actions[1:]
        assert action in legal_actions(state)
        seen.add(state.phase)
        if isinstance(action, PlaceFollower) and action.spot.startswith("crown:"):
            seen.add("crown")
        apply_in_place(state, action)
    assert {PLACE_TILE, DEPLOY} <= seen
    assert max(state.scores) > 0
    if rules == "wheel_of_fortune" and level == "strong":
        assert "crown" in seen  # Strong values crown spaces


def test_wheel_of_fortune_plague_decisions_are_legal() -> None:
    decisions = 0
    for seed in range(1, 40):
        state = new_game(RULE_SETS["wheel_of_fortune"], ["A", "B"], seed=seed)
        rng = random.Random(seed)
        while not state.is_over and decisions < 3:
            if state.phase == PLAGUE:
                for level in LEVELS:
                    assert plan(state, random.Random(1), level, 0.0)[0] in legal_actions(state)
                decisions += 1
            apply_in_place(state, plan(state, rng, "normal")[0])
        if decisions >= 3:
            break
    assert decisions >= 1


def test_strong_takes_a_completing_city_over_a_random_move() -> None:
    """Strong never scores worse by its own measure than the move Normal picks."""
    from app.bots.evaluate import margin, worth
    from app.bots.public import exhausted

    state = _midgame(Options(), 5, 20)
    while state.phase != PLACE_TILE:
        apply_in_place(state, legal_actions(state)[-1])
    root = redacted(state)
    best = strong_plan(root, random.Random(1), 0.0)
    frac = root.tiles_remaining / len(root.to_json()["deck"])

    def value(actions: list[Any]) -> float:
        trial = exhausted(root)
        events: list[Any] = []
        for a in actions:
            events = apply_in_place(trial, a)
        return margin(worth(trial, events, frac, [0.0] * 2), root.seat)

    normal = decide(root, random.Random(1), "normal", 0.0)
    follow = legal_actions(_after(root, normal[0]))[-1]  # Normal then passes
    assert value(best) >= value([normal[0], follow]) - 1e-9


def _after(state: GameState, action: Any) -> GameState:
    c = state.copy()
    apply_in_place(c, action)
    return c
