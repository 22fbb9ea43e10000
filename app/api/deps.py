"""Dependencies: the instance's :class:`Runtime` and the calling player, as ``Annotated``
aliases so route signatures read like sentences (``rt: RuntimeDep, me: CurrentPlayer``).
"""

from __future__ import annotations

from typing import Annotated

from fastapi import Depends, Request, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from app.log_format import player_id
from app.services.errors import Forbidden, Unauthorized
from app.services.platform import api_tokens
from app.services.platform import credentials as credential_check
from app.services.platform.credentials import Credential
from app.services.runtime import Runtime

_bearer = HTTPBearer(auto_error=False, description="the token from POST /api/players")


async def get_runtime(request: Request) -> Runtime:
    """The app's runtime (set by the lifespan). Async, like every dependency here, so
    FastAPI runs it on the event loop instead of a worker thread.
    """
    rt: Runtime = request.app.state.runtime
    return rt


RuntimeDep = Annotated[Runtime, Depends(get_runtime)]


#: Response header carrying a fresh token for the caller when its own is getting old.
RENEWED_TOKEN_HEADER = "X-Renewed-Token"


async def optional_credential(
    rt: RuntimeDep,
    response: Response,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Credential | None:
    """The credential of a valid bearer token (the one check:
    :func:`app.services.platform.credentials.verify`), None without a token. An API token must
    grant ``play`` here (routes for ``read`` take :data:`app.api.scopes.Reader`). A session token
    older than ``TOKEN_RENEW_AFTER`` gets its successor in the ``X-Renewed-Token`` header.

    Raises :class:`Unauthorized` for a token that does not verify, has expired or was revoked
    (an API token's account deleted too), :class:`Forbidden` for an API token without ``play``.
    """
    if credentials is None:
        return None
    held = await credential_check.verify(rt, credentials.credentials)
    if held.api_token is not None:
        credential_check.require(held, "play")
    else:
        renewed = rt.tokens.renewal(credentials.credentials)
        if renewed is not None:
            response.headers[RENEWED_TOKEN_HEADER] = renewed
    player_id.set(held.player_id)  # log lines of this request name the player
    return held


async def optional_player(
    rt: RuntimeDep,
    response: Response,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str | None:
    """The player id of :func:`optional_credential` (None without a token; raises as it)."""
    held = await optional_credential(rt, response, credentials)
    return None if held is None else held.player_id


async def current_player(player: Annotated[str | None, Depends(optional_player)]) -> str:
    """The player id of the bearer token; raises :class:`Unauthorized` without one."""
    if player is None:
        raise Unauthorized("send Authorization: Bearer <token> (POST /api/players gives one)")
    return player


async def current_credential(
    held: Annotated[Credential | None, Depends(optional_credential)],
) -> Credential:
    """The credential of the bearer token (:func:`optional_credential`); raises
    :class:`Unauthorized` without one.
    """
    if held is None:
        raise Unauthorized("send Authorization: Bearer <token> (POST /api/players gives one)")
    return held


async def bearer_token(
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The raw bearer token (not verified here); raises :class:`Unauthorized` without one."""
    if credentials is None:
        raise Unauthorized("send Authorization: Bearer <token> (POST /api/players gives one)")
    return credentials.credentials


async def session_player(
    rt: RuntimeDep,
    response: Response,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> str:
    """The player of a browser session's token; an API token is refused (:class:`Forbidden`):
    making tokens and turning an account into a bot need the person, not a program.
    """
    if credentials is not None and api_tokens.looks_like(credentials.credentials):
        raise Forbidden("an API token cannot do this: log in", reason="session_needed")
    return await current_player(await optional_player(rt, response, credentials))


CurrentPlayer = Annotated[str, Depends(current_player)]
CurrentCredential = Annotated[Credential, Depends(current_credential)]
SessionPlayer = Annotated[str, Depends(session_player)]
BearerToken = Annotated[str, Depends(bearer_token)]
OptionalPlayer = Annotated[str | None, Depends(optional_player)]


def client_address(request: Request) -> str:
    """The caller's address as the server sees it (``"unknown"`` when there is none): the key
    of the per-address limits.
    """
    return request.client.host if request.client else "unknown"
