"""Game records, format ``carcassonne-record/1`` (``shared/rules/record.md``): export and replay.

A record is the PGN of Carcassonne: rules, players, the tiles drawn in order and one move per
placed tile. :func:`replay` checks every move with the engine and reports the first bad one by
its 1-based number.
"""

from __future__ import annotations

from typing import Any

from app.engine.actions import Pass, PlaceFollower, PlaceTile, RemoveFollower
from app.engine.errors import EngineError, RecordError
from app.engine.events import Event, PigMoved, TileDiscarded, TileDrawn
from app.engine.game import apply_in_place, new_game
from app.engine.options import Options
from app.engine.state import GAME_OVER, PLACE_TILE, PLAGUE, GameState
from app.engine.tiles import ROTATED, TILE_TYPES
from app.engine.wheel import PLAGUE_SEGMENT, SEGMENT_NAMES

FORMAT = "carcassonne-record/1"


def export_record(state: GameState) -> dict[str, Any]:
    """The record of ``state``: finished games in full; running games list only the tiles
    drawn so far and the completed turns (a tile placed whose follower decision is pending, or a
    Plague still being decided, is left out). Follower spots are written canonically (first
    side/half-edge clockwise). A discarded Wheel of Fortune tile whose icon landed the pig on
    Plague makes a ``{"discarded", "plague"}`` entry (record.md).
    """
    actions = state.actions
    moves: list[dict[str, Any]] = []
    drawn = state.deck[: state.deck_pos]
    pig = 0
    ai = 0
    for i, tile in enumerate(drawn):
        icon = TILE_TYPES[tile].icon
        pig = (pig + icon) % len(SEGMENT_NAMES)
        plague: list[dict[str, Any]] = []
        while ai < len(actions) and isinstance(removal := actions[ai], RemoveFollower):
            rt = state.board[(removal.x, removal.y)][0]
            plague.append(
                {
                    "seat": removal.seat,
                    "at": [removal.x, removal.y],
                    "follower": rt.segments[rt.spots[removal.spot]].name,
                }
            )
            ai += 1
        on_plague = bool(icon) and pig == PLAGUE_SEGMENT
        action = actions[ai] if ai < len(actions) else None
        if isinstance(action, PlaceTile) and state.board[(action.x, action.y)][0].tile == tile:
            if ai + 1 >= len(actions):
                break  # placed, follower decision pending
            move: dict[str, Any] = {
                "tile": tile,
                "at": [action.x, action.y],
                "rotation": action.rotation,
                "follower": None,
            }
            if plague:
                move["plague"] = plague
            after = actions[ai + 1]
            if isinstance(after, PlaceFollower):
                if after.spot.startswith("crown:"):
                    move["follower"] = after.spot
                else:
                    rt = ROTATED[tile][action.rotation // 90]
                    move["follower"] = rt.segments[rt.spots[after.spot]].name
            moves.append(move)
            ai += 2
        elif i == len(drawn) - 1 and state.tile == tile:
            break  # the tile in hand (or a Plague still being decided)
        elif on_plague:
            moves.append({"discarded": tile, "plague": plague})
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.options.to_json(),
        "players": list(state.players),
        "finished": state.is_over,
        "draw_order": list(drawn),
        "moves": moves,
    }
    if state.is_over:
        record["result"] = {"scores": list(state.scores), "winners": list(state.winners)}
    return record


class _PlagueDiscards:
    """Follows the engine's events and collects the tiles it discarded after their icon had
    landed the pig on Plague (each needs a ``discarded`` entry in the record).
    """

    def __init__(self) -> None:
        self.on_plague = False
        self.pending: list[str] = []

    def feed(self, events: list[Event]) -> list[Event]:
        for e in events:
            if isinstance(e, TileDrawn):
                self.on_plague = False
            elif isinstance(e, PigMoved):
                self.on_plague = e.segment == "plague"
            elif isinstance(e, TileDiscarded) and self.on_plague:
                self.pending.append(e.tile)
        return events


def _header(record: Any) -> tuple[Options, list[str], list[str], bool, list[Any]]:
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object")
    if record.get("format") != FORMAT:
        raise RecordError(f"format must be {FORMAT!r}")
    try:
        options = Options.from_json(record.get("rules"))
    except EngineError as exc:
        raise RecordError(exc.message) from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError("players must be a list of names")
    draw_order = record.get("draw_order")
    if not isinstance(draw_order, list) or not all(isinstance(t, str) for t in draw_order):
        raise RecordError("draw_order must be a list of tile ids")
    finished = record.get("finished", True)
    if not isinstance(finished, bool):
        raise RecordError("finished must be true or false")
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("moves must be a list")
    return options, players, draw_order, finished, moves


def _plague(state: GameState, removals: Any, number: int) -> list[Event]:
    """Apply a move's Plague removals (Wheel of Fortune) while the game asks for them."""
    if removals is None:
        removals = []
    if not isinstance(removals, list):
        raise RecordError("'plague' must be a list of removals", number)
    events: list[Event] = []
    queue = list(removals)
    while state.phase == PLAGUE:
        if not queue:
            raise RecordError(f"Plague: seat {state.seat} must take a follower back", number)
        item = queue.pop(0)
        if (
            not isinstance(item, dict)
            or not isinstance(item.get("at"), list)
            or len(item["at"]) != 2
            or not isinstance(item.get("follower"), str)
        ):
            raise RecordError("a Plague removal is {seat, at: [x, y], follower}", number)
        if item.get("seat") != state.seat:
            raise RecordError(
                f"Plague: seat {state.seat} decides now, not seat {item.get('seat')}", number
            )
        x, y = item["at"]
        events += apply_in_place(state, RemoveFollower(state.seat, x, y, item["follower"]))
    if queue:
        raise RecordError("more Plague removals than the Plague asked for", number)
    return events


def _discarded(
    state: GameState, move: dict[str, Any], number: int, discards: _PlagueDiscards
) -> list[Event]:
    """A ``{"discarded": tile, "plague": [...]}`` entry: the tile is the next one drawn, its
    icon landed the pig on Plague, the removals are the ones asked for, and then it fits
    nowhere (the engine discards it itself).
    """
    tile = move["discarded"]
    if discards.pending:
        if tile != discards.pending[0]:
            raise RecordError(
                f"the tile discarded after Plague is {discards.pending[0]!r}, not {tile!r}", number
            )
        if move.get("plague") not in (None, []):
            raise RecordError("nobody had a follower on a land tile at this Plague", number)
        discards.pending.pop(0)
        return []
    if state.phase != PLAGUE or state.tile != tile:
        raise RecordError(
            f"tile {tile!r} is not a tile drawn now that landed the pig on Plague", number
        )
    try:
        events = discards.feed(_plague(state, move.get("plague"), number))
    except EngineError as exc:
        raise RecordError(exc.message, number) from None
    if not discards.pending or discards.pending[0] != tile:
        raise RecordError(f"tile {tile!r} fits on the board: it is not discarded", number)
    discards.pending.pop(0)
    return events


def _move(
    state: GameState, move: dict[str, Any], number: int, discards: _PlagueDiscards
) -> list[Event]:
    """One placed tile: its Plague removals (if its draw landed on Plague), the placement and
    the follower decision, each checked by the engine.
    """
    if state.phase == GAME_OVER:
        raise RecordError("the game is already over (no tile left to draw)", number)
    if state.phase not in (PLACE_TILE, PLAGUE) or state.tile is None:
        raise RecordError("draw_order has no tile left for this move", number)
    tile, at, rotation = move.get("tile"), move.get("at"), move.get("rotation")
    if tile != state.tile:
        raise RecordError(
            f"tile {tile!r} is not the next tile drawn that fits; that is {state.tile!r}",
            number,
        )
    if (
        not isinstance(at, list)
        or len(at) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    ):
        raise RecordError("'at' must be [x, y]", number)
    if not isinstance(rotation, int) or isinstance(rotation, bool):
        raise RecordError("'rotation' must be 0, 90, 180 or 270", number)
    follower = move.get("follower")
    if follower is not None and not isinstance(follower, str):
        raise RecordError("'follower' must be null or a spot such as 'city:N'", number)
    events: list[Event] = []
    try:
        events += discards.feed(_plague(state, move.get("plague"), number))
        if discards.pending:
            raise RecordError(
                f"tile {tile!r} landed the pig on Plague and fits nowhere: the record must "
                "list it as discarded",
                number,
            )
        seat = state.seat
        events += apply_in_place(state, PlaceTile(seat, at[0], at[1], rotation))
        if follower is None:
            events += discards.feed(apply_in_place(state, Pass(seat)))
        else:
            events += discards.feed(apply_in_place(state, PlaceFollower(seat, follower)))
    except EngineError as exc:
        raise RecordError(exc.message, number) from None
    return events


def replay(record: Any) -> tuple[GameState, list[Event]]:
    """Replay a record move by move and return the final state and every event, in order.

    Raises :class:`RecordError` naming the 1-based move and the reason for the first move that
    is malformed or illegal, when a finished record stops before its draw order is used up, and
    when a ``result`` is given that the replay does not reproduce (move 0 for the header).
    Wheel of Fortune: a tile the engine discards after it landed the pig on Plague must have its
    ``{"discarded", "plague"}`` entry, in draw order (record.md).
    """
    options, players, draw_order, finished, moves = _header(record)
    try:
        state = new_game(options, players, draw_order=draw_order, partial=not finished)
    except EngineError as exc:
        raise RecordError(exc.message) from None
    discards = _PlagueDiscards()
    events: list[Event] = discards.feed(list(state.opening_events))
    for number, move in enumerate(moves, 1):
        if not isinstance(move, dict):
            raise RecordError("a move must be a JSON object", number)
        if "discarded" in move:
            events += _discarded(state, move, number, discards)
            continue
        if discards.pending:
            raise RecordError(
                f"tile {discards.pending[0]!r} landed the pig on Plague and fits nowhere: "
                "the record must list it as discarded here",
                number,
            )
        events += _move(state, move, number, discards)
    if discards.pending:
        raise RecordError(
            f"tile {discards.pending[0]!r} landed the pig on Plague and fits nowhere: "
            "the record must list it as discarded",
            len(moves) + 1,
        )
    if finished and state.phase != GAME_OVER:
        raise RecordError(
            f"the record ends while tile {state.tile!r} still has to be placed",
            len(moves) + 1,
        )
    result = record.get("result")
    if isinstance(result, dict):
        want = result.get("scores")
        if want is not None and list(want) != state.scores:
            raise RecordError(f"replayed scores {state.scores} differ from the result {want}")
        winners = result.get("winners")
        if winners is not None and finished and list(winners) != list(state.winners):
            raise RecordError(
                f"replayed winners {list(state.winners)} differ from the result {winners}"
            )
    return state, events
