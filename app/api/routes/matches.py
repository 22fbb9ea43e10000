"""Match REST endpoints (docs/API.md § Matches, § History and replays, § Ratings, § Chat):
everything under ``/api/matches/{match_id}``.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC, datetime
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query

from app.api.deps import (
    CurrentPlayer,
    OptionalPlayer,
    RuntimeDep,
)
from app.api.responses import errors
from app.api.schemas import (
    CODE_PATTERN,
    ActionIn,
    ActionOut,
    AnalysisOut,
    ChatOut,
    EventsOut,
    RematchOut,
    SeriesOut,
    SwitchIn,
    VoteIn,
)
from app.services.clock import requests as clock_requests
from app.services.community import chat
from app.services.community.chat import ChatHistory
from app.services.lobby import dealing, series
from app.services.lobby.model import SeriesJson
from app.services.match import reads
from app.services.match.insight import analyses
from app.services.match.play import play
from app.services.records import history, ratings, replays, shuffle

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
    await rt.limits.actions.hit(player)
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


def _utc(at: str) -> datetime:
    """A message's ``at`` (ISO 8601; naive: UTC) as an aware datetime."""
    value = datetime.fromisoformat(at)
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


@router.get("/{match_id}/chat", response_model=ChatOut, responses=errors(401, 403, 404))
async def match_chat(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> ChatHistory:
    """The match's last messages a reader may see (players see spectators' messages only
    once the match is over; spectators of a delayed match only what was said before their
    cutoff).
    """
    out = await chat.history(rt, "match", match_id, player, code)
    cutoff = await reads.chat_cutoff(rt, match_id, player)
    if cutoff is not None:  # a spectator of a delayed match: what was said before its cutoff
        out["messages"] = [
            m for m in out["messages"] if m["room"] == "spectators" or _utc(m["at"]) < cutoff
        ]
    return out


@router.get("/{match_id}/replay", responses=errors(401, 403, 404))
async def match_replay(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The match cut into steps for the replay viewer: a finished match whole (with its
    revealed shuffle), a live one up to its last completed move (never beyond).
    """
    record = await shuffle.reveal_into(rt, match_id, await reads.record(rt, match_id, player, code))
    out: dict[str, Any] = dict(replays.steps(record))
    out["record"] = record
    out["id"] = match_id
    out["commitment"] = await shuffle.commitment_of(rt, match_id)
    out["rating_changes"] = await ratings.changes(rt, match_id)
    out["verdict"] = record.get("verdict")
    return out


@router.get("/{match_id}/fairness", responses=errors(401, 403, 404))
async def fairness(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> Mapping[str, Any]:
    """The shuffle commitment, published from the start: ``{"scheme", "commitment",
    "revealed"}``, plus ``"seed"`` and ``"salt"`` once the match is finished.
    """
    await reads.get_match(rt, match_id, player, code)  # exists and may be watched
    return await shuffle.public(rt, match_id)


@router.get("/{match_id}/ratings", responses=errors(401, 403, 404))
async def match_ratings(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """``{"changes", "unrated", "verdict"}``: the rating changes of a rated match (empty until
    settled or when unrated), why a rated table's match ended unrated (``"not_played"``) or
    null, and the match's verdict (places, winners, who left; null until settled).
    Visible to whoever may watch the match (a private one: its seats, or its invite code).
    """
    await reads.get_match(rt, match_id, player, code)  # exists and may be watched
    return {
        "changes": await ratings.changes(rt, match_id),
        "unrated": await ratings.unrated_of(rt, match_id),
        "verdict": await history.verdict_of(rt, match_id),
    }


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


@router.get("/{match_id}/series", response_model=SeriesOut, responses=errors(401, 403, 404))
async def get_series(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> SeriesJson:
    """The best-of-N series this match is a game of (404 ``no_series`` for a single game)."""
    return await series.of_match(rt, match_id, player, code)


@router.post("/{match_id}/rematch", response_model=RematchOut, responses=errors(401, 403, 404, 409))
async def rematch(match_id: MatchId, rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """A new lobby with the same seats (the same one for every asker)."""
    return {"code": await dealing.rematch(rt, match_id, player)}


@router.get(
    "/{match_id}/analysis", response_model=AnalysisOut, responses=errors(401, 403, 404, 409)
)
async def get_analysis(
    match_id: MatchId, rt: RuntimeDep, player: OptionalPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """The Strong computer player's analysis of a finished match (``status`` ``none`` until
    someone asks for it). Whoever may see the replay may see it; a live match: 409
    ``analysis_live``.
    """
    return await analyses.get_analysis(rt, match_id, player, code)


@router.post(
    "/{match_id}/analysis",
    status_code=202,
    response_model=AnalysisOut,
    responses=errors(401, 403, 404, 409, 429),
)
async def request_analysis(
    match_id: MatchId, rt: RuntimeDep, player: CurrentPlayer, code: InviteCode = None
) -> dict[str, Any]:
    """Ask for the analysis of a finished match (idempotent: computed once, shared). Poll the
    GET until ``status`` is ``done``. 409 ``analysis_live`` for a match being played; 429
    ``analysis_busy`` past the queue's limits (per player and in all).
    """
    return await analyses.request_analysis(rt, match_id, player, code)
