"""The analyses of finished matches by the Strong computer player (app/bots/analysis.py).

One row per match, stored once and shared by everyone who may see its replay. ``status``:
``queued`` (asked for, waiting for a worker), ``running``, ``done`` (``result`` holds the
``carcassonne-analysis/1`` JSON) or ``failed`` (``error`` says why; asking again retries).
``requested_by``: the player who asked (null: the server, for a rated match) — the per-player
queue limit counts the rows a player has ``queued`` or ``running``.

Kept apart from :mod:`app.db.models`; it shares its ``Base`` so Alembic sees one metadata.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import JSON, DateTime, Float, ForeignKey, Index, String, Table
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class MatchAnalysis(Base):
    """The analysis of one finished match (see the module docstring)."""

    __tablename__ = "match_analyses"

    match_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("matches.id", ondelete="CASCADE"), primary_key=True
    )
    status: Mapped[str] = mapped_column(String(16))
    requested_by: Mapped[str | None] = mapped_column(String(32), nullable=True)
    requested_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    finished_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)
    result: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    error: Mapped[str | None] = mapped_column(String(200), nullable=True)

    __table_args__ = (Index("ix_match_analyses_requester", "requested_by", "status"),)


match_analyses = cast(Table, MatchAnalysis.__table__)
