"""The expansion seam: the registry's ids and order, what a view says about them, and that the
base game treats an expansion's action it does not play as it did before the seam.
"""

from __future__ import annotations

import json

import pytest

from app.engine import (
    EXPANSIONS,
    PRESETS,
    Options,
    RemoveFollower,
    WrongPhase,
    action_from_json,
    apply,
    event_from_json,
    event_to_json,
    new_game,
    view,
)
from app.engine.expansions import active
from app.engine.expansions.wheel_of_fortune import PigMoved


def test_the_registry_lists_every_expansion_once_in_a_fixed_order() -> None:
    assert [x.id for x in EXPANSIONS] == ["river", "wheel_of_fortune"]


@pytest.mark.parametrize(
    ("preset", "ids"),
    [
        ("standard", []),
        ("first_edition", []),
        ("river", ["river"]),
        ("wheel_of_fortune", ["wheel_of_fortune"]),
    ],
)
def test_a_full_view_lists_the_active_expansions(preset: str, ids: list[str]) -> None:
    state = new_game(PRESETS[preset], ["Ann", "Ben"], seed=3)
    assert [x.id for x in active(state.options)] == ids
    for seat in (None, 0, 1):
        assert view(state, seat)["expansions"] == ids
    assert sorted(state.expansion_state) == ids  # each keeps a state of its own
    assert ("wheel" in view(state, 0)) == ("wheel_of_fortune" in ids)


def test_an_expansion_action_round_trips_and_a_game_without_it_refuses_it() -> None:
    raw = {"type": "plague", "seat": 0, "at": [1, 2], "spot": "road:N"}
    action = action_from_json(raw)
    assert action == RemoveFollower(0, 1, 2, "road:N") and action.to_json() == raw
    state = new_game(Options(), ["Ann", "Ben"], seed=3)
    with pytest.raises(WrongPhase, match="no Plague decision is pending"):
        apply(state, action)


def test_an_expansion_event_round_trips() -> None:
    event = PigMoved(1, 2, "fortune", "famine")
    assert event_from_json(json.loads(json.dumps(event_to_json(event)))) == event
