"""Account REST endpoints (docs/API.md § Accounts): register, log in and out, the password,
sign out everywhere, delete.
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Request, Response

from app.api.deps import (
    RENEWED_TOKEN_HEADER,
    BearerToken,
    CurrentPlayer,
    OptionalPlayer,
    RuntimeDep,
    SessionPlayer,
    client_address,
)
from app.api.responses import errors
from app.api.schemas_community import (
    AccountCreated,
    AccountOut,
    Credentials,
    PasswordChange,
    PasswordConfirm,
    TokenOut,
)
from app.services.community import accounts, push
from app.services.community.model import AccountJson
from app.services.community.socket_revocation import close_ended_session

router = APIRouter(prefix="/api/accounts", tags=["accounts"])


@router.post(
    "",
    status_code=201,
    response_model=AccountCreated,
    responses=errors(401, 409, 413, 429),
)
async def register(
    body: Credentials, rt: RuntimeDep, guest: OptionalPlayer, request: Request
) -> dict[str, Any]:
    """Create an account. With a guest's bearer token the guest becomes the account and keeps
    its matches and name (the guest token is revoked: use the one returned); without one a new
    player named after the username is made. Limited per client address (429).
    """
    client = client_address(request)
    account, token = await accounts.register(rt, body.username, body.password, client, guest)
    return {"account": account, "token": token}


@router.post("/login", response_model=AccountCreated, responses=errors(401, 413, 429))
async def login(body: Credentials, rt: RuntimeDep, request: Request) -> dict[str, Any]:
    """Log in (any device): a new bearer token for the account's player. Unknown username and
    wrong password give the same 401; attempts are limited per username and per client.
    """
    account, token = await accounts.login(rt, body.username, body.password, client_address(request))
    return {"account": account, "token": token}


@router.get("/me", response_model=AccountOut, responses=errors(401))
async def me(rt: RuntimeDep, player: CurrentPlayer) -> AccountJson:
    """The caller: ``username`` is null for a guest."""
    return await accounts.whoami(rt, player)


@router.post(
    "/password",
    status_code=204,
    response_class=Response,
    responses=errors(401, 403, 413, 429),
)
async def change_password(
    body: PasswordChange, rt: RuntimeDep, player: SessionPlayer, request: Request
) -> Response:
    """Change the caller's password (the current one is checked, limited like logins). Every
    other device is signed out and its sockets closed; the caller's fresh token comes in the
    ``X-Renewed-Token`` header.
    """
    token = await accounts.change_password(
        rt, player, body.password, body.new_password, client_address(request)
    )
    return Response(status_code=204, headers={RENEWED_TOKEN_HEADER: token})


@router.post("/logout", status_code=204, response_class=Response, responses=errors(401))
async def logout(rt: RuntimeDep, token: BearerToken) -> Response:
    """Log this device out: the session of the caller's token ends, and its tokens (renewed ones
    too) are refused from now on (other instances within 5 s). A guest's token has no session:
    nothing changes on the server (the client forgets it).
    """
    player = await rt.revocations.verify(token)
    await rt.revocations.end_session(token)
    session = rt.tokens.session(token)
    if session is not None:  # its sockets here close now; elsewhere within seconds
        await close_ended_session(rt, player, session)
        await push.forget(rt, player, session)  # this device's turn alerts end
    return Response(status_code=204)


@router.post("/sign-out-everywhere", response_model=TokenOut, responses=errors(401, 403, 404))
async def sign_out_everywhere(
    rt: RuntimeDep, player: SessionPlayer, response: Response
) -> dict[str, Any]:
    """Revoke every token of the caller's account, on every device; the caller gets a fresh
    one (also in ``X-Renewed-Token``). Other instances refuse the old tokens within 5 s.
    Guests get 404: their token is their only way back in.
    """
    token = await accounts.sign_out_everywhere(rt, player)
    response.headers[RENEWED_TOKEN_HEADER] = token
    return {"token": token}


@router.post(
    "/delete",
    status_code=204,
    response_class=Response,
    responses=errors(401, 403, 413, 429),
)
async def delete_account(
    body: PasswordConfirm, rt: RuntimeDep, player: SessionPlayer, request: Request
) -> Response:
    """Delete the caller's account (password checked, limited like logins). Matches stay, the
    name becomes "Deleted player"; ratings are removed.
    """
    await accounts.delete_account(rt, player, body.password, client_address(request))
    return Response(status_code=204)
