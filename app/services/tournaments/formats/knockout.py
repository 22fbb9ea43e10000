"""A knock-out bracket (2-player games): who meets whom each round, who goes through, and the
bracket as the tournament page draws it.

Pure functions over plain values (no I/O). Our own code: the pairing libraries we use
(``caissify-pairings``) pair Swiss and round-robin only, and a single-elimination bracket is a
few lines.

- **Seeds.** The organiser's seeded list (:func:`seeding`: the numbers they put in order,
  the rest after them by number), else starting numbers (1 = top seed) — for a knock-out
  seeded from a Swiss its final standings (its entrants are numbered in rank order).
- **The bracket** has ``size`` = the next power of two slots, in the standard order (seed 1
  meets seed ``size``, 2 meets ``size - 1``, …; seeds 1 and 2 can meet only in the final). A
  field short of a power of two leaves seeds beyond it absent: their would-be opponents — the
  top seeds — get a **bye** in round 1.
- **Each round** table ``j`` is the winners of the previous round's tables ``2j - 1`` and
  ``2j``; the better seed sits in seat 0 (and starts).
- **Who goes through**: the one with more points from the game (a win: 1, a draw ½ each); a
  **drawn** game (equal final scores, or a draw the organiser set) sends the **better seed**
  through.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Protocol

from typing_extensions import TypedDict

from app.services.tournaments.formats.pairing import Table


class PlayedTable(Protocol):
    """A paired table as the bracket reads it (a tournament's game row): its pairing ``id``,
    ``round``, ``table_number``, ``entrants`` by seat, ``points`` (None until decided) and
    ``match_id`` (None for a bye).
    """

    @property
    def id(self) -> int:
        """The pairing's id."""
        ...

    @property
    def round(self) -> int:
        """The round, from 1."""
        ...

    @property
    def table_number(self) -> int:
        """The table's number in its round, from 1."""
        ...

    @property
    def entrants(self) -> Sequence[int]:
        """Starting numbers by seat."""
        ...

    @property
    def points(self) -> Sequence[float] | None:
        """Tournament points by seat; None until decided."""
        ...

    @property
    def match_id(self) -> str | None:
        """Its match; None for a bye."""
        ...


class SeededEvent(Protocol):
    """A tournament as the bracket reads it: its ``format`` and the organiser's ``seeds``."""

    @property
    def format(self) -> str:
        """``knockout``, or another format (no bracket)."""
        ...

    @property
    def seeds(self) -> Sequence[int] | None:
        """The organiser's seeded starting numbers, top seed first; None: by number."""
        ...


class Entered(Protocol):
    """An entrant as the bracket reads it: starting ``number`` and ``status``."""

    @property
    def number(self) -> int:
        """The starting number."""
        ...

    @property
    def status(self) -> str:
        """``registered``, ``checked_in``, ``withdrawn`` or ``dropped``."""
        ...


class BracketTable(TypedDict):
    """A table of the bracket: ``entrants`` two slots (a number, or null while unknown; one
    alone: a bye), the ``winner`` once decided, its ``pairing`` id and ``match_id`` once paired.
    """

    table: int
    entrants: list[int | None]
    winner: int | None
    pairing: int | None
    match_id: str | None


def seeding(seeds: Sequence[int] | None, numbers: Iterable[int]) -> list[int]:
    """The entrants ``numbers`` in seed order, top seed first: those in the organiser's
    ``seeds`` in its order, then the others by starting number.
    """
    field = set(numbers)
    listed = [n for n in dict.fromkeys(seeds or ()) if n in field]
    return listed + sorted(field - set(listed))


def ranks(order: Sequence[int]) -> dict[int, int]:
    """``{entrant: seed}`` (1 = top seed) of a seed order."""
    return {n: i + 1 for i, n in enumerate(order)}


def bracket_size(entrants: int) -> int:
    """The slots of the bracket: the smallest power of two at least ``entrants`` (≥ 2)."""
    size = 2
    while size < entrants:
        size *= 2
    return size


def rounds_for(entrants: int) -> int:
    """Rounds of a knock-out of ``entrants`` players (2 → 1, 3–4 → 2, 5–8 → 3, …)."""
    return bracket_size(entrants).bit_length() - 1


def seed_order(size: int) -> list[int]:
    """Seeds (1-based) by bracket slot for a bracket of ``size`` (a power of two):
    ``seed_order(8) == [1, 8, 4, 5, 2, 7, 3, 6]`` — slots ``2k`` and ``2k + 1`` meet in round 1.
    """
    order = [1]
    while len(order) < size:
        n = 2 * len(order)
        order = [x for s in order for x in (s, n + 1 - s)]
    return order


def first_round(seeded: Sequence[int]) -> list[Table]:
    """Round 1 of the bracket: ``seeded`` are entrant ids, best seed first. Table ``j`` holds
    slots ``2j - 2`` and ``2j - 1``; an absent seed leaves its opponent alone (a bye).
    """
    order = seed_order(bracket_size(len(seeded)))
    tables = []
    for j in range(len(order) // 2):
        pair = [order[2 * j], order[2 * j + 1]]
        present = sorted(s for s in pair if s <= len(seeded))
        tables.append(Table(j + 1, tuple(seeded[s - 1] for s in present)))
    return tables


def winner(
    entrants: Sequence[int], points: Sequence[float], rank: dict[int, int] | None = None
) -> int:
    """Who goes through from a decided table: the most points; on equal points the better
    seed (``rank``: ``{entrant: seed}``; without it the lower starting number). A bye's lone
    entrant.
    """
    best = max(points)
    level = [n for n, p in zip(entrants, points, strict=True) if p == best]
    return min(level, key=lambda n: (rank or {}).get(n, n))


def next_round(
    previous: Sequence[tuple[int, Sequence[int], Sequence[float]]],
    rank: dict[int, int] | None = None,
) -> list[Table]:
    """The round after ``previous``: its decided tables as ``(table number, entrants,
    points)``. Table ``j`` seats the winners of tables ``2j - 1`` and ``2j``, better seed first
    (``rank`` as in :func:`winner`).
    """
    by_table = {number: winner(ents, pts, rank) for number, ents, pts in previous}
    tables = []
    for j in range(1, len(by_table) // 2 + 1):
        pair = sorted((by_table[2 * j - 1], by_table[2 * j]), key=lambda n: (rank or {}).get(n, n))
        tables.append(Table(j, tuple(pair)))
    return tables


def bracket(
    entrants: int,
    games: Sequence[PlayedTable],
    rank: dict[int, int] | None = None,
    order: Sequence[int] = (),
) -> list[list[BracketTable]]:
    """The bracket by round for the page: every round's tables, those not paired yet with the
    entrants known so far. ``games``: the tournament's games (``round``, ``table_number``,
    ``entrants``, ``points``, ``id``, ``match_id``). Each table: ``{"table", "entrants":
    [number | null, number | null] (one alone: a bye), "winner": number | null, "pairing":
    id | null, "match_id"}``. ``order``: the seed order, to show round 1 before it is paired.
    """
    if entrants < 2:
        return []
    size = bracket_size(entrants)
    played = {(int(g.round), int(g.table_number)): g for g in games}
    out: list[list[BracketTable]] = []
    winners: dict[int, int | None] = {}
    planned = {t.number: list(t.entrants) for t in first_round(order)} if order else {}
    for r in range(1, rounds_for(entrants) + 1):
        line: list[BracketTable] = []
        now: dict[int, int | None] = {}
        for j in range(1, size // 2**r + 1):
            g = played.get((r, j))
            if g is not None:
                seated = [int(n) for n in g.entrants]
                ents: list[int | None] = list(seated)
                won = None if g.points is None else winner(seated, g.points, rank)
                line.append(
                    {
                        "table": j,
                        "entrants": ents,
                        "winner": won,
                        "pairing": g.id,
                        "match_id": g.match_id,
                    }
                )
            else:
                ents = (
                    [winners.get(2 * j - 1), winners.get(2 * j)]
                    if r > 1
                    else list(planned.get(j, [None, None]))
                )
                won = None
                line.append(
                    {
                        "table": j,
                        "entrants": ents,
                        "winner": None,
                        "pairing": None,
                        "match_id": None,
                    }
                )
            now[j] = won
        out.append(line)
        winners = now
    return out


def bracket_of(
    row: SeededEvent, people: Sequence[Entered], games: Sequence[PlayedTable]
) -> list[list[BracketTable]] | None:
    """Tournament ``row``'s bracket (:func:`bracket`) when it is a knock-out, else None: the
    field of round 1 once started, the checked-in entrants (``people``) before, in the seed
    order (``row.seeds``, else starting numbers).
    """
    if row.format != "knockout":
        return None
    first = {int(n) for g in games if g.round == 1 for n in g.entrants}
    field = first or {int(e.number) for e in people if e.status == "checked_in"}
    order = seeding(row.seeds, field)
    return bracket(len(field), games, ranks(order), order)
