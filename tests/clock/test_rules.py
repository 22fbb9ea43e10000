"""The clock arithmetic (app/services/clock/rules.py): time controls, banks and increments, per-turn
and correspondence limits, time-outs and handover, outage credit, votes and the live ↔
correspondence switch. Times are epoch milliseconds.
"""

from __future__ import annotations

import pytest

from app.services.clock import rules as c
from app.services.clock import votes as v

T0 = 1_700_000_000_000


def fischer(bank: int = 300, inc: int = 10) -> c.TimeControl:
    return c.TimeControl.from_json({"kind": "fischer", "bank": bank, "increment": inc})


def test_time_controls_parse_round_trip_and_label() -> None:
    cases = {
        None: "untimed",
        '{"kind": "per_turn", "seconds": 60}': "1 min per turn",
        '{"kind": "fischer", "bank": 300, "increment": 10}': "5 min + 10 s",
        '{"kind": "correspondence", "days": 3}': "3 days per move",
    }
    import json

    for raw, label in cases.items():
        tc = c.TimeControl.from_json(None if raw is None else json.loads(raw))
        assert tc.label() == label
        assert c.TimeControl.from_json(tc.to_json()) == tc


@pytest.mark.parametrize(
    ("data", "field"),
    [
        ({"kind": "blitz"}, "time_control.kind"),
        ({"kind": "per_turn"}, "time_control.seconds"),
        ({"kind": "per_turn", "seconds": 7}, "time_control.seconds"),
        ({"kind": "per_turn", "seconds": True}, "time_control.seconds"),
        ({"kind": "fischer", "bank": 300, "increment": -1}, "time_control.increment"),
        ({"kind": "fischer", "increment": 10}, "time_control.bank"),
        ({"kind": "correspondence", "days": 5}, "time_control.days"),
        ({"kind": "untimed", "days": 1}, "time_control.days"),
        ("fast", "time_control"),
    ],
)
def test_invalid_time_controls_name_the_field(data: object, field: str) -> None:
    with pytest.raises(c.InvalidTimeControl) as err:
        c.TimeControl.from_json(data)
    assert err.value.field == field


def test_fischer_charges_the_bank_and_adds_the_increment_when_the_turn_passes() -> None:
    clock = c.new_clock(fischer(), 2, [0, 1], 0, active=0, now=T0)
    assert c.deadline(clock) == T0 + 300_000
    # Seat 0 places a tile after 20 s: still its turn, bank charged, no increment yet.
    clock = c.advance(clock, now=T0 + 20_000, seat=0, active=0, deciding=False, over=False)
    assert clock["remaining"][0] == 280_000
    assert c.deadline(clock) == T0 + 300_000
    # 5 s later it places a follower: the turn passes to seat 1; increment added.
    clock = c.advance(clock, now=T0 + 25_000, seat=1, active=1, deciding=False, over=False)
    assert clock["remaining"] == [285_000, 300_000]
    assert clock["running"] == {"seat": 1, "since": T0 + 25_000, "active": 1}
    assert c.remaining(clock, 1, T0 + 85_000) == 240_000
    assert c.remaining(clock, 0, T0 + 85_000) == 285_000
    assert c.deadline(clock) == T0 + 325_000


def test_a_bank_never_goes_below_zero_and_a_timeout_leaves_the_increment() -> None:
    clock = c.new_clock(fischer(60, 5), 2, [0, 1], 0, active=0, now=T0)
    assert c.remaining(clock, 0, T0 + 90_000) == 0
    clock = c.advance(clock, now=T0 + 90_000, seat=1, active=1, deciding=False, over=False)
    assert clock["remaining"][0] == 5_000


def test_per_turn_gives_each_turn_its_limit_and_loses_unused_time() -> None:
    tc = c.TimeControl.from_json({"kind": "per_turn", "seconds": 30})
    clock = c.new_clock(tc, 3, [0, 1, 2], 0, active=0, now=T0)
    clock = c.advance(clock, now=T0 + 10_000, seat=0, active=0, deciding=False, over=False)
    assert c.deadline(clock) == T0 + 30_000  # the same turn: the same deadline
    clock = c.advance(clock, now=T0 + 12_000, seat=1, active=1, deciding=False, over=False)
    assert c.deadline(clock) == T0 + 42_000
    # What clients see: seat 1's running turn; seats waiting show the fresh turn they will get
    # (seat 0's 18 s left unused are lost), not what they left.
    assert c.public(clock, T0 + 15_000)["remaining"] == [30_000, 27_000, 30_000]
    clock = c.advance(clock, now=T0 + 13_000, seat=2, active=2, deciding=False, over=False)
    clock = c.advance(clock, now=T0 + 14_000, seat=0, active=0, deciding=False, over=False)
    assert clock["remaining"][0] == 30_000


def test_correspondence_is_days_per_move() -> None:
    tc = c.TimeControl.from_json({"kind": "correspondence", "days": 2})
    clock = c.new_clock(tc, 2, [0, 1], 0, active=0, now=T0)
    assert c.deadline(clock) == T0 + 2 * c.DAY_MS
    clock = c.advance(clock, now=T0 + c.DAY_MS, seat=1, active=1, deciding=False, over=False)
    assert c.deadline(clock) == T0 + 3 * c.DAY_MS


def test_an_off_turn_decision_runs_no_bank_and_the_turn_resumes() -> None:
    clock = c.new_clock(fischer(), 2, [0, 1], 0, active=0, now=T0)
    # Seat 0 draws a Plague tile after 10 s: seat 1 decides (off-turn, no bank charged).
    clock = c.advance(clock, now=T0 + 10_000, seat=1, active=0, deciding=True, over=False)
    assert clock["running"] is None and c.deadline(clock) is None
    clock = c.advance(clock, now=T0 + 40_000, seat=0, active=0, deciding=False, over=False)
    assert clock["remaining"] == [290_000, 300_000]
    assert c.deadline(clock) == T0 + 40_000 + 290_000


def test_untimed_has_no_deadline_and_game_over_stops_the_clock() -> None:
    clock = c.new_clock(c.TimeControl(), 2, [0, 1], 0, active=0, now=T0)
    assert c.deadline(clock) is None and c.next_due(clock) is None
    timed = c.new_clock(fischer(), 2, [0, 1], 0, active=0, now=T0)
    timed = c.advance(timed, now=T0 + 1_000, seat=0, active=0, deciding=False, over=True)
    assert timed["running"] is None and timed["remaining"][0] == 309_000


def test_timeouts_in_a_row_hand_the_seat_over_and_a_return_takes_it_back() -> None:
    clock = c.new_clock(fischer(), 2, [0, 1], 0, active=0, now=T0)
    clock = c.note_actor(clock, 0, by_computer=True, timed_out=True)
    assert clock["timeouts"][0] == 1 and not clock["auto"][0]
    clock = c.note_actor(clock, 0, by_computer=False, timed_out=False)
    assert clock["timeouts"][0] == 0
    for _ in range(c.HANDOVER_AFTER):
        clock = c.note_actor(clock, 0, by_computer=True, timed_out=True)
    assert clock["auto"][0]
    clock = v.take_back(clock, 0, T0)
    assert not clock["auto"][0] and clock["timeouts"][0] == 0


def test_outage_credit_moves_every_running_deadline() -> None:
    clock = c.new_clock(fischer(), 2, [0, 1], 0, active=0, now=T0)
    clock = v.seat_left(clock, 1, T0, 45_000)
    before = c.deadline(clock)
    credited = c.credit(clock, 120_000)
    assert c.deadline(credited) == before + 120_000  # type: ignore[operator]
    assert credited["away"]["1"]["until"] == T0 + 165_000
    assert c.remaining(credited, 0, T0 + 120_000) == 300_000  # the outage cost nothing
    assert c.credit(clock, 0) == clock and clock["away"]["1"]["until"] == T0 + 45_000


def test_leave_vote_majority_host_breaks_ties_default_is_computer() -> None:
    clock = c.new_clock(c.TimeControl(), 4, [0, 1, 2, 3], 0, active=0, now=T0)
    clock = v.seat_left(clock, 3, T0, 45_000)
    assert c.next_due(clock) == T0 + 45_000
    clock = v.open_vote(clock, 3, T0 + 45_000)
    eligible = v.voters(clock, {0, 1, 2})
    assert eligible == [0, 1, 2]
    assert v.tally(clock, eligible, final=False) is None
    assert v.tally(clock, eligible, final=True) == "computer"  # nobody answered
    one = v.cast(clock, 1, "end")
    assert v.tally(one, eligible, final=False) is None
    assert v.tally(v.cast(one, 2, "end"), eligible, final=False) == "end"  # 2 of 3
    tie = v.cast(v.cast(clock, 0, "wait"), 1, "end")
    assert v.tally(tie, eligible, final=True) == "wait"  # host (seat 0) breaks the tie
    tie2 = v.cast(v.cast(clock, 1, "wait"), 2, "end")
    assert v.tally(tie2, eligible, final=True) == "wait"  # host did not vote: first tied
    settled = v.settle(v.cast(clock, 0, "wait"), "wait", T0 + 50_000, 45_000)
    assert settled["vote"] is None and settled["away"]["3"]["until"] == T0 + 95_000
    handed = v.settle(clock, "computer", T0 + 50_000, 45_000)
    assert handed["auto"][3] and "3" not in handed["away"]
    assert v.settle(clock, "end", T0, 45_000)["ended_early"]
    back = v.seat_returned(clock, 3)
    assert back["vote"] is None and back["away"] == {}


def test_switch_to_correspondence_and_back_needs_every_human() -> None:
    clock = c.new_clock(fischer(), 3, [0, 1], 0, active=0, now=T0)  # seat 2 is a bot
    clock = v.propose_switch(clock, 1, T0 + 10_000)
    assert clock["proposal"]["to"] == "correspondence" and not v.switch_agreed(clock)
    clock = v.accept_switch(clock, 0)
    assert v.switch_agreed(clock)
    clock = v.switch(clock, T0 + 20_000)
    assert clock["control"] == {"kind": "correspondence", "days": 1}
    assert c.deadline(clock) == T0 + 20_000 + c.DAY_MS
    clock = v.accept_switch(v.propose_switch(clock, 0, T0 + 30_000), 1)
    assert clock["proposal"]["to"] == "live"
    clock = v.switch(clock, T0 + 40_000)
    assert clock["control"] == fischer().to_json()
    assert clock["remaining"][0] == 280_000  # the bank as it was when the switch happened
    assert c.public(clock, T0 + 40_000)["label"] == "5 min + 10 s"  # type: ignore[index]


def test_annotate_record_marks_plague_removals_of_discarded_and_placed_entries() -> None:
    from app.engine import Pass, PlaceFollower, PlaceTile, RemoveFollower
    from app.services.clock.clocks import annotate_record

    removal = {"seat": 1, "at": [0, 0], "follower": "road"}
    record = {
        "moves": [
            {"tile": "A", "at": [1, 0], "rotation": 0, "follower": None},
            {"discarded": "B", "plague": [dict(removal)]},
            {
                "tile": "C",
                "at": [2, 0],
                "rotation": 0,
                "follower": "city",
                "plague": [dict(removal), dict(removal, seat=0)],
            },
            {"tile": "D", "at": [3, 0], "rotation": 0, "follower": None},
        ]
    }
    actions = [
        PlaceTile(0, 1, 0, 0),
        Pass(0),  # 1, 2: A
        RemoveFollower(1, 0, 0, "road:E"),  # 3: the discarded B's Plague
        RemoveFollower(1, 0, 0, "road:E"),
        RemoveFollower(0, 0, 0, "road:E"),  # 4, 5: C's
        PlaceTile(1, 2, 0, 0),
        PlaceFollower(1, "city:N"),  # 6, 7: C
        PlaceTile(0, 3, 0, 0),
        Pass(0),  # 8, 9: D
    ]
    out = annotate_record(record, actions, {3, 5, 9}, None)
    moves = out["moves"]
    assert "by" not in moves[0] and "by" not in moves[2]
    assert moves[1]["plague"][0]["by"] == "computer"
    assert [r.get("by") for r in moves[2]["plague"]] == [None, "computer"]
    assert moves[3]["by"] == "computer"  # its follower decision was the computer's
