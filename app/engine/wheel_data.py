"""Carcassonne: Wheel of Fortune — the physical components, as data.

#####################################################################################
#  PROVISIONAL DATA (RULES.md §6.2, §6.3, §6.7, §8): the board's land layout, the   #
#  crown spaces per segment and the deck's wheel icons are NOT known from any       #
#  readable source. What follows are the documented placeholders. Correct them here #
#  (data only — no code needs to change) once a physical copy has been checked.    #
#####################################################################################

* ``BOARD_CELLS``: the wheel board covers the 4×4 cells x 0..3, y 0..3. Each cell is a tile of
  the tile catalogue, placed at a rotation; its land joins features and scores like any tile and
  counts as one tile (RULES.md §6.2). Placeholder: every cell is ``WHEEL`` (fields on all sides,
  one field per cell), so the board's outer field halves form one farm round the wheel. A real
  layout would add cell tile types with roads and cities (the notation of ``tiles.py``).
* ``SEGMENTS``: the six wheel segments in clockwise order from Fortune, with their crown spaces.
  Placeholder: Fortune 0, Tax 2, Famine 2, Storm 1, Inquisition 2, Plague 2 (9 in all).
* ``ICON_TILES``: base letter → wheel icon numbers carried by that many copies. Placeholder:
  72 base tiles with base counts; icon 1 on U×2, V×2, E, B, W; icon 2 on U, V, E, W, J, N;
  icon 3 on V, B, K, P, R, L (19 icon tiles). A copy with an icon has the id ``<letter>.<n>``.
"""

from __future__ import annotations

#: Tile types that exist only on the wheel board: (id, edges N E S W, segments).
BOARD_TILE_TYPES: tuple[tuple[str, str, tuple[str, ...]], ...] = (
    ("WHEEL", "FFFF", ("field:NNW NNE ENE ESE SSE SSW WSW WNW",)),
)

#: (x, y) → (tile id, rotation) for the 16 cells of the board (PROVISIONAL).
BOARD_CELLS: dict[tuple[int, int], tuple[str, int]] = {
    (x, y): ("WHEEL", 0) for y in range(4) for x in range(4)
}

#: Segments clockwise from Fortune (where the pig starts), with crown spaces (PROVISIONAL).
SEGMENTS: tuple[tuple[str, int], ...] = (
    ("fortune", 0),
    ("tax", 2),
    ("famine", 2),
    ("storm", 1),
    ("inquisition", 2),
    ("plague", 2),
)

#: Base letter → icon numbers on that many of its copies (PROVISIONAL, 19 icon tiles).
ICON_TILES: dict[str, tuple[int, ...]] = {
    "U": (1, 1, 2),
    "V": (1, 1, 2, 3),
    "E": (1, 2),
    "B": (1, 3),
    "W": (1, 2),
    "J": (2,),
    "N": (2,),
    "K": (3,),
    "P": (3,),
    "R": (3,),
    "L": (3,),
}
