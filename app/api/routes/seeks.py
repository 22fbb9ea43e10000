"""Play now REST endpoints (docs/API.md § Play now): post a seek, poll it, cancel it, see
the queue.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Request, Response

from app.api.deps import CurrentPlayer, RuntimeDep, client_address
from app.api.responses import errors
from app.api.schemas import NewSeek, SeekOut, SeekQueue
from app.services.lobby import seeks
from app.services.lobby.model import QueueJson, SeekJson

router = APIRouter(prefix="/api/seeks", tags=["seeks"])

SeekId = Annotated[str, Path(pattern=r"^[0-9a-f]{16}$", description="the seek's id")]


@router.post("", status_code=201, response_model=SeekOut, responses=errors(401, 404, 409, 413, 429))
async def create(
    body: NewSeek, rt: RuntimeDep, player: CurrentPlayer, request: Request
) -> SeekJson:
    """Wait in a pool (one open seek per player); paired at once when the pool allows."""
    await rt.limits.seeks.hit(player)
    return await seeks.create_seek(
        rt,
        player,
        players=body.players,
        preset=body.preset,
        rated=body.rated,
        time_control=body.time_control,
        address=client_address(request),
    )


@router.get("", response_model=SeekQueue)
async def queue(rt: RuntimeDep) -> QueueJson:
    """The pools with someone waiting and how many (no auth)."""
    return await seeks.queue(rt)


@router.get("/{seek_id}", response_model=SeekOut, responses=errors(401, 404, 429))
async def poll(seek_id: SeekId, rt: RuntimeDep, player: CurrentPlayer) -> SeekJson:
    """The holder's poll: keeps the seek alive and says when it is paired (``match_id``).
    429 past ``SEEK_POLL_BURST`` polls at once (``SEEK_POLL_RATE`` a second) per token.
    """
    await rt.limits.seek_polls.hit(player)
    return await seeks.get_seek(rt, seek_id, player)


@router.delete("/{seek_id}", status_code=204, responses=errors(401, 404, 409))
async def cancel(seek_id: SeekId, rt: RuntimeDep, player: CurrentPlayer) -> Response:
    """Leave the pool (409 when already paired: the message names the match)."""
    await seeks.cancel_seek(rt, seek_id, player)
    return Response(status_code=204)
