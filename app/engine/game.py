"""The game: state, legal actions, the checked ``apply``, scoring and final scoring.

Pure and deterministic: no I/O, no clock, no global random state. A :class:`GameState` is the
whole truth of one game; ``apply`` returns a new state (the old one is untouched) and the events
that happened. Features are tracked incrementally with a union–find over tile segments, and the
empty cells next to the board (the frontier) carry their edge constraints, so legality checks
never scan the board.

Board positions are ``(x, y)``: x grows to the east, y to the south; the start tile is at
``(0, 0)``. Rotations are clockwise degrees. Rulebook references are to ``RULES.md``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from app.engine import wheel
from app.engine.actions import (
    Action,
    Pass,
    PlaceFollower,
    PlaceTile,
    RemoveFollower,
    action_from_json,
)
from app.engine.errors import (
    GameOver,
    IllegalFollower,
    IllegalPlacement,
    InvalidAction,
    InvalidOptions,
    NotYourTurn,
    WrongPhase,
)
from app.engine.events import (
    CrownPlaced,
    Event,
    FeatureCompleted,
    FollowerPlaced,
    FollowerReturned,
    GameEnded,
    PointsScored,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
    TurnEnded,
)
from app.engine.options import Options
from app.engine.rng import SplitMix64, shuffled
from app.engine.tiles import (
    BASE_TILES,
    CITY,
    CLOISTER,
    FIELD,
    HALVES,
    KIND_NAMES,
    LAKE,
    OPPOSITE_HALF,
    RING,
    RIVER,
    RIVER_TILES,
    ROAD,
    ROLE_NAMES,
    ROTATED,
    ROTATIONS,
    SIDE_DELTAS,
    SIDES,
    SPRING,
    START_TILE,
    TILE_TYPES,
    RotatedTile,
    wheel_deck_counts,
)
from app.engine.wheel_data import BOARD_CELLS

Pos = tuple[int, int]

FOLLOWERS_PER_PLAYER = 7
MIN_PLAYERS, MAX_PLAYERS = 2, 5

# Phases: whose decision the game waits for, and of what kind.
PLACE_TILE = "place_tile"
DEPLOY = "deploy"
PLAGUE = "plague"  # Wheel of Fortune: a seat chooses the follower it takes back
PAUSED = "paused"  # a partial record ran out of known tiles; no final scoring
GAME_OVER = "game_over"

_EMPTY: frozenset[int] = frozenset()


def _find(parent: list[int], a: int) -> int:
    while parent[a] != a:
        parent[a] = parent[parent[a]]
        a = parent[a]
    return a


class GameState:
    """One game, complete: setup, deck, board, features, followers, scores and history.

    Treat it as immutable: :func:`apply` copies before changing anything. Public read-only
    attributes: ``options``, ``players`` (names by seat), ``phase`` (``place_tile`` | ``deploy``
    | ``plague`` | ``paused`` | ``game_over``), ``seat`` (the seat to act: during ``plague`` the
    seat choosing a follower to take back), ``active`` (the seat whose turn it is), ``tile``
    (the drawn tile id or None), ``placed`` (cell of the tile just placed, during ``deploy``),
    ``scores``, ``supply``, ``winners``, ``actions`` (history), ``opening_events`` (events of the
    setup: the first draw), and for the Wheel of Fortune ``pig`` (segment index, Fortune = 0)
    and ``crowns`` (seats on each segment's crown spaces).
    Everything else is internal. ``deck`` and ``seed`` are secret: :func:`view` never shows them.
    """

    __slots__ = (
        "options", "players", "seed", "deck", "deck_pos", "partial", "actions",
        "board", "seg_pos", "seg_kind", "parent", "f_tiles", "f_open", "f_pennants",
        "f_followers", "f_cities", "followers", "supply", "scores", "tally", "frontier",
        "river_end", "river_turn", "phase", "seat", "active", "tile", "placed", "turn",
        "winners", "opening_events", "pig", "crowns", "plague_queue",
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
    river_end: tuple[Pos, int] | None
    river_turn: int
    phase: str
    seat: int
    active: int
    tile: str | None
    placed: Pos | None
    turn: int
    winners: tuple[int, ...]
    opening_events: tuple[Event, ...]
    pig: int
    crowns: tuple[tuple[int, ...], ...]
    plague_queue: tuple[int, ...]

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
        c.river_end = self.river_end
        c.river_turn = self.river_turn
        c.phase = self.phase
        c.seat = self.seat
        c.active = self.active
        c.tile = self.tile
        c.placed = self.placed
        c.turn = self.turn
        c.winners = self.winners
        c.opening_events = self.opening_events
        c.pig = self.pig
        c.crowns = self.crowns
        c.plague_queue = self.plague_queue
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
        """How many of each tile id are still to be drawn (public information), keyed in tile-id
        order: the keys must not follow the deck, or the first key would be the next tile."""
        counts: dict[str, int] = {}
        for tid in self.deck[self.deck_pos:]:
            counts[tid] = counts.get(tid, 0) + 1
        return dict(sorted(counts.items()))

    def find(self, gid: int) -> int:
        """The feature (union–find root) that segment ``gid`` belongs to."""
        return _find(self.parent, gid)

    def to_json(self) -> dict[str, Any]:
        """Setup plus history: ``{"format", "rules", "players", "seed", "deck", "partial",
        "actions"}``. Contains the deck order: server-side only, never for clients."""
        return {
            "format": "carcassonne-state/1",
            "rules": self.options.to_json(),
            "players": list(self.players),
            "seed": self.seed,
            "deck": list(self.deck),
            "partial": self.partial,
            "actions": [a.to_json() for a in self.actions],
        }

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> GameState:
        """Rebuild a state from :meth:`to_json` by replaying its actions."""
        state = new_game(
            Options.from_json(data.get("rules")),
            data["players"],
            draw_order=data["deck"],
            partial=bool(data.get("partial", False)),
        )
        state.seed = data.get("seed")
        for raw in data.get("actions", []):
            apply_in_place(state, action_from_json(raw))
        return state

    def __eq__(self, other: object) -> bool:
        """Same rules, players, deck, history and position; the seed is not compared (a game
        rebuilt from its record has the same deck but no seed)."""
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
        return (
            f"<GameState turn={self.turn} phase={self.phase} seat={self.seat} tile={self.tile}"
            f" scores={self.scores}>"
        )


# ---------------------------------------------------------------------- setup


def base_deck_counts(options: Options) -> dict[str, int]:
    """Tile id → copies in the draw pile (start tiles excluded) for ``options``."""
    if options.tileset == "wheel_of_fortune":
        return wheel_deck_counts()
    counts = {t.id: t.count for t in BASE_TILES}
    counts[START_TILE] -= 1  # the start D, or the D taken out when playing with the River
    if options.river:
        for t in RIVER_TILES:
            if t.id != SPRING:
                counts[t.id] = t.count
    return counts


def _shuffled_deck(options: Options, seed: int) -> tuple[str, ...]:
    rng = SplitMix64(seed)
    if options.tileset == "wheel_of_fortune":
        return tuple(shuffled([t for t, n in wheel_deck_counts().items() for _ in range(n)], rng))
    base = [t.id for t in BASE_TILES for _ in range(t.count)]
    base.remove(START_TILE)
    if not options.river:
        return tuple(shuffled(base, rng))
    river = [t.id for t in RIVER_TILES if t.id not in (SPRING, LAKE) for _ in range(t.count)]
    return tuple(shuffled(river, rng) + [LAKE] + shuffled(base, rng))


def _validate_draw_order(options: Options, draw_order: Sequence[str]) -> tuple[str, ...]:
    available = base_deck_counts(options)
    seen: dict[str, int] = {}
    for tid in draw_order:
        if not isinstance(tid, str) or tid not in available:
            raise InvalidOptions(f"tile {tid!r} is not in this game's deck")
        seen[tid] = seen.get(tid, 0) + 1
        if seen[tid] > available[tid]:
            raise InvalidOptions(f"the set has only {available[tid]} tile(s) {tid}")
    if options.river:
        # RULES.md §5.2 rules 2 and 6 (record.md "draw_order"): the river tiles are drawn
        # before the lake, and the lake before any land tile. A shorter test order may leave
        # tiles out, but never changes that order.
        stage = 0
        for tid in draw_order:
            now = 1 if tid == LAKE else 0 if TILE_TYPES[tid].river else 2
            if now < stage:
                raise InvalidOptions(
                    f"with the River the river tiles come first, then the lake {LAKE}, then "
                    f"the land tiles; {tid} comes too late"
                )
            stage = now
    return tuple(draw_order)


def new_game(
    options: Options | None,
    players: Sequence[str],
    seed: int | None = None,
    draw_order: Sequence[str] | None = None,
    *,
    partial: bool = False,
) -> GameState:
    """Set up a game and draw the first tile for seat 0 (RULES.md §3.1, §5.2).

    ``players``: 2–5 display names, seat order. ``seed``: any int; the deck is shuffled with a
    stable PRNG, so the same seed gives the same deck everywhere. ``draw_order``: the exact
    sequence of tiles to draw instead (start tiles excluded; may be shorter than the set, as in
    test records). With neither, a seed is chosen from the OS entropy source. ``partial``: the
    draw order is only a prefix of the deck (a record exported mid-match): when it runs out the
    game pauses instead of running the final scoring.

    The start tile (D, or the River's spring R1) is at (0, 0), rotation 0. The events of the
    first draw are in ``state.opening_events``. Raises :class:`InvalidOptions`.
    """
    options = options or Options()
    players = tuple(players)
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise InvalidOptions(f"a game needs {MIN_PLAYERS} to {MAX_PLAYERS} players")
    if draw_order is not None:
        deck = _validate_draw_order(options, draw_order)
    else:
        if seed is None:
            import secrets

            seed = secrets.randbits(63)
        deck = _shuffled_deck(options, seed)
    s = GameState.__new__(GameState)
    s.options = options
    s.players = players
    s.seed = seed
    s.deck = deck
    s.deck_pos = 0
    s.partial = partial
    s.actions = []
    s.board = {}
    s.seg_pos = []
    s.seg_kind = []
    s.parent = []
    s.f_tiles = []
    s.f_open = []
    s.f_pennants = []
    s.f_followers = []
    s.f_cities = []
    s.followers = {}
    s.supply = [FOLLOWERS_PER_PLAYER] * len(players)
    s.scores = [0] * len(players)
    s.tally = {}
    s.frontier = {}
    s.river_end = None
    s.river_turn = 0
    s.phase = PLACE_TILE
    s.seat = 0
    s.active = 0
    s.tile = None
    s.placed = None
    s.turn = 0
    s.winners = ()
    s.pig = 0
    s.crowns = tuple(() for _ in wheel.CROWNS)
    s.plague_queue = ()
    if options.tileset == "wheel_of_fortune":
        # RULES.md §6.2: the 4×4 wheel board is the start, its cells ordinary land.
        for pos, (tid, rotation) in sorted(BOARD_CELLS.items(), key=lambda c: (c[0][1], c[0][0])):
            _put_tile(s, ROTATED[tid][rotation // 90], pos)
    else:
        start = SPRING if options.river else START_TILE
        _put_tile(s, ROTATED[start][0], (0, 0))
    events: list[Event] = []
    _draw(s, events)
    s.opening_events = tuple(events)
    return s


# ------------------------------------------------------------------ placement


def _constraint(board: dict[Pos, tuple[RotatedTile, int]], pos: Pos) -> tuple[int, int]:
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


def _river_turn(rt: RotatedTile, in_side: int) -> int:
    """+1 for a right bend, -1 for a left bend, 0 for no bend, entering through ``in_side``."""
    if len(rt.river_sides) != 2:
        return 0
    out = rt.river_sides[0] if rt.river_sides[1] == in_side else rt.river_sides[1]
    heading = (in_side + 2) % 4
    if out == (heading + 1) % 4:
        return 1
    if out == (heading + 3) % 4:
        return -1
    return 0


def _fits(s: GameState, rt: RotatedTile, pos: Pos) -> bool:
    con = s.frontier.get(pos)
    if con is None or rt.code & con[0] != con[1]:
        return False
    if rt.river_sides:
        # RULES.md §5.2 rules 3–4: continue the river from its open end; bends alternate.
        end = s.river_end
        if end is None or end[0] != pos or end[1] not in rt.river_sides:
            return False
        turn = _river_turn(rt, end[1])
        if turn and turn == s.river_turn:
            return False
    return True


def _placements(s: GameState, tile: str, first_only: bool = False) -> list[tuple[int, int, int]]:
    rots = ROTATED[tile]
    out: list[tuple[int, int, int]] = []
    if TILE_TYPES[tile].river:
        end = s.river_end
        if end is None:
            return out
        cells: Iterable[Pos] = (end[0],)
    else:
        cells = s.frontier
    frontier = s.frontier
    codes = [rt.code for rt in rots]
    for pos in cells:
        con = frontier.get(pos)
        if con is None:
            continue
        mask, value = con
        for k in range(4):
            if codes[k] & mask == value and (
                not rots[k].river_sides or _fits(s, rots[k], pos)
            ):
                out.append((pos[0], pos[1], k * 90))
                if first_only:
                    return out
    return out


def _union(s: GameState, a: int, b: int) -> None:
    """Join the features of segments ``a`` and ``b`` across a shared edge (road/city/river)."""
    parent = s.parent
    ra, rb = _find(parent, a), _find(parent, b)
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


def _union_field(s: GameState, a: int, b: int) -> None:
    """Join two field segments that meet through a shared half-edge (RULES.md §1.2)."""
    parent = s.parent
    ra, rb = _find(parent, a), _find(parent, b)
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


def _put_tile(s: GameState, rt: RotatedTile, pos: Pos) -> None:
    """Put a tile on the board and join its segments to its neighbours' (no checks)."""
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
            _union(s, base + local, nbase + nrt.side_seg[(side + 2) % 4])
        for h in (2 * side, 2 * side + 1):
            local = rt.half_seg[h]
            if local >= 0:
                _union_field(s, base + local, nbase + nrt.half_seg[OPPOSITE_HALF[h]])
    # The frontier: this cell is filled; its empty neighbours get new constraints.
    s.frontier.pop(pos, None)
    for dx, dy in SIDE_DELTAS:
        npos = (x + dx, y + dy)
        if npos not in board:
            s.frontier[npos] = _constraint(board, npos)
    # The river's open end (RULES.md §5.2).
    if rt.river_sides:
        end = s.river_end
        in_side = end[1] if end is not None and end[0] == pos else -1
        if in_side >= 0:
            turn = _river_turn(rt, in_side)
            if turn:
                s.river_turn = turn
        s.river_end = None
        for side in rt.river_sides:
            if side != in_side:
                dx, dy = SIDE_DELTAS[side]
                s.river_end = ((x + dx, y + dy), (side + 2) % 4)


# ------------------------------------------------------------------ the turn


def _draw(s: GameState, events: list[Event]) -> None:
    """Draw for the active seat, discarding tiles that fit nowhere (RULES.md §3.2a, §3.2c,
    §3.5); a Wheel of Fortune icon first moves the pig (§6.4), which may pause the draw for
    Plague decisions. Resumes with the drawn tile when ``s.tile`` is already set."""
    while True:
        if s.tile is None:
            if s.deck_pos >= len(s.deck):
                break
            tile = s.deck[s.deck_pos]
            s.deck_pos += 1
            s.tile = tile
            events.append(TileDrawn(s.active, tile, len(s.deck) - s.deck_pos))
            icon = TILE_TYPES[tile].icon
            if icon:
                wheel.spin(s, icon, events)
                if s.phase == PLAGUE:
                    return
        if _placements(s, s.tile, first_only=True):
            s.phase = PLACE_TILE
            s.seat = s.active
            return
        events.append(TileDiscarded(s.active, s.tile))
        s.tile = None
    s.seat = s.active
    if s.partial:
        s.phase = PAUSED
        return
    _final_scoring(s, events)


def _follower_counts(s: GameState, gids: Iterable[int]) -> list[int]:
    counts = [0] * len(s.players)
    for gid in gids:
        counts[s.followers[gid]] += 1
    return counts


def _leaders(counts: list[int]) -> tuple[int, ...]:
    """Seats with the most followers (RULES.md §4.1 "Majority"; ties all score)."""
    top = max(counts)
    if top == 0:
        return ()
    return tuple(seat for seat, n in enumerate(counts) if n == top)


def _award(
    s: GameState,
    events: list[Event],
    seats: Iterable[int],
    points: int,
    category: str,
    final: bool,
    tiles: frozenset[Pos],
    pennants: int,
    cities: int,
    majority: tuple[int, ...],
    counts: list[int],
    rule: str,
) -> None:
    if points <= 0:
        return
    sorted_tiles = tuple(sorted(tiles))
    for seat in seats:
        s.scores[seat] += points
        key = (seat, category, final)
        s.tally[key] = s.tally.get(key, 0) + points
        events.append(
            PointsScored(seat, points, category, final, sorted_tiles, pennants, cities,
                         majority, tuple(counts), rule)
        )


def _spot_of(s: GameState, gid: int) -> tuple[Pos, str]:
    pos = s.seg_pos[gid]
    rt, base = s.board[pos]
    return pos, rt.segments[gid - base].name


def _return_followers(s: GameState, root: int, events: list[Event]) -> None:
    for gid in s.f_followers[root]:
        seat = s.followers.pop(gid)
        s.supply[seat] += 1
        pos, spot = _spot_of(s, gid)
        events.append(FollowerReturned(seat, pos, spot))
    s.f_followers[root] = ()


def _cloister_neighbours(s: GameState, pos: Pos) -> int:
    x, y = pos
    board = s.board
    return sum(1 for dx, dy in RING if (x + dx, y + dy) in board)


def _score_completed(s: GameState, root: int, events: list[Event]) -> None:
    """Score a feature completed this turn and return its followers (RULES.md §4.1)."""
    kind = s.seg_kind[root]
    gids = s.f_followers[root]
    counts = _follower_counts(s, gids)
    majority = _leaders(counts)
    tiles = s.f_tiles[root]
    pennants = s.f_pennants[root]
    if kind == CLOISTER:
        x, y = s.seg_pos[root]
        tiles = frozenset([(x, y)] + [(x + dx, y + dy) for dx, dy in RING])
        points, rule = 9, "completed cloister: 9 points"
    elif kind == ROAD:
        points, rule = len(tiles), "completed road: 1 point per tile"
    elif s.options.small_city_two_points and len(tiles) == 2:
        points = 2 + 2 * pennants
        rule = "completed two-tile city, first edition: 2 points (+2 per pennant)"
    else:
        points = 2 * len(tiles) + 2 * pennants
        rule = "completed city: 2 points per tile and per pennant"
    events.append(FeatureCompleted(KIND_NAMES[kind], tuple(sorted(tiles)), pennants,
                                   tuple(counts)))
    _award(s, events, majority, points, KIND_NAMES[kind], False, tiles, pennants, 0, majority,
           counts, rule)
    _return_followers(s, root, events)


def _end_turn(s: GameState, events: list[Event]) -> None:
    """Score what the placed tile completed (RULES.md §3.2e), pass the turn, draw."""
    assert s.placed is not None
    pos = s.placed
    rt, base = s.board[pos]
    done: set[int] = set()
    for i, seg in enumerate(rt.segments):
        if seg.kind == CITY or seg.kind == ROAD:
            root = _find(s.parent, base + i)
            if root not in done and s.f_open[root] == 0:
                done.add(root)
                _score_completed(s, root, events)
    x, y = pos
    board = s.board
    for dx, dy in ((0, 0),) + RING:
        cell = (x + dx, y + dy)
        nb = board.get(cell)
        if nb is not None and nb[0].cloister >= 0 and _cloister_neighbours(s, cell) == 8:
            _score_completed(s, nb[1] + nb[0].cloister, events)
    events.append(TurnEnded(s.active))
    s.placed = None
    s.active = s.seat = (s.active + 1) % len(s.players)
    _draw(s, events)


def _final_scoring(s: GameState, events: list[Event]) -> None:
    """Score incomplete roads, cities, cloisters, then farms, and end the game (RULES.md §4.2–4.4).

    Followers stay on the board so the final position can be shown; supplies are unchanged.
    """
    parent = s.parent
    roots: dict[int, list[int]] = {}
    for gid in sorted(s.followers):
        roots.setdefault(_find(parent, gid), []).append(gid)
    by_kind: dict[int, list[int]] = {CITY: [], ROAD: [], CLOISTER: [], FIELD: []}
    for root in roots:
        by_kind[s.seg_kind[root]].append(root)
    for kind in (ROAD, CITY, CLOISTER):
        for root in by_kind[kind]:
            counts = _follower_counts(s, s.f_followers[root])
            majority = _leaders(counts)
            tiles = s.f_tiles[root]
            pennants = s.f_pennants[root]
            if kind == ROAD:
                points, rule = len(tiles), "incomplete road: 1 point per tile"
            elif kind == CITY:
                points = len(tiles) + pennants
                rule = "incomplete city: 1 point per tile and per pennant"
            else:
                x, y = s.seg_pos[root]
                tiles = frozenset([(x, y)] + [(x + dx, y + dy) for dx, dy in RING
                                              if (x + dx, y + dy) in s.board])
                points = len(tiles)
                rule = "incomplete cloister: 1 point plus 1 per neighbouring tile"
            _award(s, events, majority, points, KIND_NAMES[kind], True, tiles, pennants, 0,
                   majority, counts, rule)
    farms = by_kind[FIELD]
    if s.options.farm_scoring == "modern":
        for root in farms:
            counts = _follower_counts(s, s.f_followers[root])
            majority = _leaders(counts)
            cities = _completed_cities(s, root)
            _award(s, events, majority, 3 * len(cities), "farm", True, s.f_tiles[root], 0,
                   len(cities), majority, counts, "farm: 3 points per completed city supplied")
    else:
        # Original scoring: each completed city once, 4 points to the farmer majority over all
        # farms touching it (RULES.md §4.4).
        city_farms: dict[int, list[int]] = {}
        for root in farms:
            for city in sorted(_completed_cities(s, root)):
                city_farms.setdefault(city, []).append(root)
        for city in sorted(city_farms):
            gids = [g for farm in city_farms[city] for g in s.f_followers[farm]]
            counts = _follower_counts(s, gids)
            majority = _leaders(counts)
            _award(s, events, majority, 4, "farm", True, s.f_tiles[city], s.f_pennants[city], 1,
                   majority, counts,
                   "original farm scoring: 4 points per completed city to its farmer majority")
    best = max(s.scores)
    s.winners = tuple(seat for seat, v in enumerate(s.scores) if v == best)
    s.phase = GAME_OVER
    events.append(GameEnded(tuple(s.scores), s.winners))


def _completed_cities(s: GameState, field_root: int) -> set[int]:
    """Roots of the distinct completed cities a farm supplies (RULES.md §4.3 step 2)."""
    parent = s.parent
    out: set[int] = set()
    for gid in s.f_cities[field_root]:
        root = _find(parent, gid)
        if s.f_open[root] == 0:
            out.add(root)
    return out


# ------------------------------------------------------------------ public API


def legal_placements(state: GameState) -> list[tuple[int, int, int]]:
    """Every ``(x, y, rotation)`` where the drawn tile may go (RULES.md §3.2b, §5.2).

    Empty unless the phase is ``place_tile``. Rotations that show the same edges are listed
    separately (they differ in where followers can stand).
    """
    if state.phase != PLACE_TILE or state.tile is None:
        return []
    return _placements(state, state.tile)


def legal_follower_spots(state: GameState) -> list[str]:
    """Spots (``city:N``, ``road:E``, ``field:SSW``, ``cloister``) on the tile just placed where
    the acting seat may deploy a follower (RULES.md §3.2d); empty outside ``deploy`` or with an
    empty supply. Each segment is named once, by its canonical spot."""
    if state.phase != DEPLOY or state.placed is None or state.supply[state.seat] == 0:
        return []
    rt, base = state.board[state.placed]
    parent = state.parent
    f_followers = state.f_followers
    spots = [
        seg.name
        for i, seg in enumerate(rt.segments)
        if seg.kind != RIVER and not f_followers[_find(parent, base + i)]
    ]
    if state.options.tileset == "wheel_of_fortune":
        spots += [
            f"crown:{name}"
            for name, crowns, held in zip(wheel.SEGMENT_NAMES, wheel.CROWNS, state.crowns,
                                          strict=True)
            if len(held) < crowns
        ]
    return spots


def legal_actions(state: GameState) -> list[Action]:
    """Every action the game accepts now, all for ``state.seat`` (empty when over/paused)."""
    seat = state.seat
    if state.phase == PLACE_TILE:
        return [PlaceTile(seat, x, y, r) for x, y, r in legal_placements(state)]
    if state.phase == DEPLOY:
        out: list[Action] = [PlaceFollower(seat, spot) for spot in legal_follower_spots(state)]
        out.append(Pass(seat))
        return out
    if state.phase == PLAGUE:
        return [RemoveFollower(seat, x, y, spot) for x, y, spot in wheel.plague_choices(state)]
    return []


def _check(state: GameState, action: Action) -> None:
    """Raise the typed error ``apply`` would raise, without changing anything."""
    if state.phase == GAME_OVER:
        raise GameOver("the game is over")
    if not isinstance(action, PlaceTile | PlaceFollower | Pass | RemoveFollower):
        raise InvalidAction("not an action")
    if state.phase == PAUSED:
        raise WrongPhase("the record's known tiles are used up")
    if action.seat != state.seat:
        raise NotYourTurn(f"it is seat {state.seat}'s turn")
    if state.phase == PLAGUE or isinstance(action, RemoveFollower):
        if state.phase != PLAGUE or not isinstance(action, RemoveFollower):
            raise WrongPhase(
                "Plague: choose a follower to take back" if state.phase == PLAGUE
                else "no Plague decision is pending"
            )
        if _plague_target(state, action) is None:
            raise IllegalFollower(
                f"seat {action.seat} has no follower at {[action.x, action.y]} {action.spot}"
            )
        return
    if isinstance(action, PlaceTile):
        if state.phase != PLACE_TILE:
            raise WrongPhase("the tile has been placed; deploy a follower or pass")
        if action.rotation not in ROTATIONS:
            raise InvalidAction("rotation must be 0, 90, 180 or 270")
        assert state.tile is not None
        rt = ROTATED[state.tile][action.rotation // 90]
        pos = (action.x, action.y)
        if pos in state.board:
            raise IllegalPlacement(f"{list(pos)} is already occupied")
        if pos not in state.frontier:
            raise IllegalPlacement(f"{list(pos)} does not touch the placed tiles along an edge")
        if not _fits(state, rt, pos):
            if rt.river_sides:
                raise IllegalPlacement(
                    f"tile {state.tile} at {list(pos)} rotation {action.rotation} does not "
                    "continue the river (or turns the same way as the previous bend)"
                )
            raise IllegalPlacement(
                f"tile {state.tile} at {list(pos)} rotation {action.rotation} does not match "
                "its neighbours' edges"
            )
        return
    if state.phase != DEPLOY:
        raise WrongPhase("place the drawn tile first")
    if isinstance(action, PlaceFollower):
        assert state.placed is not None
        rt, base = state.board[state.placed]
        if action.spot.startswith("crown:"):
            if action.spot not in legal_follower_spots(state):
                raise IllegalFollower(f"no free crown space {action.spot} to deploy on")
            return
        local = rt.spots.get(action.spot)
        if local is None:
            kind, _, where = action.spot.partition(":")
            well_formed = (
                (kind in ("city", "road", "river") and where in SIDES)
                or (kind == "field" and where in HALVES)
                or action.spot == "cloister"
            )
            if not well_formed:
                raise InvalidAction(
                    f"unknown follower spot {action.spot!r}: use road:<side>, city:<side>, "
                    "field:<half-edge> or cloister"
                )
            raise IllegalFollower(f"tile {rt.tile} has no {action.spot} here")
        if state.supply[state.seat] == 0:
            raise IllegalFollower("no follower left in supply")
        if state.f_followers[_find(state.parent, base + local)]:
            raise IllegalFollower(f"the feature at {action.spot} already holds a follower")


def apply_in_place(state: GameState, action: Action) -> list[Event]:
    """Like :func:`apply` but changes ``state`` itself (for replays and simulations).

    Checks everything first, so on error nothing has changed. Returns the events.
    """
    _check(state, action)
    events: list[Event] = []
    s = state
    if isinstance(action, PlaceTile):
        assert s.tile is not None
        rt = ROTATED[s.tile][action.rotation // 90]
        pos = (action.x, action.y)
        _put_tile(s, rt, pos)
        s.placed = pos
        s.turn += 1
        s.phase = DEPLOY
        events.append(TilePlaced(s.seat, s.tile, pos, action.rotation))
        s.tile = None
    elif isinstance(action, RemoveFollower):
        gid = _plague_target(s, action)
        assert gid is not None
        wheel.remove_follower(s, gid, events)
        if wheel.finish_plague(s, events):
            _draw(s, events)
    elif isinstance(action, PlaceFollower) and action.spot.startswith("crown:"):
        segment = wheel.SEGMENT_NAMES.index(action.spot[6:])
        s.crowns = tuple(c + (s.seat,) if i == segment else c for i, c in enumerate(s.crowns))
        s.supply[s.seat] -= 1
        events.append(CrownPlaced(s.seat, action.spot[6:]))
        _end_turn(s, events)
    elif isinstance(action, PlaceFollower):
        assert s.placed is not None
        rt, base = s.board[s.placed]
        local = rt.spots[action.spot]
        seg = rt.segments[local]
        gid = base + local
        root = _find(s.parent, gid)
        s.followers[gid] = s.seat
        s.f_followers[root] += (gid,)
        s.supply[s.seat] -= 1
        events.append(FollowerPlaced(s.seat, s.placed, seg.name, ROLE_NAMES[seg.kind]))
        _end_turn(s, events)
    else:
        _end_turn(s, events)
    s.actions.append(action)
    return events


def _plague_target(state: GameState, action: RemoveFollower) -> int | None:
    """The segment id of the acting seat's follower named by a Plague decision, if any."""
    nb = state.board.get((action.x, action.y))
    if nb is None:
        return None
    rt, base = nb
    local = rt.spots.get(action.spot)
    if local is None:
        return None
    gid = base + local
    return gid if state.followers.get(gid) == action.seat else None


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action and return ``(new_state, events)``; ``state`` itself is never changed.

    Checks, in order: game over (:class:`GameOver`), action shape (:class:`InvalidAction`),
    seat (:class:`NotYourTurn`), phase (:class:`WrongPhase`), then legality
    (:class:`IllegalPlacement` per RULES.md §3.2b/§5.2, :class:`IllegalFollower` per §3.2d).
    After a follower decision the turn ends: completed features score and return their
    followers (§3.2e), the next seat draws (discarding tiles that fit nowhere, §3.2c), and
    after the last tile the final scoring runs (§3.5, §4.2–§4.4).
    """
    _check(state, action)
    new = state.copy()
    events = apply_in_place(new, action)
    return new, events


def score_breakdown(state: GameState) -> list[dict[str, dict[str, int]]]:
    """Points by seat, category and when: ``[{"city": {"completed": 8, "final": 2}, ...}]``."""
    out: list[dict[str, dict[str, int]]] = [{} for _ in state.players]
    for (seat, category, final), points in sorted(state.tally.items()):
        out[seat].setdefault(category, {"completed": 0, "final": 0})
        out[seat][category]["final" if final else "completed"] += points
    return out


def follower_positions(state: GameState) -> list[dict[str, Any]]:
    """Followers on the board: ``[{"seat", "at": [x, y], "spot", "role"}]`` sorted by cell."""
    rows: list[tuple[int, int, str, int, str]] = []
    for gid, seat in state.followers.items():
        (x, y), spot = _spot_of(state, gid)
        rows.append((y, x, spot, seat, ROLE_NAMES[state.seg_kind[gid]]))
    rows.sort()
    return [{"seat": seat, "at": [x, y], "spot": spot, "role": role}
            for y, x, spot, seat, role in rows]


def view(state: GameState, seat: int | None = None) -> dict[str, Any]:
    """What ``seat`` (or a spectator, ``None``) may see: never the deck order or the seed.

    Shape: ``{"rules", "players", "phase" (place_tile | deploy | plague | paused | game_over),
    "seat" (who acts), "tile", "placed", "turn", "board": [{"at",
    "tile", "rotation"}], "followers": [...], "scores", "supply", "tiles_remaining",
    "remaining": {tile: count}, "winners", "breakdown", "legal_placements": [[x, y, r]],
    "legal_spots": [...]}``. Legal moves are filled in only for the seat whose turn it is.
    Wheel of Fortune adds ``"wheel": {"pig", "segments": [{"name", "crowns", "occupants"}],
    "cells"}`` and ``"plague": {"seat", "waiting", "choices": [[x, y, spot]]} | None``.
    """
    mine = seat is not None and seat == state.seat
    out: dict[str, Any] = {
        "rules": state.options.to_json(),
        "players": list(state.players),
        "phase": state.phase,
        "seat": state.seat if state.phase not in (GAME_OVER, PAUSED) else None,
        "tile": state.tile,
        "placed": list(state.placed) if state.placed else None,
        "turn": state.turn,
        "board": [
            {"at": [pos[0], pos[1]], "tile": rt.tile, "rotation": rt.rotation}
            for pos, (rt, _) in state.board.items()
        ],
        "followers": follower_positions(state),
        "scores": list(state.scores),
        "supply": list(state.supply),
        "tiles_remaining": state.tiles_remaining,
        "remaining": state.remaining_counts(),
        "winners": list(state.winners),
        "breakdown": score_breakdown(state),
        "legal_placements": [list(p) for p in legal_placements(state)] if mine else [],
        "legal_spots": legal_follower_spots(state) if mine else [],
    }
    if state.options.tileset == "wheel_of_fortune":
        out["wheel"] = {
            "pig": wheel.SEGMENT_NAMES[state.pig],
            "segments": [
                {"name": name, "crowns": crowns, "occupants": list(held)}
                for name, crowns, held in zip(wheel.SEGMENT_NAMES, wheel.CROWNS, state.crowns,
                                              strict=True)
            ],
            "cells": [[x, y] for x, y in sorted(BOARD_CELLS)],
        }
        out["plague"] = (
            {"seat": state.seat, "waiting": list(state.plague_queue),
             "choices": [[x, y, spot] for x, y, spot in wheel.plague_choices(state)]}
            if state.phase == PLAGUE else None
        )
    return out
