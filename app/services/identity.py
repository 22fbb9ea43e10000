"""Guest identity: players with a name, and signed tokens (itsdangerous) that carry their id.

A token is ``URLSafeTimedSerializer(SECRET_KEY, salt="player").dumps(player_id)``: it cannot be
forged without the secret, carries the time it was issued, and is refused once older than its
lifetime (``TOKEN_LIFETIME``). Until then the same token reclaims the same seat from any tab or
device; an active client is handed a fresh token for the same player (:meth:`Tokens.renewal`)
once its own is older than ``TOKEN_RENEW_AFTER``, so it never meets the expiry.
"""

from __future__ import annotations

import re
import secrets
import time
from collections.abc import Callable
from typing import Any

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
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
    """Signs and verifies player tokens with the app's secret key.

    ``lifetime``: seconds a token is valid after it was issued; ``renew_after``: age in seconds
    from which :meth:`renewal` hands out a fresh token; ``clock``: seconds since the epoch
    (tests pass their own).
    """

    def __init__(
        self,
        secret_key: str,
        lifetime: int = 30 * 24 * 3600,
        renew_after: int = 24 * 3600,
        clock: Callable[[], float] = time.time,
    ) -> None:

        class Signer(TimestampSigner):
            def get_timestamp(self) -> int:
                return int(clock())

        self.lifetime = lifetime
        self.renew_after = renew_after
        self._clock = clock
        self._serializer = URLSafeTimedSerializer(secret_key, salt="player", signer=Signer)

    def issue(self, player_id: str) -> str:
        """A token for ``player_id``, valid for ``lifetime`` seconds from now."""
        return str(self._serializer.dumps(player_id))

    def _load(self, token: str) -> tuple[str, float]:
        if not token or len(token) > 512:
            raise Unauthorized("missing or malformed token")
        try:
            value, issued = self._serializer.loads(
                token, max_age=self.lifetime, return_timestamp=True
            )
        except SignatureExpired:
            raise Unauthorized("token expired: choose a name again") from None
        except BadSignature:
            raise Unauthorized("invalid token") from None
        if not isinstance(value, str):
            raise Unauthorized("invalid token")
        return value, issued.timestamp()

    def verify(self, token: str) -> str:
        """The player id inside ``token``; raises :class:`Unauthorized` when it is not ours or
        has expired.
        """
        return self._load(token)[0]

    def renewal(self, token: str) -> str | None:
        """A fresh token for the same player when ``token`` (valid) is older than
        ``renew_after``; None when it is younger. Raises :class:`Unauthorized` like
        :meth:`verify`.
        """
        player_id, issued = self._load(token)
        if self._clock() - issued < self.renew_after:
            return None
        return self.issue(player_id)


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
        row = (
            await conn.execute(
                select(players.c.id, players.c.name).where(players.c.id == player_id)
            )
        ).first()
    if row is None:
        raise NotFound("no such player")
    return {"id": row.id, "name": row.name}
