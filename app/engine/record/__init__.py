"""Game records, format ``carcassonne-record/1`` (``docs/RECORD.md``): export and replay.

A record is the PGN of Carcassonne: rules, players, the tiles drawn in order and one move per
placed tile. :func:`replay` checks every move with the engine and reports the first bad one by
its 1-based number. The game's active expansions write and read their own parts of an entry
(and entries of their own) through ``Expansion.record_export`` / ``record_replay``.
"""

from __future__ import annotations

from typing import Any

from app.engine.actions import Pass, PlaceFollower, PlaceTile
from app.engine.errors import EngineError, RecordError
from app.engine.events import Event
from app.engine.expansions import RecordReplay, active
from app.engine.game import apply_in_place, new_game
from app.engine.options import Options
from app.engine.state import GAME_OVER, PLACE_TILE, GameState
from app.engine.tiles import ROTATED

FORMAT = "carcassonne-record/1"


def export_record(state: GameState) -> dict[str, Any]:
    """The record of ``state``: finished games in full; running games list only the tiles
    drawn so far and the completed turns (a tile placed whose follower decision is pending, or
    an expansion's decision still being made, is left out). Follower spots are written
    canonically (first side/half-edge clockwise; an expansion's own spot as given). The active
    expansions add their part of each entry, and entries of their own (record.md).
    """
    actions = state.actions
    exports = [x.record_export() for x in active(state.options)]
    moves: list[dict[str, Any]] = []
    drawn = state.deck[: state.deck_pos]
    ai = 0
    for i, tile in enumerate(drawn):
        extra: dict[str, Any] = {}
        for part in exports:
            part.drawn(tile)
            ai = part.decisions(state, actions, ai, extra)
        action = actions[ai] if ai < len(actions) else None
        if isinstance(action, PlaceTile) and state.board[(action.x, action.y)][0].tile == tile:
            if ai + 1 >= len(actions):
                break  # placed, follower decision pending
            move: dict[str, Any] = {
                "tile": tile,
                "at": [action.x, action.y],
                "rotation": action.rotation,
                "follower": None,
                **extra,
            }
            after = actions[ai + 1]
            if isinstance(after, PlaceFollower):
                rt = ROTATED[tile][action.rotation // 90]
                local = rt.spots.get(after.spot)
                move["follower"] = after.spot if local is None else rt.segments[local].name
            moves.append(move)
            ai += 2
        elif i == len(drawn) - 1 and state.tile == tile:
            break  # the tile in hand (or an expansion's decision still being made)
        else:
            for part in exports:
                entry = part.discard_entry(tile)
                if entry is not None:
                    moves.append(entry)
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


def _header(record: Any) -> tuple[Options, list[str], list[str], bool, list[Any]]:
    if not isinstance(record, dict):
        raise RecordError("a record must be a JSON object", reason="record_not_object")
    if record.get("format") != FORMAT:
        raise RecordError(
            f"format must be {FORMAT!r}", reason="record_format", params={"format": FORMAT}
        )
    try:
        options = Options.from_json(record.get("rules"))
    except EngineError as exc:
        raise RecordError(exc.message, reason="record_rules") from None
    players = record.get("players")
    if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
        raise RecordError(
            "players must be a list of names", reason="record_field", params={"field": "players"}
        )
    draw_order = record.get("draw_order")
    if not isinstance(draw_order, list) or not all(isinstance(t, str) for t in draw_order):
        raise RecordError(
            "draw_order must be a list of tile ids",
            reason="record_field",
            params={"field": "draw_order"},
        )
    finished = record.get("finished", True)
    if not isinstance(finished, bool):
        raise RecordError(
            "finished must be true or false", reason="record_field", params={"field": "finished"}
        )
    moves = record.get("moves")
    if not isinstance(moves, list):
        raise RecordError("moves must be a list", reason="record_field", params={"field": "moves"})
    return options, players, draw_order, finished, moves


def _feed(parts: list[RecordReplay], events: list[Event]) -> list[Event]:
    for part in parts:
        part.feed(events)
    return events


def _move(
    state: GameState, move: dict[str, Any], number: int, parts: list[RecordReplay]
) -> list[Event]:
    """One placed tile: the expansions' decisions it carries (taken before its placement),
    the placement and the follower decision, each checked by the engine.
    """
    if state.phase == GAME_OVER:
        raise RecordError(
            "the game is already over (no tile left to draw)", number, reason="record_game_over"
        )
    drawing = state.phase == PLACE_TILE or any(
        state.phase in x.phases for x in active(state.options)
    )
    if not drawing or state.tile is None:
        raise RecordError(
            "draw_order has no tile left for this move", number, reason="record_no_tile"
        )
    tile, at, rotation = move.get("tile"), move.get("at"), move.get("rotation")
    if tile != state.tile:
        raise RecordError(
            f"tile {tile!r} is not the next tile drawn that fits; that is {state.tile!r}",
            number,
            reason="record_tile_not_next",
            params={"tile": tile if isinstance(tile, str) else repr(tile), "expected": state.tile},
        )
    if (
        not isinstance(at, list)
        or len(at) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in at)
    ):
        raise RecordError(
            "'at' must be [x, y]", number, reason="record_move_field", params={"field": "at"}
        )
    if not isinstance(rotation, int) or isinstance(rotation, bool):
        raise RecordError(
            "'rotation' must be 0, 90, 180 or 270",
            number,
            reason="record_move_field",
            params={"field": "rotation"},
        )
    follower = move.get("follower")
    if follower is not None and not isinstance(follower, str):
        raise RecordError(
            "'follower' must be null or a spot such as 'city:N'",
            number,
            reason="record_move_field",
            params={"field": "follower"},
        )
    events: list[Event] = []
    try:
        for part in parts:
            events += part.before_move(state, move, number)
        seat = state.seat
        events += apply_in_place(state, PlaceTile(seat, at[0], at[1], rotation))
        if follower is None:
            events += _feed(parts, apply_in_place(state, Pass(seat)))
        else:
            events += _feed(parts, apply_in_place(state, PlaceFollower(seat, follower)))
    except EngineError as exc:
        raise RecordError(
            exc.message,
            number,
            reason="record_move_illegal",
            params={"error": exc.code, "why": exc.reason, **exc.params},
        ) from None
    return events


def _entry(
    state: GameState, move: dict[str, Any], number: int, parts: list[RecordReplay]
) -> list[Event]:
    """One entry of ``moves``: an expansion's own, or a placed tile."""
    for part in parts:
        done = part.entry(state, move, number)
        if done is not None:
            return done
    if "discarded" in move:
        raise RecordError(
            f"tile {move['discarded']!r} is not a tile drawn now that the rules discard with "
            "an entry of its own",
            number,
            reason="record_discard",
        )
    return _move(state, move, number, parts)


def replay(record: Any) -> tuple[GameState, list[Event]]:
    """Replay a record move by move and return the final state and every event, in order.

    Raises :class:`RecordError` naming the 1-based move and the reason for the first move that
    is malformed or illegal, when a finished record stops before its draw order is used up, and
    when a ``result`` is given that the replay does not reproduce (move 0 for the header).
    An active expansion's own entries and parts of entries are replayed by it (record.md).
    """
    options, players, draw_order, finished, moves = _header(record)
    try:
        state = new_game(options, players, draw_order=draw_order, partial=not finished)
    except EngineError as exc:
        raise RecordError(exc.message, reason="record_setup") from None
    parts = [x.record_replay(apply_in_place) for x in active(options)]
    events: list[Event] = _feed(parts, list(state.opening_events))
    for number, move in enumerate(moves, 1):
        if not isinstance(move, dict):
            raise RecordError(
                "a move must be a JSON object", number, reason="record_move_not_object"
            )
        events += _entry(state, move, number, parts)
    for part in parts:
        part.finish(len(moves) + 1)
    if finished and state.phase != GAME_OVER:
        raise RecordError(
            f"the record ends while tile {state.tile!r} still has to be placed",
            len(moves) + 1,
            reason="record_unfinished",
            params={"tile": state.tile},
        )
    result = record.get("result")
    if isinstance(result, dict):
        want = result.get("scores")
        if want is not None and list(want) != state.scores:
            raise RecordError(
                f"replayed scores {state.scores} differ from the result {want}",
                reason="record_scores_differ",
            )
        winners = result.get("winners")
        if winners is not None and finished and list(winners) != list(state.winners):
            raise RecordError(
                f"replayed winners {list(state.winners)} differ from the result {winners}",
                reason="record_winners_differ",
            )
    return state, events
