"""Scoring: completed features during play, the final scoring, and the points by category.

RULES.md §4.1 (completed roads, cities, cloisters; majority), §4.2–§4.4 (final scoring of
incomplete features and farms, modern or original farm scoring). Every point scored, the
Wheel of Fortune's too, goes through :func:`award`, which also keeps the per-category tally
behind :func:`score_breakdown`.
"""

from __future__ import annotations

from collections.abc import Iterable

from app.engine.board import completed_cities, spot_of
from app.engine.events import Event, FeatureCompleted, FollowerReturned, GameEnded, PointsScored
from app.engine.state import GAME_OVER, GameState, Pos, find
from app.engine.tiles import CITY, CLOISTER, FIELD, KIND_NAMES, RING, ROAD


def award(
    s: GameState,
    events: list[Event],
    seats: Iterable[int],
    points: int,
    *,
    category: str,
    final: bool = False,
    rule: str,
    tiles: frozenset[Pos] = frozenset(),
    pennants: int = 0,
    cities: int = 0,
    majority: tuple[int, ...] = (),
    counts: list[int] | None = None,
) -> None:
    """Give ``points`` to each of ``seats`` and record a :class:`PointsScored` event each.

    ``category``: road, city, cloister, farm or a Wheel of Fortune category; ``final``: scored
    in the final scoring; ``rule``: the rule applied, in words. The rest describe the feature
    for the event: its ``tiles``, ``pennants``, completed ``cities`` (farms), the ``majority``
    seats and the follower ``counts`` by seat (default: all zero). Nothing for ``points`` ≤ 0.
    """
    if points <= 0:
        return
    sorted_tiles = tuple(sorted(tiles))
    by_seat = tuple(counts) if counts is not None else (0,) * len(s.players)
    for seat in seats:
        s.scores[seat] += points
        key = (seat, category, final)
        s.tally[key] = s.tally.get(key, 0) + points
        events.append(
            PointsScored(
                seat,
                points,
                category,
                final,
                sorted_tiles,
                pennants,
                cities,
                majority,
                by_seat,
                rule,
            )
        )


def follower_counts(s: GameState, gids: Iterable[int]) -> list[int]:
    """Followers by seat among the segments ``gids``."""
    counts = [0] * len(s.players)
    for gid in gids:
        counts[s.followers[gid]] += 1
    return counts


def leaders(counts: list[int]) -> tuple[int, ...]:
    """Seats with the most followers (RULES.md §4.1 "Majority"; ties all score)."""
    top = max(counts)
    if top == 0:
        return ()
    return tuple(seat for seat, n in enumerate(counts) if n == top)


def return_followers(s: GameState, root: int, events: list[Event]) -> None:
    """Return the followers of feature ``root`` to their supplies (RULES.md §3.2e)."""
    for gid in s.f_followers[root]:
        seat = s.followers.pop(gid)
        s.supply[seat] += 1
        pos, spot = spot_of(s, gid)
        events.append(FollowerReturned(seat, pos, spot))
    s.f_followers[root] = ()


def completed_points(s: GameState, root: int) -> tuple[int, str]:
    """(points, rule in words) of the completed road, city or cloister ``root`` for each of
    its owners (RULES.md §4.1): a road 1 per tile, a city 2 per tile and per pennant (a
    two-tile city 2 + 2 per pennant under ``small_city_two_points``), a cloister 9.
    """
    kind = s.seg_kind[root]
    tiles = s.f_tiles[root]
    pennants = s.f_pennants[root]
    if kind == CLOISTER:
        return 9, "completed cloister: 9 points"
    if kind == ROAD:
        return len(tiles), "completed road: 1 point per tile"
    if s.options.small_city_two_points and len(tiles) == 2:
        return 2 + 2 * pennants, "completed two-tile city, first edition: 2 points (+2 per pennant)"
    return 2 * len(tiles) + 2 * pennants, "completed city: 2 points per tile and per pennant"


def incomplete_points(s: GameState, root: int) -> tuple[int, str]:
    """(points, rule in words) of the incomplete road, city or cloister ``root`` in the final
    scoring, for each of its owners (RULES.md §4.2): a road 1 per tile, a city 1 per tile and
    per pennant, a cloister 1 plus 1 per neighbouring tile.
    """
    kind = s.seg_kind[root]
    tiles = s.f_tiles[root]
    if kind == ROAD:
        return len(tiles), "incomplete road: 1 point per tile"
    if kind == CITY:
        return len(tiles) + s.f_pennants[root], "incomplete city: 1 point per tile and per pennant"
    x, y = s.seg_pos[root]
    around = sum(1 for dx, dy in RING if (x + dx, y + dy) in s.board)
    return 1 + around, "incomplete cloister: 1 point plus 1 per neighbouring tile"


def farm_points(s: GameState, root: int) -> int:
    """Points of the farm ``root`` for each of its owners under the modern scoring (RULES.md
    §4.3): 3 per distinct completed city it supplies.
    """
    return 3 * len(completed_cities(s, root))


def score_completed(s: GameState, root: int, events: list[Event]) -> None:
    """Score a feature completed this turn and return its followers (RULES.md §4.1)."""
    kind = s.seg_kind[root]
    gids = s.f_followers[root]
    counts = follower_counts(s, gids)
    majority = leaders(counts)
    tiles = s.f_tiles[root]
    pennants = s.f_pennants[root]
    if kind == CLOISTER:
        x, y = s.seg_pos[root]
        tiles = frozenset([(x, y)] + [(x + dx, y + dy) for dx, dy in RING])
    points, rule = completed_points(s, root)
    events.append(FeatureCompleted(KIND_NAMES[kind], tuple(sorted(tiles)), pennants, tuple(counts)))
    award(
        s,
        events,
        majority,
        points,
        category=KIND_NAMES[kind],
        rule=rule,
        tiles=tiles,
        pennants=pennants,
        majority=majority,
        counts=counts,
    )
    return_followers(s, root, events)


def final_scoring(s: GameState, events: list[Event]) -> None:
    """Score incomplete roads, cities, cloisters, then farms, and end the game (RULES.md §4.2–4.4).

    Followers stay on the board so the final position can be shown; supplies are unchanged.
    """
    parent = s.parent
    roots: dict[int, list[int]] = {}
    for gid in sorted(s.followers):
        roots.setdefault(find(parent, gid), []).append(gid)
    by_kind: dict[int, list[int]] = {CITY: [], ROAD: [], CLOISTER: [], FIELD: []}
    for root in roots:
        by_kind[s.seg_kind[root]].append(root)
    for kind in (ROAD, CITY, CLOISTER):
        for root in by_kind[kind]:
            counts = follower_counts(s, s.f_followers[root])
            majority = leaders(counts)
            tiles = s.f_tiles[root]
            pennants = s.f_pennants[root]
            if kind == CLOISTER:
                x, y = s.seg_pos[root]
                tiles = frozenset(
                    [(x, y)] + [(x + dx, y + dy) for dx, dy in RING if (x + dx, y + dy) in s.board]
                )
            points, rule = incomplete_points(s, root)
            award(
                s,
                events,
                majority,
                points,
                category=KIND_NAMES[kind],
                final=True,
                rule=rule,
                tiles=tiles,
                pennants=pennants,
                majority=majority,
                counts=counts,
            )
    farms = by_kind[FIELD]
    if s.options.farm_scoring == "modern":
        _score_farms_modern(s, events, farms)
    else:
        _score_farms_original(s, events, farms)
    best = max(s.scores)
    s.winners = tuple(seat for seat, v in enumerate(s.scores) if v == best)
    s.phase = GAME_OVER
    events.append(GameEnded(tuple(s.scores), s.winners))


def _score_farms_modern(s: GameState, events: list[Event], farms: list[int]) -> None:
    """Score ``farms`` the modern way: 3 per completed city each supplies (RULES.md §4.3)."""
    for root in farms:
        counts = follower_counts(s, s.f_followers[root])
        majority = leaders(counts)
        cities = completed_cities(s, root)
        award(
            s,
            events,
            majority,
            farm_points(s, root),
            category="farm",
            final=True,
            rule="farm: 3 points per completed city supplied",
            tiles=s.f_tiles[root],
            cities=len(cities),
            majority=majority,
            counts=counts,
        )


def _score_farms_original(s: GameState, events: list[Event], farms: list[int]) -> None:
    """Score ``farms`` the original way: 4 per completed city to its farmers (RULES.md §4.4)."""
    # Original scoring: each completed city once, 4 points to the farmer majority over all
    # farms touching it (RULES.md §4.4).
    city_farms: dict[int, list[int]] = {}
    for root in farms:
        for city in sorted(completed_cities(s, root)):
            city_farms.setdefault(city, []).append(root)
    for city in sorted(city_farms):
        gids = [g for farm in city_farms[city] for g in s.f_followers[farm]]
        counts = follower_counts(s, gids)
        majority = leaders(counts)
        award(
            s,
            events,
            majority,
            4,
            category="farm",
            final=True,
            rule="original farm scoring: 4 points per completed city to its farmer majority",
            tiles=s.f_tiles[city],
            pennants=s.f_pennants[city],
            cities=1,
            majority=majority,
            counts=counts,
        )


def score_breakdown(state: GameState) -> list[dict[str, dict[str, int]]]:
    """Points by seat, category and when: ``[{"city": {"completed": 8, "final": 2}, ...}]``."""
    out: list[dict[str, dict[str, int]]] = [{} for _ in state.players]
    for (seat, category, final), points in sorted(state.tally.items()):
        out[seat].setdefault(category, {"completed": 0, "final": 0})
        out[seat][category]["final" if final else "completed"] += points
    return out
