"""Player aids: what a table's aid policy lets a seat or a spectator see beyond the rules.

The host of a table picks an :class:`AidPolicy` (``off``, ``learning`` or ``custom``: a set of
:data:`AIDS` for the players and one for the spectators). The aids that need the engine are
computed here, from the **public** position only — the board, the followers, the scores and
the *counts* of the tiles still to come (public in Carcassonne: the tile list is printed), never
their order:

* :func:`remaining_tiles` — each tile design with how many are still to be drawn;
* :func:`impossible_holes` — empty cells next to the board that no tile still to come fits,
  in any rotation (RULES.md §3.2b: every edge must match its neighbour's); a cell's
  neighbours only ever grow, so such a cell stays empty for the rest of the game;
* :func:`projected_scores` — what each seat would score if the game ended now: the engine's
  own final scoring (RULES.md §4.2–§4.4) run on a copy of the position;
* :func:`features` — every feature of the board, occupied or not: its tile segments, its
  owners (the follower majority, RULES.md §4.1; none when unoccupied) and what it is worth now.

Coordinates are the engine's: ``(x, y)``, x to the east, y to the south. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.engine.actions import Pass
from app.engine.board import cloister_neighbours, spot_of
from app.engine.errors import InvalidOptions
from app.engine.events import Event
from app.engine.game import apply_in_place, end_game
from app.engine.scoring import completed_points, farm_points, incomplete_points
from app.engine.state import DEPLOY, GAME_OVER, GameState, Pos, find
from app.engine.tiles import KIND_NAMES, ROTATED

#: Every aid a policy may grant, in the order the client lists them.
AIDS = (
    "legal_placements",
    "remaining_tiles",
    "impossible_holes",
    "projected_scores",
    "feature_highlight",
)
#: The aids the server computes with the engine and sends in ``aids`` frames.
COMPUTED = ("impossible_holes", "projected_scores", "feature_highlight")
MODES = ("off", "learning", "custom")


@dataclass(frozen=True)
class AidPolicy:
    """A table's aids: ``mode`` (``off``: none; ``learning``: all of :data:`AIDS` for
    everyone; ``custom``: ``players`` and ``spectators`` as chosen). Spectators may get aids
    the players do not. Immutable; :meth:`from_json` checks it.
    """

    mode: str = "off"
    players: frozenset[str] = frozenset()
    spectators: frozenset[str] = frozenset()

    @classmethod
    def off(cls) -> AidPolicy:
        """No aid for anyone (rated and tournament tables, and matches from before policies)."""
        return cls()

    @classmethod
    def casual(cls) -> AidPolicy:
        """The default of a casual table: legal placements highlighted, as before policies."""
        chosen = frozenset({"legal_placements"})
        return cls("custom", chosen, chosen)

    @classmethod
    def from_json(cls, data: Any) -> AidPolicy:
        """``{"mode", "players"?: [aid], "spectators"?: [aid]}`` (or just the mode as a string)
        → a policy. ``off`` and ``learning`` ignore the lists. Raises
        :class:`InvalidOptions` naming the field (``aids.mode``, ``aids.players``).
        """
        if isinstance(data, str):
            data = {"mode": data}
        if not isinstance(data, dict):
            raise InvalidOptions("aids must be an object with a mode")
        unknown = set(data) - {"mode", "players", "spectators"}
        if unknown:
            raise InvalidOptions(f"aids: unknown key(s) {', '.join(sorted(unknown))}")
        mode = data.get("mode", "custom")
        if mode not in MODES:
            raise InvalidOptions(f"aids.mode must be one of {', '.join(MODES)}")
        if mode == "off":
            return cls.off()
        if mode == "learning":
            return cls("learning", frozenset(AIDS), frozenset(AIDS))
        return cls(
            "custom",
            _aid_set(data.get("players"), "players"),
            _aid_set(data.get("spectators"), "spectators"),
        )

    def to_json(self) -> dict[str, Any]:
        """``{"mode", "players": [aid], "spectators": [aid]}`` in :data:`AIDS` order."""
        return {
            "mode": self.mode,
            "players": [a for a in AIDS if a in self.players],
            "spectators": [a for a in AIDS if a in self.spectators],
        }

    def for_viewer(self, spectator: bool) -> frozenset[str]:
        """The aids a player (``spectator`` False) or a spectator gets."""
        return self.spectators if spectator else self.players


def _aid_set(raw: Any, field: str) -> frozenset[str]:
    if raw is None:
        return frozenset()
    if not isinstance(raw, list) or not all(isinstance(a, str) for a in raw):
        raise InvalidOptions(f"aids.{field} must be a list of aid names")
    bad = sorted(set(raw) - set(AIDS))
    if bad:
        raise InvalidOptions(
            f"aids.{field}: unknown aid(s) {', '.join(bad)}: one of {', '.join(AIDS)}"
        )
    return frozenset(raw)


# ---------------------------------------------------------------------- the computations


def tiles_to_place(state: GameState) -> dict[str, int]:
    """Tile id → how many are still to be placed: the undrawn tiles plus the drawn tile while
    it waits for its placement — also through an expansion's phase between the draw and the
    placement (the Wheel's Plague decision) — (public counts; never their order).
    """
    counts = state.remaining_counts()
    if state.tile is not None:
        counts[state.tile] = counts.get(state.tile, 0) + 1
    return dict(sorted(counts.items()))


def remaining_tiles(state: GameState) -> dict[str, int]:
    """Tile id → how many are still to be drawn (the drawn tile not included), by tile id."""
    return state.remaining_counts()


def impossible_holes(state: GameState) -> list[Pos]:
    """Empty cells next to the board that no tile still to be placed (:func:`tiles_to_place`)
    fits in any rotation, sorted by ``(y, x)``.

    RULES.md §3.2b: a tile goes where every side touching a tile matches that tile's edge.
    The cells' edge constraints only grow as tiles are added, so a cell listed here is never
    filled. Empty after the game ended.
    """
    if state.phase == GAME_OVER:
        return []
    codes = {rt.code for tid in tiles_to_place(state) for rt in ROTATED[tid]}
    holes = [
        pos
        for pos, (mask, value) in state.frontier.items()
        if not any(code & mask == value for code in codes)
    ]
    return sorted(holes, key=lambda p: (p[1], p[0]))


def _ended_copy(state: GameState) -> tuple[GameState, list[Event]]:
    """A copy of ``state`` finished now: during ``deploy`` the turn ends with no follower
    (what the placed tile completed is scored, RULES.md §3.2e), then the final scoring runs
    (the active expansions' first, RULES.md §4.2–§4.4). The deck order is not read: no tile
    is drawn.
    """
    c = state.copy()
    if state.phase == GAME_OVER:
        return c, []
    c.deck = c.deck[: c.deck_pos]
    c.partial = False
    if c.phase == DEPLOY:
        return c, apply_in_place(c, Pass(c.seat))
    events: list[Event] = []
    c.tile = None
    end_game(c, events)
    return c, events


def projected_scores(state: GameState) -> list[int]:
    """Each seat's score if the game ended now (by seat): the engine's final scoring of the
    current board, the turn under way ended without a follower. After the end: the scores.
    """
    ended, _ = _ended_copy(state)
    return list(ended.scores)


def features(state: GameState) -> list[dict[str, Any]]:
    """Every feature of the board, as the feature highlight shows it on hovering a segment.

    Roads, cities, cloisters and fields, occupied or not (river segments are no feature)::

        [{"kind": road|city|cloister|field, "parts": [[x, y, spot]], "tiles": [[x, y]],
          "followers": [{"seat", "at", "spot"}], "owners": [seat], "value": int,
          "complete": bool}]

    ``parts``: every tile segment of the feature, ``spot`` the canonical spot name a follower
    would stand on (``city:N``, ``field:NNE``, ``cloister``...), sorted by ``(y, x, spot)``;
    ``tiles``: the distinct cells. ``owners``: the follower majority (RULES.md §4.1), empty for
    an unoccupied feature. ``value``: what each owner would get if the game ended now — a
    complete road, city or cloister (one completed this turn, during ``deploy``, too) its
    completion points (§4.1), an incomplete one its final-scoring points (§4.2), a farm under
    the modern scoring 3 per completed city supplied (§4.3), 0 under the original scoring
    (which scores the cities, §4.4). Sorted by first part.
    """
    parent = state.parent
    parts: dict[int, list[list[Any]]] = {}
    for gid, kind in enumerate(state.seg_kind):
        if KIND_NAMES[kind] == "river":
            continue
        (x, y), spot = spot_of(state, gid)
        parts.setdefault(find(parent, gid), []).append([x, y, spot])
    out = [
        _feature(state, root, sorted(ps, key=lambda p: (p[1], p[0], p[2])))
        for root, ps in parts.items()
    ]
    out.sort(key=lambda f: (f["parts"][0][1], f["parts"][0][0], f["parts"][0][2]))
    return out


def _feature(state: GameState, root: int, parts: list[list[Any]]) -> dict[str, Any]:
    """One entry of :func:`features` for the feature whose root segment is ``root``."""
    kind = KIND_NAMES[state.seg_kind[root]]
    counts = [0] * len(state.players)
    followers = []
    for gid in sorted(state.f_followers[root]):
        seat = state.followers[gid]
        counts[seat] += 1
        (x, y), spot = spot_of(state, gid)
        followers.append({"seat": seat, "at": [x, y], "spot": spot})
    top = max(counts)
    owners = [seat for seat, n in enumerate(counts) if n == top and top > 0]
    if kind == "field":
        complete = False
        value = farm_points(state, root) if state.options.farm_scoring == "modern" else 0
    else:
        if kind == "cloister":
            complete = cloister_neighbours(state, state.seg_pos[root]) == 8
        else:
            complete = state.f_open[root] == 0
        value = (completed_points if complete else incomplete_points)(state, root)[0]
    return {
        "kind": kind,
        "parts": parts,
        "tiles": [list(t) for t in sorted(state.f_tiles[root])],
        "followers": followers,
        "owners": owners,
        "value": value,
        "complete": complete,
    }


def aids_for(state: GameState, granted: Iterable[str]) -> dict[str, Any]:
    """The computed aids of ``granted`` (names of :data:`COMPUTED`) for the current position:
    ``{"projected_scores": [int per seat], "impossible_holes": [[x, y]], "features": [...]}``,
    only the keys granted. Nothing secret: no deck order, no seed.
    """
    wanted = set(granted)
    out: dict[str, Any] = {}
    if "projected_scores" in wanted:
        out["projected_scores"] = projected_scores(state)
    if "impossible_holes" in wanted:
        out["impossible_holes"] = [list(p) for p in impossible_holes(state)]
    if "feature_highlight" in wanted:
        out["features"] = features(state)
    return out
