"""What a seat or a spectator may see of a game: :func:`view` (never the deck order or seed).

The JSON shape is the one the API sends in ``state`` (docs/API.md); legal moves are filled in
only for the seat whose decision the game waits for. The game's active expansions add their
own keys (``Expansion.view`` / ``Expansion.view_delta``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from app.engine.board import spot_of
from app.engine.events import (
    Event,
    FollowerPlaced,
    FollowerReturned,
    GameEnded,
    PointsScored,
    TileDiscarded,
    TileDrawn,
)
from app.engine.expansions import active
from app.engine.legal import legal_follower_spots, legal_placements
from app.engine.scoring import score_breakdown
from app.engine.state import GAME_OVER, PAUSED, GameState
from app.engine.tiles import ROLE_NAMES


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

    Shape: ``{"rules", "players", "phase" (place_tile | deploy | paused | game_over | an
    expansion's phase), "seat" (who acts), "tile", "placed", "turn", "board": [{"at",
    "tile", "rotation"}], "followers": [...], "scores", "supply", "tiles_remaining",
    "remaining": {tile: count}, "winners", "breakdown", "legal_placements": [[x, y, r]],
    "legal_spots": [...], "expansions": [id, ...]}`` — ``expansions`` lists the active
    expansions' ids in the registry's fixed order (``app.engine.expansions.EXPANSIONS``; e.g.
    ``[]`` or ``["river"]``) — plus each active expansion's own keys (see its ``view``).
    Legal moves are filled in only for the seat whose turn it is.
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
    expansions = active(state.options)
    out["expansions"] = [x.id for x in expansions]
    for x in expansions:
        out.update(x.view(state, seat))
    return out


#: Events after which the followers on the board may have changed.
_FOLLOWER_EVENTS = (FollowerPlaced, FollowerReturned, GameEnded)


def view_delta(state: GameState, events: Sequence[Event]) -> dict[str, Any]:
    """What changed in ``view(state, state.seat)`` through the action whose ``events`` led to
    ``state`` — the ``delta`` of a websocket ``events`` frame (docs/API.md § Frames).

    A client holding the view before the action gets the view after it by (1) adding every
    ``TilePlaced`` event of the batch to ``board`` (``{"at", "tile", "rotation"}``), (2) setting
    ``remaining[tile]`` for each key of ``delta["remaining"]`` (0: delete the key) and (3)
    setting every other key of the delta (an expansion's key may say it keeps parts of the
    old value, as its ``view_delta`` documents). ``rules``, ``players``, ``expansions`` and
    ``board`` are never in it. Always present: ``phase``, ``seat``, ``tile``, ``placed``,
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
    followers = scored = ended = False
    for e in events:
        if isinstance(e, (TileDrawn, TileDiscarded)):
            drawn.add(e.tile)
        elif isinstance(e, PointsScored):
            scored = True
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
    for x in active(state.options):
        out.update(x.view_delta(state, events))
    return out
