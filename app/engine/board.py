"""The board: where a tile fits, putting it down, and the features its segments join.

Features are tracked incrementally with a union–find over tile segments (``GameState.parent``;
per-root tiles, open edges, pennants, followers and, for fields, the cities they touch), and
the empty cells next to the board (the frontier) carry their edge constraints, so legality
checks never scan the board. Rulebook references are to ``RULES.md`` (§3.2b placement).
Constraints an expansion adds to placement (the River's course) are the expansion's
(:mod:`app.engine.expansions`); this module matches edges only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

from app.engine.state import GameState, Pos, find
from app.engine.tiles import (
    OPPOSITE_HALF,
    RING,
    ROTATED,
    SIDE_DELTAS,
    RotatedTile,
)

_EMPTY: frozenset[int] = frozenset()


def constraint(board: dict[Pos, tuple[RotatedTile, int]], pos: Pos) -> tuple[int, int]:
    """(mask, value) of the edges a tile at ``pos`` must show, two bits per side."""
    x, y = pos
    mask = value = 0
    for side in range(4):
        dx, dy = SIDE_DELTAS[side]
        nb = board.get((x + dx, y + dy))
        if nb is not None:
            mask |= 3 << (2 * side)
            value |= nb[0].edges[(side + 2) % 4] << (2 * side)
    return mask, value


def fits(s: GameState, rt: RotatedTile, pos: Pos) -> bool:
    """Whether tile ``rt`` (rotated) may go on the empty cell ``pos``: it touches the board
    and every edge matches its neighbour's (RULES.md §3.2b).
    """
    con = s.frontier.get(pos)
    return con is not None and rt.code & con[0] == con[1]


def placements(
    s: GameState,
    tile: str,
    first_only: bool = False,
    cells: Iterable[Pos] | None = None,
    accept: Callable[[RotatedTile, Pos], bool] | None = None,
) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where ``tile``'s edges fit (:func:`fits`), in frontier order.

    ``cells``: only these cells (default: the whole frontier); ``accept``: a further test of
    each fitting ``(rotated tile, cell)``. With ``first_only`` the first one only (does it fit
    anywhere?).
    """
    rots = ROTATED[tile]
    out: list[tuple[int, int, int]] = []
    frontier = s.frontier
    codes = [rt.code for rt in rots]
    for pos in frontier if cells is None else cells:
        con = frontier.get(pos)
        if con is None:
            continue
        mask, value = con
        for k in range(4):
            if codes[k] & mask == value and (accept is None or accept(rots[k], pos)):
                out.append((pos[0], pos[1], k * 90))
                if first_only:
                    return out
    return out


def union(s: GameState, a: int, b: int) -> None:
    """Join the features of segments ``a`` and ``b`` across a shared edge (road/city/river)."""
    parent = s.parent
    ra, rb = find(parent, a), find(parent, b)
    if ra == rb:
        s.f_open[ra] -= 2  # the feature closed on itself (a loop, or a ring of city)
        return
    if len(s.f_tiles[ra]) < len(s.f_tiles[rb]):
        ra, rb = rb, ra
    parent[rb] = ra
    s.f_tiles[ra] = s.f_tiles[ra] | s.f_tiles[rb]
    s.f_open[ra] += s.f_open[rb] - 2
    s.f_pennants[ra] += s.f_pennants[rb]
    if s.f_followers[rb]:
        s.f_followers[ra] += s.f_followers[rb]


def union_field(s: GameState, a: int, b: int) -> None:
    """Join two field segments that meet through a shared half-edge (RULES.md §1.2)."""
    parent = s.parent
    ra, rb = find(parent, a), find(parent, b)
    if ra == rb:
        return
    if len(s.f_tiles[ra]) < len(s.f_tiles[rb]):
        ra, rb = rb, ra
    parent[rb] = ra
    s.f_tiles[ra] = s.f_tiles[ra] | s.f_tiles[rb]
    if s.f_followers[rb]:
        s.f_followers[ra] += s.f_followers[rb]
    if s.f_cities[rb]:
        s.f_cities[ra] = s.f_cities[ra] | s.f_cities[rb]


def put_tile(s: GameState, rt: RotatedTile, pos: Pos) -> None:
    """Put a tile on the board and join its segments to its neighbours' (no checks).

    What the placement means to an expansion (the River's open end) is the caller's to tell it
    (``Expansion.tile_placed``).
    """
    base = len(s.parent)
    cell = frozenset((pos,))
    for i, seg in enumerate(rt.segments):
        s.parent.append(base + i)
        s.seg_pos.append(pos)
        s.seg_kind.append(seg.kind)
        s.f_tiles.append(cell)
        s.f_open.append(len(seg.sides))
        s.f_pennants.append(seg.pennants)
        s.f_followers.append(())
        s.f_cities.append(frozenset(base + c for c in seg.cities) if seg.cities else _EMPTY)
    board = s.board
    board[pos] = (rt, base)
    x, y = pos
    for side in range(4):
        dx, dy = SIDE_DELTAS[side]
        nb = board.get((x + dx, y + dy))
        if nb is None:
            continue
        nrt, nbase = nb
        local = rt.side_seg[side]
        if local >= 0:
            union(s, base + local, nbase + nrt.side_seg[(side + 2) % 4])
        for h in (2 * side, 2 * side + 1):
            local = rt.half_seg[h]
            if local >= 0:
                union_field(s, base + local, nbase + nrt.half_seg[OPPOSITE_HALF[h]])
    # The frontier: this cell is filled; its empty neighbours get new constraints.
    s.frontier.pop(pos, None)
    for dx, dy in SIDE_DELTAS:
        npos = (x + dx, y + dy)
        if npos not in board:
            s.frontier[npos] = constraint(board, npos)


def spot_of(s: GameState, gid: int) -> tuple[Pos, str]:
    """The cell and canonical spot name (``city:N``...) of segment ``gid``."""
    pos = s.seg_pos[gid]
    rt, base = s.board[pos]
    return pos, rt.segments[gid - base].name


def cloister_neighbours(s: GameState, pos: Pos) -> int:
    """How many of the 8 cells around ``pos`` hold a tile."""
    x, y = pos
    board = s.board
    return sum(1 for dx, dy in RING if (x + dx, y + dy) in board)


def completed_cities(s: GameState, field_root: int) -> set[int]:
    """Roots of the distinct completed cities a farm supplies (RULES.md §4.3 step 2)."""
    parent = s.parent
    out: set[int] = set()
    for gid in s.f_cities[field_root]:
        root = find(parent, gid)
        if s.f_open[root] == 0:
            out.add(root)
    return out
