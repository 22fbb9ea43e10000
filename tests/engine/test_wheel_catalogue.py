"""The Wheel of Fortune's tiles (RULES.md §6.7, source TTS-WOF) against a fresh transcription:
the 72-tile deck and its 19 icons, the 9 expansion-design shapes (edges, fields and the cities
each field touches), and the board cells' catalogue entries (§6.2).
"""

from __future__ import annotations

from collections import Counter

import pytest

from app.engine import catalogue_json
from app.engine.expansions.wheel_of_fortune.tiles import wheel_deck_counts
from app.engine.tiles import (
    CITY,
    CLOISTER,
    EDGE_NAMES,
    FIELD,
    HALVES,
    ROAD,
    ROTATED,
    SIDES,
    TILE_TYPES,
)

#: §6.7: copies of each base-design letter in the Wheel of Fortune set.
WOF_COUNTS = dict(
    zip(
        "ABCDEFGHIJKLMNOPQRSTUVWX",
        [2, 4, 1, 4, 4, 2, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 2, 2, 1, 8, 8, 4, 1],
        strict=True,
    )
)
#: §6.7: the icon tiles.
ICONS = {
    "U.1": 3,
    "U.2": 3,
    "U.3": 2,
    "V.1": 4,
    "V.2": 2,
    "V.3": 1,
    "N.1": 2,
    "X.1": 1,
    "IC-RrRr.1": 1,
}
#: §6.7 table: id → (edges, city segments as side sets, road segments, cloister,
#: fields as (half-edges, sides of the cities touched)).
SHAPES = {
    "IC-CFR": ("CFRF", ["N"], ["S"], False, [("ENE ESE SSE", "N"), ("SSW WSW WNW", "N")]),
    "IC-RCc": ("CFRC", ["NW"], ["S"], False, [("SSW", "NW"), ("ENE ESE SSE", "NW")]),
    "IC-CcR": ("CRFC", ["NW"], ["E"], False, [("ENE", "NW"), ("ESE SSE SSW", "NW")]),
    "IC-CCC": ("CCFC", ["N", "E", "W"], [], False, [("SSE SSW", "NEW")]),
    "IC-LRFR": ("FRFR", [], ["E", "W"], True, [("NNW NNE ENE WNW", ""), ("ESE SSE SSW WSW", "")]),
    "IC-RrRr.1": (
        "RRRR",
        [],
        ["NW", "ES"],
        False,
        [("NNW WNW", ""), ("ESE SSE", ""), ("NNE ENE SSW WSW", "")],
    ),
    "TB-CR": ("CRFF", ["N"], ["E"], False, [("ENE", "N"), ("ESE SSE SSW WSW WNW", "N")]),
    "KS-RC": ("CFFR", ["N"], ["W"], False, [("WNW", "N"), ("ENE ESE SSE SSW WSW", "N")]),
    "KS-CRrR": (
        "CRRR",
        ["N"],
        ["W", "ES"],
        False,
        [("WNW", "N"), ("ENE SSW WSW", "N"), ("ESE SSE", "")],
    ),
}


def test_deck_counts_and_icons() -> None:
    """72 tiles: 63 of base design (E H J K L N P R V one fewer, D 4) + 9 new shapes; 19 icons,
    11 × 1, 5 × 2, 3 × 3; 7 cloisters, 10 pennants.
    """
    deck = wheel_deck_counts()
    assert sum(deck.values()) == 72
    base = Counter[str]()
    for tid, n in deck.items():
        base[tid.split(".")[0]] += n
    assert {k: base[k] for k in WOF_COUNTS} == WOF_COUNTS
    assert sum(WOF_COUNTS.values()) == 63
    assert {tid: n for tid, n in deck.items() if TILE_TYPES[tid].icon} == ICONS
    icons = Counter[int]()
    for tid, n in deck.items():
        icons[TILE_TYPES[tid].icon] += n
    assert icons == {0: 53, 1: 11, 2: 5, 3: 3}
    assert deck["V"] == 1 and "U" not in deck and "N" not in deck and "X" not in deck
    assert sum(n for tid, n in deck.items() if ROTATED[tid][0].cloister >= 0) == 7
    assert sum(n * s.pennants for tid, n in deck.items() for s in ROTATED[tid][0].segments) == 10
    assert {tid for tid in deck if "-" in tid} == set(SHAPES)


@pytest.mark.parametrize("tile", sorted(SHAPES))
def test_new_shapes_fields_and_city_adjacency(tile: str) -> None:
    """Edges, cities, roads, cloister, and every field with the cities it touches (§6.7)."""
    edges, cities, roads, cloister, fields = SHAPES[tile]
    rt = ROTATED[tile][0]
    assert "".join(EDGE_NAMES[e] for e in rt.edges) == edges
    segs = rt.segments
    assert sorted("".join(SIDES[s] for s in g.sides) for g in segs if g.kind == CITY) == sorted(
        "".join(sorted(c, key="NESW".index)) for c in cities
    )
    assert sorted("".join(SIDES[s] for s in g.sides) for g in segs if g.kind == ROAD) == sorted(
        "".join(sorted(r, key="NESW".index)) for r in roads
    )
    assert any(g.kind == CLOISTER for g in segs) == cloister
    assert all(g.pennants == 0 for g in segs)
    got = {
        (
            frozenset(HALVES[h] for h in g.halves),
            frozenset(SIDES[x] for c in g.cities for x in segs[c].sides),
        )
        for g in segs
        if g.kind == FIELD
    }
    assert got == {(frozenset(h.split()), frozenset(c)) for h, c in fields}


def test_board_cells_in_the_catalogue() -> None:
    """The 16 cells WHEEL-xy: count 0, flagged ``board``, inner sides ``-``."""
    entries = {t["id"]: t for t in catalogue_json()}
    cells = [entries[f"WHEEL-{x}{y}"] for x in range(4) for y in range(4)]
    assert all(c["board"] and c["count"] == 0 for c in cells)
    assert entries["WHEEL-00"]["edges"] == "C--F" and entries["WHEEL-33"]["edges"] == "-FR-"
    assert entries["WHEEL-11"]["segments"] == []
    assert not any(t["board"] for t in entries.values() if not t["id"].startswith("WHEEL-"))
