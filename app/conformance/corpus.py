"""Build the conformance corpus from real engine games and name the rules each record exercises.

Every generated record is a whole game the engine played: a seeded shuffle (or, for the one
rule random play almost never reaches, a chosen opening followed by a seeded shuffle of the rest
of the set) and a seeded strategy choosing among :func:`app.engine.legal_actions`. For each
:class:`Case` the builder tries seeds from ``Case.seed`` upwards until the game exercises every
rule the case requires, as found by :func:`exercised` in the replay's events, so the corpus
proves its own coverage instead of asserting it.

Nothing here reads or writes files except :func:`write_corpus`.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from app.engine import (
    Action,
    Options,
    Pass,
    PlaceFollower,
    PlaceTile,
    apply_in_place,
    export_record,
    legal_actions,
    new_game,
    replay,
)
from app.engine.events import (
    ExpansionEvent,
    FeatureCompleted,
    PointsScored,
    TileDiscarded,
    TilePlaced,
)

#: The format name of ``index.json``, the corpus's table of contents.
INDEX_FORMAT = "carcassonne-conformance/1"
#: Wheel of Fortune segments, clockwise from Fortune (RULES.md §6.3).
SEGMENTS = ("fortune", "tax", "famine", "storm", "inquisition", "plague")
#: Seeds tried per case before the builder gives up.
MAX_TRIES = 400

WOF = Options(expansions=frozenset({"wheel_of_fortune"}))
FIRST_EDITION = Options(farm_scoring="original", small_city_two_points=True)


@dataclass(frozen=True)
class Opening:
    """A chosen start: ``draw`` are the first tiles drawn and ``turns`` the first turns played,
    each ``(x, y, rotation, follower spot or None)``; the rest of the set follows in the order
    of the case's seeded shuffle.
    """

    draw: tuple[str, ...]
    turns: tuple[tuple[int, int, int, str | None], ...]


@dataclass(frozen=True)
class Case:
    """One corpus record to build: ``name`` (its file is ``<name>.json``), what it is for,
    the rules, the seat names, the first seed to try, the strategy's follower rate (the chance
    of deploying when a follower may be deployed) and the rules it must exercise.
    """

    name: str
    about: str
    options: Options
    players: tuple[str, ...]
    seed: int
    requires: frozenset[str]
    follower_rate: float = 0.6
    opening: Opening | None = None
    tags: tuple[str, ...] = field(default=())


PLAYERS_2 = ("Ann", "Ben")
PLAYERS_3 = ("Ann", "Ben", "Cal")
PLAYERS_5 = ("Ann", "Ben", "Cal", "Dee", "Eve")
BASE_RULES = frozenset(
    {
        "city_completed",
        "road_completed",
        "cloister_completed",
        "city_incomplete",
        "road_incomplete",
        "cloister_incomplete",
        "farm_modern",
        "shared_majority",
    }
)

#: Ann's and Ben's monks; the three board roads closed, so X.1 fits nowhere; the pig reaches
#: Inquisition and X.1 lands it on Plague: both monks go home, then X.1 is discarded
#: (tests/engine/test_wheel_of_fortune.py). Random play almost never meets this.
PLAGUE_DISCARD_OPENING = Opening(
    draw=("A", "A", "S", "B", "N.1", "N.1", "U.2", "X.1"),
    turns=(
        (2, -1, 0, "cloister"),
        (3, 4, 180, "cloister"),
        (-1, 1, 270, None),
        (3, -1, 0, None),
        (1, -1, 0, None),
        (4, 3, 90, None),
        (4, 0, 90, None),
    ),
)

CASES: tuple[Case, ...] = (
    Case(
        "base_2p",
        "The base game, two players: every feature scored.",
        Options(),
        PLAYERS_2,
        1,
        BASE_RULES,
    ),
    Case(
        "base_3p_discard",
        "The base game with a tile that fits nowhere (RULES.md §3.2c).",
        Options(),
        PLAYERS_3,
        1,
        frozenset({"discard"}),
        follower_rate=0.5,
    ),
    Case(
        "base_5p",
        "Five players: shared majorities and 5-seat turn order.",
        Options(),
        PLAYERS_5,
        1,
        frozenset({"shared_majority", "farm_modern"}),
    ),
    Case(
        "river_2p",
        "The River (§5): spring, river tiles, lake, then the base game.",
        Options(expansions=frozenset({"river"})),
        PLAYERS_2,
        1,
        frozenset({"river", "farm_modern"}),
    ),
    Case(
        "first_edition_original_farms",
        "Original farm scoring (§4.4): 4 per city to the farmer majority over all its farms.",
        Options(farm_scoring="original"),
        PLAYERS_3,
        1,
        frozenset({"farm_original"}),
    ),
    Case(
        "first_edition_small_city",
        "A completed two-tile city is worth 2 (§4.5).",
        Options(small_city_two_points=True),
        PLAYERS_2,
        1,
        frozenset({"small_city_two_points"}),
    ),
    Case(
        "first_edition_preset",
        "The first-edition preset: both options together, with the River.",
        Options(
            expansions=frozenset({"river"}), farm_scoring="original", small_city_two_points=True
        ),
        PLAYERS_3,
        1,
        frozenset({"farm_original", "small_city_two_points", "river"}),
    ),
    Case(
        "wheel_every_segment",
        "Wheel of Fortune (§6): the pig lands on all six segments "
        "and each pays out; crown spaces score.",
        WOF,
        PLAYERS_3,
        1,
        frozenset({*(f"wheel_{name}" for name in SEGMENTS), "crown"}),
        follower_rate=0.7,
    ),
    Case(
        "wheel_2p",
        "Wheel of Fortune, two players.",
        WOF,
        PLAYERS_2,
        100,
        frozenset({"wheel_plague", "wheel_tax", "crown"}),
        follower_rate=0.7,
    ),
    Case(
        "wheel_plague_discard",
        "Wheel of Fortune: a drawn tile moves the pig to Plague, "
        "followers go home, then the tile fits nowhere and is discarded (record.md).",
        WOF,
        PLAYERS_2,
        1,
        frozenset({"wheel_plague", "plague_discard", "discard"}),
        opening=PLAGUE_DISCARD_OPENING,
    ),
)


def _choose(rng: random.Random, actions: list[Action], follower_rate: float) -> Action:
    """The seeded strategy: deploy with probability ``follower_rate`` when allowed, otherwise
    any legal action uniformly (placements, Plague choices and passes alike).
    """
    followers = [a for a in actions if isinstance(a, PlaceFollower)]
    if followers and rng.random() < follower_rate:
        return rng.choice(followers)
    return rng.choice(actions)


def _opening_deck(case: Case, seed: int) -> list[str]:
    """The case's chosen opening followed by the rest of the set in the seed's shuffle."""
    assert case.opening is not None
    rest = list(new_game(case.options, case.players, seed=seed).deck)
    for tile in case.opening.draw:
        rest.remove(tile)
    return [*case.opening.draw, *rest]


def play(case: Case, seed: int) -> dict[str, Any]:
    """Play one whole game of ``case`` with ``seed`` and return its finished record (with its
    ``result``). Raises :class:`app.engine.EngineError` if a chosen opening is illegal.
    """
    rng = random.Random(seed)
    if case.opening is None:
        state = new_game(case.options, case.players, seed=seed)
    else:
        state = new_game(case.options, case.players, draw_order=_opening_deck(case, seed))
        for x, y, rotation, spot in case.opening.turns:
            apply_in_place(state, PlaceTile(state.seat, x, y, rotation))
            follow: Action = Pass(state.seat) if spot is None else PlaceFollower(state.seat, spot)
            apply_in_place(state, follow)
    while not state.is_over:
        apply_in_place(state, _choose(rng, legal_actions(state), case.follower_rate))
    record: dict[str, Any] = json.loads(json.dumps(export_record(state)))
    return record


def _segment_rules(events: Iterable[object]) -> set[str]:
    """``wheel_<segment>`` for each segment the pig landed on whose action did something:
    points for Fortune/Tax/Famine/Storm/Inquisition, a follower sent home for Plague; ``crown``
    when a crown space scored.
    """
    found: set[str] = set()
    landed: str | None = None
    for e in events:
        if isinstance(e, ExpansionEvent) and type(e).__name__ == "PigMoved":
            landed = str(getattr(e, "segment", ""))
        elif isinstance(e, PointsScored) and e.category == landed:
            found.add(f"wheel_{landed}")
        elif isinstance(e, PointsScored) and e.category == "crown":
            found.add("crown")
        elif type(e).__name__ == "FollowerReturned" and landed == "plague":
            found.add("wheel_plague")
        elif isinstance(e, TilePlaced):
            landed = None if landed != "plague" else landed
    return found


def exercised(record: dict[str, Any]) -> set[str]:
    """The rules ``record`` exercises, found by replaying it and scanning its events.

    Names: ``city_completed`` ``road_completed`` ``cloister_completed`` (scored during play),
    ``city_incomplete`` ``road_incomplete`` ``cloister_incomplete`` (final scoring),
    ``farm_modern`` ``farm_original`` ``small_city_two_points`` ``shared_majority`` (points to
    more than one seat for one feature), ``discard``, ``river`` (a river tile placed),
    ``wheel_<segment>`` and ``crown`` (see :func:`_segment_rules`), ``plague_discard`` (a
    ``discarded`` entry with Plague removals). Raises :class:`app.engine.RecordError` for a
    record that does not replay.
    """
    plain = {k: v for k, v in record.items() if k != "result"}
    _, events = replay(plain)
    found = _segment_rules(events)
    for e in events:
        if isinstance(e, FeatureCompleted) and e.kind in ("city", "road", "cloister"):
            found.add(f"{e.kind}_completed")
        elif isinstance(e, PointsScored):
            if e.final and e.category in ("city", "road", "cloister"):
                found.add(f"{e.category}_incomplete")
            if e.category == "farm":
                found.add("farm_original" if e.rule.startswith("original") else "farm_modern")
            if "two-tile city, first edition" in e.rule:
                found.add("small_city_two_points")
            if len(e.majority) > 1:
                found.add("shared_majority")
        elif isinstance(e, TileDiscarded):
            found.add("discard")
        elif isinstance(e, TilePlaced) and e.tile.startswith("R") and e.tile[1:].isdigit():
            found.add("river")
    if any("discarded" in m and m.get("plague") for m in record.get("moves", [])):
        found.add("plague_discard")
    return found


def build_case(case: Case, tries: int = MAX_TRIES) -> tuple[int, dict[str, Any], set[str]]:
    """The first seed from ``case.seed`` whose game exercises ``case.requires``: ``(seed,
    record, exercised rules)``. Raises ``LookupError`` when none of ``tries`` seeds does.
    """
    for seed in range(case.seed, case.seed + tries):
        record = play(case, seed)
        found = exercised(record)
        if case.requires <= found:
            return seed, record, found
    raise LookupError(f"{case.name}: no seed in {tries} exercises {sorted(case.requires)}")


def index_entry(file: str, record: dict[str, Any], origin: str, about: str) -> dict[str, Any]:
    """One row of ``index.json``: the file, what it is for, how it was made, its rules, seat
    count, the rules it exercises and its expected result.
    """
    return {
        "file": file,
        "about": about,
        "origin": origin,
        "rules": record["rules"],
        "players": len(record["players"]),
        "exercises": sorted(exercised(record)),
        "result": record["result"],
    }


def write_corpus(
    directory: Path,
    extra: Iterable[Path] = (),
    progress: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """Build every :data:`CASES` record into ``directory`` and copy the hand-checked records
    ``extra`` beside them, then write ``index.json``; returns the index.
    """
    directory.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    for path in sorted(extra):
        record = json.loads(path.read_text(encoding="utf-8"))
        (directory / path.name).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        rows.append(index_entry(path.name, record, "golden record of the engine's tests", ""))
    for case in CASES:
        seed, record, _ = build_case(case)
        strategy = f"random legal actions, follower rate {case.follower_rate}"
        opening = ", chosen opening" if case.opening else ""
        origin = f"engine game: seed {seed}{opening}, {strategy}"
        name = f"{case.name}.json"
        (directory / name).write_text(json.dumps(record, indent=1) + "\n", encoding="utf-8")
        rows.append(index_entry(name, record, origin, case.about))
        progress(f"{name}: seed {seed}")
    index = {"format": INDEX_FORMAT, "records": rows}
    (directory / "index.json").write_text(json.dumps(index, indent=1) + "\n", encoding="utf-8")
    return index


__all__ = [
    "CASES",
    "INDEX_FORMAT",
    "Case",
    "Opening",
    "build_case",
    "exercised",
    "play",
    "write_corpus",
]
