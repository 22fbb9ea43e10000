"""Player REST endpoints (docs/API.md § Identity, § History): a guest, the caller (``/api/me``)
and its matches and records, another player's profile and matches.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request, Response

from app.api.deps import (
    CurrentPlayer,
    OptionalPlayer,
    RuntimeDep,
)
from app.api.responses import errors
from app.api.schemas import (
    CODE_PATTERN,
    MyMatches,
    NewPlayer,
    PlayerCreated,
    PlayerOut,
)
from app.api.schemas_community import MatchPage, Profile
from app.services import identity
from app.services.match import ongoing
from app.services.match.spectating import delay
from app.services.records import history, statistics
from app.services.tournaments import reads as tournament_reads
from app.services.tournaments.reads import EnteredJson

router = APIRouter(prefix="/api", tags=["players"])

PlayerId = Annotated[str, Path(pattern=CODE_PATTERN, description="the player id")]


@router.post("/players", status_code=201, response_model=PlayerCreated, responses=errors(413, 429))
async def create_player(body: NewPlayer, rt: RuntimeDep, request: Request) -> dict[str, Any]:
    """Create a guest player; keep the token and send it as ``Authorization: Bearer``."""
    await rt.limits.players.hit(request.client.host if request.client else "unknown")
    player, token = await identity.create_player(rt.storage.db, rt.tokens, body.name)
    return {"player": player, "token": token}


@router.get("/me", response_model=PlayerOut, responses=errors(401, 404))
async def me(rt: RuntimeDep, player: CurrentPlayer) -> Mapping[str, Any]:
    """The player the token belongs to."""
    return await identity.get_player(rt.storage.db, player)


@router.get("/me/matches", response_model=MyMatches, responses=errors(401))
async def my_matches(rt: RuntimeDep, player: CurrentPlayer) -> Mapping[str, Any]:
    """The caller's ongoing matches: those waiting for the caller first (nearest deadline
    first), each with the caller's time left; then the others, latest activity first.
    """
    return await ongoing.my_matches(rt, player)


@router.get(
    "/me/records.zip",
    response_class=Response,
    responses={200: {"content": {"application/zip": {}}}, **errors(401)},
)
async def my_records(rt: RuntimeDep, player: CurrentPlayer) -> Response:
    """Every finished match of the caller as ``carcassonne-record/1`` files in one zip."""
    data = await history.records_zip(rt, player)
    return Response(
        data,
        media_type="application/zip",
        headers={"Content-Disposition": 'attachment; filename="carcassonne-records.zip"'},
    )


@router.get(
    "/players/{player_id}/tournaments", response_model=list[EnteredJson], responses=errors(401)
)
async def player_tournaments(
    player_id: PlayerId, rt: RuntimeDep, viewer: OptionalPlayer
) -> list[EnteredJson]:
    """The tournaments the player entered, newest first, with their place (private ones only
    to the player).
    """
    return await tournament_reads.player_history(rt, player_id, viewer)


@router.get("/players/{player_id}/profile", response_model=Profile, responses=errors(401, 404))
async def profile(player_id: PlayerId, rt: RuntimeDep, viewer: OptionalPlayer) -> dict[str, Any]:
    """Matches played and won, ratings by preset, the 10 most recent matches."""
    found = await history.profile(rt, player_id, viewer)
    await delay.withhold_in_list(rt, found["recent"], viewer)  # docs/API.md § Spectator delay
    return found


@router.get("/players/{player_id}/statistics", responses=errors(404))
async def player_statistics(player_id: PlayerId, rt: RuntimeDep) -> dict[str, Any]:
    """Rating history per preset, win rate by player count, points by feature, longest road,
    biggest city, finished vs left (docs/API.md § History and replays; the shape is
    :func:`app.services.records.statistics.player_statistics`'s).
    """
    await history.settle_missed(rt)
    return await statistics.player_statistics(rt, player_id)


@router.get("/players/{player_id}/matches", response_model=MatchPage, responses=errors(401, 404))
async def player_matches(
    player_id: PlayerId,
    rt: RuntimeDep,
    viewer: OptionalPlayer,
    page: Annotated[int, Query(ge=1, le=10_000)] = 1,
    per_page: Annotated[int, Query(ge=1, le=100)] = 20,
) -> dict[str, Any]:
    """A player's matches, newest first (private ones only to the player)."""
    found = await history.player_matches(rt, player_id, page, per_page, viewer)
    await delay.withhold_in_list(rt, found["matches"], viewer)  # docs/API.md § Spectator delay
    return found
