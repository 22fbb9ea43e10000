"""The one credential check: whom a bearer token speaks for, and whether it still does.

A bearer token is a browser session's (signed, with a generation and maybe a session:
:mod:`app.services.identity`) or a personal API token (``cat_…``, a database row:
:mod:`app.services.platform.api_tokens`). Every request and every socket or stream that opens
asks :func:`verify` (refused: revoked, logged out, expired, unknown, account deleted). What
stays open is held in ``rt.fanout.open_sockets`` under the credential's ``generation`` and
``session``, so the sockets sweep (:mod:`app.services.community.socket_revocation`) ends it
on every instance within seconds of a revocation or deletion; a bot's event stream also asks
:func:`recheck` before it delivers anything. This module grants nothing by itself: routes
check the scopes.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from app.services.community.socket_revocation import is_revoked
from app.services.errors import Forbidden, Unauthorized
from app.services.platform import api_tokens
from app.services.runtime import Runtime


@dataclass(frozen=True)
class Credential:
    """A verified bearer token: its ``player_id``; the ``scopes`` it grants (both for a
    session token); the ``generation`` and ``session`` its sockets are held under (an API
    token: :data:`api_tokens.SOCKET_GENERATION` and ``api:<id>``); ``expires`` in seconds since
    the epoch (None: an API token, which lasts until revoked); ``api_token``: the API token's
    id (None for a session token).
    """

    player_id: str
    scopes: frozenset[str]
    generation: int
    session: str | None
    expires: float | None
    api_token: str | None


async def verify(rt: Runtime, token: str) -> Credential:
    """The credential of ``token`` (an API token's row is read every time; a session token's
    generation and logout are cached up to 5 s on other instances than the revoking one).

    Raises :class:`Unauthorized`: malformed, forged, expired, revoked or logged-out session
    token; unknown (reason ``token_unknown``) or revoked API token, or one whose account was
    deleted (reason ``token_revoked``).
    """
    if api_tokens.looks_like(token):
        held = await api_tokens.verify(rt, token)
        return Credential(
            held.player_id,
            held.scopes,
            api_tokens.SOCKET_GENERATION,
            api_tokens.socket_session(held.token_id),
            None,
            held.token_id,
        )
    player = await rt.revocations.verify(token)
    _, generation, session, issued = rt.tokens.claims(token)
    return Credential(
        player, api_tokens.ALL_SCOPES, generation, session, issued + rt.tokens.lifetime, None
    )


def require(credential: Credential, scope: str) -> None:
    """Raises :class:`Forbidden` (reason ``token_scope``, ``params.scope``) unless
    ``credential`` grants ``scope`` (``play`` or ``read``).
    """
    if scope not in credential.scopes:
        raise Forbidden(
            f"this token lacks the {scope!r} scope", reason="token_scope", params={"scope": scope}
        )


async def recheck(rt: Runtime, credential: Credential) -> None:
    """Check again, from the database and without a cache, that ``credential`` still holds:
    for a long-lived stream about to deliver something. Raises :class:`Unauthorized` (expired;
    revoked, logged out or account deleted: reason ``token_revoked`` for an API token).
    """
    if credential.expires is not None and time.time() >= credential.expires:
        raise Unauthorized("token expired: log in again")
    if await is_revoked(rt, credential.player_id, credential.generation, credential.session):
        if credential.api_token is not None:
            raise Unauthorized("this API token was revoked", reason="token_revoked")
        raise Unauthorized("token revoked: log in again")
