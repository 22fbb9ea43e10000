"""The SQL of personal API tokens (:mod:`app.services.platform.api_tokens`): the ``api_tokens``
rows (only a token's SHA-256 is stored, never the token) and whether their account is there.
Statements run on the caller's connection (inside its transaction, if any); none locks a row.

Errors: each function raises only what the connection raises
(:class:`sqlalchemy.exc.SQLAlchemyError` and its subclasses).
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from sqlalchemy import RowMapping, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.community import accounts
from app.db.platform import api_tokens


@dataclass(frozen=True)
class Token:
    """One API token as stored: ``id`` (16 hex characters), owner ``player_id``, ``name``,
    ``scopes`` (sorted names: ``play``, ``read``), ``created_at``, ``last_used_at`` (None:
    never used) and ``revoked_at`` (None: live); times UTC (naive on SQLite).
    """

    id: str
    player_id: str
    name: str
    scopes: tuple[str, ...]
    created_at: datetime
    last_used_at: datetime | None
    revoked_at: datetime | None


@dataclass(frozen=True)
class Found:
    """A token found by its hash: the stored ``token`` and ``account_alive`` (False once its
    account was deleted, even if the token's row were left unrevoked).
    """

    token: Token
    account_alive: bool


def _token(m: RowMapping) -> Token:
    return Token(
        id=str(m["id"]),
        player_id=str(m["player_id"]),
        name=str(m["name"]),
        scopes=tuple(m["scopes"].split(",")),
        created_at=m["created_at"],
        last_used_at=m["last_used_at"],
        revoked_at=m["revoked_at"],
    )


async def has_account(conn: AsyncConnection, player_id: str) -> bool:
    """Whether ``player_id`` is a registered account (not a guest). One statement."""
    found = await conn.execute(
        select(accounts.c.player_id).where(accounts.c.player_id == player_id)
    )
    return found.first() is not None


async def live_count(conn: AsyncConnection, player_id: str) -> int:
    """How many of ``player_id``'s tokens are not revoked. One statement."""
    live = await conn.execute(
        select(api_tokens.c.id).where(
            api_tokens.c.player_id == player_id, api_tokens.c.revoked_at.is_(None)
        )
    )
    return len(live.all())


async def insert_token(conn: AsyncConnection, token: Token, token_hash: str) -> None:
    """Store ``token`` with ``token_hash`` (the token's SHA-256, hex). One statement."""
    await conn.execute(
        insert(api_tokens).values(
            id=token.id,
            player_id=token.player_id,
            name=token.name,
            scopes=",".join(token.scopes),
            token_hash=token_hash,
            created_at=token.created_at,
            last_used_at=token.last_used_at,
            revoked_at=token.revoked_at,
        )
    )


async def tokens_of(conn: AsyncConnection, player_id: str) -> list[Token]:
    """``player_id``'s tokens, revoked ones included, newest first (then by id). One
    statement.
    """
    rows = await conn.execute(
        select(api_tokens)
        .where(api_tokens.c.player_id == player_id)
        .order_by(api_tokens.c.created_at.desc(), api_tokens.c.id)
    )
    return [_token(m) for m in rows.mappings()]


async def owns(conn: AsyncConnection, player_id: str, token_id: str) -> bool:
    """Whether token ``token_id`` exists and is ``player_id``'s. One statement."""
    row = (
        await conn.execute(
            select(api_tokens.c.id).where(
                api_tokens.c.id == token_id, api_tokens.c.player_id == player_id
            )
        )
    ).first()
    return row is not None


async def by_hash(conn: AsyncConnection, token_hash: str) -> Found | None:
    """Reads the token stored with ``token_hash`` (SHA-256, hex) and whether its account is
    still there, as a :class:`Found`; None for no such token. One statement (an outer join).
    """
    query = (
        select(api_tokens, accounts.c.player_id.label("account"))
        .outerjoin(accounts, accounts.c.player_id == api_tokens.c.player_id)
        .where(api_tokens.c.token_hash == token_hash)
    )
    m = (await conn.execute(query)).mappings().first()
    return None if m is None else Found(_token(m), m["account"] is not None)


async def touch(conn: AsyncConnection, token_id: str, at: datetime) -> None:
    """Set token ``token_id``'s ``last_used_at`` to ``at``. One statement."""
    await conn.execute(
        update(api_tokens).where(api_tokens.c.id == token_id).values(last_used_at=at)
    )
