"""Personal API tokens (docs/BOT_API.md § Tokens): made by an account's owner for a program,
each with scopes — ``read`` (the data export, one's own matches) and ``play`` (everything a
browser session of the player may do in lobbies and matches: seats, actions, the event
stream). A token is ``cat_`` + 43 URL-safe characters, shown once; only its SHA-256 is kept.
Listing shows names, scopes and dates, never a token. Revoking is immediate on every instance
(each use reads the row); deleting the account revokes every token it made
(:func:`app.services.community.accounts.delete_account`), and a token whose account is gone is
refused even if its row were left live. The sockets and bot streams a token opened are held
under :func:`socket_session`: the sockets sweep ends them on every instance within seconds
(:mod:`app.services.community.socket_revocation`).
"""

from __future__ import annotations

import hashlib
import secrets
from dataclasses import dataclass
from datetime import timedelta

from app.db.models import utcnow
from app.services import queries
from app.services.community.socket_revocation import close_ended_session
from app.services.errors import Forbidden, NotFound, Unauthorized, ValidationFailed
from app.services.platform import token_queries
from app.services.platform.model import TokenJson
from app.services.platform.token_queries import Token
from app.services.runtime import Runtime

PREFIX = "cat_"
SCOPES = ("play", "read")
ALL_SCOPES = frozenset(SCOPES)
#: Live tokens per player.
MAX_TOKENS = 20
#: ``last_used_at`` is written at most this often per token.
TOUCH_EVERY = timedelta(minutes=5)
#: The "token generation" of a socket opened with an API token: above any player's, so a
#: password change or "sign out everywhere" (which end sessions, not API tokens) leaves it.
SOCKET_GENERATION = 2**62


def socket_session(token_id: str) -> str:
    """The session name under which sockets and bot streams opened with API token
    ``token_id`` are held (``api:<id>``): the sweep ends them once the token is revoked or its
    account deleted, like a logged-out session's.
    """
    return queries.api_token_session(token_id)


@dataclass(frozen=True)
class Held:
    """A verified API token: its ``token_id``, owner ``player_id`` and ``scopes``."""

    token_id: str
    player_id: str
    scopes: frozenset[str]


def looks_like(token: str) -> bool:
    """Whether ``token`` has the form of an API token (a session token never does)."""
    return token.startswith(PREFIX)


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def _public(token: Token) -> TokenJson:
    return {
        "id": token.id,
        "name": token.name,
        "scopes": list(token.scopes),
        "created_at": token.created_at.isoformat(),
        "last_used_at": token.last_used_at.isoformat() if token.last_used_at else None,
        "revoked": token.revoked_at is not None,
    }


def parse_scopes(scopes: object) -> list[str]:
    """The scopes of a request, sorted; raises :class:`ValidationFailed` for an unknown one or
    none at all.
    """
    if not isinstance(scopes, list) or not scopes or not all(isinstance(s, str) for s in scopes):
        raise ValidationFailed("scopes: a non-empty list of 'play', 'read'")
    unknown = sorted(set(scopes) - ALL_SCOPES)
    if unknown:
        raise ValidationFailed(f"scopes: unknown {', '.join(unknown)} (known: play, read)")
    return sorted(set(scopes))


async def create(
    rt: Runtime, player_id: str, name: str, scopes: list[str]
) -> tuple[TokenJson, str]:
    """Make a token for ``player_id`` (an account): ``(listing entry, the token)``. Raises
    :class:`Forbidden` for a guest, :class:`ValidationFailed` for a bad name or scopes or too
    many live tokens.
    """
    name = name.strip()
    if not 1 <= len(name) <= 64 or not name.isprintable():
        raise ValidationFailed("name: 1–64 printable characters")
    wanted = parse_scopes(scopes)
    token = PREFIX + secrets.token_urlsafe(32)
    made = Token(
        id=secrets.token_hex(8),
        player_id=player_id,
        name=name,
        scopes=tuple(wanted),
        created_at=utcnow(),
        last_used_at=None,
        revoked_at=None,
    )
    async with rt.storage.db.transaction() as conn:
        if not await token_queries.has_account(conn, player_id):
            raise Forbidden("API tokens are for registered accounts", reason="account_needed")
        if await token_queries.live_count(conn, player_id) >= MAX_TOKENS:
            raise ValidationFailed(f"at most {MAX_TOKENS} live API tokens: revoke one first")
        await token_queries.insert_token(conn, made, _digest(token))
    return _public(made), token


async def listing(rt: Runtime, player_id: str) -> list[TokenJson]:
    """The player's tokens, newest first (revoked ones too, marked), never the tokens."""
    async with rt.storage.db.reading() as conn:
        tokens = await token_queries.tokens_of(conn, player_id)
    return [_public(t) for t in tokens]


async def revoke(rt: Runtime, player_id: str, token_id: str) -> None:
    """Revoke one of the player's tokens (again: nothing changes): refused from its next use,
    and the sockets it opened close (here at once, elsewhere within the sockets sweep's
    seconds). Raises :class:`NotFound`.
    """
    async with rt.storage.db.transaction() as conn:
        if not await token_queries.owns(conn, player_id, token_id):
            raise NotFound("no such API token")
        await queries.revoke_api_tokens(conn, player_id, utcnow(), token_id)
    await close_ended_session(rt, player_id, socket_session(token_id))


async def verify(rt: Runtime, token: str) -> Held:
    """The holder of an API token: read on every use, so a revocation or an account deletion
    made on any instance is in force from the next one. Raises :class:`Unauthorized`: reason
    ``token_unknown``, or ``token_revoked`` for a revoked token and for a token whose account
    was deleted (even if its row were left unrevoked).
    """
    async with rt.storage.db.reading() as conn:
        found = await token_queries.by_hash(conn, _digest(token))
    if found is None:
        raise Unauthorized("unknown API token", reason="token_unknown")
    held = found.token
    if held.revoked_at is not None:
        raise Unauthorized("this API token was revoked", reason="token_revoked")
    if not found.account_alive:
        raise Unauthorized("this API token's account was deleted", reason="token_revoked")
    now = utcnow()
    last = held.last_used_at
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=now.tzinfo)
    if last is None or now - last > TOUCH_EVERY:
        async with rt.storage.db.transaction() as conn:
            await token_queries.touch(conn, held.id, now)
    return Held(held.id, held.player_id, frozenset(held.scopes))
