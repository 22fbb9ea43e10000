"""Bot accounts (docs/BOT_API.md): becoming one, the bot's event stream, challenges to bots
and lobby invitations. A bot plays through the ordinary match websocket and action routes.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Body, Path, Request
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, Field

from app.api.deps import (
    CurrentCredential,
    CurrentPlayer,
    RuntimeDep,
    SessionPlayer,
    client_address,
)
from app.api.responses import errors
from app.api.schemas import CODE_PATTERN, Strict
from app.api.schemas_platform import ChallengeOut, NewChallenge
from app.services.errors import RateLimited
from app.services.platform import bot_stream, bots
from app.services.runtime import Runtime

router = APIRouter(prefix="/api", tags=["bots"])

NDJSON = "application/x-ndjson"
Id = Annotated[str, Path(pattern=CODE_PATTERN)]


class BotAccount(BaseModel):
    """``POST /api/me/bot``: the account, now a bot account."""

    id: str
    name: str
    username: str
    bot_account: bool


class Invitation(Strict):
    """``POST /api/lobbies/{code}/invite``: the bot account to invite."""

    bot: Annotated[str, Field(pattern=CODE_PATTERN)]


@router.post("/me/bot", response_model=BotAccount, responses=errors(401, 403, 409))
async def become_bot(rt: RuntimeDep, player: SessionPlayer) -> Mapping[str, Any]:
    """Turn the caller's account into a bot account, for good. Only an account that has never
    sat in a match (409 ``bot_has_played``); from a logged-in session, not an API token.
    """
    return await bots.become_bot(rt, player)


async def _held(rt: Runtime, bot_id: str, lines: AsyncIterator[bytes]) -> AsyncIterator[bytes]:
    """``lines``, counting the stream as open for ``bot_id`` until it ends."""
    try:
        async for line in lines:
            yield line
    finally:
        rt.fanout.bot_streams[bot_id] -= 1
        if rt.fanout.bot_streams[bot_id] <= 0:
            del rt.fanout.bot_streams[bot_id]


@router.get("/bots")
async def list_bots(rt: RuntimeDep) -> dict[str, Any]:
    """``{"bots": [{"id", "name", "username"}]}``: bot accounts (at most 100, by name), for the
    lobby's "invite a bot" and anyone looking for one to challenge.
    """
    return {"bots": await bots.listing(rt)}


@router.get(
    "/bot/stream",
    response_class=StreamingResponse,
    responses={200: {"content": {NDJSON: {}}}, **errors(401, 403, 429)},
)
async def stream(rt: RuntimeDep, held: CurrentCredential) -> StreamingResponse:
    """The bot's event stream: NDJSON lines ``challenge``, ``match_start``, ``match_end`` and an
    empty keep-alive line at once and every 2 s of silence (docs/BOT_API.md). A bot account's
    token with ``play``; the stream ends when that token is revoked or the account deleted.
    """
    player = held.player_id
    await bots.require_bot(rt, player)
    if rt.fanout.bot_streams[player] >= rt.settings.bot_streams_per_account:
        raise RateLimited(
            f"at most {rt.settings.bot_streams_per_account} event streams per bot: close one",
            retry_after=10,
        )
    rt.fanout.bot_streams[player] += 1
    lines = bot_stream.events(rt, held, rt.settings.bot_stream_poll)
    return StreamingResponse(_held(rt, player, lines), media_type=NDJSON)


@router.post(
    "/bots/{bot_id}/challenge",
    status_code=201,
    response_model=ChallengeOut,
    responses=errors(401, 403, 404, 409, 413, 422),
)
async def challenge(
    rt: RuntimeDep,
    player: CurrentPlayer,
    bot_id: Id,
    body: Annotated[NewChallenge | None, Body()] = None,
) -> Mapping[str, Any]:
    """Challenge a bot account to a two-seat match (``preset``, ``rated``, ``time_control``
    as for a lobby). Follow it with ``GET /api/challenges/{id}``: ``match_id`` once accepted.
    """
    body = body or NewChallenge()
    return await bots.challenge(
        rt,
        player,
        bot_id,
        body.preset,
        body.rated,
        time_control=body.time_control,
        timeout_policy=body.timeout_policy,
    )


@router.post(
    "/lobbies/{code}/invite",
    status_code=201,
    response_model=ChallengeOut,
    responses=errors(401, 403, 404, 409, 413, 422),
)
async def invite(rt: RuntimeDep, player: CurrentPlayer, code: Id, body: Invitation) -> Any:
    """Host only: invite a bot account into a free seat of the lobby; it takes the seat when it
    accepts.
    """
    return await bots.invite(rt, code, player, body.bot)


@router.get(
    "/challenges/{challenge_id}", response_model=ChallengeOut, responses=errors(401, 403, 404)
)
async def get_challenge(rt: RuntimeDep, player: CurrentPlayer, challenge_id: Id) -> Any:
    """A challenge, for its bot or its challenger."""
    return await bots.get(rt, challenge_id, player)


@router.post(
    "/challenges/{challenge_id}/accept",
    response_model=ChallengeOut,
    responses=errors(401, 403, 404, 409, 429),
)
async def accept(rt: RuntimeDep, player: CurrentPlayer, challenge_id: Id, request: Request) -> Any:
    """The bot accepts: the match starts (its ``match_start`` follows on the stream), or it
    takes its seat in the inviting lobby.
    """
    return await bots.accept(rt, challenge_id, player, client_address(request))


@router.post(
    "/challenges/{challenge_id}/decline",
    response_model=ChallengeOut,
    responses=errors(401, 403, 404, 409),
)
async def decline(rt: RuntimeDep, player: CurrentPlayer, challenge_id: Id) -> Any:
    """The bot declines."""
    return await bots.close(rt, challenge_id, player, "declined")


@router.post(
    "/challenges/{challenge_id}/cancel",
    response_model=ChallengeOut,
    responses=errors(401, 403, 404, 409),
)
async def cancel(rt: RuntimeDep, player: CurrentPlayer, challenge_id: Id) -> Any:
    """The challenger withdraws an open challenge."""
    return await bots.close(rt, challenge_id, player, "cancelled")
