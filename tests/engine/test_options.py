"""``Options.expansions`` and the rules JSON across releases (RULES.md §4.6).

The registry (app.engine.expansions) checks the names and combinations from what each expansion
declares; the JSON keeps the keys every release so far writes (``tileset``, ``river``) and reads
the new ``expansions`` too, alone or beside them (they must agree).
"""

from __future__ import annotations

from typing import Any

import pytest

from app.engine import PRESETS, InvalidOptions, Options

RIVER = frozenset({"river"})
WHEEL = frozenset({"wheel_of_fortune"})


def test_to_json_writes_exactly_what_earlier_releases_read() -> None:
    assert Options().to_json() == {
        "tileset": "base",
        "river": False,
        "farm_scoring": "modern",
        "small_city_two_points": False,
    }
    assert Options(expansions=RIVER).to_json()["river"] is True
    assert Options(expansions=WHEEL).to_json()["tileset"] == "wheel_of_fortune"
    assert list(Options(expansions=WHEEL).to_json()) == [
        "tileset",
        "river",
        "farm_scoring",
        "small_city_two_points",
    ]


@pytest.mark.parametrize(
    "data, expansions",
    [
        (None, frozenset()),
        ({}, frozenset()),
        ({"river": True}, RIVER),
        ({"tileset": "wheel_of_fortune"}, WHEEL),
        ({"expansions": ["river"]}, RIVER),
        ({"expansions": ["wheel_of_fortune"], "tileset": "wheel_of_fortune"}, WHEEL),
        ({"expansions": ["river"], "tileset": "base", "river": True}, RIVER),
        ({"expansions": [], "tileset": "base", "river": False}, frozenset()),
    ],
)
def test_from_json_reads_the_new_key_the_old_keys_or_both(
    data: Any, expansions: frozenset[str]
) -> None:
    options = Options.from_json(data)
    assert options.expansions == expansions
    assert Options.from_json(options.to_json()) == options


def test_every_preset_round_trips() -> None:
    for options in PRESETS.values():
        assert Options.from_json(options.to_json()) == options
        assert Options.from_json({**options.to_json(), "expansions": sorted(options.expansions)})
    assert PRESETS["river"].expansions == RIVER and PRESETS["wheel_of_fortune"].tileset == (
        "wheel_of_fortune"
    )


@pytest.mark.parametrize(
    "data, message",
    [
        ({"expansions": ["river"], "river": False}, "disagree"),
        ({"expansions": ["wheel_of_fortune"], "tileset": "base"}, "disagree"),
        ({"expansions": [], "tileset": "wheel_of_fortune"}, "disagree"),
        ({"expansions": ["inns"]}, "unknown expansion 'inns'"),
        ({"expansions": "river"}, "expansions must be a list"),
        ({"tileset": "inns"}, "unknown tileset 'inns'"),
        ({"tileset": "river"}, "unknown tileset 'river'"),
        ({"river": "yes"}, "river must be true or false"),
        ({"tileset": "wheel_of_fortune", "river": True}, "the River is played with the base"),
        ({"expansions": ["river", "wheel_of_fortune"]}, "the River is played with the base"),
        ({"wheel": True}, "unknown rule option(s): wheel"),
    ],
)
def test_bad_rules_are_refused(data: Any, message: str) -> None:
    with pytest.raises(InvalidOptions) as caught:
        Options.from_json(data)
    assert message in caught.value.message


def test_the_constructor_checks_with_the_registry() -> None:
    assert Options(expansions=RIVER).tileset == "base"
    assert Options(expansions=WHEEL).tileset == "wheel_of_fortune"
    with pytest.raises(InvalidOptions):
        Options(expansions=frozenset({"inns"}))
    with pytest.raises(InvalidOptions):
        Options(expansions=RIVER | WHEEL)
    with pytest.raises(InvalidOptions):
        Options(expansions=["river"])  # type: ignore[arg-type]
