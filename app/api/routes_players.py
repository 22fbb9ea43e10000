"""Identity, catalogue and presets."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request

from app.api.deps import CurrentPlayer, RuntimeDep
from app.api.responses import errors
from app.api.schemas import MyMatches, NewPlayer, PlayerCreated, PlayerOut
from app.engine import PRESETS, catalogue_json
from app.services import identity
from app.services.match import ongoing

router = APIRouter(prefix="/api", tags=["players"])

_CATALOGUE: dict[str, Any] = {"tiles": catalogue_json()}
_PRESETS: dict[str, Any] = {"presets": {k: v.to_json() for k, v in PRESETS.items()}}


@router.post("/players", status_code=201, response_model=PlayerCreated, responses=errors(413, 429))
async def create_player(body: NewPlayer, rt: RuntimeDep, request: Request) -> dict[str, Any]:
    """Create a guest player; keep the token and send it as ``Authorization: Bearer``."""
    await rt.player_limiter.hit(request.client.host if request.client else "unknown")
    player, token = await identity.create_player(rt.db, rt.tokens, body.name)
    return {"player": player, "token": token}


@router.get("/me", response_model=PlayerOut, responses=errors(401, 404))
async def me(rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """The player the token belongs to."""
    return await identity.get_player(rt.db, player)


@router.get("/me/matches", response_model=MyMatches, responses=errors(401))
async def my_matches(rt: RuntimeDep, player: CurrentPlayer) -> dict[str, Any]:
    """The caller's ongoing matches: those waiting for the caller first (nearest deadline
    first), each with the caller's time left; then the others, latest activity first.
    """
    return await ongoing.my_matches(rt, player)


@router.get("/catalogue")
async def catalogue() -> dict[str, Any]:
    """Every tile type in catalogue orientation (the client draws tiles from this)."""
    return _CATALOGUE


@router.get("/presets")
async def presets() -> dict[str, Any]:
    """The lobby presets (RULES.md §4.6) and their rules."""
    return _PRESETS
