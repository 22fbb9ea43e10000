"""The River (RULES.md §5): river tiles first, from the spring to the lake, in one course.

Its tile table (§5.1) is here: :data:`RIVER_TILES`, the River's ``tile_types``.

Setup (§5.2 rules 1, 2, 6): the spring R1 is the start tile at (0, 0); the other river tiles
are shuffled and drawn first, then the lake R2, then the base game's land tiles (less the start
D). Placement (§5.2 rules 3–4): a river tile continues the river from its open end, and two
bends in a row never turn the same way. The River adds no phase, action, scoring or view key.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace
from typing import Any

from app.engine.board import fits, placements
from app.engine.errors import InvalidOptions
from app.engine.expansions.base import Expansion
from app.engine.rng import SplitMix64, shuffled
from app.engine.state import GameState, Pos
from app.engine.tiles import SIDE_DELTAS, TILE_TYPES, RotatedTile
from app.engine.tiles.tables import ALL_HALVES, TileType

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
assert sum(t.count for t in RIVER_TILES) == 12  # RULES.md §5.1

#: The spring, the River's start tile (§5.2 rule 1), and the lake, drawn last of the river (rule 2).
SPRING = "R1"
LAKE = "R2"


@dataclass(frozen=True, slots=True)
class RiverState:
    """The river's open end and its last bend.

    ``end``: ``((x, y), side)`` — the empty cell the river flows into and the side of that cell
    it enters by (0..3 = N, E, S, W), or None once the lake closed it; ``turn``: the last bend,
    +1 right, -1 left, 0 none yet.
    """

    end: tuple[Pos, int] | None
    turn: int

    def to_json(self) -> dict[str, Any]:
        """``{"end": [[x, y], side] | null, "turn"}``."""
        end = [list(self.end[0]), self.end[1]] if self.end else None
        return {"end": end, "turn": self.turn}

    @classmethod
    def from_json(cls, end: Any, turn: Any) -> RiverState:
        """From the JSON of ``end`` and ``turn``; raises ``TypeError``/``IndexError``."""
        return cls(((end[0][0], end[0][1]), end[1]) if end else None, int(turn))


def river_turn(rt: RotatedTile, in_side: int) -> int:
    """+1 for a right bend, -1 for a left bend, 0 for no bend, entering ``rt`` by ``in_side``."""
    if len(rt.river_sides) != 2:
        return 0
    out = rt.river_sides[0] if rt.river_sides[1] == in_side else rt.river_sides[1]
    heading = (in_side + 2) % 4
    if out == (heading + 1) % 4:
        return 1
    if out == (heading + 3) % 4:
        return -1
    return 0


def river_state(s: GameState) -> RiverState:
    """The River's part of ``s`` (a game played with the River)."""
    state = s.expansion_state[RIVER.id]
    assert isinstance(state, RiverState)
    return state


def continues(state: RiverState, rt: RotatedTile, pos: Pos) -> bool:
    """Whether river tile ``rt`` on ``pos`` continues the river from its open end without
    turning the same way as the previous bend (RULES.md §5.2 rules 3–4).
    """
    end = state.end
    if end is None or end[0] != pos or end[1] not in rt.river_sides:
        return False
    turn = river_turn(rt, end[1])
    return not (turn and turn == state.turn)


class River(Expansion):
    """The River as an :class:`~app.engine.expansions.base.Expansion` (RULES.md §5)."""

    id = "river"
    title = "the River"
    tile_types = RIVER_TILES
    base_tiles_only = True  # §5: added to the base game
    rules_flag = "river"  # the rules JSON's ``"river": true`` before ``expansions``

    def deck_counts(self, counts: dict[str, int]) -> dict[str, int]:
        """The base pile plus the river tiles, the spring excepted (it is the start tile)."""
        out = dict(counts)
        for t in RIVER_TILES:
            if t.id != SPRING:
                out[t.id] = t.count
        return out

    def shuffled_deck(self, land: list[str], rng: SplitMix64) -> list[str]:
        """The river tiles shuffled, then the lake, then the land tiles shuffled (§5.2)."""
        river = [t.id for t in RIVER_TILES if t.id not in (SPRING, LAKE) for _ in range(t.count)]
        return shuffled(river, rng) + [LAKE] + shuffled(land, rng)

    def draw_stage(self, tile: str) -> int:
        """0 for a river tile, 1 for the lake, 2 for a land tile (§5.2 rules 2 and 6)."""
        return 1 if tile == LAKE else 0 if TILE_TYPES[tile].river else 2

    def check_draw_order(self, draw_order: Sequence[str]) -> None:
        """RULES.md §5.2 rules 2 and 6 (record.md "draw_order"): the river tiles are drawn
        before the lake, and the lake before any land tile. A shorter test order may leave
        tiles out, but never changes that order. Raises :class:`InvalidOptions`.
        """
        stage = 0
        for tid in draw_order:
            now = self.draw_stage(tid)
            if now < stage:
                raise InvalidOptions(
                    f"with the River the river tiles come first, then the lake {LAKE}, then "
                    f"the land tiles; {tid} comes too late"
                )
            stage = now

    def start_tiles(self) -> list[tuple[Pos, str, int]]:
        """The spring R1 at (0, 0), rotation 0 (§5.2 rule 1)."""
        return [((0, 0), SPRING, 0)]

    def initial_state(self, players: int) -> RiverState:
        """No open end until the spring is placed."""
        return RiverState(None, 0)

    def placements(
        self, s: GameState, tile: str, first_only: bool
    ) -> list[tuple[int, int, int]] | None:
        """A river tile goes only on the river's open end, continuing it; land tiles are the
        base game's.
        """
        if not TILE_TYPES[tile].river:
            return None
        state = river_state(s)
        if state.end is None:
            return []
        return placements(
            s,
            tile,
            first_only,
            cells=(state.end[0],),
            accept=lambda rt, pos: continues(state, rt, pos),
        )

    def placement_error(self, s: GameState, rt: RotatedTile, pos: Pos) -> str | None:
        """A river tile that does not match its neighbours or does not continue the river."""
        if not rt.river_sides or (fits(s, rt, pos) and continues(river_state(s), rt, pos)):
            return None
        return (
            f"tile {rt.tile} at {list(pos)} rotation {rt.rotation} does not continue the river "
            "(or turns the same way as the previous bend)"
        )

    def tile_placed(self, s: GameState, rt: RotatedTile, pos: Pos) -> None:
        """Move the open end past a river tile (the lake closes it) and note its bend."""
        if not rt.river_sides:
            return
        state = river_state(s)
        end = state.end
        in_side = end[1] if end is not None and end[0] == pos else -1
        turn = river_turn(rt, in_side) if in_side >= 0 else 0
        new_end: tuple[Pos, int] | None = None
        for side in rt.river_sides:
            if side != in_side:
                dx, dy = SIDE_DELTAS[side]
                new_end = ((pos[0] + dx, pos[1] + dy), (side + 2) % 4)
        s.expansion_state[self.id] = replace(state, end=new_end, turn=turn or state.turn)

    def state_from_json(self, data: Any) -> RiverState:
        """From :meth:`RiverState.to_json`."""
        return RiverState.from_json(data["end"], data["turn"])

    def state_from_position_2(self, position: dict[str, Any]) -> RiverState:
        """From a ``carcassonne-state/2`` position's ``river_end`` and ``river_turn``."""
        return RiverState.from_json(position["river_end"], position["river_turn"])


RIVER = River()
