"""Tables of the open platform (docs/BOT_API.md): personal API tokens and challenges to bot
accounts. Only a SHA-256 of each API token is stored; the token is shown once, when made.

Kept apart from :mod:`app.db.models`; both share its ``Base`` so Alembic sees one metadata.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import JSON, Boolean, DateTime, ForeignKey, Index, String, Table, false
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class ApiToken(Base):
    """A personal API token of a player: ``scopes`` comma-separated (``play``, ``read``);
    ``revoked_at`` set once revoked (a revoked token is refused, its row kept for the list).
    """

    __tablename__ = "api_tokens"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    player_id: Mapped[str] = mapped_column(String(32), ForeignKey("players.id", ondelete="CASCADE"))
    name: Mapped[str] = mapped_column(String(64))
    scopes: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str] = mapped_column(String(64), unique=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    last_used_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    revoked_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (Index("ix_api_tokens_player", "player_id"),)


class BotChallenge(Base):
    """A person's challenge to a bot account: a new match (``lobby_code`` null until accepted)
    or a seat in the person's lobby (``lobby_code`` set). ``status``: ``open``, ``accepted``,
    ``declined``, ``cancelled``; ``match_id`` once a match started from it.
    """

    __tablename__ = "bot_challenges"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    bot_id: Mapped[str] = mapped_column(String(32))
    challenger_id: Mapped[str] = mapped_column(String(32))
    lobby_code: Mapped[str | None] = mapped_column(String(32), nullable=True)
    preset: Mapped[str] = mapped_column(String(32))
    rated: Mapped[bool] = mapped_column(Boolean, default=False, server_default=false())
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    status: Mapped[str] = mapped_column(String(16))
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_bot_challenges_bot", "bot_id", "status"),)


api_tokens = cast(Table, ApiToken.__table__)
bot_challenges = cast(Table, BotChallenge.__table__)
