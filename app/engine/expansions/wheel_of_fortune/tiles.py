"""Carcassonne: Wheel of Fortune — its tile table: the components that are tiles.

RULES.md §6.2 (the board cut into 16 cells), §6.7 (the 72 tiles, their wheel icons, and the 9
shapes of other expansions' designs), from TTS-WOF — GitHub ``DinnerBuffet/TTSCarcassonne``
(MIT), commit ``234f6ba98c0424649f319bafa290f33eec10e05b`` (see
:mod:`app.engine.expansions.wheel_of_fortune.data` for the source notes).

:data:`WHEEL_TILES` is what the expansion adds to the tile catalogue (its ``tile_types``: the
icon copies ``U.1``…, the plain expansion-design shapes, and the 16 board cells ``WHEEL-xy``);
:func:`wheel_deck_counts` is its 72-tile deck, which replaces the base game's. Checked at import
(:func:`_check`), as the base catalogue is.
"""

from __future__ import annotations

from app.engine.tiles import HALVES, INNER_EDGE, OPPOSITE_HALF, SIDE_DELTAS, SIDES
from app.engine.tiles.tables import BASE_TILES, TileType

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
#: expansions' designs (shapes in :data:`WHEEL_SHAPES`).
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


def _board_tile(pos: tuple[int, int], sides: str, halves: str) -> TileType:
    """A board cell of RULES.md §6.2 (:data:`WHEEL_BOARD`) as a mini-notation tile."""
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


#: The tile types the Wheel of Fortune adds to the catalogue (its ``tile_types``).
WHEEL_TILES: tuple[TileType, ...] = _wheel_tiles()


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


def _check() -> None:
    """Self-check of the data (RULES.md §6.2, §6.7); raises AssertionError.

    The deck: 72 tiles, 19 with an icon (11 × 1, 5 × 2, 3 × 3), 7 cloisters, 10 pennants. The
    board: inner sides (``-``) face board cells, outer sides face off the board, and each inner
    half-edge meets the same board feature (or the wheel) on the neighbouring cell.
    """
    types = {t.id: t for t in BASE_TILES + WHEEL_TILES}
    deck = wheel_deck_counts()
    assert sum(deck.values()) == 72
    icons = sorted(types[tid].icon for tid, n in deck.items() for _ in range(n))
    assert [i for i in icons if i] == [1] * 11 + [2] * 5 + [3] * 3
    assert sum(n for tid, n in deck.items() if "cloister" in types[tid].segments) == 7
    pennants = sum(n * seg.count("+") for tid, n in deck.items() for seg in types[tid].segments)
    assert pennants == 10
    for (x, y), (sides, cell_halves) in WHEEL_BOARD.items():
        labels = cell_halves.split()
        for s, letter in enumerate(sides):
            dx, dy = SIDE_DELTAS[s]
            there = WHEEL_BOARD.get((x + dx, y + dy))
            assert (letter == INNER_EDGE) == (there is not None), ((x, y), s)
            if there is not None:
                for h in (2 * s, 2 * s + 1):
                    assert there[1].split()[OPPOSITE_HALF[h]] == labels[h], ((x, y), h)


_check()
