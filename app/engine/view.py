"""What a seat or a spectator may see of a game: :func:`view` (never the deck order or seed).

The JSON shape is the one the API sends in ``state`` (docs/API.md); legal moves are filled in
only for the seat whose decision the game waits for.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine import wheel
from app.engine.board import spot_of
from app.engine.events import (
    CrownPlaced,
    CrownReturned,
    Event,
    FollowerPlaced,
    FollowerReturned,
    GameEnded,
    PigMoved,
    PointsScored,
    TileDiscarded,
    TileDrawn,
)
from app.engine.legal import legal_follower_spots, legal_placements
from app.engine.scoring import score_breakdown
from app.engine.state import GAME_OVER, PAUSED, PLAGUE, GameState
from app.engine.tiles import ROLE_NAMES
from app.engine.wheel_data import BOARD_CELLS


def follower_positions(state: GameState) -> list[dict[str, Any]]:
    """Followers on the board: ``[{"seat", "at": [x, y], "spot", "role"}]`` sorted by cell."""
    rows: list[tuple[int, int, str, int, str]] = []
    for gid, seat in state.followers.items():
        (x, y), spot = spot_of(state, gid)
        rows.append((y, x, spot, seat, ROLE_NAMES[state.seg_kind[gid]]))
    rows.sort()
    return [
        {"seat": seat, "at": [x, y], "spot": spot, "role": role} for y, x, spot, seat, role in rows
    ]


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
                for name, crowns, held in zip(
                    wheel.SEGMENT_NAMES, wheel.CROWNS, state.crowns, strict=True
                )
            ],
            "cells": [[x, y] for x, y in sorted(BOARD_CELLS)],
        }
        out["plague"] = (
            {
                "seat": state.seat,
                "waiting": list(state.plague_queue),
                "choices": [[x, y, spot] for x, y, spot in wheel.plague_choices(state)],
            }
            if state.phase == PLAGUE
            else None
        )
    return out


#: Events after which the followers on the board may have changed.
_FOLLOWER_EVENTS = (FollowerPlaced, FollowerReturned, GameEnded)


def view_delta(state: GameState, events: Sequence[Event]) -> dict[str, Any]:
    """What changed in ``view(state, state.seat)`` through the action whose ``events`` led to
    ``state`` — the ``delta`` of a websocket ``events`` frame (docs/API.md § Frames).

    A client holding the view before the action gets the view after it by (1) adding every
    ``TilePlaced`` event of the batch to ``board`` (``{"at", "tile", "rotation"}``), (2) setting
    ``remaining[tile]`` for each key of ``delta["remaining"]`` (0: delete the key) and (3)
    setting every other key of the delta (``wheel`` keeps its ``cells``). ``rules``, ``players``
    and ``board`` are never in it. Always present: ``phase``, ``seat``, ``tile``, ``placed``,
    ``turn``, ``scores``, ``supply``, ``tiles_remaining`` and the legal moves of the seat to act
    (which are public: anyone can work them out from the board and the drawn tile); the rest
    only when an event may have changed it. Never the deck order or the seed.
    """
    out: dict[str, Any] = {
        "phase": state.phase,
        "seat": state.seat if state.phase not in (GAME_OVER, PAUSED) else None,
        "tile": state.tile,
        "placed": list(state.placed) if state.placed else None,
        "turn": state.turn,
        "scores": list(state.scores),
        "supply": list(state.supply),
        "tiles_remaining": state.tiles_remaining,
        "legal_placements": [list(p) for p in legal_placements(state)],
        "legal_spots": legal_follower_spots(state),
    }
    drawn: set[str] = set()
    followers = scored = ended = wheel_moved = False
    for e in events:
        if isinstance(e, (TileDrawn, TileDiscarded)):
            drawn.add(e.tile)
        elif isinstance(e, PointsScored):
            scored = True
        elif isinstance(e, (PigMoved, CrownPlaced, CrownReturned)):
            wheel_moved = True
        if isinstance(e, _FOLLOWER_EVENTS):
            followers = True
        if isinstance(e, GameEnded):
            ended = True
    if drawn:
        rest = state.deck[state.deck_pos :]
        out["remaining"] = {tid: rest.count(tid) for tid in sorted(drawn)}
    if followers:
        out["followers"] = follower_positions(state)
    if scored or ended:
        out["breakdown"] = score_breakdown(state)
    if ended:
        out["winners"] = list(state.winners)
    if state.options.tileset == "wheel_of_fortune":
        if wheel_moved or followers:
            out["wheel"] = {
                "pig": wheel.SEGMENT_NAMES[state.pig],
                "segments": [
                    {"name": name, "crowns": crowns, "occupants": list(held)}
                    for name, crowns, held in zip(
                        wheel.SEGMENT_NAMES, wheel.CROWNS, state.crowns, strict=True
                    )
                ],
            }
        out["plague"] = (
            {
                "seat": state.seat,
                "waiting": list(state.plague_queue),
                "choices": [[x, y, spot] for x, y, spot in wheel.plague_choices(state)],
            }
            if state.phase == PLAGUE
            else None
        )
    return out
