"""Standings of a tournament from its results, with the format's tie-breaks.

Pure functions: no I/O. A :class:`GameResult` is one finished table of a round (or a bye);
tournament points come from places (:func:`points_for_places`): at a table of ``n`` seats the
first gets ``n - 1``, the last ``0``, tied places share the points of the places they span, so
a 2-player game gives the usual 1 / ½ / 0.

- **Swiss and round-robin** (2-player): points, then **Buchholz** (the sum of the opponents'
  points; a bye adds nothing), then **Sonneborn-Berger** (the sum, over games, of the
  opponent's points times the points scored against them), then wins, then seed.
- **Pods** (arena, 3-5 seats): placement points, then the total of in-game scores, then seed.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, replace

from app.services.tournaments.formats.pairing import SwissEntrant

#: Points for a bye (a win).
BYE_POINTS = 1.0


@dataclass(frozen=True)
class GameResult:
    """One table's outcome: ``entrants`` in seat order (seat 0 started), ``points``
    (tournament points, by seat), ``scores`` (in-game points by seat; empty for a bye, a
    forfeit or an adjudication without a played score).
    """

    round: int
    entrants: tuple[int, ...]
    points: tuple[float, ...]
    scores: tuple[int, ...] = ()

    @property
    def is_bye(self) -> bool:
        """True for a bye (one entrant)."""
        return len(self.entrants) == 1


@dataclass(frozen=True)
class Standing:
    """One line of the standings. ``rank`` is 1-based and shared by entrants equal on every
    tie-break except the seed.
    """

    entrant: int
    rank: int
    points: float
    games: int
    wins: int
    byes: int
    buchholz: float
    sonneborn_berger: float
    score_total: int


def points_for_places(places: Sequence[int]) -> tuple[float, ...]:
    """Tournament points by seat for ``places`` by seat (1 = first, ties share a place).

    ``n`` seats: place ``p`` alone gets ``n - p``; ``k`` seats tied on place ``p`` share the
    points of places ``p .. p + k - 1``. ``[1, 2]`` → ``(1, 0)``; ``[1, 1]`` → ``(½, ½)``.
    """
    n = len(places)
    out = []
    for place in places:
        tied = sum(1 for p in places if p == place)
        out.append(sum(n - q for q in range(place, place + tied)) / tied)
    return tuple(out)


def places_of_scores(scores: Sequence[int]) -> tuple[int, ...]:
    """Places by seat from in-game scores (higher is better; equal scores share a place)."""
    return tuple(1 + sum(1 for other in scores if other > s) for s in scores)


def bye(round_number: int, entrant: int) -> GameResult:
    """The result of a bye: one win's points."""
    return GameResult(round_number, (entrant,), (BYE_POINTS,))


def swiss_standings(seeds: Sequence[int], results: Sequence[GameResult]) -> list[Standing]:
    """Standings of a Swiss or round-robin of 2-player games; ``seeds``: entrant ids in seed
    order (every entrant, withdrawn ones too). Order: points, Buchholz, Sonneborn-Berger,
    wins, seed.
    """
    points = _points(seeds, results)
    lines = []
    for pid in seeds:
        games = [(r, r.entrants.index(pid)) for r in results if pid in r.entrants]
        played = [(r, i) for r, i in games if not r.is_bye]
        buchholz = sum(points[r.entrants[1 - i]] for r, i in played)
        sb = sum(points[r.entrants[1 - i]] * r.points[i] for r, i in played)
        lines.append(
            _line(pid, points[pid], games, buchholz=float(buchholz), sonneborn_berger=float(sb))
        )
    return _ranked(lines, seeds, ("points", "buchholz", "sonneborn_berger", "wins"))


def pod_standings(seeds: Sequence[int], results: Sequence[GameResult]) -> list[Standing]:
    """Standings of multi-player tables: placement points, then total in-game score, then
    seed.
    """
    points = _points(seeds, results)
    lines = []
    for pid in seeds:
        games = [(r, r.entrants.index(pid)) for r in results if pid in r.entrants]
        lines.append(_line(pid, points[pid], games, buchholz=0.0, sonneborn_berger=0.0))
    return _ranked(lines, seeds, ("points", "score_total"))


def swiss_entrants(
    seeds: Sequence[int], results: Sequence[GameResult], ratings: dict[int, int] | None = None
) -> list[SwissEntrant]:
    """What :func:`app.services.tournaments.formats.pairing.swiss_round` needs of each entrant in
    ``seeds`` (the ones to pair, in seed order) after ``results``.
    """
    before: dict[int, float] = defaultdict(float)
    floats: dict[int, list[str]] = defaultdict(list)
    for rnd in sorted({r.round for r in results}):
        in_round = [r for r in results if r.round == rnd]
        for r in in_round:
            if r.is_bye:
                floats[r.entrants[0]].append("down")
                continue
            for i, pid in enumerate(r.entrants):
                other = before[r.entrants[1 - i]]
                floats[pid].append(
                    "up" if other > before[pid] else "down" if other < before[pid] else "none"
                )
        for r in in_round:
            for pid, pts in zip(r.entrants, r.points, strict=True):
                before[pid] += pts
    out = []
    for seed, pid in enumerate(seeds, start=1):
        mine = [r for r in results if pid in r.entrants]
        played = [r for r in mine if not r.is_bye]
        out.append(
            SwissEntrant(
                id=pid,
                seed=seed,
                rating=(ratings or {}).get(pid, 0),
                points=before[pid],
                opponents=frozenset(o for r in played for o in r.entrants if o != pid),
                starts=tuple(r.entrants[0] == pid for r in sorted(played, key=_round_of)),
                byes=sum(1 for r in mine if r.is_bye),
                floats=tuple(floats[pid]),
            )
        )
    return out


def _round_of(result: GameResult) -> int:
    return result.round


def _points(seeds: Sequence[int], results: Sequence[GameResult]) -> dict[int, float]:
    points: dict[int, float] = dict.fromkeys(seeds, 0.0)
    for r in results:
        for pid, pts in zip(r.entrants, r.points, strict=True):
            points[pid] = points.get(pid, 0.0) + pts
    return points


def _line(
    pid: int,
    points: float,
    games: list[tuple[GameResult, int]],
    *,
    buchholz: float,
    sonneborn_berger: float,
) -> Standing:
    return Standing(
        entrant=pid,
        rank=0,
        points=points,
        games=sum(1 for r, _ in games if not r.is_bye),
        wins=sum(
            1
            for r, i in games
            if not r.is_bye and r.points[i] == max(r.points) and r.points.count(r.points[i]) == 1
        ),
        byes=sum(1 for r, _ in games if r.is_bye),
        buchholz=buchholz,
        sonneborn_berger=sonneborn_berger,
        score_total=sum(r.scores[i] for r, i in games if r.scores),
    )


def _ranked(lines: list[Standing], seeds: Sequence[int], keys: tuple[str, ...]) -> list[Standing]:
    seed_of = {pid: n for n, pid in enumerate(seeds)}

    def key(s: Standing) -> tuple[float, ...]:
        return tuple(-float(getattr(s, k)) for k in keys)

    ordered = sorted(lines, key=lambda s: (*key(s), seed_of[s.entrant]))
    out: list[Standing] = []
    for n, line in enumerate(ordered, start=1):
        rank = out[-1].rank if out and key(out[-1]) == key(line) else n
        out.append(replace(line, rank=rank))
    return out
