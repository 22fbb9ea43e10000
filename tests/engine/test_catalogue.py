"""The tile catalogue (app/engine/tiles/) against a fresh transcription of RULES.md §2 and §5.1,
and the engine's purity (standard library and app.engine imports only).

The tables below were copied from RULES.md's tile tables by hand, independently of tiles.py:
counts, edges N E S W, pennants, cloister, and every field segment as (half-edges, city sides it
touches on the tile).
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

from app.engine.expansions.river import RIVER_TILES
from app.engine.tiles import (
    CITY,
    CLOISTER,
    EDGE_NAMES,
    FIELD,
    HALVES,
    ROTATED,
    SIDES,
)
from app.engine.tiles.tables import BASE_TILES

Fields = list[tuple[str, str]]  # (half-edges, city sides touched)

#: RULES.md §2: letter → (count, edges N E S W, pennant, cloister, fields).
BASE: dict[str, tuple[int, str, bool, bool, Fields]] = {
    "A": (2, "FFRF", False, True, [("NNW NNE ENE ESE SSE SSW WSW WNW", "")]),
    "B": (4, "FFFF", False, True, [("NNW NNE ENE ESE SSE SSW WSW WNW", "")]),
    "C": (1, "CCCC", True, False, []),
    "D": (4, "CRFR", False, False, [("ENE WNW", "N"), ("ESE SSE SSW WSW", "")]),
    "E": (5, "CFFF", False, False, [("ENE ESE SSE SSW WSW WNW", "N")]),
    "F": (2, "FCFC", True, False, [("NNW NNE", "EW"), ("SSE SSW", "EW")]),
    "G": (1, "FCFC", False, False, [("NNW NNE", "EW"), ("SSE SSW", "EW")]),
    "H": (3, "CFCF", False, False, [("ENE ESE WSW WNW", "NS")]),
    "I": (2, "CFFC", False, False, [("ENE ESE SSE SSW", "NW")]),
    "J": (3, "CRRF", False, False, [("ENE SSW WSW WNW", "N"), ("ESE SSE", "")]),
    "K": (3, "CFRR", False, False, [("ENE ESE SSE WNW", "N"), ("SSW WSW", "")]),
    "L": (3, "CRRR", False, False, [("ENE WNW", "N"), ("ESE SSE", ""), ("SSW WSW", "")]),
    "M": (2, "CFFC", True, False, [("ENE ESE SSE SSW", "NW")]),
    "N": (3, "CFFC", False, False, [("ENE ESE SSE SSW", "NW")]),
    "O": (2, "CRRC", True, False, [("ENE SSW", "NW"), ("ESE SSE", "")]),
    "P": (3, "CRRC", False, False, [("ENE SSW", "NW"), ("ESE SSE", "")]),
    "Q": (1, "CCFC", True, False, [("SSE SSW", "NEW")]),
    "R": (3, "CCFC", False, False, [("SSE SSW", "NEW")]),
    "S": (2, "CCRC", True, False, [("SSE", "NEW"), ("SSW", "NEW")]),
    "T": (1, "CCRC", False, False, [("SSE", "NEW"), ("SSW", "NEW")]),
    "U": (8, "FRFR", False, False, [("NNW NNE ENE WNW", ""), ("ESE SSE SSW WSW", "")]),
    "V": (9, "FFRR", False, False, [("NNW NNE ENE ESE SSE WNW", ""), ("SSW WSW", "")]),
    "W": (4, "FRRR", False, False, [("NNW NNE ENE WNW", ""), ("ESE SSE", ""), ("SSW WSW", "")]),
    "X": (
        1,
        "RRRR",
        False,
        False,
        [("WNW NNW", ""), ("NNE ENE", ""), ("ESE SSE", ""), ("SSW WSW", "")],
    ),
}

#: RULES.md §5.1 (I = river).
RIVER: dict[str, tuple[int, str, bool, bool, Fields]] = {
    "R1": (1, "FIFF", False, False, [("NNW NNE ENE ESE SSE SSW WSW WNW", "")]),
    "R2": (1, "FFFI", False, False, [("NNW NNE ENE ESE SSE SSW WSW WNW", "")]),
    "R3": (1, "CICI", False, False, [("ENE WNW", "N"), ("ESE WSW", "S")]),
    "R4": (1, "CIRI", False, False, [("ENE", "N"), ("WNW", "N"), ("ESE SSE", ""), ("SSW WSW", "")]),
    "R5": (1, "FIRI", False, True, [("NNW NNE ENE WNW", ""), ("ESE SSE", ""), ("SSW WSW", "")]),
    "R6": (
        1,
        "IRIR",
        False,
        False,
        [("NNW WNW", ""), ("NNE ENE", ""), ("ESE SSE", ""), ("SSW WSW", "")],
    ),
    "R7": (2, "FIFI", False, False, [("NNW NNE ENE WNW", ""), ("ESE SSE SSW WSW", "")]),
    "R8": (1, "CIIC", False, False, [("ENE SSW", "NW"), ("ESE SSE", "")]),
    "R9": (1, "RRII", False, False, [("NNW WNW ESE SSE", ""), ("NNE ENE", ""), ("SSW WSW", "")]),
    "R10": (2, "FFII", False, False, [("NNW NNE ENE ESE SSE WNW", ""), ("SSW WSW", "")]),
}


def catalogue_fields(tile: str) -> set[tuple[frozenset[str], frozenset[str]]]:
    """The engine's field segments of ``tile`` at rotation 0, as (halves, city sides)."""
    rt = ROTATED[tile][0]
    out: set[tuple[frozenset[str], frozenset[str]]] = set()
    for seg in rt.segments:
        if seg.kind == FIELD:
            cities = {SIDES[s] for c in seg.cities for s in rt.segments[c].sides}
            out.add((frozenset(HALVES[h] for h in seg.halves), frozenset(cities)))
    return out


@pytest.mark.parametrize("tile", sorted({**BASE, **RIVER}))
def test_tile_matches_the_rules_table(tile: str) -> None:
    """Count, edges, pennant, cloister and fields (with the cities they touch) per RULES.md."""
    count, edges, pennant, cloister, fields = {**BASE, **RIVER}[tile]
    types = {t.id: t for t in BASE_TILES + RIVER_TILES}
    assert types[tile].count == count
    rt = ROTATED[tile][0]
    assert "".join(EDGE_NAMES[e] for e in rt.edges) == edges
    assert sum(s.pennants for s in rt.segments if s.kind == CITY) == int(pennant)
    assert (rt.cloister >= 0) == cloister
    assert sum(1 for s in rt.segments if s.kind == CLOISTER) == int(cloister)
    expected = {(frozenset(h.split()), frozenset(c)) for h, c in fields}
    assert catalogue_fields(tile) == expected


def test_catalogue_totals() -> None:
    """RULES.md §2 "Totals and checks": 72 base tiles, 10 pennants, 6 cloisters; 12 River."""
    assert sum(t.count for t in BASE_TILES) == 72
    assert sum(t.count for t in RIVER_TILES) == 12
    assert sum(t.count for t in BASE_TILES for s in ROTATED[t.id][0].segments if s.pennants) == 10
    assert sum(t.count for t in BASE_TILES if ROTATED[t.id][0].cloister >= 0) == 6
    assert {t.id for t in BASE_TILES} == set(BASE) and {t.id for t in RIVER_TILES} == set(RIVER)


@pytest.mark.parametrize("tile", sorted({**BASE, **RIVER}))
def test_rotation_turns_edges_and_half_edges_clockwise(tile: str) -> None:
    """RULES.md §1.1–1.2: a 90° turn moves side s to s+1 and half-edge i to i+2."""
    base = ROTATED[tile][0]
    for k in range(4):
        rt = ROTATED[tile][k]
        assert rt.rotation == 90 * k
        for side in range(4):
            assert rt.edges[(side + k) % 4] == base.edges[side]
        for half in range(8):
            here, there = base.half_seg[half], rt.half_seg[(half + 2 * k) % 8]
            assert (here < 0) == (there < 0)
            if here >= 0:
                assert base.segments[here].halves == tuple(
                    sorted((h - 2 * k) % 8 for h in rt.segments[there].halves)
                )


# ---------------------------------------------------------------- purity

ENGINE = Path(__file__).parents[2] / "app" / "engine"


@pytest.mark.parametrize(
    "path", sorted(ENGINE.rglob("*.py")), ids=lambda p: str(p.relative_to(ENGINE))
)
def test_engine_imports_only_the_standard_library_and_itself(path: Path) -> None:
    """ARCHITECTURE: the engine is pure — every module under app/engine (its subpackages
    too) imports only the standard library and app.engine (checked on the source with ast).
    """
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom):
            if node.level:  # relative: inside the package
                continue
            names = [node.module or ""]
            if node.module == "app":
                names = [f"app.{alias.name}" for alias in node.names]
        else:
            continue
        for name in names:
            top = name.split(".")[0]
            ok = (
                top in sys.stdlib_module_names
                or name == "app.engine"
                or name.startswith("app.engine.")
            )
            assert ok, f"{path.name}:{node.lineno} imports {name}"


def test_engine_package_has_modules() -> None:
    """The purity check above really sees the engine's modules."""
    names = {str(p.relative_to(ENGINE)) for p in ENGINE.rglob("*.py")}
    assert {"__init__.py", "game.py", "tiles/__init__.py", "record/__init__.py"} <= names
    assert "expansions/wheel_of_fortune/rules.py" in names
