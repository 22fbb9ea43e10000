"""Who calls, with what right: the bearer token of a browser session (every right of its
player) or a personal API token (only its scopes: ``read``, ``play``). Routes that a program
may call take :data:`Reader` or :data:`PlayerWithPlay` instead of ``CurrentPlayer``.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Annotated

from fastapi import Depends
from fastapi.security import HTTPAuthorizationCredentials

from app.api.deps import RuntimeDep, _bearer
from app.services.errors import Forbidden, Unauthorized
from app.services.platform import credentials as credential_check

NO_TOKEN = "send Authorization: Bearer <token> (an API token, or a session's token)"


@dataclass(frozen=True)
class Caller:
    """The authenticated caller: ``player_id``, the ``scopes`` its token grants and ``key``, a
    digest of the token (the key of per-token quotas; never the token itself).
    """

    player_id: str
    scopes: frozenset[str]
    key: str


async def caller(
    rt: RuntimeDep,
    credentials: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> Caller:
    """The caller of a bearer token, API token or session token (the one check:
    :func:`app.services.platform.credentials.verify`). Raises :class:`Unauthorized` (no token;
    one that does not verify, expired or revoked, an API token whose account was deleted).
    """
    if credentials is None:
        raise Unauthorized(NO_TOKEN)
    token = credentials.credentials
    key = hashlib.sha256(token.encode()).hexdigest()[:32]
    held = await credential_check.verify(rt, token)
    return Caller(held.player_id, held.scopes, key)


def _needing(scope: str) -> object:
    async def check(who: Annotated[Caller, Depends(caller)]) -> Caller:
        if scope not in who.scopes:
            raise Forbidden(
                f"this token lacks the {scope!r} scope",
                reason="token_scope",
                params={"scope": scope},
            )
        return who

    check.__doc__ = f"The caller, whose token must grant {scope!r}; raises Forbidden."
    return check


Reader = Annotated[Caller, Depends(_needing("read"))]
Player = Annotated[Caller, Depends(_needing("play"))]
