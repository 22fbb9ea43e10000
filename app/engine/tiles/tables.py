"""The tiles as printed: the base game's A–X, the River's R1–R10 and the 9 Wheel of Fortune
shapes of other expansions' designs, in the mini-notation and orientation described in
:mod:`app.engine.tiles` (RULES.md §2, §5.1, §6.7).

The Wheel of Fortune's physical components that are tiles (the board cut into 16 cells, the
deck's copies and their wheel icons) are here too, at the end. Pure data: :mod:`app.engine.tiles`
parses, rotates and checks it, and builds the icon copies and board cells from it.
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
#: no inns, cathedrals, goods or pennants on these copies). Counts and icons: :data:`WHEEL_DECK`.
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

# ---------------------------------------------------------------- Wheel of Fortune components
# RULES.md §6.2 (the board), §6.7 (the 72 tiles and their wheel icons), from TTS-WOF — GitHub
# ``DinnerBuffet/TTSCarcassonne`` (MIT), commit ``234f6ba98c0424649f319bafa290f33eec10e05b``
# (see :mod:`app.engine.expansions.wheel_of_fortune.data` for the source notes). The catalogue
# needs them (board cells and icon copies are tiles); the Wheel's rules are the expansion's.

#: (x, y) → (N, E, S, W side letters, the eight half-edges NNW NNE ENE ESE SSE SSW WSW WNW).
WHEEL_BOARD: dict[tuple[int, int], tuple[str, str]] = {
    (0, 0): ("C--F", "cityA cityA farm1 w w farm1 farm1 farm1"),
    (1, 0): ("F---", "farm1 farm1 farm1 w w w w farm1"),
    (2, 0): ("R---", "farm1 farm2 farm2 w w w w farm1"),
    (3, 0): ("FF--", "farm2 farm2 farm2 farm2 farm2 w w farm2"),
    (0, 1): ("---R", "farm1 w w w w farm3 farm3 farm1"),
    (1, 1): ("----", "w w w w w w w w"),
    (2, 1): ("----", "w w w w w w w w"),
    (3, 1): ("-F--", "w farm2 farm2 farm2 farm2 w w w"),
    (0, 2): ("---F", "farm3 w w w w farm3 farm3 farm3"),
    (1, 2): ("----", "w w w w w w w w"),
    (2, 2): ("----", "w w w w w w w w"),
    (3, 2): ("-C--", "w farm2 cityB cityB farm2 w w w"),
    (0, 3): ("--CC", "farm3 w w farm3 cityC cityC cityC cityC"),
    (1, 3): ("--F-", "w w w farm3 farm3 farm3 farm3 w"),
    (2, 3): ("--F-", "w w w farm3 farm3 farm3 farm3 w"),
    (3, 3): ("-FR-", "w farm2 farm2 farm2 farm2 farm3 farm3 w"),
}


def wheel_cell_id(pos: tuple[int, int]) -> str:
    """The tile id of the board cell at ``pos``: ``WHEEL-xy`` (``WHEEL-30`` is x 3, y 0)."""
    return f"WHEEL-{pos[0]}{pos[1]}"


#: Board farm → the one board city it touches (§6.2).
WHEEL_FARM_CITY: dict[str, str] = {"farm1": "cityA", "farm2": "cityB", "farm3": "cityC"}

#: Tile type → copies in the 72-tile deck, icon copies included (§6.7): the 63 tiles of base-game
#: design (the base set less one each of E, H, J, K, L, N, P, R, V) and the 9 tiles of other
#: expansions' designs (shapes in ``tile_tables.WHEEL_SHAPES``).
WHEEL_DECK: dict[str, int] = {
    "A": 2,
    "B": 4,
    "C": 1,
    "D": 4,  # S004's 72 tiles; TTS-WOF holds 3 (its start D removed?) — RULES.md §6.7, §8 q. 4
    "E": 4,
    "F": 2,
    "G": 1,
    "H": 2,
    "I": 2,
    "J": 2,
    "K": 2,
    "L": 2,
    "M": 2,
    "N": 2,
    "O": 2,
    "P": 2,
    "Q": 1,
    "R": 2,
    "S": 2,
    "T": 1,
    "U": 8,
    "V": 8,
    "W": 4,
    "X": 1,
    "IC-CFR": 1,
    "IC-RCc": 1,
    "IC-CcR": 1,
    "IC-CCC": 1,
    "IC-LRFR": 1,
    "IC-RrRr": 1,
    "TB-CR": 1,
    "KS-RC": 1,
    "KS-CRrR": 1,
}

#: Tile type → the wheel icon of each of its copies that carries one (19 in all: 11 × 1,
#: 5 × 2, 3 × 3; §6.7). The other copies of the type are plain.
WHEEL_ICON_TILES: dict[str, tuple[int, ...]] = {
    "U": (1, 1, 1, 2, 2, 2, 3, 3),
    "V": (1, 1, 1, 1, 2, 2, 3),
    "N": (1, 1),
    "X": (1,),
    "IC-RrRr": (1,),
}
