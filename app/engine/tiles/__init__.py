"""The tile catalogue: base tiles A–X, the River tiles R1–R10 and the Wheel of Fortune's tiles
and board cells, parsed and rotated into the engine's lookup tables (the printed tables
themselves are in :mod:`app.engine.tiles.tables`).

This module only describes tiles; it never looks at a board. Everything here is computed once at
import time and is immutable afterwards.

Conventions (RULES.md §1):

* Sides are numbered clockwise ``N=0, E=1, S=2, W=3``.
* Field half-edges are numbered clockwise from the north-west corner::

          NNW(0) NNE(1)
        +------+------+
   WNW(7)|             |ENE(2)
        |             |
   WSW(6)|             |ESE(3)
        +------+------+
          SSW(5) SSE(4)

  Half-edge ``h`` lies on side ``h // 2``.
* A rotation is clockwise, in degrees (0, 90, 180, 270). Rotating 90° moves side ``s`` to
  ``(s + 1) % 4`` and half-edge ``h`` to ``(h + 2) % 8``.
* Edge kinds are ``F`` field, ``R`` road, ``C`` city, ``I`` river (edge codes 0..3). A Wheel
  of Fortune board cell marks its inner sides ``-`` (facing another board cell, never matched;
  packed as a field edge, and allowed to be half field, half wheel — RULES.md §6.2).

Each tile lists its segments in the orientation of RULES.md's tables (JCloisterZone orientation):
``city:<sides>`` (``+`` marks a pennant), ``road:<sides>``, ``river:<sides>``, ``cloister`` and
``field:<half-edges>`` followed by ``>`` and the sides of the city segments that field touches on
the tile (RULES.md §1.2: "field → city adjacency is decided inside a tile").
"""

from __future__ import annotations

from dataclasses import dataclass, field

from app.engine.tiles.tables import (
    BASE_TILES,
    RIVER_TILES,
    WHEEL_BOARD,
    WHEEL_DECK,
    WHEEL_FARM_CITY,
    WHEEL_ICON_TILES,
    WHEEL_SHAPES,
    TileType,
    wheel_cell_id,
)

SIDES = ("N", "E", "S", "W")
HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
SIDE_INDEX = {name: i for i, name in enumerate(SIDES)}
HALF_INDEX = {name: i for i, name in enumerate(HALVES)}
ROTATIONS = (0, 90, 180, 270)

# Edge codes, two bits per side when packed.
FIELD_EDGE, ROAD_EDGE, CITY_EDGE, RIVER_EDGE = 0, 1, 2, 3
EDGE_CODES = {"F": FIELD_EDGE, "R": ROAD_EDGE, "C": CITY_EDGE, "I": RIVER_EDGE}
EDGE_NAMES = {v: k for k, v in EDGE_CODES.items()}
#: The inner side of a Wheel of Fortune board cell (RULES.md §6.2).
INNER_EDGE = "-"

# Segment kinds.
CITY, ROAD, FIELD, CLOISTER, RIVER = 0, 1, 2, 3, 4
KIND_NAMES = ("city", "road", "field", "cloister", "river")
KIND_INDEX = {name: i for i, name in enumerate(KIND_NAMES)}
ROLE_NAMES = ("knight", "thief", "farmer", "monk", "")

#: (dx, dy) of the neighbour beyond each side; y grows to the south.
SIDE_DELTAS = ((0, -1), (1, 0), (0, 1), (-1, 0))
#: The half-edge of the neighbour that meets half-edge ``h`` (my NNW meets the north tile's SSW).
OPPOSITE_HALF = (5, 4, 7, 6, 1, 0, 3, 2)
#: The 8 cells around a cell, for cloisters.
RING = ((-1, -1), (0, -1), (1, -1), (1, 0), (1, 1), (0, 1), (-1, 1), (-1, 0))


@dataclass(frozen=True)
class Segment:
    """One connected part of a placed tile, in **board** orientation.

    ``sides``: the sides (0..3) a city, road or river segment reaches; ``halves``: the half-edges
    (0..7) of a field segment; ``pennants``: pennants on a city segment; ``cities``: local indices
    of the city segments a field touches; ``name``: the canonical follower spot (``city:N``,
    ``field:SSW``, ``cloister``) — the first side or half-edge in clockwise order from N / NNW.
    """

    kind: int
    sides: tuple[int, ...]
    halves: tuple[int, ...]
    pennants: int
    cities: tuple[int, ...]
    name: str


@dataclass(frozen=True)
class RotatedTile:
    """A tile type turned by ``rotation`` degrees clockwise, with lookup tables for the engine.

    ``edges[s]`` is the edge code on board side ``s``; ``code`` packs them two bits per side;
    ``side_seg[s]`` / ``half_seg[h]`` give the local index of the city/road/river segment on side
    ``s`` or field segment on half-edge ``h`` (``-1`` where none); ``spots`` maps every accepted
    spot name (any side or half-edge of a segment) to a local segment index.
    """

    tile: str
    rotation: int
    edges: tuple[int, int, int, int]
    code: int
    segments: tuple[Segment, ...]
    side_seg: tuple[int, int, int, int]
    half_seg: tuple[int, ...]
    spots: dict[str, int] = field(hash=False, compare=False)
    cloister: int
    river_sides: tuple[int, ...]


def _board_tile(pos: tuple[int, int], sides: str, halves: str) -> TileType:
    """A board cell of RULES.md §6.2 (``tile_tables.WHEEL_BOARD``) as a mini-notation tile."""
    labels = halves.split()
    cities: dict[str, list[str]] = {}
    segments: list[str] = []
    for side, letter in enumerate(sides):
        if letter == "C":
            cities.setdefault(labels[2 * side], []).append(SIDES[side])
    segments += [f"city:{''.join(c)}" for c in cities.values()]
    segments += [f"road:{SIDES[side]}" for side, letter in enumerate(sides) if letter == "R"]
    farms: dict[str, list[str]] = {}
    for h, label in enumerate(labels):
        if label.startswith("farm"):
            farms.setdefault(label, []).append(HALVES[h])
    for farm, names in farms.items():
        city = cities.get(WHEEL_FARM_CITY[farm])
        segments.append(f"field:{' '.join(names)}" + (f">{city[0]}" if city else ""))
    return TileType(wheel_cell_id(pos), 0, sides, tuple(segments), board=True)


def _wheel_tiles() -> tuple[TileType, ...]:
    """Wheel of Fortune tile types: the copies with icons (``U.1``), the 9 expansion-design
    shapes (the plain ones), and the 16 board cells (count 0).
    """
    shapes = {t.id: t for t in BASE_TILES + WHEEL_SHAPES}
    out: list[TileType] = []
    for t in WHEEL_SHAPES:
        plain = WHEEL_DECK[t.id] - len(WHEEL_ICON_TILES.get(t.id, ()))
        if plain:
            out.append(TileType(t.id, plain, t.edges, t.segments))
    for tid, icons in WHEEL_ICON_TILES.items():
        t = shapes[tid]
        for n in sorted(set(icons)):
            out.append(TileType(f"{tid}.{n}", icons.count(n), t.edges, t.segments, icon=n))
    for pos, (sides, halves) in WHEEL_BOARD.items():
        out.append(_board_tile(pos, sides, halves))
    return tuple(out)


WHEEL_TILES: tuple[TileType, ...] = _wheel_tiles()

TILE_TYPES: dict[str, TileType] = {t.id: t for t in BASE_TILES + RIVER_TILES + WHEEL_TILES}


def wheel_deck_counts() -> dict[str, int]:
    """Tile id → copies in the Wheel of Fortune deck (72 tiles, all drawable; RULES.md §6.7):
    plain copies under the type's id, icon copies under ``<type>.<n>``.
    """
    counts: dict[str, int] = {}
    for tid, copies in WHEEL_DECK.items():
        icons = WHEEL_ICON_TILES.get(tid, ())
        if copies > len(icons):
            counts[tid] = copies - len(icons)
        for n in sorted(set(icons)):
            counts[f"{tid}.{n}"] = icons.count(n)
    return counts


def _parse_segments(
    tile: TileType,
) -> list[tuple[int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]]:
    """Parse a tile's mini-notation into (kind, sides, halves, pennants, city-sides) tuples."""
    parsed: list[tuple[int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]] = []
    for spec in tile.segments:
        kind_name, _, rest = spec.partition(":")
        kind = KIND_INDEX[kind_name]
        if kind == CLOISTER:
            parsed.append((kind, (), (), 0, ()))
        elif kind == FIELD:
            halves_part, _, cities_part = rest.partition(">")
            halves = tuple(sorted(HALF_INDEX[h] for h in halves_part.split()))
            city_sides = tuple(SIDE_INDEX[c] for c in cities_part.split(",") if c)
            parsed.append((kind, (), halves, 0, city_sides))
        else:
            pennants = rest.count("+")
            sides = tuple(sorted(SIDE_INDEX[c] for c in rest.replace("+", "")))
            parsed.append((kind, sides, (), pennants, ()))
    return parsed


def _rotate(tile: TileType, rotation: int) -> RotatedTile:
    k = rotation // 90
    parsed = _parse_segments(tile)
    edges_list = [0, 0, 0, 0]
    for side, letter in enumerate(tile.edges):
        edges_list[(side + k) % 4] = FIELD_EDGE if letter == INNER_EDGE else EDGE_CODES[letter]
    edges = (edges_list[0], edges_list[1], edges_list[2], edges_list[3])
    code = sum(e << (2 * s) for s, e in enumerate(edges))
    side_seg = [-1, -1, -1, -1]
    half_seg = [-1] * 8
    # First pass: rotated sides/halves, to resolve which local city a field touches.
    rotated: list[tuple[int, tuple[int, ...], tuple[int, ...], int, tuple[int, ...]]] = []
    for kind, sides, halves, pennants, city_sides in parsed:
        rsides = tuple(sorted((s + k) % 4 for s in sides))
        rhalves = tuple(sorted((h + 2 * k) % 8 for h in halves))
        rcity_sides = tuple((s + k) % 4 for s in city_sides)
        rotated.append((kind, rsides, rhalves, pennants, rcity_sides))
    for index, (_kind, rsides, rhalves, _, _) in enumerate(rotated):
        for s in rsides:
            side_seg[s] = index
        for h in rhalves:
            half_seg[h] = index
    segments: list[Segment] = []
    spots: dict[str, int] = {}
    cloister = -1
    river_sides: tuple[int, ...] = ()
    for index, (kind, rsides, rhalves, pennants, rcity_sides) in enumerate(rotated):
        cities = tuple(sorted({side_seg[s] for s in rcity_sides}))
        if kind == CLOISTER:
            name = "cloister"
            cloister = index
            spots[name] = index
        elif kind == FIELD:
            name = f"field:{HALVES[rhalves[0]]}"
            for h in rhalves:
                spots[f"field:{HALVES[h]}"] = index
        else:
            name = f"{KIND_NAMES[kind]}:{SIDES[rsides[0]]}"
            if kind == RIVER:
                river_sides = rsides
            else:
                for s in rsides:
                    spots[f"{KIND_NAMES[kind]}:{SIDES[s]}"] = index
        segments.append(Segment(kind, rsides, rhalves, pennants, cities, name))
    return RotatedTile(
        tile=tile.id,
        rotation=rotation,
        edges=edges,
        code=code,
        segments=tuple(segments),
        side_seg=(side_seg[0], side_seg[1], side_seg[2], side_seg[3]),
        half_seg=tuple(half_seg),
        spots=spots,
        cloister=cloister,
        river_sides=river_sides,
    )


#: ``ROTATED[tile_id][rotation // 90]``: every tile type in all four rotations.
ROTATED: dict[str, tuple[RotatedTile, RotatedTile, RotatedTile, RotatedTile]] = {
    tid: (_rotate(t, 0), _rotate(t, 90), _rotate(t, 180), _rotate(t, 270))
    for tid, t in TILE_TYPES.items()
}


def _check_catalogue() -> None:
    """Self-check of the data (RULES.md §2 "Totals and checks", §6.2, §6.7); raises
    AssertionError.

    Every side of every tile is a full city, road, river or field edge — except the inner sides
    of the Wheel of Fortune board cells (``-``), which face other board cells and may carry no
    feature, or field on one half and wheel on the other; there, each half must meet the same
    board feature (or the wheel) on the neighbouring cell.
    """
    assert sum(t.count for t in BASE_TILES) == 72
    assert sum(t.count for t in RIVER_TILES) == 12
    wof = wheel_deck_counts()
    assert sum(wof.values()) == 72
    assert sum(n for tid, n in wof.items() if TILE_TYPES[tid].icon) == 19
    assert (
        sorted(
            TILE_TYPES[tid].icon for tid, n in wof.items() for _ in range(n) if TILE_TYPES[tid].icon
        )
        == [1] * 11 + [2] * 5 + [3] * 3
    )
    assert sum(n for tid, n in wof.items() if ROTATED[tid][0].cloister >= 0) == 7
    assert (
        sum(
            n * p
            for tid, n in wof.items()
            for p in (s.pennants for s in ROTATED[tid][0].segments)
            if p
        )
        == 10
    )
    for tid, rots in ROTATED.items():
        rt = rots[0]
        inner = TILE_TYPES[tid].edges
        for s, e in enumerate(rt.edges):
            halves = (rt.half_seg[2 * s], rt.half_seg[2 * s + 1])
            if inner[s] == INNER_EDGE:
                assert TILE_TYPES[tid].board, (tid, s)
                assert rt.side_seg[s] == -1, (tid, s)
            elif e == CITY_EDGE:
                assert halves == (-1, -1), (tid, s)
                assert rt.segments[rt.side_seg[s]].kind == CITY, (tid, s)
            elif e == FIELD_EDGE:
                assert -1 not in halves and halves[0] == halves[1], (tid, s)
                assert rt.side_seg[s] == -1, (tid, s)
            else:
                # A road or river edge has field on both halves; on A, R1 and R2 both halves
                # belong to one field that wraps round the stub.
                assert -1 not in halves, (tid, s)
                kind = ROAD if e == ROAD_EDGE else RIVER
                assert rt.segments[rt.side_seg[s]].kind == kind, (tid, s)
    # The board: inner sides face board cells, outer sides face off the board; inner half-edges
    # meet the same feature (or the wheel) on both cells.
    board = WHEEL_BOARD
    for (x, y), (sides, cell_halves) in board.items():
        labels = cell_halves.split()
        for s, letter in enumerate(sides):
            dx, dy = SIDE_DELTAS[s]
            there = board.get((x + dx, y + dy))
            assert (letter == INNER_EDGE) == (there is not None), ((x, y), s)
            if there is not None:
                for h in (2 * s, 2 * s + 1):
                    assert there[1].split()[OPPOSITE_HALF[h]] == labels[h], ((x, y), h)


_check_catalogue()


def catalogue_json() -> list[dict[str, object]]:
    """The catalogue for clients: one dict per tile type (catalogue orientation).

    Shape: ``{"id", "count", "edges": "CRFR", "river": bool, "icon": 0..3, "board": bool (a
    Wheel of Fortune board cell; inner sides ``-``), "segments": [{"kind", "sides":
    ["N"], "halves": ["NNW"], "pennants", "cities": [local index], "name"}]}``.
    """
    out: list[dict[str, object]] = []
    for tid, t in TILE_TYPES.items():
        rt = ROTATED[tid][0]
        out.append(
            {
                "id": tid,
                "count": t.count,
                "edges": t.edges,
                "river": t.river,
                "icon": t.icon,
                "board": t.board,
                "segments": [
                    {
                        "kind": KIND_NAMES[seg.kind],
                        "sides": [SIDES[s] for s in seg.sides],
                        "halves": [HALVES[h] for h in seg.halves],
                        "pennants": seg.pennants,
                        "cities": list(seg.cities),
                        "name": seg.name,
                    }
                    for seg in rt.segments
                ],
            }
        )
    return out
