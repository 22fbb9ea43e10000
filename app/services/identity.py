"""Guest identity: players with a name, and signed tokens (itsdangerous) that carry their id.

A token is ``URLSafeTimedSerializer(SECRET_KEY, salt="player").dumps(player_id)`` (or
``[player_id, generation]`` once the player has revoked its tokens, see :class:`Revocations`;
``[player_id, generation, session]`` when an account logs in or registers: logging out ends that
session only, see :meth:`Revocations.end_session`): it
cannot be forged without the secret, carries the time it was issued, and is refused once older
than its lifetime (``TOKEN_LIFETIME``). Until then the same token reclaims the same seat from any
tab or device; an active client is handed a fresh token for the same player
(:meth:`Tokens.renewal`) once its own is older than ``TOKEN_RENEW_AFTER``, so it never meets the
expiry.
"""

from __future__ import annotations

import contextlib
import re
import secrets
import time
from collections.abc import Callable
from datetime import timedelta
from typing import TypedDict

from itsdangerous import BadSignature, SignatureExpired, TimestampSigner, URLSafeTimedSerializer
from sqlalchemy.exc import IntegrityError
from sqlalchemy.ext.asyncio import AsyncConnection

from app.db.models import utcnow
from app.db.session import Database
from app.services import queries
from app.services.errors import NotFound, Unauthorized, ValidationFailed

NAME_RE = re.compile(r"^[\w .'\-]{1,24}$")


def clean_name(name: str) -> str:
    """Trim and check a display name: 1–24 letters, digits, spaces or ``_-.'``.

    Raises :class:`ValidationFailed`.
    """
    if not name.isprintable():
        raise ValidationFailed("names cannot hold control characters", reason="name_invalid")
    name = " ".join(name.split())
    if not NAME_RE.fullmatch(name):
        raise ValidationFailed(
            "names are 1–24 letters, digits, spaces or _-.'", reason="name_invalid"
        )
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

    def issue(self, player_id: str, generation: int = 0, session: str | None = None) -> str:
        """A token for ``player_id`` of token ``generation`` (see :class:`Revocations`), valid
        for ``lifetime`` seconds from now; ``session``: the login it belongs to (an account's
        device; None for a guest).
        """
        value: str | list[str | int] = player_id
        if session is not None:
            value = [player_id, generation, session]
        elif generation != 0:
            value = [player_id, generation]
        return str(self._serializer.dumps(value))

    def claims(self, token: str) -> tuple[str, int, str | None, float]:
        """``(player id, generation, session, issued)`` of a token (``issued`` in seconds since
        the epoch). Signature and age only. Raises :class:`Unauthorized` (malformed, forged or
        expired).
        """
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
        generation, session = 0, None
        if isinstance(value, list) and len(value) == 3 and isinstance(value[2], str):
            value, generation, session = value
        elif isinstance(value, list) and len(value) == 2:
            value, generation = value
        if not isinstance(value, str) or not isinstance(generation, int):
            raise Unauthorized("invalid token")
        return value, generation, session, issued.timestamp()

    def verify(self, token: str) -> str:
        """The player id inside ``token``; raises :class:`Unauthorized` when it is not ours or
        has expired. Signature and age only: :meth:`Revocations.verify` also refuses revoked
        tokens.
        """
        return self.claims(token)[0]

    def read(self, token: str) -> tuple[str, int]:
        """``(player id, token generation)`` of a token; raises :class:`Unauthorized` like
        :meth:`verify`.
        """
        player_id, generation, _, _ = self.claims(token)
        return player_id, generation

    def session(self, token: str) -> str | None:
        """The login a token belongs to (None: a guest's token, or one issued before sessions
        existed). Raises :class:`Unauthorized` like :meth:`verify`.
        """
        return self.claims(token)[2]

    def renewal(self, token: str) -> str | None:
        """A fresh token for the same player and generation when ``token`` (valid) is older
        than ``renew_after``; None when it is younger. Raises :class:`Unauthorized` like
        :meth:`verify`.
        """
        player_id, generation, session, issued = self.claims(token)
        if self._clock() - issued < self.renew_after:
            return None
        return self.issue(player_id, generation, session)


class Revocations:
    """Tokens their player revoked. ``players.token_generation`` counts the player's
    revocations (a password change, "sign out everywhere", account deletion); a token carries the
    generation it was issued in and is refused once the player's has moved past it. An
    account's token also carries its session (one login on one device): logging out ends that
    session (``ended_sessions``) and its tokens, renewed ones included, are refused.

    Every instance keeps each player's generation, and whether each session has ended, for
    ``ttl`` seconds, so a revocation or logout made on another instance is in force there within
    ``ttl`` seconds; on the instance that made it, at once. ``clock``: a monotonic clock in
    seconds (tests pass their own).
    """

    def __init__(
        self,
        db: Database,
        tokens: Tokens,
        ttl: float = 5.0,
        clock: Callable[[], float] = time.monotonic,
        max_entries: int = 50_000,
    ) -> None:
        self._db = db
        self._tokens = tokens
        self._ttl = ttl
        self._clock = clock
        self._max = max_entries
        self._cache: dict[str, tuple[int, float]] = {}
        self._ended: dict[str, tuple[bool, float]] = {}

    async def generation(self, player_id: str) -> int:
        """The player's current token generation (0 for an unknown player), cached."""
        hit = self._cache.get(player_id)
        if hit is not None and self._clock() - hit[1] < self._ttl:
            return hit[0]
        async with self._db.reading() as conn:
            current = await queries.token_generation(conn, player_id)
        if len(self._cache) >= self._max:
            self._cache.clear()
        self._cache[player_id] = (current, self._clock())
        return current

    async def session_ended(self, session: str) -> bool:
        """True once the session was logged out (cached like generations)."""
        hit = self._ended.get(session)
        if hit is not None and (hit[0] or self._clock() - hit[1] < self._ttl):
            return hit[0]
        async with self._db.reading() as conn:
            ended = await queries.is_session_ended(conn, session)
        if len(self._ended) >= self._max:
            self._ended.clear()
        self._ended[session] = (ended, self._clock())
        return ended

    async def verify(self, token: str) -> str:
        """The player id of a valid, unrevoked token.

        Raises :class:`Unauthorized` (malformed, forged, expired, revoked or logged-out token).
        """
        player_id, generation, session, _ = self._tokens.claims(token)
        if generation < await self.generation(player_id):
            raise Unauthorized("token revoked: log in again")
        if session is not None and await self.session_ended(session):
            raise Unauthorized("logged out: log in again")
        return player_id

    async def revoke(self, conn: AsyncConnection, player_id: str) -> str:
        """Revoke every token of ``player_id`` inside the caller's transaction; returns a token
        of the new generation, in a new session, for the caller's own device. Call
        :meth:`forget` after the commit so this instance stops trusting its cached generation at
        once.
        """
        await queries.bump_generation(conn, player_id)
        generation = await queries.token_generation(conn, player_id)
        return self._tokens.issue(player_id, generation, new_session())

    def forget(self, player_id: str) -> None:
        """Drop the cached generation of ``player_id`` (after a committed revocation)."""
        self._cache.pop(player_id, None)

    async def end_session(self, token: str) -> None:
        """Log the session of ``token`` out: its tokens (renewed ones too) are refused from now
        on, on this instance at once. A token without a session (a guest's) ends nothing: its
        holder forgets it. Rows are kept until the session's last token would have expired
        (older ones are pruned here). Raises :class:`Unauthorized` like :meth:`verify`.
        """
        player_id = await self.verify(token)
        session = self._tokens.session(token)
        if session is None:
            return
        now = utcnow()
        expires = now + timedelta(seconds=self._tokens.lifetime)
        # Two logouts of one session at once (two tabs, two instances): the loser's insert
        # meets the winner's row, and the session is ended either way.
        with contextlib.suppress(IntegrityError):
            async with self._db.transaction() as conn:
                await queries.forget_sessions_expired(conn, now)
                if not await queries.is_session_ended(conn, session):
                    await queries.end_session(conn, session, player_id, now, expires)
        self._ended[session] = (True, self._clock())


def new_session() -> str:
    """A fresh session id for a login (16 hex characters)."""
    return secrets.token_hex(8)


class PlayerJson(TypedDict):
    """A player as the API shows it: ``{"id", "name"}``."""

    id: str
    name: str


async def create_player(db: Database, tokens: Tokens, name: str) -> tuple[PlayerJson, str]:
    """Create a guest; returns ``({"id", "name"}, token)``. Raises :class:`ValidationFailed`."""
    clean = clean_name(name)
    player_id = secrets.token_hex(8)
    async with db.transaction() as conn:
        await queries.insert_player(conn, player_id, clean, utcnow())
    return {"id": player_id, "name": clean}, tokens.issue(player_id)


async def get_player(db: Database, player_id: str) -> PlayerJson:
    """``{"id", "name"}`` of a player; raises :class:`NotFound`."""
    async with db.reading() as conn:
        row = await queries.player(conn, player_id)
    if row is None:
        raise NotFound("no such player")
    return {"id": row.id, "name": row.name}
