"""The state of one game: :class:`GameState`, its phases, and its JSON forms.

A :class:`GameState` is the whole truth of one game: setup (rules, players, deck), the board and
its features (a union–find over tile segments, see :mod:`app.engine.board`), followers, scores,
whose decision the game waits for (:class:`Phase`) and the history of actions. The rules that
change it live in :mod:`app.engine.game` (the turn), :mod:`app.engine.board` (placement),
:mod:`app.engine.scoring` and the active expansions (:mod:`app.engine.expansions`, each with
its own slot in ``GameState.expansion_state``); what a seat may see in :mod:`app.engine.view`;
loading a stored state in :mod:`app.engine.record.notation`. This module knows no expansion.

Board positions are ``(x, y)``: x grows to the east, y to the south; the start tile is at
``(0, 0)``. Rotations are clockwise degrees.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Protocol

from app.engine.actions import Action
from app.engine.events import Event, event_from_json, event_to_json
from app.engine.options import Options
from app.engine.tiles import ROTATED, RotatedTile

Pos = tuple[int, int]

FOLLOWERS_PER_PLAYER = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 5


#: ``/3`` keeps each expansion's state under ``position.expansions``; ``/2`` had the two
#: expansions' state at the top of ``position``; ``/1`` had no position (both still load).
FORMAT = "carcassonne-state/3"


class Phase(StrEnum):
    """The base game's phases: whose decision the game waits for (equal to its string value).

    An expansion adds phases of its own as plain strings (``Expansion.phases``), so
    ``GameState.phase`` is a ``str``.
    """

    PLACE_TILE = "place_tile"
    DEPLOY = "deploy"
    PAUSED = "paused"  # a partial record ran out of known tiles; no final scoring
    GAME_OVER = "game_over"


PLACE_TILE = Phase.PLACE_TILE
DEPLOY = Phase.DEPLOY
PAUSED = Phase.PAUSED
GAME_OVER = Phase.GAME_OVER


class ExpansionState(Protocol):
    """One expansion's part of a state: an immutable value (replaced, never changed in place)
    with a JSON form its expansion loads back (``Expansion.state_from_json``).
    """

    def to_json(self) -> Any:
        """JSON form (lists, dicts, numbers, strings, None)."""
        ...


def find(parent: list[int], a: int) -> int:
    """The root of ``a`` in the union–find forest ``parent`` (with path halving)."""
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


class GameState:
    """One game, complete: setup, deck, board, features, followers, scores and history.

    Treat it as immutable: :func:`apply` copies before changing anything. Public read-only
    attributes: ``options``, ``players`` (names by seat), ``phase`` (``place_tile`` | ``deploy``
    | ``paused`` | ``game_over`` | an expansion's phase), ``seat`` (the seat to act: in an
    expansion's phase possibly a seat whose turn it is not), ``active`` (the seat whose turn it
    is), ``tile`` (the drawn tile id or None), ``placed`` (cell of the tile just placed, during
    ``deploy``), ``scores``, ``supply``, ``winners``, ``actions`` (history), ``opening_events``
    (events of the setup: the first draw), and ``expansion_state`` (expansion id → that
    expansion's :class:`ExpansionState`, only for the game's active expansions that keep one;
    read it through the expansion's own accessor). Everything else is internal. ``deck`` and
    ``seed`` are secret: :func:`view` never shows them.
    """

    __slots__ = (
        "options",
        "players",
        "seed",
        "deck",
        "deck_pos",
        "partial",
        "actions",
        "board",
        "seg_pos",
        "seg_kind",
        "parent",
        "f_tiles",
        "f_open",
        "f_pennants",
        "f_followers",
        "f_cities",
        "followers",
        "supply",
        "scores",
        "tally",
        "frontier",
        "expansion_state",
        "phase",
        "seat",
        "active",
        "tile",
        "placed",
        "turn",
        "winners",
        "opening_events",
    )

    options: Options
    players: tuple[str, ...]
    seed: int | None
    deck: tuple[str, ...]
    deck_pos: int
    partial: bool
    actions: list[Action]
    board: dict[Pos, tuple[RotatedTile, int]]
    seg_pos: list[Pos]
    seg_kind: list[int]
    parent: list[int]
    f_tiles: list[frozenset[Pos]]
    f_open: list[int]
    f_pennants: list[int]
    f_followers: list[tuple[int, ...]]
    f_cities: list[frozenset[int]]
    followers: dict[int, int]
    supply: list[int]
    scores: list[int]
    tally: dict[tuple[int, str, bool], int]
    frontier: dict[Pos, tuple[int, int]]
    expansion_state: dict[str, ExpansionState]
    phase: str
    seat: int
    active: int
    tile: str | None
    placed: Pos | None
    turn: int
    winners: tuple[int, ...]
    opening_events: tuple[Event, ...]

    def copy(self) -> GameState:
        """A state equal to this one that shares no mutable container with it."""
        c = GameState.__new__(GameState)
        c.options = self.options
        c.players = self.players
        c.seed = self.seed
        c.deck = self.deck
        c.deck_pos = self.deck_pos
        c.partial = self.partial
        c.actions = self.actions.copy()
        c.board = self.board.copy()
        c.seg_pos = self.seg_pos.copy()
        c.seg_kind = self.seg_kind.copy()
        c.parent = self.parent.copy()
        c.f_tiles = self.f_tiles.copy()
        c.f_open = self.f_open.copy()
        c.f_pennants = self.f_pennants.copy()
        c.f_followers = self.f_followers.copy()
        c.f_cities = self.f_cities.copy()
        c.followers = self.followers.copy()
        c.supply = self.supply.copy()
        c.scores = self.scores.copy()
        c.tally = self.tally.copy()
        c.frontier = self.frontier.copy()
        c.expansion_state = self.expansion_state.copy()
        c.phase = self.phase
        c.seat = self.seat
        c.active = self.active
        c.tile = self.tile
        c.placed = self.placed
        c.turn = self.turn
        c.winners = self.winners
        c.opening_events = self.opening_events
        return c

    # ------------------------------------------------------------------ queries

    @property
    def is_over(self) -> bool:
        """True once the final scoring has run."""
        return self.phase == GAME_OVER

    @property
    def tiles_remaining(self) -> int:
        """Tiles left to draw (the drawn tile not included)."""
        return len(self.deck) - self.deck_pos

    def remaining_counts(self) -> dict[str, int]:
        """How many of each tile id are still to be drawn (public information).

        Keyed in tile-id order: the keys must not follow the deck, or the first key would be
        the next tile.
        """
        counts: dict[str, int] = {}
        for tid in self.deck[self.deck_pos :]:
            counts[tid] = counts.get(tid, 0) + 1
        return dict(sorted(counts.items()))

    def find(self, gid: int) -> int:
        """The feature (union–find root) that segment ``gid`` belongs to."""
        return find(self.parent, gid)

    def to_json(self) -> dict[str, Any]:
        """The whole state as JSON (``carcassonne-state/3``): setup, history and position.

        ``{"format", "rules", "players", "seed", "deck", "partial", "actions", "position"}``;
        ``position`` is everything a replay of ``actions`` would rebuild (board, features,
        followers, scores, supplies, deck position, phase, pending decisions, and under
        ``expansions`` each expansion's state by id), so
        :func:`app.engine.record.notation.load_state` loads it without replaying. Contains the
        deck order and the seed: server-side only, never for clients (they get
        :func:`app.engine.view`).
        """
        return {
            "format": FORMAT,
            "rules": self.options.to_json(),
            "players": list(self.players),
            "seed": self.seed,
            "deck": list(self.deck),
            "partial": self.partial,
            "actions": [a.to_json() for a in self.actions],
            "position": self._position(),
        }

    def _position(self) -> dict[str, Any]:
        """The position part of :meth:`to_json`, normalised.

        A union–find root per segment and the feature data of roots only: what a replay with
        another history of path compression rebuilds too.
        """
        parent = self.parent
        roots = []
        for gid in range(len(parent)):
            while parent[gid] != gid:
                gid = parent[gid]
            roots.append(gid)
        features = [
            [
                gid,
                sorted(self.f_tiles[gid]),
                self.f_open[gid],
                self.f_pennants[gid],
                list(self.f_followers[gid]),
                sorted(self.f_cities[gid]),
            ]
            for gid, root in enumerate(roots)
            if root == gid
        ]
        return {
            "deck_pos": self.deck_pos,
            "board": [[x, y, rt.tile, rt.rotation] for (x, y), (rt, _) in self.board.items()],
            "roots": roots,
            "features": features,
            "followers": [[gid, seat] for gid, seat in self.followers.items()],
            "supply": list(self.supply),
            "scores": list(self.scores),
            "tally": [
                [seat, category, final, points]
                for (seat, category, final), points in self.tally.items()
            ],
            "frontier": [[x, y, mask, value] for (x, y), (mask, value) in self.frontier.items()],
            "expansions": {key: value.to_json() for key, value in self.expansion_state.items()},
            "phase": str(self.phase),
            "seat": self.seat,
            "active": self.active,
            "tile": self.tile,
            "placed": list(self.placed) if self.placed else None,
            "turn": self.turn,
            "winners": list(self.winners),
            "opening_events": [event_to_json(e) for e in self.opening_events],
        }

    def __eq__(self, other: object) -> bool:
        """Same rules, players, deck, history and position.

        The seed is not compared: a game rebuilt from its record has the same deck but no seed.
        """
        if not isinstance(other, GameState):
            return NotImplemented
        mine, theirs = self.to_json(), other.to_json()
        del mine["seed"], theirs["seed"]
        return (
            mine == theirs
            and self.scores == other.scores
            and self.phase == other.phase
            and self.seat == other.seat
            and self.tile == other.tile
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        """Turn, phase, seat, drawn tile and scores (never the deck)."""
        return (
            f"<GameState turn={self.turn} phase={self.phase} seat={self.seat} tile={self.tile}"
            f" scores={self.scores}>"
        )


_BASE_PHASES = frozenset(str(p) for p in Phase)
_NO_CELLS: frozenset[Pos] = frozenset()
_NO_SEGMENTS: frozenset[int] = frozenset()


def load_position(s: GameState, p: dict[str, Any], event_types: Mapping[str, type[Any]]) -> None:
    """Fill the base game's part of ``s`` from the ``position`` of :meth:`GameState.to_json`.

    The inverse of ``GameState._position``: segments come from the board's tiles in placement
    order; ``event_types`` (class name → class) rebuild the opening events. Leaves
    ``s.expansion_state`` to the caller (:func:`app.engine.record.notation.load_state`). Raises
    ``KeyError``/``ValueError``/``TypeError`` on a malformed position.
    """
    s.deck_pos = p["deck_pos"]
    board: dict[Pos, tuple[RotatedTile, int]] = {}
    seg_pos: list[Pos] = []
    seg_kind: list[int] = []
    for x, y, tile, rotation in p["board"]:
        rt = ROTATED[tile][rotation // 90]
        pos = (x, y)
        board[pos] = (rt, len(seg_pos))
        for seg in rt.segments:
            seg_pos.append(pos)
            seg_kind.append(seg.kind)
    n = len(seg_pos)
    parent = list(p["roots"])
    if len(parent) != n:
        raise ValueError(f"position: {len(parent)} segment roots for {n} segments")
    f_tiles: list[frozenset[Pos]] = [_NO_CELLS] * n
    f_open = [0] * n
    f_pennants = [0] * n
    f_followers: list[tuple[int, ...]] = [()] * n
    f_cities: list[frozenset[int]] = [_NO_SEGMENTS] * n
    for root, tiles, open_edges, pennants, followers, cities in p["features"]:
        f_tiles[root] = frozenset((x, y) for x, y in tiles)
        f_open[root] = open_edges
        f_pennants[root] = pennants
        f_followers[root] = tuple(followers)
        f_cities[root] = frozenset(cities) if cities else _NO_SEGMENTS
    s.board = board
    s.seg_pos = seg_pos
    s.seg_kind = seg_kind
    s.parent = parent
    s.f_tiles = f_tiles
    s.f_open = f_open
    s.f_pennants = f_pennants
    s.f_followers = f_followers
    s.f_cities = f_cities
    s.followers = {gid: seat for gid, seat in p["followers"]}
    s.supply = list(p["supply"])
    s.scores = list(p["scores"])
    s.tally = {(seat, category, final): points for seat, category, final, points in p["tally"]}
    s.frontier = {(x, y): (mask, value) for x, y, mask, value in p["frontier"]}
    s.phase = p["phase"] if p["phase"] not in _BASE_PHASES else Phase(p["phase"])
    s.seat = p["seat"]
    s.active = p["active"]
    s.tile = p["tile"]
    s.placed = (p["placed"][0], p["placed"][1]) if p["placed"] else None
    s.turn = p["turn"]
    s.winners = tuple(p["winners"])
    s.opening_events = tuple(event_from_json(e, event_types) for e in p["opening_events"])
