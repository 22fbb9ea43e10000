"""The knock-out bracket: the standard seed order, byes to the top seeds, winners two tables to
one, a draw sending the better seed through, and the bracket the page draws.
"""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from app.services.tournaments.formats.knockout import (
    bracket,
    bracket_size,
    first_round,
    next_round,
    ranks,
    rounds_for,
    seed_order,
    seeding,
    winner,
)


def test_seed_order_keeps_the_top_seeds_apart() -> None:
    assert seed_order(2) == [1, 2]
    assert seed_order(4) == [1, 4, 2, 3]
    assert seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]
    assert sorted(seed_order(16)) == list(range(1, 17))
    # Seeds 1 and 2 are in different halves: they can meet only in the final.
    assert 2 in seed_order(16)[8:]


@pytest.mark.parametrize(("n", "size", "rounds"), [(2, 2, 1), (3, 4, 2), (5, 8, 3), (8, 8, 3)])
def test_size_and_rounds(n: int, size: int, rounds: int) -> None:
    assert bracket_size(n) == size and rounds_for(n) == rounds


def test_byes_go_to_the_top_seeds() -> None:
    tables = first_round([11, 12, 13, 14, 15])  # entrant ids, best seed first
    assert [t.entrants for t in tables] == [(11,), (14, 15), (12,), (13,)]
    assert [t.number for t in tables] == [1, 2, 3, 4]
    byes = [t.entrants[0] for t in tables if t.is_bye]
    assert byes == [11, 12, 13]  # seeds 1-3 of 5 in a bracket of 8


def test_winners_meet_and_a_draw_sends_the_better_seed_through() -> None:
    assert winner([4, 5], [0.0, 1.0]) == 5
    assert winner([4, 5], [0.5, 0.5]) == 4
    assert winner([7], [1.0]) == 7
    following = next_round(
        [(1, [1], [1.0]), (2, [4, 5], [0.0, 1.0]), (3, [2], [1.0]), (4, [3, 6], [0.5, 0.5])]
    )
    assert [(t.number, t.entrants) for t in following] == [(1, (1, 5)), (2, (2, 3))]


def test_bracket_shows_known_and_future_tables() -> None:
    games = [
        SimpleNamespace(round=1, table_number=1, entrants=[1], points=[1.0], id=1, match_id=None),
        SimpleNamespace(
            round=1, table_number=2, entrants=[2, 3], points=[0.0, 1.0], id=2, match_id="m"
        ),
    ]
    drawn = bracket(3, games)
    assert len(drawn) == 2
    assert [t["winner"] for t in drawn[0]] == [1, 3]
    assert drawn[1] == [
        {"table": 1, "entrants": [1, 3], "winner": None, "pairing": None, "match_id": None}
    ]
    assert bracket(1, []) == []


def test_the_organisers_seeding_and_its_ranks() -> None:
    assert seeding([5, 2], [1, 2, 3, 5]) == [5, 2, 1, 3]
    assert seeding(None, [3, 1, 2]) == [1, 2, 3]
    assert seeding([9, 2, 2], [1, 2]) == [2, 1]
    rank = ranks([5, 2, 1])
    assert winner([1, 5], [0.5, 0.5], rank) == 5
    assert [t.entrants for t in next_round([(1, [2], [1.0]), (2, [1, 5], [0.5, 0.5])], rank)] == [
        (5, 2)
    ]
