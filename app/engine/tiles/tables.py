"""The base game's tiles as printed, A–X (RULES.md §2), in the mini-notation and orientation
described in :mod:`app.engine.tiles`, and :class:`TileType`, the form every tile table takes.

Each expansion owns its own tile table (the River's R1–R10 in :mod:`app.engine.expansions.river`,
RULES.md §5.1; the Wheel of Fortune's shapes, board cells and deck in
:mod:`app.engine.expansions.wheel_of_fortune.tiles`, §6.2 and §6.7), declared as the expansion's
``tile_types``; the registry adds them to the catalogue (:func:`app.engine.tiles.add_tile_types`).
Pure data: :mod:`app.engine.tiles` parses, rotates and checks it.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class TileType:
    """One kind of tile as printed, in catalogue orientation.

    ``edges`` is four letters N, E, S, W (``F R C I``); ``segments`` are the mini-notation strings
    described in :mod:`app.engine.tiles`; ``count`` is how many copies the set holds.
    """

    id: str
    count: int
    edges: str
    segments: tuple[str, ...]
    river: bool = False  # a tile with a river segment (the River's tiles, RULES.md §5.1)
    icon: int = 0  # a wheel icon (1–3) on a copy of the Wheel of Fortune's deck (§6.7), or 0
    board: bool = False  # a cell of a game board printed as tiles (count 0, never drawn; §6.2)


ALL_HALVES = "NNW NNE ENE ESE SSE SSW WSW WNW"

#: Base game, RULES.md §2 (72 tiles, D is also the start tile).
BASE_TILES: tuple[TileType, ...] = (
    TileType("A", 2, "FFRF", ("cloister", "road:S", f"field:{ALL_HALVES}")),
    TileType("B", 4, "FFFF", ("cloister", f"field:{ALL_HALVES}")),
    TileType("C", 1, "CCCC", ("city:NESW+",)),
    TileType("D", 4, "CRFR", ("city:N", "road:EW", "field:ENE WNW>N", "field:ESE SSE SSW WSW")),
    TileType("E", 5, "CFFF", ("city:N", "field:ENE ESE SSE SSW WSW WNW>N")),
    TileType("F", 2, "FCFC", ("city:EW+", "field:NNW NNE>E", "field:SSE SSW>E")),
    TileType("G", 1, "FCFC", ("city:EW", "field:NNW NNE>E", "field:SSE SSW>E")),
    TileType("H", 3, "CFCF", ("city:N", "city:S", "field:ENE ESE WSW WNW>N,S")),
    TileType("I", 2, "CFFC", ("city:N", "city:W", "field:ENE ESE SSE SSW>N,W")),
    TileType("J", 3, "CRRF", ("city:N", "road:ES", "field:ENE SSW WSW WNW>N", "field:ESE SSE")),
    TileType("K", 3, "CFRR", ("city:N", "road:SW", "field:ENE ESE SSE WNW>N", "field:SSW WSW")),
    TileType(
        "L",
        3,
        "CRRR",
        (
            "city:N",
            "road:E",
            "road:S",
            "road:W",
            "field:ENE WNW>N",
            "field:ESE SSE",
            "field:SSW WSW",
        ),
    ),
    TileType("M", 2, "CFFC", ("city:NW+", "field:ENE ESE SSE SSW>N")),
    TileType("N", 3, "CFFC", ("city:NW", "field:ENE ESE SSE SSW>N")),
    TileType("O", 2, "CRRC", ("city:NW+", "road:ES", "field:ENE SSW>N", "field:ESE SSE")),
    TileType("P", 3, "CRRC", ("city:NW", "road:ES", "field:ENE SSW>N", "field:ESE SSE")),
    TileType("Q", 1, "CCFC", ("city:NEW+", "field:SSE SSW>N")),
    TileType("R", 3, "CCFC", ("city:NEW", "field:SSE SSW>N")),
    TileType("S", 2, "CCRC", ("city:NEW+", "road:S", "field:SSE>N", "field:SSW>N")),
    TileType("T", 1, "CCRC", ("city:NEW", "road:S", "field:SSE>N", "field:SSW>N")),
    TileType("U", 8, "FRFR", ("road:EW", "field:NNW NNE ENE WNW", "field:ESE SSE SSW WSW")),
    TileType("V", 9, "FFRR", ("road:SW", "field:NNW NNE ENE ESE SSE WNW", "field:SSW WSW")),
    TileType(
        "W",
        4,
        "FRRR",
        ("road:E", "road:S", "road:W", "field:NNW NNE ENE WNW", "field:ESE SSE", "field:SSW WSW"),
    ),
    TileType(
        "X",
        1,
        "RRRR",
        (
            "road:N",
            "road:E",
            "road:S",
            "road:W",
            "field:WNW NNW",
            "field:NNE ENE",
            "field:ESE SSE",
            "field:SSW WSW",
        ),
    ),
)

#: The base game's start tile, put down at (0, 0) before the first draw (RULES.md §2).
START_TILE = "D"
