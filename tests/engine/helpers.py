"""Lay out a game from a compact list of moves, so rules tests read like the rulebook pictures.

A move is one string ``"<tile> <x>,<y> [r<rotation>] [<follower spot>]"``::

    play("V 1,0 r90 road:W", "O 0,-1 r180 city:S", "P 1,-1 field:SSW")

* coordinates: x grows to the east, y to the **south**; the start tile D (or the River's spring
  R1) is already at ``0,0`` rotation 0 (city to the north, road W–E);
* rotation: degrees clockwise from the catalogue orientation (RULES.md §2, §5.1), default 0;
* follower: a spot in board orientation (``city:N``, ``road:E``, ``field:SSW``, ``cloister``);
  omitted or ``-`` for none.

Seats take turns from seat 0, one move per turn, exactly as in a game record: the helper builds a
``carcassonne-record/1`` document and replays it with :func:`app.engine.replay`, so every move is
checked by the engine. With ``finished=True`` (the default) the final scoring runs after the last
move; ``finished=False`` stops before it (only what the moves completed is scored).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from app.engine import GameState, replay
from app.engine.events import Event, PointsScored
from app.engine.tiles import EDGE_NAMES

RED, BLUE, YELLOW, GREEN, BLACK = range(5)
COLOURS = ("Red", "Blue", "Yellow", "Green", "Black")


@dataclass(frozen=True)
class Move:
    """One parsed move of a layout."""

    tile: str
    x: int
    y: int
    rotation: int
    follower: str | None

    def to_json(self) -> dict[str, Any]:
        """The move as a record entry."""
        return {
            "tile": self.tile,
            "at": [self.x, self.y],
            "rotation": self.rotation,
            "follower": self.follower,
        }


def parse_move(spec: str) -> Move:
    """Parse ``"V 1,0 r90 road:W"`` (see the module docstring)."""
    tokens = spec.split()
    if len(tokens) < 2:
        raise ValueError(f"bad move {spec!r}")
    tile = tokens[0]
    x_text, _, y_text = tokens[1].partition(",")
    rotation = 0
    follower: str | None = None
    for token in tokens[2:]:
        if token.startswith("r") and token[1:].isdigit():
            rotation = int(token[1:])
        elif token == "-":
            follower = None
        else:
            follower = token
    return Move(tile, int(x_text), int(y_text), rotation, follower)


def record(
    *moves: str,
    players: int | Sequence[str] = 2,
    rules: dict[str, Any] | None = None,
    draw_order: Sequence[str] | None = None,
    finished: bool = True,
    upcoming: Sequence[str] = (),
) -> dict[str, Any]:
    """The ``carcassonne-record/1`` document for a layout (draw order = the moves' tiles, then
    ``upcoming``; a record with ``upcoming`` tiles stops before them, unfinished).
    """
    parsed = [parse_move(m) for m in moves]
    names = list(COLOURS[:players]) if isinstance(players, int) else list(players)
    order = list(draw_order) if draw_order is not None else [m.tile for m in parsed]
    return {
        "format": "carcassonne-record/1",
        "rules": dict(rules or {}),
        "players": names,
        "finished": finished and not upcoming,
        "draw_order": order + list(upcoming),
        "moves": [m.to_json() for m in parsed],
    }


@dataclass
class Played:
    """A replayed layout: the final state, every event, and ways to ask who scored what."""

    state: GameState
    events: list[Event]
    record: dict[str, Any] = field(repr=False)

    @property
    def scores(self) -> list[int]:
        """Scores by seat."""
        return list(self.state.scores)

    def scored(self, category: str | None = None, final: bool | None = None) -> list[int]:
        """Points by seat, only from ``category`` (road/city/cloister/farm) and/or only from the
        final scoring (``final=True``) or only during play (``final=False``).
        """
        out = [0] * len(self.state.players)
        for e in self.points_events(category, final):
            out[e.seat] += e.points
        return out

    def points_events(
        self, category: str | None = None, final: bool | None = None
    ) -> list[PointsScored]:
        """The ``PointsScored`` events, filtered like :meth:`scored`."""
        return [
            e
            for e in self.events
            if isinstance(e, PointsScored)
            and (category is None or e.category == category)
            and (final is None or e.final == final)
        ]

    def of_type(self, cls: type[Any]) -> list[Any]:
        """Every event of one class, in order."""
        return [e for e in self.events if isinstance(e, cls)]

    def picture(self) -> str:
        """The board as ASCII art (see :func:`render`)."""
        return render(self.state)


def play(
    *moves: str,
    players: int | Sequence[str] = 2,
    rules: dict[str, Any] | None = None,
    draw_order: Sequence[str] | None = None,
    finished: bool = True,
    upcoming: Sequence[str] = (),
) -> Played:
    """Replay a layout with the engine; raises the engine's RecordError on an illegal move.

    ``upcoming``: tiles drawn after the moves; the game stops with the first of them drawn and
    waiting to be placed (no final scoring), ready for :func:`app.engine.apply`.
    """
    doc = record(
        *moves,
        players=players,
        rules=rules,
        draw_order=draw_order,
        finished=finished,
        upcoming=upcoming,
    )
    state, events = replay(json.loads(json.dumps(doc)))
    return Played(state, events, doc)


def render(state: GameState) -> str:
    """ASCII picture of the board: each tile is a 3×3 block of its edges and id.

    ::

        .C.
        RD R     edges: C city, R road, F field, I river; a follower shows as '*' beside the id
        .F.
    """
    if not state.board:
        return "(empty)"
    xs = [p[0] for p in state.board]
    ys = [p[1] for p in state.board]
    occupied = {state.seg_pos[g] for g in state.followers}
    lines: list[str] = []
    for y in range(min(ys), max(ys) + 1):
        rows = ["", "", ""]
        for x in range(min(xs), max(xs) + 1):
            cell = state.board.get((x, y))
            if cell is None:
                rows[0] += "     "
                rows[1] += "     "
                rows[2] += "     "
                continue
            rt = cell[0]
            n, e, s, w = (EDGE_NAMES[c] for c in rt.edges)
            mark = "*" if (x, y) in occupied else " "
            rows[0] += f"  {n}  "
            rows[1] += f"{w}{rt.tile:>2}{mark}{e}"[:5].ljust(5)
            rows[2] += f"  {s}  "
        lines.extend(rows)
    return "\n".join(lines)


def total(values: Iterable[int]) -> int:
    """Sum, for readability in assertions."""
    return sum(values)
