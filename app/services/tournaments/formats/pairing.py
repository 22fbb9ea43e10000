"""Pairing the rounds of a tournament: round-robin (Berger tables), Swiss and arena.

Pure functions over plain values: no I/O, no clock, no random state. The tournament service
stores entrants and results and asks this module who sits at which table next.

- **Round-robin** uses the FIDE Berger tables of ``caissify-pairings`` (FIDE Handbook C.05):
  every entrant meets every other once per cycle (``cycles=2``: a double round-robin with the
  start player swapped). An odd field gets one bye a round from the phantom entrant.
- **Swiss** (2-player games) uses the FIDE Dutch system of ``caissify-pairings``: score groups,
  no rematch, start-player balance (the library's colours: white = the seat that starts), the
  bye to the lowest score group. Its answer is checked: should it ever repeat a pairing or give
  a second bye, :func:`swiss_round` falls back to our own search, which never does either, and
  raises :class:`PairingImpossible` only when no such pairing exists.
- **Arena** tables (2-5 seats) are our own code: no library pairs multi-player pods.

A pairing is a :class:`Table`: its entrants in seat order (seat 0 starts); one entrant alone
is a bye.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from caissify_pairings import generate_pairings

#: Seats at an arena table.
MIN_TABLE, MAX_TABLE = 2, 5


class PairingImpossible(Exception):
    """No pairing of the round meets the format's rules (no rematch, at most one bye each)."""


@dataclass(frozen=True)
class Table:
    """One table of a round: ``entrants`` (ids) in seat order, seat 0 starts; one entrant
    alone is a bye.
    """

    number: int
    entrants: tuple[int, ...]

    @property
    def is_bye(self) -> bool:
        """True when the entrant sits alone (a bye)."""
        return len(self.entrants) == 1


@dataclass(frozen=True)
class SwissEntrant:
    """What the Swiss pairing needs of one entrant before a round.

    ``id``: the entrant; ``seed``: starting number (1 = top seed); ``rating``: for the initial
    order; ``points``: tournament points so far; ``opponents``: ids met before; ``starts``:
    for each game played, True when the entrant started it (the chess colour "white");
    ``byes``: byes received; ``floats``: per round, ``"up"``, ``"down"`` or ``"none"``.
    """

    id: int
    seed: int
    rating: int = 0
    points: float = 0.0
    opponents: frozenset[int] = frozenset()
    starts: tuple[bool, ...] = ()
    byes: int = 0
    floats: tuple[str, ...] = field(default=())


def round_robin_round(entrants: Sequence[int], round_number: int, cycles: int = 1) -> list[Table]:
    """The tables of round ``round_number`` (1-based) of a round-robin among ``entrants``
    (ids in seed order: the first is Berger number 1).

    ``cycles``: 1 (single) or 2 (double: the second cycle repeats the first with the starts
    swapped). Rounds: ``n - 1`` per cycle for an even field, ``n`` for an odd one (each
    entrant has one bye a cycle). Raises ``ValueError`` for a round outside the schedule or
    fewer than two entrants.
    """
    if len(entrants) < 2:
        raise ValueError("a round-robin needs at least two entrants")
    players = [
        {"id": pid, "name": str(pid), "starting_number": n, "score": 0.0, "rating": 0}
        for n, pid in enumerate(entrants, start=1)
    ]
    rows = generate_pairings(
        "round_robin",
        players,
        set(),
        round_number,
        round_robin_rounds(len(entrants), cycles),
        cycles=cycles,
    )
    return _tables_of(rows)


def round_robin_rounds(count: int, cycles: int = 1) -> int:
    """Rounds of a round-robin of ``count`` entrants and ``cycles`` cycles."""
    return (count - 1 + count % 2) * cycles


def swiss_round(
    entrants: Sequence[SwissEntrant], round_number: int, total_rounds: int
) -> list[Table]:
    """The tables of Swiss round ``round_number`` (1-based) of ``total_rounds``.

    Entrants are paired within score groups (FIDE Dutch system), never twice against the same
    opponent; the seat that starts balances each entrant's starts; with an odd field the bye
    goes to an entrant of the lowest score group who has had none. Raises
    :class:`PairingImpossible` when no pairing without rematch or second bye exists.
    """
    if len(entrants) < 2:
        raise PairingImpossible("a Swiss round needs at least two entrants")
    previous = {(e.id, o) for e in entrants for o in e.opponents}
    players = [
        {
            "id": e.id,
            "name": str(e.id),
            "score": float(e.points),
            "rating": e.rating,
            "starting_number": e.seed,
            "pairing_number": e.seed,
            "color_hist": ["white" if s else "black" for s in e.starts],
            "float_history": list(e.floats) if round_number > 1 else [],
            "bye_count": e.byes,
        }
        for e in entrants
    ]
    try:
        rows = generate_pairings("dutch", players, previous, round_number, total_rounds)
        tables = _tables_of(rows)
    except Exception:  # noqa: BLE001 - the library's failure is ours to recover from
        tables = []
    if tables and is_fair_swiss_round(entrants, tables):
        return tables
    return _fallback_swiss(entrants)


def is_fair_swiss_round(entrants: Sequence[SwissEntrant], tables: Sequence[Table]) -> bool:
    """True when ``tables`` seat every entrant exactly once, repeat no pairing, give at most
    one bye, and give it to someone without one before.
    """
    by_id = {e.id: e for e in entrants}
    seated = [pid for t in tables for pid in t.entrants]
    if sorted(seated) != sorted(by_id) or len(seated) != len(set(seated)):
        return False
    byes = [t for t in tables if t.is_bye]
    if len(byes) > 1 or any(by_id[t.entrants[0]].byes for t in byes):
        return False
    return all(
        len(t.entrants) == 2 and t.entrants[1] not in by_id[t.entrants[0]].opponents
        for t in tables
        if not t.is_bye
    )


def _fallback_swiss(entrants: Sequence[SwissEntrant]) -> list[Table]:
    """Our own Swiss search: order by points then seed, give the bye to the lowest-placed
    entrant without one whose absence leaves the rest pairable, then pair top-down with the
    nearest-placed entrant not met before (depth-first with backtracking).
    """
    order = sorted(entrants, key=lambda e: (-e.points, e.seed))
    bye: SwissEntrant | None = None
    rest = order
    if len(order) % 2:
        for candidate in reversed(order):
            if candidate.byes:
                continue
            remaining = [e for e in order if e.id != candidate.id]
            if _pair_down(remaining) is not None:
                bye, rest = candidate, remaining
                break
        else:
            raise PairingImpossible("no entrant can take the bye without a rematch")
    pairs = _pair_down(rest)
    if pairs is None:
        raise PairingImpossible("every pairing of the round repeats a game")
    tables = [Table(n, _start_order(a, b)) for n, (a, b) in enumerate(pairs, start=1)]
    if bye is not None:
        tables.append(Table(len(tables) + 1, (bye.id,)))
    return tables


def _pair_down(order: list[SwissEntrant]) -> list[tuple[SwissEntrant, SwissEntrant]] | None:
    if not order:
        return []
    first, others = order[0], order[1:]
    for i, other in enumerate(others):
        if other.id in first.opponents:
            continue
        rest = _pair_down(others[:i] + others[i + 1 :])
        if rest is not None:
            return [(first, other), *rest]
    return None


def _start_order(a: SwissEntrant, b: SwissEntrant) -> tuple[int, int]:
    """Seat order: the entrant who started fewer games starts; on a tie, the one who did not
    start the last game; then the higher-placed one.
    """

    def balance(e: SwissEntrant) -> tuple[int, int]:
        return (2 * sum(e.starts) - len(e.starts), 1 if e.starts and e.starts[-1] else 0)

    return (a.id, b.id) if balance(a) <= balance(b) else (b.id, a.id)


def arena_tables(
    waiting: Sequence[tuple[int, float]],
    seats: int = 2,
    last_opponents: dict[int, frozenset[int]] | None = None,
    first_number: int = 1,
) -> list[Table]:
    """Tables for the arena entrants now free: ``waiting`` is ``(id, points)`` pairs;
    ``seats``: the table size wanted (2-5).

    Entrants are ordered by points (then id) so that each table holds close scores. With two
    seats an entrant is not paired with their last opponent when another free entrant is
    available. Entrants that do not fill a table (fewer than ``seats``, or for tables of 3-5
    fewer than the smallest table of 2 spread over the others) keep waiting. Raises
    ``ValueError`` for ``seats`` outside 2-5.
    """
    if not MIN_TABLE <= seats <= MAX_TABLE:
        raise ValueError(f"an arena table seats {MIN_TABLE} to {MAX_TABLE}")
    last = last_opponents or {}
    order = [pid for pid, _ in sorted(waiting, key=lambda w: (-w[1], w[0]))]
    if seats == 2:
        groups = _arena_pairs(order, last)
    else:
        groups = [tuple(order[i : i + seats]) for i in range(0, len(order) - seats + 1, seats)]
        extra = order[len(groups) * seats :]
        # Spread the rest over the lowest tables (up to 5 seats) rather than leave them waiting.
        for n, pid in enumerate(extra):
            at = len(groups) - 1 - n % len(groups) if groups else -1
            if at >= 0 and len(groups[at]) < MAX_TABLE:
                groups[at] = (*groups[at], pid)
    return [Table(first_number + n, g) for n, g in enumerate(groups)]


def _arena_pairs(order: list[int], last: dict[int, frozenset[int]]) -> list[tuple[int, ...]]:
    free = list(order)
    pairs: list[tuple[int, ...]] = []
    while len(free) >= 2:
        first = free.pop(0)
        mate = next((p for p in free if p not in last.get(first, frozenset())), free[0])
        free.remove(mate)
        pairs.append((first, mate))
    return pairs


def _tables_of(rows: Iterable[dict[str, object]]) -> list[Table]:
    tables: list[Table] = []
    for row in sorted(rows, key=lambda r: (bool(r.get("bye")), int(str(r.get("table", 0))))):
        white, black = row.get("white_id"), row.get("black_id")
        ids = (
            (int(str(white)),)
            if black is None or row.get("bye")
            else (
                int(str(white)),
                int(str(black)),
            )
        )
        tables.append(Table(len(tables) + 1, ids))
    return tables
