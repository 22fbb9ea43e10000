"""Pairing and standings of tournaments: round-robin, Swiss, arena, tie-breaks."""

from __future__ import annotations

import itertools
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from app.services.tournaments.formats.pairing import (
    PairingImpossible,
    SwissEntrant,
    Table,
    arena_tables,
    is_fair_swiss_round,
    round_robin_round,
    round_robin_rounds,
    swiss_round,
)
from app.services.tournaments.formats.standings import (
    GameResult,
    bye,
    places_of_scores,
    pod_standings,
    points_for_places,
    swiss_entrants,
    swiss_standings,
)


def _pairs(tables: list[Table]) -> list[frozenset[int]]:
    return [frozenset(t.entrants) for t in tables if not t.is_bye]


@given(st.integers(min_value=2, max_value=12), st.sampled_from([1, 2]))
@settings(max_examples=40, deadline=None)
def test_round_robin_every_pair_meets_once_per_cycle(count: int, cycles: int) -> None:
    ids = [100 + n for n in range(count)]
    rounds = [
        round_robin_round(ids, r, cycles) for r in range(1, round_robin_rounds(count, cycles) + 1)
    ]
    met = [p for tables in rounds for p in _pairs(tables)]
    for a, b in itertools.combinations(ids, 2):
        assert met.count(frozenset((a, b))) == cycles
    for tables in rounds:
        seated = [pid for t in tables for pid in t.entrants]
        assert sorted(seated) == ids
    byes = [t.entrants[0] for tables in rounds for t in tables if t.is_bye]
    assert sorted(byes) == (sorted(ids * cycles) if count % 2 else [])
    if cycles == 2:
        starts = {
            (t.entrants[0], t.entrants[1]) for tables in rounds for t in tables if not t.is_bye
        }
        for a, b in itertools.combinations(ids, 2):
            assert (a, b) in starts and (b, a) in starts


def _play_swiss(count: int, rounds: int, seed: int) -> list[GameResult]:
    """A whole Swiss with random results; asserts fairness of every round."""
    rng = random.Random(seed)
    ids = list(range(1, count + 1))
    results: list[GameResult] = []
    for rnd in range(1, rounds + 1):
        entrants = swiss_entrants(ids, results)
        tables = swiss_round(entrants, rnd, rounds)
        assert is_fair_swiss_round(entrants, tables)
        for t in tables:
            if t.is_bye:
                results.append(bye(rnd, t.entrants[0]))
                continue
            scores = (rng.randint(20, 90), rng.randint(20, 90))
            results.append(
                GameResult(rnd, t.entrants, points_for_places(places_of_scores(scores)), scores)
            )
    return results


@given(
    st.integers(min_value=2, max_value=11),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=0, max_value=10_000),
)
@settings(max_examples=60, deadline=None)
def test_swiss_never_rematches_and_byes_are_fair(count: int, rounds: int, seed: int) -> None:
    rounds = min(rounds, count - 1 if count % 2 == 0 else count)
    try:
        results = _play_swiss(count, rounds, seed)
    except PairingImpossible:
        # Only acceptable when the field is exhausted (a corner of a short Swiss).
        assert rounds >= count // 2
        return
    games = [frozenset(r.entrants) for r in results if not r.is_bye]
    assert len(games) == len(set(games))
    byes = [r.entrants[0] for r in results if r.is_bye]
    assert len(byes) == len(set(byes))
    assert len(byes) == (rounds if count % 2 else 0)


def test_swiss_bye_goes_to_the_lowest_score_without_one() -> None:
    entrants = [
        SwissEntrant(1, 1, points=2.0, opponents=frozenset({2, 3})),
        SwissEntrant(2, 2, points=1.0, opponents=frozenset({1, 4})),
        SwissEntrant(3, 3, points=1.0, opponents=frozenset({1}), byes=1),
        SwissEntrant(4, 4, points=1.0, opponents=frozenset({2, 5})),
        SwissEntrant(5, 5, points=0.0, opponents=frozenset({4}), byes=1),
    ]
    tables = swiss_round(entrants, 3, 3)
    assert is_fair_swiss_round(entrants, tables)
    (alone,) = [t for t in tables if t.is_bye]
    assert alone.entrants[0] in {2, 4}


def test_swiss_balances_the_start() -> None:
    results = _play_swiss(8, 4, seed=3)
    for pid in range(1, 9):
        mine = [r for r in results if pid in r.entrants and not r.is_bye]
        starts = sum(1 for r in mine if r.entrants[0] == pid)
        assert abs(2 * starts - len(mine)) <= 2


def test_swiss_fallback_refuses_when_every_pairing_repeats() -> None:
    entrants = [
        SwissEntrant(1, 1, opponents=frozenset({2})),
        SwissEntrant(2, 2, opponents=frozenset({1})),
    ]
    with pytest.raises(PairingImpossible):
        swiss_round(entrants, 2, 2)


def test_arena_pairs_close_scores_and_avoids_the_last_opponent() -> None:
    tables = arena_tables(
        [(1, 5), (2, 4), (3, 1), (4, 0), (5, 0)], last_opponents={1: frozenset({2})}
    )
    assert [t.entrants for t in tables] == [(1, 3), (2, 4)]


@pytest.mark.parametrize(
    ("count", "seats", "sizes"), [(7, 3, [3, 4]), (4, 5, []), (10, 4, [5, 5]), (5, 5, [5])]
)
def test_arena_pods_seat_two_to_five(count: int, seats: int, sizes: list[int]) -> None:
    tables = arena_tables([(n, float(n % 3)) for n in range(count)], seats=seats)
    assert [len(t.entrants) for t in tables] == sizes


def test_points_for_places_share_ties() -> None:
    assert points_for_places([1, 2]) == (1.0, 0.0)
    assert points_for_places([1, 1]) == (0.5, 0.5)
    assert points_for_places([2, 1, 2]) == (0.5, 2.0, 0.5)
    assert places_of_scores([40, 55, 40]) == (2, 1, 2)


def test_swiss_tie_breaks_buchholz_then_sonneborn_berger() -> None:
    # 1 beats 2, 3 beats 4, then 1 beats 3, 2 draws 4.
    results = [
        GameResult(1, (1, 2), (1.0, 0.0), (60, 40)),
        GameResult(1, (3, 4), (1.0, 0.0), (50, 45)),
        GameResult(2, (1, 3), (1.0, 0.0), (70, 30)),
        GameResult(2, (2, 4), (0.5, 0.5), (44, 44)),
    ]
    table = {s.entrant: s for s in swiss_standings([1, 2, 3, 4], results)}
    assert [table[p].points for p in (1, 2, 3, 4)] == [2.0, 0.5, 1.0, 0.5]
    assert table[1].buchholz == 1.5 and table[1].sonneborn_berger == 1.5
    # 2 met 1 (2 pts) and 4 (½): Buchholz 2½; 4 met 3 (1) and 2 (½): 1½.
    assert table[2].buchholz == 2.5 and table[4].buchholz == 1.5
    assert table[2].sonneborn_berger == 0.25
    assert [s.entrant for s in swiss_standings([1, 2, 3, 4], results)] == [1, 3, 2, 4]
    assert table[1].rank == 1 and table[1].wins == 2 and table[1].score_total == 130


def test_pod_standings_placement_points_then_score() -> None:
    results = [
        GameResult(1, (1, 2, 3), points_for_places(places_of_scores((80, 60, 60))), (80, 60, 60)),
        GameResult(2, (2, 3, 1), points_for_places(places_of_scores((90, 50, 40))), (90, 50, 40)),
    ]
    lines = pod_standings([1, 2, 3], results)
    assert [(s.entrant, s.points, s.score_total) for s in lines] == [
        (2, 2.5, 150),
        (1, 2.0, 120),
        (3, 1.5, 110),
    ]


def test_pause_holds_and_release_credits_the_pause() -> None:
    from app.services.tournaments.pause import HOLD_MS, hold, release

    clock = {
        "running": {"seat": 1, "since": 1_000, "active": 1},
        "turn_since": 1_000,
        "away": {"0": {"since": 900, "until": 5_000}},
        "remaining": [60_000, 50_000],
    }
    held = {**clock, "running": {"seat": 1, "since": 1_000 + HOLD_MS, "active": 1}}
    held["turn_since"] = 1_000 + HOLD_MS
    held["away"] = {"0": {"since": 900, "until": 5_000 + HOLD_MS}}
    # Paused at 2 000, released at 12 000: the held times come back 10 s later.
    back = release(held, 2_000, 12_000)
    assert back["running"]["since"] == 11_000 and back["turn_since"] == 11_000
    assert back["away"]["0"]["until"] == 15_000 and back["away"]["0"]["since"] == 900
    assert back["remaining"] == [60_000, 50_000]
    # A turn begun during the pause (at 7 000) is charged from the release.
    moved = {**clock, "running": {"seat": 0, "since": 7_000, "active": 0}, "turn_since": 7_000}
    assert release(moved, 2_000, 12_000)["running"]["since"] == 12_000
    assert callable(hold)
