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
from typing import Any

from sqlalchemy import insert, select, update

from app.db.community import accounts
from app.db.models import utcnow
from app.db.platform import api_tokens
from app.services import queries
from app.services.community.socket_revocation import close_ended_session
from app.services.errors import Forbidden, NotFound, Unauthorized, ValidationFailed
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


def _public(row: Any) -> dict[str, Any]:
    return {
        "id": row.id,
        "name": row.name,
        "scopes": row.scopes.split(","),
        "created_at": row.created_at.isoformat(),
        "last_used_at": row.last_used_at.isoformat() if row.last_used_at else None,
        "revoked": row.revoked_at is not None,
    }


def parse_scopes(scopes: Any) -> list[str]:
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
) -> tuple[dict[str, Any], str]:
    """Make a token for ``player_id`` (an account): ``(listing entry, the token)``. Raises
    :class:`Forbidden` for a guest, :class:`ValidationFailed` for a bad name or scopes or too
    many live tokens.
    """
    name = name.strip()
    if not 1 <= len(name) <= 64 or not name.isprintable():
        raise ValidationFailed("name: 1–64 printable characters")
    wanted = parse_scopes(scopes)
    token = PREFIX + secrets.token_urlsafe(32)
    now = utcnow()
    values = {
        "id": secrets.token_hex(8),
        "player_id": player_id,
        "name": name,
        "scopes": ",".join(wanted),
        "token_hash": _digest(token),
        "created_at": now,
        "last_used_at": None,
        "revoked_at": None,
    }
    async with rt.db.transaction() as conn:
        account = await conn.execute(
            select(accounts.c.player_id).where(accounts.c.player_id == player_id)
        )
        if account.first() is None:
            raise Forbidden("API tokens are for registered accounts", reason="account_needed")
        live = await conn.execute(
            select(api_tokens.c.id).where(
                api_tokens.c.player_id == player_id, api_tokens.c.revoked_at.is_(None)
            )
        )
        if len(live.all()) >= MAX_TOKENS:
            raise ValidationFailed(f"at most {MAX_TOKENS} live API tokens: revoke one first")
        await conn.execute(insert(api_tokens).values(**values))
    row = type("Row", (), values)
    return _public(row), token


async def listing(rt: Runtime, player_id: str) -> list[dict[str, Any]]:
    """The player's tokens, newest first (revoked ones too, marked), never the tokens."""
    async with rt.db.reading() as conn:
        rows = await conn.execute(
            select(api_tokens)
            .where(api_tokens.c.player_id == player_id)
            .order_by(api_tokens.c.created_at.desc(), api_tokens.c.id)
        )
        return [_public(r) for r in rows]


async def revoke(rt: Runtime, player_id: str, token_id: str) -> None:
    """Revoke one of the player's tokens (again: nothing changes): refused from its next use,
    and the sockets it opened close (here at once, elsewhere within the sockets sweep's
    seconds). Raises :class:`NotFound`.
    """
    async with rt.db.transaction() as conn:
        row = (
            await conn.execute(
                select(api_tokens.c.id).where(
                    api_tokens.c.id == token_id, api_tokens.c.player_id == player_id
                )
            )
        ).first()
        if row is None:
            raise NotFound("no such API token")
        await queries.revoke_api_tokens(conn, player_id, utcnow(), token_id)
    await close_ended_session(rt, player_id, socket_session(token_id))


async def verify(rt: Runtime, token: str) -> Held:
    """The holder of an API token: read on every use, so a revocation or an account deletion
    made on any instance is in force from the next one. Raises :class:`Unauthorized`: reason
    ``token_unknown``, or ``token_revoked`` for a revoked token and for a token whose account
    was deleted (even if its row were left unrevoked).
    """
    query = (
        select(api_tokens, accounts.c.player_id.label("account"))
        .outerjoin(accounts, accounts.c.player_id == api_tokens.c.player_id)
        .where(api_tokens.c.token_hash == _digest(token))
    )
    async with rt.db.reading() as conn:
        row = (await conn.execute(query)).first()
    if row is None:
        raise Unauthorized("unknown API token", reason="token_unknown")
    if row.revoked_at is not None:
        raise Unauthorized("this API token was revoked", reason="token_revoked")
    if row.account is None:
        raise Unauthorized("this API token's account was deleted", reason="token_revoked")
    now = utcnow()
    last = row.last_used_at
    if last is not None and last.tzinfo is None:
        last = last.replace(tzinfo=now.tzinfo)
    if last is None or now - last > TOUCH_EVERY:
        async with rt.db.transaction() as conn:
            await conn.execute(
                update(api_tokens).where(api_tokens.c.id == row.id).values(last_used_at=now)
            )
    return Held(row.id, row.player_id, frozenset(row.scopes.split(",")))
