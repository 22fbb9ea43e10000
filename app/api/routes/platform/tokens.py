"""The open platform's REST routes (docs/BOT_API.md): personal API tokens; bot accounts, their
event stream and challenges are in :mod:`app.api.routes.platform.bots`.
"""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Path, Response

from app.api.deps import RuntimeDep, SessionPlayer
from app.api.responses import errors
from app.api.schemas import CODE_PATTERN
from app.api.schemas_platform import ApiTokenCreated, ApiTokenList, NewApiToken
from app.services.platform import api_tokens

router = APIRouter(prefix="/api", tags=["platform"])


@router.post(
    "/me/tokens",
    status_code=201,
    response_model=ApiTokenCreated,
    responses=errors(401, 403, 413, 422),
)
async def create_token(rt: RuntimeDep, player: SessionPlayer, body: NewApiToken) -> dict[str, Any]:
    """Make a personal API token (accounts only; from a logged-in session, never with an API
    token). The token is in this answer only: keep it.
    """
    entry, token = await api_tokens.create(rt, player, body.name, list(body.scopes))
    return {"token": token, "api_token": entry}


@router.get("/me/tokens", response_model=ApiTokenList, responses=errors(401, 403))
async def list_tokens(rt: RuntimeDep, player: SessionPlayer) -> dict[str, Any]:
    """The caller's API tokens, newest first (revoked ones marked); never the tokens."""
    return {"tokens": await api_tokens.listing(rt, player)}


@router.delete(
    "/me/tokens/{token_id}",
    status_code=204,
    response_class=Response,
    responses=errors(401, 403, 404),
)
async def revoke_token(
    rt: RuntimeDep,
    player: SessionPlayer,
    token_id: Annotated[str, Path(pattern=CODE_PATTERN)],
) -> Response:
    """Revoke one of the caller's API tokens: refused (401) from the next request on."""
    await api_tokens.revoke(rt, player, token_id)
    return Response(status_code=204)
