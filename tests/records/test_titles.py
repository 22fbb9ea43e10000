"""The host's name beside a table without one (:mod:`app.services.records.titles`)."""

from __future__ import annotations

from app.services.records.titles import lobby_host_name, match_host_name

SEATS = [
    {"seat": 0, "player": "p-ben", "name": "Ben", "colour": "red", "bot": False},
    {"seat": 1, "player": None, "name": "Bot 1", "colour": "blue", "bot": True},
    {"seat": 2, "player": "p-ann", "name": "Ann", "colour": "green", "bot": False},
]


def test_a_lobbys_host_is_the_seat_the_host_holds() -> None:
    assert lobby_host_name(SEATS, "p-ann") == "Ann"
    assert lobby_host_name(SEATS, "p-zed") is None


def test_a_matchs_host_is_the_seat_its_clock_keeps() -> None:
    assert match_host_name(SEATS, {"host": 2}) == "Ann"
    assert match_host_name(SEATS, {"host": 0}) == "Ben"
    # Matches from before clocks (they all have a name), or a clock without a host.
    for clock in (None, {}, {"host": None}, {"host": 3}, {"host": -1}, {"host": "2"}):
        assert match_host_name(SEATS, clock) is None
