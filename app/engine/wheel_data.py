"""Carcassonne: Wheel of Fortune — the physical components, as data.

Source: RULES.md §6.2 (the board), §6.3 (crown spaces), §6.7 (the 72 tiles and their wheel
icons), all from **TTS-WOF** — GitHub ``DinnerBuffet/TTSCarcassonne`` (MIT), commit
``234f6ba98c0424649f319bafa290f33eec10e05b``: ``tile_data/wheel of fortune - wheel/`` (the board
cut into 16 cells), ``tile_data/wheel of fortune/`` (the land tiles) and
``scripts/game_logic.ttslua`` (segments and crown scoring). A modder typed that data from the
real components; S004's own (damaged) tile table independently confirms the icon split. The one
reading the project had to make is D's count (§6.7, §8 question 4): TTS-WOF holds 3 D, S004
says 72 tiles, so D is 4 here — :data:`DECK` keeps it one field.

* :data:`BOARD`: the §6.2 per-cell table, one row per cell of the 4×4 board (x 0..3 east,
  y 0..3 south; Fortune at the top). Each cell is an ordinary tile of the catalogue (id
  ``WHEEL-xy``, rotation 0) whose land joins features and counts as one tile. A side is ``C``,
  ``R`` or ``F`` on the board's outside and ``-`` on the inside (facing another board cell: never
  matched against a placed tile; it may be half field, half wheel). The eight half-edges
  (NNW … WNW) name the feature they belong to: ``cityA`` … ``farm3``, or ``w`` for the wheel (no
  feature). A road cell's road runs from its outer side to the wheel and ends there.
* :data:`FARM_CITY`: the board city each board farm touches (one each, §6.2).
* :data:`SEGMENTS`: the six segments clockwise from Fortune with their crown spaces (§6.3).
* :data:`DECK` and :data:`ICON_TILES`: copies per tile type, and the wheel icons some of those
  copies carry (§6.7). A copy with icon ``n`` has the id ``<type>.<n>`` (``U.1``, ``IC-RrRr.1``).
"""

from __future__ import annotations

#: (x, y) → (N, E, S, W side letters, the eight half-edges NNW NNE ENE ESE SSE SSW WSW WNW).
BOARD: dict[tuple[int, int], tuple[str, str]] = {
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


def cell_id(pos: tuple[int, int]) -> str:
    """The tile id of the board cell at ``pos``: ``WHEEL-xy`` (``WHEEL-30`` is x 3, y 0)."""
    return f"WHEEL-{pos[0]}{pos[1]}"


#: (x, y) → (tile id, rotation) of the 16 board cells, as the engine puts them down.
BOARD_CELLS: dict[tuple[int, int], tuple[str, int]] = {pos: (cell_id(pos), 0) for pos in BOARD}

#: Board farm → the one board city it touches (§6.2).
FARM_CITY: dict[str, str] = {"farm1": "cityA", "farm2": "cityB", "farm3": "cityC"}

#: Segments clockwise from Fortune (where the pig starts), with their crown spaces (§6.3).
SEGMENTS: tuple[tuple[str, int], ...] = (
    ("fortune", 1),
    ("tax", 2),
    ("famine", 1),
    ("storm", 2),
    ("inquisition", 1),
    ("plague", 2),
)

#: Tile type → copies in the 72-tile deck, icon copies included (§6.7): the 63 tiles of base-game
#: design (the base set less one each of E, H, J, K, L, N, P, R, V) and the 9 tiles of other
#: expansions' designs (shapes in ``tile_tables.WHEEL_SHAPES``).
DECK: dict[str, int] = {
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
ICON_TILES: dict[str, tuple[int, ...]] = {
    "U": (1, 1, 1, 2, 2, 2, 3, 3),
    "V": (1, 1, 1, 1, 2, 2, 3),
    "N": (1, 1),
    "X": (1,),
    "IC-RrRr": (1,),
}
