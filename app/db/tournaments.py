"""Tables of tournaments: the tournament, its entrants, and its games (one row per table of a
round, a bye included).

Kept apart from :mod:`app.db.models`; they share its ``Base`` so Alembic sees one metadata.
``tournament_games`` has ``(tournament_id, round, table_number)`` unique: a round cannot be
paired twice even if two instances raced past the tournament's row lock.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any, cast

from sqlalchemy import (
    JSON,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Table,
    Text,
    UniqueConstraint,
)
from sqlalchemy.orm import Mapped, mapped_column

from app.db.models import Base, utcnow


class Tournament(Base):
    """A tournament. ``format``: ``swiss``, ``round_robin`` or ``arena``; ``rounds``: the rounds
    to play (a round-robin's follow from the field and ``cycles``; an arena counts its waves of
    pairings here); ``seats``: players per table (2; an arena 2-5); ``duration_minutes`` and
    ``ends_at``: an arena's length and end; ``status``: ``registering``,
    ``running``, ``finished``; ``round``: the round being played (0 before the start);
    ``paused_at``: set while the organiser holds every clock; ``version`` grows on every change
    (the live page's frames carry it).
    """

    __tablename__ = "tournaments"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    host_id: Mapped[str] = mapped_column(String(32))
    private: Mapped[bool] = mapped_column(Boolean, default=False)
    format: Mapped[str] = mapped_column(String(16))
    cycles: Mapped[int] = mapped_column(Integer, default=1)
    rounds: Mapped[int] = mapped_column(Integer)
    seats: Mapped[int] = mapped_column(Integer, default=2)
    preset: Mapped[str] = mapped_column(String(32))
    rules: Mapped[dict[str, Any]] = mapped_column(JSON)
    time_control: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    #: How far behind spectators see its tables (app/services/spectator_delay.py); null: live.
    spectator_delay: Mapped[dict[str, Any] | None] = mapped_column(JSON, nullable=True)
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    status: Mapped[str] = mapped_column(String(16), default="registering")
    round: Mapped[int] = mapped_column(Integer, default=0)
    starts_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    paused_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    duration_minutes: Mapped[int | None] = mapped_column(Integer, nullable=True)
    ends_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)
    #: A knock-out's seeding set by the organiser: starting numbers, top seed first (entrants
    #: left out follow by number); null: seeded by starting number.
    seeds: Mapped[list[int] | None] = mapped_column(JSON, nullable=True)
    version: Mapped[int] = mapped_column(Integer, default=0)
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)
    updated_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (Index("ix_tournaments_status_private", "status", "private"),)


class TournamentEntrant(Base):
    """One entrant: ``number`` is the starting number (1-based, the seed). ``player_id`` is
    null for a computer entrant (``level``). ``status``: ``registered``, ``checked_in``,
    ``withdrawn`` (by themselves) or ``dropped`` (a no-show, or left a game).
    """

    __tablename__ = "tournament_entrants"

    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    )
    number: Mapped[int] = mapped_column(Integer, primary_key=True)
    player_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    name: Mapped[str] = mapped_column(String(32))
    bot: Mapped[bool] = mapped_column(Boolean, default=False)
    level: Mapped[str | None] = mapped_column(String(16), nullable=True)
    status: Mapped[str] = mapped_column(String(16), default="registered")
    created_at: Mapped[datetime] = mapped_column(DateTime(timezone=True), default=utcnow)

    __table_args__ = (
        UniqueConstraint("tournament_id", "player_id", name="uq_tournament_entrants_player"),
    )


class TournamentGame(Base):
    """One table of a round: ``entrants`` (starting numbers in seat order, seat 0 starts; one
    alone is a bye), its ``match_id`` (null for a bye), and once decided ``points`` (tournament
    points by seat), ``scores`` (in-game points by seat, null when not played out) and
    ``source`` (``played``, ``bye``, ``adjudicated``) with the organiser's ``reason``.
    """

    __tablename__ = "tournament_games"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    tournament_id: Mapped[str] = mapped_column(
        String(32), ForeignKey("tournaments.id", ondelete="CASCADE")
    )
    round: Mapped[int] = mapped_column(Integer)
    table_number: Mapped[int] = mapped_column(Integer)
    entrants: Mapped[list[int]] = mapped_column(JSON)
    match_id: Mapped[str | None] = mapped_column(String(32), nullable=True)
    points: Mapped[list[float] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    scores: Mapped[list[int] | None] = mapped_column(JSON(none_as_null=True), nullable=True)
    source: Mapped[str | None] = mapped_column(String(16), nullable=True)
    reason: Mapped[str | None] = mapped_column(Text, nullable=True)
    decided_at: Mapped[datetime | None] = mapped_column(DateTime(timezone=True), nullable=True)

    __table_args__ = (
        UniqueConstraint(
            "tournament_id", "round", "table_number", name="uq_tournament_games_table"
        ),
        Index("ix_tournament_games_match_id", "match_id"),
    )


tournaments = cast(Table, Tournament.__table__)
tournament_entrants = cast(Table, TournamentEntrant.__table__)
tournament_games = cast(Table, TournamentGame.__table__)
