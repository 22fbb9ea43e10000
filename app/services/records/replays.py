"""The replay viewer's data: a record cut into steps, one per move, each with the position
after it (board additions, followers, scores, supply, score breakdown) and the events that made
it (for the log).

Works from any ``carcassonne-record/1`` (a finished match, the part of a live match played so
far — never a tile beyond what was drawn — or an uploaded file). An invalid record is refused
with the engine's :class:`RecordError`, which names the 1-based move and the reason, exactly as
``carcassonne replay`` reports it.
"""

from __future__ import annotations

from app.engine import (
    GameState,
    Pass,
    PlaceFollower,
    PlaceTile,
    RecordError,
    apply_in_place,
    event_to_json,
    new_game,
    replay,
    replay_keys,
    view,
)
from app.engine.record.fairness import verify_record
from app.json_types import JsonObject, JsonValue

#: Byte size past which an uploaded record is refused (a full 5-player River game is ~15 kB).
MAX_RECORD_BYTES = 512 * 1024


def _position(state: GameState) -> JsonObject:
    seen = view(state, None)
    out: JsonObject = {
        k: seen[k]
        for k in (
            "followers",
            "scores",
            "supply",
            "breakdown",
            "tiles_remaining",
            "phase",
            "turn",
            "winners",
        )
    }
    for key in replay_keys(state.options):  # what an expansion's view adds (the Wheel's pig)
        if key in seen:
            out[key] = seen[key]
    return out


def steps(record: JsonObject) -> JsonObject:
    """``{"players", "rules", "finished", "start": {"board", ...position}, "steps": [{"n",
    "seat", "move", "placed": {"at", "tile", "rotation"}, "events", ...position}]}``.

    Step ``n`` (1-based) is the position after move ``n`` of the record (its tile, its follower
    decision and every automatic consequence: scoring, discards, and after the last move the
    final scoring). Raises :class:`RecordError` (move number and reason).
    """
    final, _ = replay(record)
    moves, draw_order = record["moves"], record["draw_order"]
    if not isinstance(moves, list) or not isinstance(draw_order, list):
        raise RecordError("moves and draw_order are lists")  # replay() refuses them first
    state = new_game(
        final.options,
        final.players,
        draw_order=[str(t) for t in draw_order],
        partial=not record.get("finished", True),
    )
    first = view(state, None)
    start: JsonObject = {
        "board": first["board"],
        **_position(state),
        "events": [event_to_json(e) for e in state.opening_events],
    }
    out: list[JsonValue] = []
    pending: list[JsonValue] = []
    placed: JsonObject | None = None
    seat = 0
    for action in final.actions:
        if isinstance(action, PlaceTile):
            seat = action.seat
            placed = {"at": [action.x, action.y], "rotation": action.rotation}
        pending += [event_to_json(e) for e in apply_in_place(state, action)]
        if isinstance(action, PlaceTile) and placed is not None:
            placed["tile"] = state.board[(action.x, action.y)][0].tile
        if isinstance(action, (PlaceFollower, Pass)):
            n = len(out) + 1
            out.append(
                {
                    "n": n,
                    "seat": seat,
                    "move": moves[n - 1],
                    "placed": placed,
                    "events": pending,
                    **_position(state),
                }
            )
            pending, placed = [], None
    return {
        "players": list(final.players),
        "rules": final.options.to_json(),
        "finished": bool(record.get("finished", True)),
        "start": start,
        "steps": out,
        "fairness": record.get("fairness"),
    }


def verify(record: JsonObject, published: str | None = None) -> JsonObject:
    """The shuffle verdict of a record (:func:`~app.engine.record.fairness.verify_record`), JSON."""
    return verify_record(record, published).to_json()
