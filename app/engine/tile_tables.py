"""The tiles as printed: the base game's A–X, the River's R1–R10 and the 9 Wheel of Fortune
shapes of other expansions' designs, in the mini-notation and orientation described in
:mod:`app.engine.tiles` (RULES.md §2, §5.1, §6.7).

Pure data: :mod:`app.engine.tiles` parses, rotates and checks it, and adds the Wheel of
Fortune's icon copies and board cells (from :mod:`app.engine.wheel_data`).
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
    river: bool = False
    icon: int = 0  # Wheel of Fortune: the coloured wheel icon (1–3), 0 for none
    board: bool = False  # a cell of the Wheel of Fortune board (count 0, never drawn)


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

#: The River, RULES.md §5.1 (12 tiles; R1 the spring, R2 the lake).
RIVER_TILES: tuple[TileType, ...] = (
    TileType("R1", 1, "FIFF", ("river:E", f"field:{ALL_HALVES}"), river=True),
    TileType("R2", 1, "FFFI", ("river:W", f"field:{ALL_HALVES}"), river=True),
    TileType(
        "R3",
        1,
        "CICI",
        ("city:N", "city:S", "river:EW", "field:ENE WNW>N", "field:ESE WSW>S"),
        river=True,
    ),
    TileType(
        "R4",
        1,
        "CIRI",
        (
            "city:N",
            "river:EW",
            "road:S",
            "field:ENE>N",
            "field:WNW>N",
            "field:ESE SSE",
            "field:SSW WSW",
        ),
        river=True,
    ),
    TileType(
        "R5",
        1,
        "FIRI",
        (
            "river:EW",
            "cloister",
            "road:S",
            "field:NNW NNE ENE WNW",
            "field:ESE SSE",
            "field:SSW WSW",
        ),
        river=True,
    ),
    TileType(
        "R6",
        1,
        "IRIR",
        ("river:NS", "road:EW", "field:NNW WNW", "field:NNE ENE", "field:ESE SSE", "field:SSW WSW"),
        river=True,
    ),
    TileType(
        "R7",
        2,
        "FIFI",
        ("river:EW", "field:NNW NNE ENE WNW", "field:ESE SSE SSW WSW"),
        river=True,
    ),
    TileType(
        "R8", 1, "CIIC", ("city:NW", "river:ES", "field:ENE SSW>N", "field:ESE SSE"), river=True
    ),
    TileType(
        "R9",
        1,
        "RRII",
        ("road:NE", "river:WS", "field:NNW WNW ESE SSE", "field:NNE ENE", "field:SSW WSW"),
        river=True,
    ),
    TileType(
        "R10",
        2,
        "FFII",
        ("river:WS", "field:NNW NNE ENE ESE SSE WNW", "field:SSW WSW"),
        river=True,
    ),
)

START_TILE = "D"
SPRING = "R1"
LAKE = "R2"


#: Wheel of Fortune: the 9 tiles of other expansions' designs, RULES.md §6.7 (JCZ orientation;
#: no inns, cathedrals, goods or pennants on these copies). Counts and icons: ``wheel_data``.
WHEEL_SHAPES: tuple[TileType, ...] = (
    TileType(
        "IC-CFR", 1, "CFRF", ("city:N", "road:S", "field:ENE ESE SSE>N", "field:SSW WSW WNW>N")
    ),
    TileType("IC-RCc", 1, "CFRC", ("city:NW", "road:S", "field:SSW>N", "field:ENE ESE SSE>N")),
    TileType("IC-CcR", 1, "CRFC", ("city:NW", "road:E", "field:ENE>N", "field:ESE SSE SSW>N")),
    TileType("IC-CCC", 1, "CCFC", ("city:N", "city:E", "city:W", "field:SSE SSW>N,E,W")),
    TileType(
        "IC-LRFR",
        1,
        "FRFR",
        ("cloister", "road:E", "road:W", "field:NNW NNE ENE WNW", "field:ESE SSE SSW WSW"),
    ),
    TileType(
        "IC-RrRr",
        1,
        "RRRR",
        ("road:NW", "road:ES", "field:NNW WNW", "field:ESE SSE", "field:NNE ENE SSW WSW"),
    ),
    TileType(
        "TB-CR", 1, "CRFF", ("city:N", "road:E", "field:ENE>N", "field:ESE SSE SSW WSW WNW>N")
    ),
    TileType(
        "KS-RC", 1, "CFFR", ("city:N", "road:W", "field:WNW>N", "field:ENE ESE SSE SSW WSW>N")
    ),
    TileType(
        "KS-CRrR",
        1,
        "CRRR",
        ("city:N", "road:W", "road:ES", "field:WNW>N", "field:ENE SSW WSW>N", "field:ESE SSE"),
    ),
)
