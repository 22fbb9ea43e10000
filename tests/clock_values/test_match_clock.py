"""The typed clock (app/services/clock_values/match_clock.py): every stored clock, old ones
included, reads into a MatchClock and writes back as exactly the same JSON; the rules keep an old
clock's shape (no key appears that a rule did not set). Times are epoch milliseconds.
"""

from __future__ import annotations

from typing import Any

import pytest

from app.services.clock import rules as c
from app.services.clock import votes as v
from app.services.clock_values.match_clock import MatchClock

T0 = 1_700_000_000_000
CONTROLS = [
    None,
    {"kind": "per_turn", "seconds": 60},
    {"kind": "fischer", "bank": 300, "increment": 10},
    {"kind": "correspondence", "days": 3},
]
POLICIES = [None, {"kind": "skip"}, {"kind": "handover", "after": 2}]


def _clocks(control: Any, policy: Any) -> list[dict[str, Any]]:
    """A clock through the life of a match: start, moves, leaving, a vote, a switch."""
    tc = c.TimeControl.from_json(control)
    start = c.new_clock(tc, 3, [0, 1], 0, 0, now=T0, policy=c.TimeoutPolicy.from_json(policy))
    moved = c.advance(start, now=T0 + 5_000, seat=1, active=1, deciding=False, over=False)
    deciding = c.advance(moved, now=T0 + 6_000, seat=0, active=1, deciding=True, over=False)
    timed_out = c.note_actor(deciding, 1, by_computer=True, timed_out=True)
    away = v.seat_left(timed_out, 1, T0 + 7_000, 60_000)
    voting = v.cast(v.open_vote(away, 1, T0 + 8_000), 0, "wait")
    credited = c.credit(voting, 12_345)
    proposed = v.propose_switch(credited, 0, T0 + 9_000)
    switched = v.switch(proposed, T0 + 10_000) if tc.timed else proposed
    over = c.advance(switched, now=T0 + 11_000, seat=0, active=0, deciding=False, over=True)
    return [start, moved, deciding, timed_out, away, voting, credited, proposed, switched, over]


@pytest.mark.parametrize("control", CONTROLS)
@pytest.mark.parametrize("policy", POLICIES)
def test_every_clock_of_a_match_round_trips_exactly(control: Any, policy: Any) -> None:
    for stored in _clocks(control, policy):
        assert MatchClock.from_json(stored).to_json() == stored


def test_an_old_clock_round_trips_and_the_rules_add_only_what_they_set() -> None:
    old = c.new_clock(c.TimeControl.from_json(CONTROLS[1]), 2, [0, 1], 0, 0, now=T0)
    for key in ("policy", "turn_active", "turn_since", "deciding"):
        del old[key]
    old["live_remaining"] = [1, 2]  # a key the typed clock does not know rides along
    assert MatchClock.from_json(old).to_json() == old
    assert set(c.note_actor(old, 0, by_computer=True, timed_out=True)) == set(old)
    assert set(c.credit(old, 1_000)) == set(old)
    moved = c.advance(old, now=T0 + 1_000, seat=1, active=1, deciding=False, over=False)
    # no turn holder known: the turn did not pass, so no ``turn_since`` (as before the types)
    assert set(moved) == set(old) | {"turn_active", "deciding"}
    assert c.public(old, T0)["policy"] == {"kind": "computer"}  # type: ignore[index]


def test_to_json_hands_out_fresh_data() -> None:
    stored = _clocks(CONTROLS[2], None)[5]
    clock = MatchClock.from_json(stored)
    out = clock.to_json()
    out["vote"]["ballots"]["1"] = "end"
    out["away"].clear()
    assert clock.to_json() == stored
