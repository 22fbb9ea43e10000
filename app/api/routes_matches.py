"""Match REST endpoints (docs/API.md § Matches)."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from app.api.deps import CurrentPlayer, OptionalPlayer, RuntimeDep
from app.api.responses import errors
from app.api.schemas import (
    CODE_PATTERN,
    ActionIn,
    ActionOut,
    EventsOut,
    RematchOut,
    SwitchIn,
    VoteIn,
)
from app.services.clock import requests as clock_requests
from app.services.lobby import lobby
from app.services.match import play, reads
from app.services.records import shuffle

router = APIRouter(prefix="/api/matches", tags=["matches"])

MatchId = Annotated[str, Path(pattern=CODE_PATTERN, description="the match id")]
InviteCode = Annotated[
    str | None, Query(pattern=CODE_PATTERN, description="lobby code of a private match")
]


@router.get("/{match_id}", responses=errors(401, 403, 404))
async def get_match(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The match: seats, presence and the engine's public view (legal moves of the seat to
    act included).
    """
    return await reads.get_match(rt, match_id, player, code)


@router.post(
    "/{match_id}/actions", response_model=ActionOut, responses=errors(401, 403, 404, 409, 413, 429)
)
async def post_action(
    match_id: MatchId, body: ActionIn, rt: RuntimeDep, player: CurrentPlayer
) -> dict[str, Any]:
    """Apply an action of the caller's seat (the same path as the websocket's)."""
    await rt.action_limiter.hit(player)
    applied = await play.submit_action(rt, match_id, player, body.v, body.id, body.d)
    return {"version": applied.version, "events": applied.events}


@router.get("/{match_id}/events", response_model=EventsOut, responses=errors(401, 403, 404))
async def events(
    match_id: MatchId,
    rt: RuntimeDep,
    player: OptionalPlayer,
    since: Annotated[int, Query(ge=0, le=1_000_000)] = 0,
    code: InviteCode = None,
) -> dict[str, Any]:
    """Every batch after version ``since``, from the action log."""
    return await reads.events_since(rt, match_id, since, player, code)


@router.get("/{match_id}/record", responses=errors(401, 403, 404))
async def record(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The game record ``carcassonne-record/1`` (only tiles already drawn while live; once
    finished with ``fairness``: the revealed shuffle seed and salt).
    """
    return await shuffle.reveal_into(rt, match_id, await reads.record(rt, match_id, player, code))


@router.post("/{match_id}/vote", responses=errors(401, 403, 404, 409, 422))
async def vote(
    match_id: MatchId, body: VoteIn, rt: RuntimeDep, player: CurrentPlayer
) -> dict[str, Any] | None:
    """A remaining player's ballot about a player who left; returns the clock."""
    return await clock_requests.vote(rt, match_id, player, body.choice)


@router.post("/{match_id}/switch", responses=errors(401, 403, 404, 409))
async def switch(
    match_id: MatchId, body: SwitchIn, rt: RuntimeDep, player: CurrentPlayer
) -> dict[str, Any] | None:
    """Propose (``accept`` false) or accept switching live ↔ correspondence; returns the clock."""
    return await clock_requests.propose(rt, match_id, player, body.accept)


@router.post("/{match_id}/take-back", responses=errors(401, 403, 404, 409))
async def take_back(
    match_id: MatchId, rt: RuntimeDep, player: CurrentPlayer
) -> dict[str, Any] | None:
    """Take one's seat back from the computer; returns the clock."""
    return await clock_requests.take_back(rt, match_id, player)


@router.post("/{match_id}/rematch", response_model=RematchOut, responses=errors(401, 403, 404, 409))
async def rematch(match_id: MatchId, rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """A new lobby with the same seats (the same one for every asker)."""
    return {"code": await lobby.rematch(rt, match_id, player)}
