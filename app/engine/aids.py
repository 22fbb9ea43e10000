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
* :func:`features` — every feature with followers on it: its tiles, its owners (the follower
  majority, RULES.md §4.1) and what it is worth now.

Coordinates are the engine's: ``(x, y)``, x to the east, y to the south. Pure: no I/O.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from app.engine.actions import Pass
from app.engine.board import cloister_neighbours, spot_of
from app.engine.errors import InvalidOptions
from app.engine.events import Event, PointsScored
from app.engine.game import apply_in_place, end_game
from app.engine.state import DEPLOY, GAME_OVER, PLACE_TILE, GameState, Pos, find
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
    it waits for its placement (public counts; never their order).
    """
    counts = state.remaining_counts()
    if state.phase == PLACE_TILE and state.tile is not None:
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
    """Every feature that holds a follower, as the feature highlight shows it:
    ``[{"kind": road|city|cloister|field, "tiles": [[x, y]], "followers": [{"seat", "at",
    "spot"}], "owners": [seat], "value": points its owners would get if the game ended now,
    "complete": bool}]``, sorted by first tile. ``value`` is the final scoring's (RULES.md
    §4.2–§4.4) for an incomplete feature and modern farms (0 for farms under the original
    scoring, which scores cities, not farms); a feature completed this turn (during
    ``deploy``) shows what its completion scores (§4.1).
    """
    parent = state.parent
    by_root: dict[int, list[int]] = {}
    for gid in sorted(state.followers):
        by_root.setdefault(find(parent, gid), []).append(gid)
    if not by_root:
        return []
    _, events = _ended_copy(state)
    values = _values_by_tiles(events)
    out: list[dict[str, Any]] = []
    for root, gids in by_root.items():
        kind = KIND_NAMES[state.seg_kind[root]]
        tiles = sorted(state.f_tiles[root])
        counts = [0] * len(state.players)
        followers = []
        for gid in gids:
            seat = state.followers[gid]
            counts[seat] += 1
            (x, y), spot = spot_of(state, gid)
            followers.append({"seat": seat, "at": [x, y], "spot": spot})
        top = max(counts)
        owners = [seat for seat, n in enumerate(counts) if n == top and top > 0]
        if kind == "cloister":
            # RULES.md §4.1/§4.2: 9 once surrounded, else 1 plus 1 per neighbouring tile.
            around = cloister_neighbours(state, state.seg_pos[root])
            value = 9 if around == 8 else around + 1
        else:
            value = values.get((kind, tuple(tiles)), 0)
        out.append(
            {
                "kind": kind,
                "tiles": [list(t) for t in tiles],
                "followers": followers,
                "owners": owners,
                "value": value,
                "complete": kind in ("road", "city") and state.f_open[root] == 0,
            }
        )
    out.sort(key=lambda f: (f["tiles"][0][1], f["tiles"][0][0], f["kind"]))
    return out


def _values_by_tiles(events: Iterable[Event]) -> dict[tuple[str, tuple[Pos, ...]], int]:
    """(kind, tiles) → points of one owner, from the scoring events of an ended copy."""
    out: dict[tuple[str, tuple[Pos, ...]], int] = {}
    for e in events:
        if not isinstance(e, PointsScored):
            continue
        kind = "field" if e.category == "farm" else e.category
        key = tuple(e.tiles)
        out[(kind, key)] = e.points
    return out


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
