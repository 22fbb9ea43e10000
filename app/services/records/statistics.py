"""Profile statistics: what a player's finished matches add up to.

``GET /api/players/{id}/statistics`` (:func:`player_statistics`) answers, over the player's
settled matches (private ones included: only totals leave, never a match):

- ``ratings``: per rule preset, the displayed rating after each rated match, oldest first
  (``[{"at", "rating"}]``, the first point being the rating before the first rated match);
- ``by_players``: per seat count (2–5), matches ``played`` and ``won`` (placement 1, shared or
  not, the verdict's placement: a seat that left is last, docs/RATINGS.md);
- ``finished`` (played to the end in the seat) and ``left`` (the server played for the seat);
- ``average_score``, ``points`` by feature (``road city cloister farm other``; ``other`` is the
  Wheel of Fortune's crowns and actions) and ``share`` (each feature's fraction of all points);
- ``longest_road`` and ``biggest_city``: tiles of the longest road and the biggest city the
  player scored (completed or in the final scoring; board cells of the Wheel count as tiles).

A seat's feature statistics are computed from the match's ``PointsScored`` events when it is
settled (:func:`seat_statistics`, stored in ``match_players.statistics``); rows settled before
statistics were kept are filled from the action log the first time they are read.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any, TypedDict

from sqlalchemy.ext.asyncio import AsyncConnection

from app.json_types import JsonObject
from app.services.errors import NotFound
from app.services.records import ratings
from app.services.records import statistics_queries as queries
from app.services.records.model import RatingStep, SeatStatistics, SettledRow
from app.services.runtime import Runtime

#: Features a profile shows points for, in display order (``other``: everything else).
FEATURES = ("road", "city", "cloister", "farm", "other")


class RatingPoint(TypedDict):
    """A point of a rating history: when (ISO time, None if unknown) and the displayed rating."""

    at: str | None
    rating: int


def seat_statistics(
    events: Iterable[JsonObject], seats: Iterable[int]
) -> dict[int, SeatStatistics]:
    """Each seat's ``{"points": {feature: points}, "longest_road", "biggest_city"}`` from a
    match's events (JSON form, as stored in the action log).

    Points come from ``PointsScored`` (its ``category``: road, city, cloister, farm; any other
    category counts as ``other``); the longest road and biggest city are the most ``tiles`` of a
    road or city the seat scored (0 when none).
    """
    out: dict[int, SeatStatistics] = {
        s: {"points": dict.fromkeys(FEATURES, 0), "longest_road": 0, "biggest_city": 0}
        for s in seats
    }
    for e in events:
        seat, points, tiles = e.get("seat"), e.get("points", 0), e.get("tiles")
        if e.get("type") != "PointsScored" or not isinstance(seat, int) or seat not in out:
            continue
        mine = out[seat]
        category = e.get("category")
        feature = category if isinstance(category, str) and category in FEATURES else "other"
        mine["points"][feature] += int(points) if isinstance(points, int | float) else 0
        size = len(tiles) if isinstance(tiles, list) else 0
        if category == "road":
            mine["longest_road"] = max(mine["longest_road"], size)
        elif category == "city":
            mine["biggest_city"] = max(mine["biggest_city"], size)
    return out


async def record_match(conn: AsyncConnection, match_id: str, seats: Iterable[int]) -> None:
    """Compute and store the statistics of a match's seats (in the settling transaction)."""
    events = await queries.match_events(conn, match_id)
    await queries.store_statistics(conn, match_id, seat_statistics(events, seats))


def _summary(
    rows: list[SettledRow], seat_counts: dict[str, int], stats: dict[str, SeatStatistics | None]
) -> dict[str, Any]:
    by_players: dict[str, dict[str, int]] = {}
    points = dict.fromkeys(FEATURES, 0)
    longest = biggest = left = 0
    total_score = 0
    for r in rows:
        bucket = by_players.setdefault(str(seat_counts.get(r.match_id, 0)), {"played": 0, "won": 0})
        bucket["played"] += 1
        bucket["won"] += int(r.place == 1)
        left += int(bool(r.left))
        total_score += int(r.score or 0)
        s = stats.get(r.match_id)
        if s is None:
            continue
        for f in FEATURES:
            points[f] += int((s.get("points") or {}).get(f, 0))
        longest = max(longest, int(s.get("longest_road", 0)))
        biggest = max(biggest, int(s.get("biggest_city", 0)))
    all_points = sum(points.values())
    return {
        "played": len(rows),
        "finished": len(rows) - left,
        "left": left,
        "by_players": dict(sorted(by_players.items())),
        "average_score": round(total_score / len(rows), 1) if rows else 0,
        "points": points,
        "share": {f: (round(points[f] / all_points, 3) if all_points else 0) for f in FEATURES},
        "longest_road": longest,
        "biggest_city": biggest,
    }


def _rating_history(steps: list[RatingStep]) -> dict[str, list[RatingPoint]]:
    out: dict[str, list[RatingPoint]] = {}
    for s in steps:
        line = out.setdefault(s.preset, [])
        at = s.finished_at.isoformat() if s.finished_at else None
        if not line:
            line.append({"at": at, "rating": ratings.display(s.mu_before, s.sigma_before)})
        line.append({"at": at, "rating": ratings.display(s.mu_after, s.sigma_after)})
    return out


async def player_statistics(rt: Runtime, player_id: str) -> dict[str, Any]:
    """The statistics object described in the module docstring (``played`` 0 and empty maps
    for a player with no finished match) over the matches settled so far (the caller settles
    missed ones first: :func:`app.services.history.settle_missed`). Raises :class:`NotFound`
    for an unknown player. Rows settled before statistics were kept are filled (and stored).
    """
    async with rt.storage.replica.reading() as conn:
        if not await queries.player_exists(conn, player_id):
            raise NotFound("no such player")
        rows = await queries.finished_rows(conn, player_id)
    missing = sorted({r.match_id for r in rows if r.statistics is None})
    filled: dict[tuple[str, int], SeatStatistics | None] = {}
    for match_id in missing:
        async with rt.storage.db.transaction() as conn:
            seats = [r.seat for r in await queries.match_rows(conn, match_id)]
            await record_match(conn, match_id, seats)
            filled.update(
                {(match_id, r.seat): r.statistics for r in await queries.match_rows(conn, match_id)}
            )
    stats = {
        r.match_id: (r.statistics if r.statistics is not None else filled.get((r.match_id, r.seat)))
        for r in rows
    }
    async with rt.storage.replica.reading() as conn:
        counts = await queries.seat_counts(conn, [r.match_id for r in rows])
        steps = await queries.rating_steps(conn, player_id)
    return {"ratings": _rating_history(steps)} | _summary(rows, counts, stats)
