"""Guest identity: players with a name, and signed tokens (itsdangerous) that carry their id.

A token is ``URLSafeSerializer(SECRET_KEY, salt="player").dumps(player_id)``: it cannot be
forged without the secret and never expires, so the same token reclaims the same seat from any
tab or device.
"""

from __future__ import annotations

import re
import secrets
from typing import Any

from itsdangerous import BadSignature, URLSafeSerializer
from sqlalchemy import insert, select

from app.db.models import players, utcnow
from app.db.session import Database
from app.services.errors import NotFound, Unauthorized, ValidationFailed

NAME_RE = re.compile(r"^[\w .'\-]{1,24}$")


def clean_name(name: str) -> str:
    """Trim and check a display name: 1–24 letters, digits, spaces or ``_-.'``.

    Raises :class:`ValidationFailed`.
    """
    if not name.isprintable():
        raise ValidationFailed("names cannot hold control characters")
    name = " ".join(name.split())
    if not NAME_RE.fullmatch(name):
        raise ValidationFailed("names are 1–24 letters, digits, spaces or _-.'")
    return name


class Tokens:
    """Signs and verifies player tokens with the app's secret key."""

    def __init__(self, secret_key: str) -> None:
        self._serializer = URLSafeSerializer(secret_key, salt="player")

    def issue(self, player_id: str) -> str:
        """A token for ``player_id``."""
        return str(self._serializer.dumps(player_id))

    def verify(self, token: str) -> str:
        """The player id inside ``token``; raises :class:`Unauthorized` when it is not ours."""
        if not token or len(token) > 512:
            raise Unauthorized("missing or malformed token")
        try:
            value = self._serializer.loads(token)
        except BadSignature:
            raise Unauthorized("invalid token") from None
        if not isinstance(value, str):
            raise Unauthorized("invalid token")
        return value


async def create_player(db: Database, tokens: Tokens, name: str) -> tuple[dict[str, Any], str]:
    """Create a guest; returns ``({"id", "name"}, token)``. Raises :class:`ValidationFailed`."""
    clean = clean_name(name)
    player_id = secrets.token_hex(8)
    async with db.transaction() as conn:
        await conn.execute(insert(players).values(id=player_id, name=clean, created_at=utcnow()))
    return {"id": player_id, "name": clean}, tokens.issue(player_id)


async def get_player(db: Database, player_id: str) -> dict[str, Any]:
    """``{"id", "name"}`` of a player; raises :class:`NotFound`."""
    async with db.reading() as conn:
        row = (await conn.execute(
            select(players.c.id, players.c.name).where(players.c.id == player_id)
        )).first()
    if row is None:
        raise NotFound("no such player")
    return {"id": row.id, "name": row.name}
