"""The tile catalogue: the base game's tiles A–X (:mod:`app.engine.tiles.tables`) and the tile
tables the expansions own, parsed and rotated into the engine's lookup tables.

This module names no expansion: each expansion declares its tile table as its ``tile_types``
(:class:`app.engine.expansions.base.Expansion`), and the registry (:mod:`app.engine.expansions`)
adds them once, at import, in its fixed order (:func:`add_tile_types`): the River's R1–R10
(RULES.md §5.1), then the Wheel of Fortune's icon copies, shapes and board cells (§6.2, §6.7).

This module only describes tiles; it never looks at a board. Everything here is computed at
import time and never changes afterwards.

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

from collections.abc import Iterable
from dataclasses import dataclass, field

from app.engine.tiles.tables import BASE_TILES, TileType

SIDES = ("N", "E", "S", "W")
HALVES = ("NNW", "NNE", "ENE", "ESE", "SSE", "SSW", "WSW", "WNW")
SIDE_INDEX = {name: i for i, name in enumerate(SIDES)}
HALF_INDEX = {name: i for i, name in enumerate(HALVES)}
ROTATIONS = (0, 90, 180, 270)

# Edge codes, two bits per side when packed.
FIELD_EDGE, ROAD_EDGE, CITY_EDGE, RIVER_EDGE = 0, 1, 2, 3
EDGE_CODES = {"F": FIELD_EDGE, "R": ROAD_EDGE, "C": CITY_EDGE, "I": RIVER_EDGE}
EDGE_NAMES = {v: k for k, v in EDGE_CODES.items()}
#: The inner side of a board cell printed as a tile (the Wheel of Fortune's, RULES.md §6.2).
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


#: Tile id → tile type: the base game's, then each expansion's table in the registry's order.
TILE_TYPES: dict[str, TileType] = {}
#: ``ROTATED[tile_id][rotation // 90]``: every tile type in all four rotations.
ROTATED: dict[str, tuple[RotatedTile, RotatedTile, RotatedTile, RotatedTile]] = {}


def _check_tile(t: TileType, rots: tuple[RotatedTile, ...]) -> None:
    """Self-check of one tile type (RULES.md §2 "Totals and checks", §6.2); raises
    AssertionError.

    Every side is a full city, road, river or field edge — except the inner sides of a board
    printed as tiles (``-``, RULES.md §6.2), which face other board cells and may carry no
    feature, or field on one half and something else on the other.
    """
    rt = rots[0]
    for s, e in enumerate(rt.edges):
        halves = (rt.half_seg[2 * s], rt.half_seg[2 * s + 1])
        if t.edges[s] == INNER_EDGE:
            assert t.board, (t.id, s)
            assert rt.side_seg[s] == -1, (t.id, s)
        elif e == CITY_EDGE:
            assert halves == (-1, -1), (t.id, s)
            assert rt.segments[rt.side_seg[s]].kind == CITY, (t.id, s)
        elif e == FIELD_EDGE:
            assert -1 not in halves and halves[0] == halves[1], (t.id, s)
            assert rt.side_seg[s] == -1, (t.id, s)
        else:
            # A road or river edge has field on both halves; on A, R1 and R2 both halves
            # belong to one field that wraps round the stub.
            assert -1 not in halves, (t.id, s)
            kind = ROAD if e == ROAD_EDGE else RIVER
            assert rt.segments[rt.side_seg[s]].kind == kind, (t.id, s)


def add_tile_types(types: Iterable[TileType]) -> None:
    """Add a tile table to the catalogue (:data:`TILE_TYPES`, :data:`ROTATED`), checking each
    type. Called at import only: here for the base game's tiles, and by the registry
    (:mod:`app.engine.expansions`) for each expansion's ``tile_types``. Raises AssertionError
    on a bad tile or an id already in the catalogue.
    """
    for t in types:
        assert t.id not in TILE_TYPES, f"tile id {t.id} is in the catalogue already"
        rots = (_rotate(t, 0), _rotate(t, 90), _rotate(t, 180), _rotate(t, 270))
        _check_tile(t, rots)
        TILE_TYPES[t.id] = t
        ROTATED[t.id] = rots


add_tile_types(BASE_TILES)
assert sum(t.count for t in BASE_TILES) == 72  # RULES.md §2


def catalogue_json() -> list[dict[str, object]]:
    """The catalogue for clients: one dict per tile type (catalogue orientation).

    Shape: ``{"id", "count", "edges": "CRFR", "river": bool, "icon": 0..3 (a Wheel of Fortune
    icon copy), "board": bool (a Wheel of Fortune board cell; inner sides ``-``), "segments":
    [{"kind", "sides": ["N"], "halves": ["NNW"], "pennants", "cities": [local index],
    "name"}]}``.
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
