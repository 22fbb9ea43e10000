"""The game: setting one up, the turn (draw, place, deploy, end), legal actions and ``apply``.

Pure and deterministic: no I/O, no clock, no global random state. ``apply`` checks an action
once (:func:`check`) and hands it to the private applier, on a copy (``apply``) or on the state
itself (``apply_in_place``); the old state is untouched by ``apply``. The rules by area:
placement and features in :mod:`app.engine.board`, points in :mod:`app.engine.scoring`, the
state itself in :mod:`app.engine.state`; the game's active expansions
(:mod:`app.engine.expansions`) are asked at fixed hook points of the setup, the draw, the
actions and the scoring. Rulebook references are to ``RULES.md``.
"""

from __future__ import annotations

from collections.abc import Sequence

from app.engine.actions import Action, PlaceFollower, PlaceTile
from app.engine.board import cloister_neighbours, put_tile
from app.engine.errors import InvalidOptions
from app.engine.events import (
    Event,
    FollowerPlaced,
    TileDiscarded,
    TileDrawn,
    TilePlaced,
    TurnEnded,
)
from app.engine.expansions import Expansion, Resume, active
from app.engine.legal import (
    check,
    checked_owner,
    legal_actions,
    legal_follower_spots,
    legal_placements,
    tile_placements,
)
from app.engine.options import Options
from app.engine.rng import SplitMix64, shuffled
from app.engine.scoring import final_scoring, score_completed
from app.engine.state import (
    DEPLOY,
    FOLLOWERS_PER_PLAYER,
    GAME_OVER,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PAUSED,
    PLACE_TILE,
    GameState,
    Pos,
    find,
)
from app.engine.tiles import CITY, RING, ROAD, ROLE_NAMES, ROTATED, RotatedTile
from app.engine.tiles.tables import BASE_TILES, START_TILE

__all__ = [
    "DEPLOY",
    "GAME_OVER",
    "PAUSED",
    "PLACE_TILE",
    "GameState",
    "apply",
    "apply_in_place",
    "base_deck_counts",
    "check",
    "end_game",
    "legal_actions",
    "legal_follower_spots",
    "legal_placements",
    "new_game",
]

# ---------------------------------------------------------------------- setup


def base_deck_counts(options: Options) -> dict[str, int]:
    """Tile id → copies in the draw pile (start tiles excluded) for ``options``: the base
    game's 72 tiles less the start D, then as each active expansion changes it.
    """
    counts = {t.id: t.count for t in BASE_TILES}
    counts[START_TILE] -= 1  # the start D, or the D taken out when playing with the River
    for x in active(options):
        counts = x.deck_counts(counts)
    return counts


def _shuffled_deck(options: Options, seed: int) -> tuple[str, ...]:
    rng = SplitMix64(seed)
    land = [t.id for t in BASE_TILES for _ in range(t.count)]
    land.remove(START_TILE)
    for x in active(options):
        deck = x.shuffled_deck(land, rng)
        if deck is not None:
            return tuple(deck)
    return tuple(shuffled(land, rng))


def _validate_draw_order(options: Options, draw_order: Sequence[str]) -> tuple[str, ...]:
    available = base_deck_counts(options)
    seen: dict[str, int] = {}
    for tid in draw_order:
        if not isinstance(tid, str) or tid not in available:
            raise InvalidOptions(f"tile {tid!r} is not in this game's deck")
        seen[tid] = seen.get(tid, 0) + 1
        if seen[tid] > available[tid]:
            raise InvalidOptions(f"the set has only {available[tid]} tile(s) {tid}")
    for x in active(options):
        x.check_draw_order(draw_order)
    return tuple(draw_order)


def _start_tiles(expansions: tuple[Expansion, ...]) -> list[tuple[Pos, str, int]]:
    """The start tile D at (0, 0), or what an active expansion puts down instead."""
    for x in expansions:
        tiles = x.start_tiles()
        if tiles is not None:
            return tiles
    return [((0, 0), START_TILE, 0)]


def _put(s: GameState, rt: RotatedTile, pos: Pos, expansions: tuple[Expansion, ...]) -> None:
    put_tile(s, rt, pos)
    for x in expansions:
        x.tile_placed(s, rt, pos)


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

    The start tile (D, or what an active expansion puts down instead: the River's spring R1)
    is at (0, 0), rotation 0; a start board spreads east and south from (0, 0). The events of
    the first draw are in ``state.opening_events``. Raises :class:`InvalidOptions`.
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
    s.phase = PLACE_TILE
    s.seat = 0
    s.active = 0
    s.tile = None
    s.placed = None
    s.turn = 0
    s.winners = ()
    expansions = active(options)
    s.expansion_state = {}
    for x in expansions:
        initial = x.initial_state(len(players))
        if initial is not None:
            s.expansion_state[x.id] = initial
    for pos, tid, rotation in _start_tiles(expansions):
        _put(s, ROTATED[tid][rotation // 90], pos, expansions)
    events: list[Event] = []
    _draw(s, events)
    s.opening_events = tuple(events)
    return s


# ------------------------------------------------------------------ the turn


def _draw(s: GameState, events: list[Event]) -> None:
    """Draw for the active seat, discarding tiles that fit nowhere.

    RULES.md §3.2a, §3.2c, §3.5. Each active expansion hears of the drawn tile first and may
    pause the draw for decisions in its own phase (an icon tile's effect, §6.4); the draw
    resumes with the drawn tile when ``s.tile`` is set. After the last tile the expansions'
    final scoring runs, then the base game's.
    """
    expansions = active(s.options)
    while True:
        if s.tile is None:
            if s.deck_pos >= len(s.deck):
                break
            tile = s.deck[s.deck_pos]
            s.deck_pos += 1
            s.tile = tile
            events.append(TileDrawn(s.active, tile, len(s.deck) - s.deck_pos))
            for x in expansions:
                if x.tile_drawn(s, tile, events):
                    return  # the expansion's decisions first; its last one resumes this draw
        if tile_placements(s, s.tile, first_only=True):
            s.phase = PLACE_TILE
            s.seat = s.active
            return
        events.append(TileDiscarded(s.active, s.tile))
        s.tile = None
    s.seat = s.active
    if s.partial:
        s.phase = PAUSED
        return
    end_game(s, events)


def end_game(s: GameState, events: list[Event]) -> None:
    """Run the final scoring and end the game, changing ``s`` (RULES.md §3.5, §4.2–§4.4): the
    active expansions' part first, then the base game's. Also for a match its players end
    early (the service calls it on a copy).
    """
    for x in active(s.options):
        x.final_scoring(s, events)
    final_scoring(s, events)


def _end_turn(s: GameState, events: list[Event]) -> None:
    """Score what the placed tile completed (RULES.md §3.2e), pass the turn, draw."""
    assert s.placed is not None
    pos = s.placed
    rt, base = s.board[pos]
    done: set[int] = set()
    for i, seg in enumerate(rt.segments):
        if seg.kind == CITY or seg.kind == ROAD:
            root = find(s.parent, base + i)
            if root not in done and s.f_open[root] == 0:
                done.add(root)
                _score_completed(s, root, events)
    x, y = pos
    board = s.board
    for dx, dy in ((0, 0),) + RING:
        cell = (x + dx, y + dy)
        nb = board.get(cell)
        if nb is not None and nb[0].cloister >= 0 and cloister_neighbours(s, cell) == 8:
            _score_completed(s, nb[1] + nb[0].cloister, events)
    events.append(TurnEnded(s.active))
    s.placed = None
    s.active = s.seat = (s.active + 1) % len(s.players)
    _draw(s, events)


def _score_completed(s: GameState, root: int, events: list[Event]) -> None:
    score_completed(s, root, events)
    for x in active(s.options):
        x.feature_completed(s, root, events)


# ------------------------------------------------------------------ legal actions and apply


def apply_in_place(state: GameState, action: Action) -> list[Event]:
    """Like :func:`apply` but changes ``state`` itself (for replays and simulations).

    Checks everything first, so on error nothing has changed. Returns the events.
    """
    return _apply(state, action, checked_owner(state, action))


def _apply(s: GameState, action: Action, owner: Expansion | None) -> list[Event]:
    """Carry out an action :func:`check` accepted, changing ``s``; returns the events.

    ``owner``: the active expansion that claimed the action (:func:`checked_owner`), or None.
    """
    events: list[Event] = []
    if owner is not None:
        resume = owner.apply(s, action, events)
        if resume == Resume.END_TURN:
            _end_turn(s, events)
        elif resume == Resume.DRAW:
            _draw(s, events)
    elif isinstance(action, PlaceTile):
        assert s.tile is not None
        rt = ROTATED[s.tile][action.rotation // 90]
        pos = (action.x, action.y)
        _put(s, rt, pos, active(s.options))
        s.placed = pos
        s.turn += 1
        s.phase = DEPLOY
        events.append(TilePlaced(s.seat, s.tile, pos, action.rotation))
        s.tile = None
    elif isinstance(action, PlaceFollower):
        assert s.placed is not None
        rt, base = s.board[s.placed]
        local = rt.spots[action.spot]
        seg = rt.segments[local]
        gid = base + local
        root = find(s.parent, gid)
        s.followers[gid] = s.seat
        s.f_followers[root] += (gid,)
        s.supply[s.seat] -= 1
        events.append(FollowerPlaced(s.seat, s.placed, seg.name, ROLE_NAMES[seg.kind]))
        _end_turn(s, events)
    else:
        _end_turn(s, events)
    s.actions.append(action)
    return events


def apply(state: GameState, action: Action) -> tuple[GameState, list[Event]]:
    """Apply one action and return ``(new_state, events)``; ``state`` itself is never changed.

    Checks, in order: game over (:class:`GameOver`), action shape (:class:`InvalidAction`),
    seat (:class:`NotYourTurn`), phase (:class:`WrongPhase`), then legality
    (:class:`IllegalPlacement` per RULES.md §3.2b/§5.2, :class:`IllegalFollower` per §3.2d).
    After a follower decision the turn ends: completed features score and return their
    followers (§3.2e), the next seat draws (discarding tiles that fit nowhere, §3.2c), and
    after the last tile the final scoring runs (§3.5, §4.2–§4.4).
    """
    owner = checked_owner(state, action)
    new = state.copy()
    events = _apply(new, action, owner)
    return new, events
