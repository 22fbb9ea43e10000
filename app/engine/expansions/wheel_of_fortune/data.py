"""Carcassonne: Wheel of Fortune — the wheel's segments and crown spaces, and the board's place.

Source: RULES.md §6.2 (the board), §6.3 (crown spaces), §6.7 (the 72 tiles and their wheel
icons), all from **TTS-WOF** — GitHub ``DinnerBuffet/TTSCarcassonne`` (MIT), commit
``234f6ba98c0424649f319bafa290f33eec10e05b``: ``tile_data/wheel of fortune - wheel/`` (the board
cut into 16 cells), ``tile_data/wheel of fortune/`` (the land tiles) and
``scripts/game_logic.ttslua`` (segments and crown scoring). A modder typed that data from the
real components; S004's own (damaged) tile table independently confirms the icon split. The one
reading the project had to make is D's count (§6.7, §8 question 4): TTS-WOF holds 3 D, S004
says 72 tiles, so D is 4 here — :data:`.tiles.WHEEL_DECK` keeps it one field.

The components that are tiles (the board's 16 cells, the deck and its icon copies) are the
Wheel's tile table (:mod:`.tiles`: ``WHEEL_BOARD``, ``WHEEL_DECK``, ``WHEEL_ICON_TILES``), which
the registry adds to the catalogue; this module holds what only the Wheel's rules read:

* :data:`SEGMENTS`: the six segments clockwise from Fortune with their crown spaces (§6.3).
* :data:`BOARD_CELLS`: where the engine puts the board's cells down (x 0..3 east, y 0..3
  south; Fortune at the top), each an ordinary catalogue tile ``WHEEL-xy`` at rotation 0.
"""

from __future__ import annotations

from app.engine.expansions.wheel_of_fortune.tiles import WHEEL_BOARD, wheel_cell_id

#: (x, y) → (tile id, rotation) of the 16 board cells, as the engine puts them down.
BOARD_CELLS: dict[tuple[int, int], tuple[str, int]] = {
    pos: (wheel_cell_id(pos), 0) for pos in WHEEL_BOARD
}

#: Segments clockwise from Fortune (where the pig starts), with their crown spaces (§6.3).
SEGMENTS: tuple[tuple[str, int], ...] = (
    ("fortune", 1),
    ("tax", 2),
    ("famine", 1),
    ("storm", 2),
    ("inquisition", 1),
    ("plague", 2),
)

SEGMENT_NAMES: tuple[str, ...] = tuple(name for name, _ in SEGMENTS)
CROWNS: tuple[int, ...] = tuple(crowns for _, crowns in SEGMENTS)
PLAGUE_SEGMENT = SEGMENT_NAMES.index("plague")
