"""The stored state is a position: it loads without replaying, exactly, and agrees with the log.

``GameState.to_json()`` carries the position (board, features, followers, scores, supplies,
deck position, phase, pending decisions) beside the setup and the history; ``from_json`` loads
it as it is. The action log stays the source of truth: a position that disagrees with a replay
of the log must be caught (:func:`replayed` here, the same check a test or an audit runs).
"""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from app.engine import (
    GameState,
    Options,
    apply_in_place,
    legal_actions,
    load_state,
    new_game,
    view,
)

SEEDS = st.integers(min_value=0, max_value=2**63 - 1)
TILESETS = st.sampled_from(
    [
        Options(),
        Options(expansions=frozenset({"river"})),
        Options(farm_scoring="original", small_city_two_points=True),
        Options(expansions=frozenset({"wheel_of_fortune"})),
    ]
)
PLAYERS = st.integers(min_value=2, max_value=5)
PROPERTY = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def played(seed: int, options: Options, players: int, moves: int) -> GameState:
    """A game of random legal actions, stopped after ``moves`` actions or at its end."""
    rng = random.Random(seed)
    state = new_game(options, [f"P{i}" for i in range(players)], seed=seed)
    for _ in range(moves):
        actions = legal_actions(state)
        if not actions:
            break
        apply_in_place(state, rng.choice(actions))
    return state


def replayed(data: dict[str, Any]) -> GameState:
    """The state a stored document's setup and action log give, ignoring its position."""
    legacy = {k: v for k, v in data.items() if k != "position"}
    return load_state(legacy)


def through_text(state: GameState) -> dict[str, Any]:
    """``state.to_json()`` after a trip through JSON text (as stored)."""
    data: dict[str, Any] = json.loads(json.dumps(state.to_json()))
    return data


@PROPERTY
@given(seed=SEEDS, options=TILESETS, players=PLAYERS, moves=st.integers(0, 200))
def test_load_of_dump_is_the_same_state_and_plays_on_the_same(
    seed: int, options: Options, players: int, moves: int
) -> None:
    """load(dump(s)) == s for random games of every tileset, and both play on identically."""
    state = played(seed, options, players, moves)
    data = through_text(state)
    loaded = load_state(data)
    assert loaded == state
    assert loaded.to_json() == state.to_json()
    assert replayed(data) == loaded  # the position agrees with a replay of the log
    for seat in (None, *range(players)):
        assert view(loaded, seat) == view(state, seat)
    rng = random.Random(seed ^ 1)
    for _ in range(40):
        actions = legal_actions(state)
        assert legal_actions(loaded) == actions
        if not actions:
            break
        action = rng.choice(actions)
        assert apply_in_place(loaded, action) == apply_in_place(state, action)
    assert loaded == state


def test_a_position_that_disagrees_with_the_log_is_caught() -> None:
    """A stored position changed behind the log's back no longer equals the replay."""
    data = through_text(played(7, Options(), 3, 61))
    assert load_state(data) == replayed(data)
    for path in [("scores", 1), ("supply", 0), ("deck_pos",), ("turn",)]:
        bad = json.loads(json.dumps(data))
        target = bad["position"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] += 1
        assert load_state(bad) != replayed(bad), path
    # An expansion's state is part of the position too.
    for options, path in [
        (
            Options(expansions=frozenset({"wheel_of_fortune"})),
            ("expansions", "wheel_of_fortune", "pig"),
        ),
        (Options(expansions=frozenset({"river"})), ("expansions", "river", "turn")),
    ]:
        other = through_text(played(7, options, 3, 5))
        assert load_state(other) == replayed(other)
        target = other["position"]
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] += 1
        assert load_state(other) != replayed(other), path
    bad = json.loads(json.dumps(data))
    bad["position"]["seat"] = (bad["position"]["seat"] + 1) % 3
    assert load_state(bad) != replayed(bad)
    bad = json.loads(json.dumps(data))
    bad["position"]["features"][0][2] += 2  # a feature's open edges
    assert load_state(bad) != replayed(bad)
    torn = json.loads(json.dumps(data))
    torn["position"]["board"].pop()  # the segments no longer match the union-find
    with pytest.raises(ValueError, match="segment roots"):
        load_state(torn)


def test_the_position_loads_without_replaying(monkeypatch: Any) -> None:
    """Loading a stored position applies no action (the rules engine is not run)."""
    data = through_text(played(3, Options(expansions=frozenset({"wheel_of_fortune"})), 4, 90))
    import app.engine.game as game

    def refuse(*_args: object) -> None:
        raise AssertionError("replayed an action")

    monkeypatch.setattr(game, "_apply", refuse)
    assert load_state(data).turn == data["position"]["turn"]


def test_a_version_1_document_still_loads_by_replaying() -> None:
    """Snapshots written before positions existed (setup and actions only) still load."""
    state = played(11, Options(expansions=frozenset({"river"})), 2, 50)
    legacy = {k: v for k, v in through_text(state).items() if k != "position"}
    legacy["format"] = "carcassonne-state/1"
    assert load_state(legacy) == state


def test_view_and_the_position_never_meet() -> None:
    """The position is server-side: view() carries no deck order, seed or position."""
    state = played(5, Options(), 2, 30)
    text = json.dumps(view(state, 0))
    for key in ("deck", "seed", "deck_pos", "position", "roots", "frontier"):
        assert f'"{key}"' not in text


@pytest.mark.parametrize("name", ["wheel_of_fortune_plague", "river_mid_river"])
def test_a_version_2_position_still_loads(name: str) -> None:
    """Snapshots written as ``carcassonne-state/2`` (the River's and the Wheel of Fortune's
    state at the top of the position, by the engine before expansions had their own slot) load
    from their position, show the same view as then, and agree with a replay of their log.
    """
    folder = Path(__file__).parent / "snapshots"
    data = json.loads((folder / f"{name}.state2.json").read_text())
    assert data["format"] == "carcassonne-state/2"
    state = load_state(data)
    assert state == replayed(data)
    seen = json.loads(json.dumps(view(state, state.seat)))
    seen.pop("expansions")
    assert seen == json.loads((folder / f"{name}.view.json").read_text())
    assert state.to_json()["format"] == "carcassonne-state/3"
    assert load_state(through_text(state)) == state
